#!/usr/bin/env python3
"""Votes at a steady rate, each on a new TCP connection by a new reader, for bench/run's mixed load.

  bench/paced_votes.py --port PORT [--rate 200] [--duration 10] [--timeout 10]
                       [--token SLUG=TOKEN ...]

Each vote is a reader who loaded the tool's page: it carries the token of that page's vote
form (`verdict=ship&token=…`). bench/bench.py passes the tokens (--token, one per tool voted
on, in turn), having fetched them from GET /tools/SLUG and waited until 2 s have passed since
their time; without --token the script does that itself for its six tools before the first
vote (bench/vote_tokens.py), so no vote is refused (403) or set aside as too fast.

Vote i is due at start + i/rate whether or not earlier votes have been answered (an open
loop: a slow server does not slow the generator down, so slow answers are not hidden). Each
vote opens a connection to 127.0.0.1:PORT, sends the real form's POST without a cookie (so
verdict gives the reader a new voter) and `Connection: close`, and reads the whole answer.
Prints one JSON object: votes sent, answers by status, failures (refused, reset, timed out),
latency from the vote's due time to its whole answer (p50, p99, max, in ms), the same from
the moment the generator actually began the vote ("service"), and how late the generator
itself began votes (lag): a large lag means the machine starved the generator, not verdict.
"""
import argparse, asyncio, json, os, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no bench/__pycache__ in the tree
import vote_tokens  # noqa: E402  (bench/vote_tokens.py)

TOOLS = ["cursor-background-agent", "codestral-2-1", "mistral-small-3-1",
         "cursor-background-agents", "mistral-3-small", "code-llama-4"]


def percentile(sorted_values, fraction):
    if not sorted_values:
        return None
    index = min(len(sorted_values) - 1, max(0, int(round(fraction * len(sorted_values) + 0.5)) - 1))
    return sorted_values[index]


async def read_answer(reader):
    """Status of one HTTP/1.1 answer, after reading its head and its Content-Length body."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    if length:
        await reader.readexactly(length)
    return status


async def vote(port, tokens, index, due, timeout, results):
    began = time.monotonic()
    slug, token = tokens[index % len(tokens)]
    body = f"verdict=ship&token={token}".encode()
    request = (f"POST /tools/{slug}/vote HTTP/1.1\r\n"
               f"Host: 127.0.0.1:{port}\r\n"
               "Content-Type: application/x-www-form-urlencoded\r\n"
               "Sec-Fetch-Site: same-origin\r\n"
               f"Content-Length: {len(body)}\r\n"
               "Connection: close\r\n\r\n").encode() + body
    writer = None
    try:
        async def exchange():
            nonlocal writer
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request)
            await writer.drain()
            return await read_answer(reader)
        status = await asyncio.wait_for(exchange(), timeout)
        done = time.monotonic()
        results["statuses"][str(status)] = results["statuses"].get(str(status), 0) + 1
        results["latency"].append(done - due)
        results["service"].append(done - began)
    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError, IndexError) as error:
        kind = type(error).__name__
        results["failures"][kind] = results["failures"].get(kind, 0) + 1
    finally:
        results["lag"].append(began - due)
        if writer is not None:
            writer.close()


def tokens_for(args):
    """(slug, token) per tool voted on: from --token, or fetched from the tools' pages; then
    wait (once) until 2 s have passed since the tokens' time."""
    if args.token:
        tokens = []
        for given in args.token:
            slug, _, token = given.partition("=")
            if not slug or not token:
                raise SystemExit(f"--token: SLUG=TOKEN, not {given!r}")
            tokens.append((slug, token))
    else:
        fetched = vote_tokens.tool_tokens(f"http://127.0.0.1:{args.port}", TOOLS)
        tokens = list(fetched.items())
    vote_tokens.wait_until_readable(token for _, token in tokens)
    return tokens


async def main(args, tokens):
    results = {"statuses": {}, "failures": {}, "latency": [], "service": [], "lag": []}
    count = int(args.rate * args.duration)
    start = time.monotonic() + 0.01
    tasks = []
    for index in range(count):
        due = start + index / args.rate
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(vote(args.port, tokens, index, due, args.timeout, results)))
    await asyncio.gather(*tasks)

    def ms(values, fraction):
        value = percentile(values, fraction)
        return None if value is None else round(value * 1000, 2)

    latency, service, lag = sorted(results["latency"]), sorted(results["service"]), sorted(results["lag"])
    return {
        "sent": count, "rate": args.rate, "duration": args.duration,
        "statuses": results["statuses"], "failures": results["failures"],
        "p50_ms": ms(latency, 0.50), "p99_ms": ms(latency, 0.99), "max_ms": ms(latency, 1.0),
        "service_p50_ms": ms(service, 0.50), "service_p99_ms": ms(service, 0.99),
        "service_max_ms": ms(service, 1.0),
        "lag_p99_ms": ms(lag, 0.99), "lag_max_ms": ms(lag, 1.0),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--rate", type=float, default=200)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--timeout", type=float, default=10)
    parser.add_argument("--token", action="append", default=[],
                        help="SLUG=TOKEN: a tool to vote on and its vote form's token (repeat)")
    arguments = parser.parse_args()
    json.dump(asyncio.run(main(arguments, tokens_for(arguments))), sys.stdout)
    print()
