#!/usr/bin/python3
"""A mail server for tests: takes SMTP on 127.0.0.1 at a port the kernel picks, and writes
each message it accepts to FOLDER as 0001.eml, 0002.eml… (the bytes as received), with its
envelope on a line of FOLDER/envelopes.log ("0001 FROM TO…").

  sink.py FOLDER [--fail-after N] [--fail-with 4xx|disconnect] [--login USER:PASSWORD]

Prints "listening PORT" once it takes connections. With --fail-after N it accepts N messages,
then answers each later DATA with 451 (4xx) or by closing the connection (disconnect), so a
test can see what a sender does with a server that fails midway. With --login it asks for
AUTH (over plain SMTP on loopback) and accepts only that user and password.

Debian's python3-aiosmtpd; run it with /usr/bin/python3, whose packages those are.
"""
import argparse
import asyncio
import os
import signal
import sys

from aiosmtpd.smtp import SMTP, AuthResult


class Sink:
    def __init__(self, folder, fail_after, fail_with):
        self.folder = folder
        self.fail_after = fail_after
        self.fail_with = fail_with
        self.accepted = 0

    async def handle_DATA(self, server, session, envelope):
        if self.fail_after is not None and self.accepted >= self.fail_after:
            if self.fail_with == "disconnect":
                server.transport.close()
                return "421 4.3.0 closing"
            return "451 4.3.0 Try again later"
        self.accepted += 1
        name = "%04d" % self.accepted
        path = os.path.join(self.folder, name + ".eml")
        with open(path + ".part", "wb") as message:
            message.write(envelope.original_content)
        os.rename(path + ".part", path)  # whole files only, for tests that read the folder
        with open(os.path.join(self.folder, "envelopes.log"), "a") as log:
            log.write("%s %s %s\n" % (name, envelope.mail_from, " ".join(envelope.rcpt_tos)))
        return "250 2.0.0 OK"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--fail-after", type=int)
    parser.add_argument("--fail-with", choices=["4xx", "disconnect"], default="4xx")
    parser.add_argument("--login")
    args = parser.parse_args()
    os.makedirs(args.folder, exist_ok=True)
    handler = Sink(args.folder, args.fail_after, args.fail_with)

    authenticator = None
    if args.login:
        user, password = args.login.split(":", 1)

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = auth_data.login == user.encode() and auth_data.password == password.encode()
            return AuthResult(success=ok)

    def make_server():
        return SMTP(handler, hostname="sink.test", decode_data=False, enable_SMTPUTF8=True,
                    authenticator=authenticator, auth_required=bool(args.login),
                    auth_require_tls=False)

    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(loop.create_server(make_server, "127.0.0.1", 0))
    port = server.sockets[0].getsockname()[1]
    print("listening %d" % port, flush=True)
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signal_number, loop.stop)
    loop.run_forever()
    server.close()
    sys.exit(0)


if __name__ == "__main__":
    main()
