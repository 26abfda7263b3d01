#!/usr/bin/python3
"""A mail server for tests: takes SMTP on 127.0.0.1 at a port the kernel picks, and writes
each message it accepts to FOLDER as 0001.eml, 0002.eml… (the bytes as received), with its
envelope on a line of FOLDER/envelopes.log ("0001 FROM TO…").

  sink.py FOLDER [--fail-after N] [--fail-with HOW] [--login USER:PASSWORD]

Prints "listening PORT" once it takes connections. With --fail-after N it accepts N messages,
then fails every later one as HOW says, so a test can see what a sender does with a server
that fails midway:
  4xx               answers the message's final "." with 451 (refused for now)
  5xx               answers it with 550 (refused for good)
  drop-before-data  closes the connection at RCPT TO: the message certainly never arrived
  drop-after-data   closes the connection once the whole message arrived, without an answer:
                    the sender cannot know whether it was taken
  hang              never answers the message's final "." (and writes FOLDER/hanging first)
With --login it asks for AUTH (over plain SMTP on loopback) and accepts only that user and
password.

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

    def failing(self):
        return self.fail_after is not None and self.accepted >= self.fail_after

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.failing() and self.fail_with == "drop-before-data":
            server.transport.close()
            return "421 4.3.0 closing"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.failing():
            if self.fail_with == "drop-after-data":
                server.transport.close()
                return "421 4.3.0 closing"
            if self.fail_with == "hang":
                open(os.path.join(self.folder, "hanging"), "w").close()
                await asyncio.sleep(3600)
            if self.fail_with == "5xx":
                return "550 5.7.1 Refused for good"
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
    parser.add_argument("--fail-with", default="4xx",
                        choices=["4xx", "5xx", "drop-before-data", "drop-after-data", "hang"])
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
