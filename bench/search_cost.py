#!/usr/bin/env python3
"""What a search costs the server, first time asked (issue 40, item 3).

Serves a database (the generated big site: bench/scale makes one, or give --db) and asks
/search a few hundred distinct queries a reader could type, each once, one at a time: common
words, rare words, several words, a tool's name and the start of one, typos of names' words,
words no text holds, FTS5's syntax, punctuation, the longest text the box takes, and deep
pages. Each answer says the CPU time the server spent making it (its Server-Timing header,
written by guards::costly around every search): nothing is read from a cache, since no query
is asked twice. Prints a table of the milliseconds by kind of query (median, p90, p99, most)
and the whole set's p99, for bench/README.md. The search budget (middleware/cost_budget.h)
is respected: an answer of 429 is waited out and the query asked again.

  bench/search_cost.py [--db BIG.db] [--binary build/verdict] [--queries N] [--seed N]

Without --db, a site of --tools tools (default 10,000) is generated into a temporary folder
with build/verdict-generate (a few minutes). The database given is copied first: the server
never writes to it.
"""
import argparse
import os
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ask(base, path):
    """(status, cpu milliseconds) of one GET, waiting out the search budget's 429s."""
    while True:
        request = urllib.request.Request(base + path)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                response.read()
                return response.status, server_cpu(response.headers)
        except urllib.error.HTTPError as error:
            error.read()
            if error.code in (429, 503) and error.headers.get("Retry-After"):
                time.sleep(int(error.headers["Retry-After"]) + 0.1)
                continue
            return error.code, server_cpu(error.headers)


def server_cpu(headers):
    match = re.search(r"cpu;dur=([\d.]+)", headers.get("Server-Timing") or "")
    return float(match.group(1)) if match else None


def typo_of(word, rng):
    """One edit of `word`: a letter left out, doubled, changed or swapped with the next."""
    at = rng.randrange(len(word) - 1)
    kind = rng.randrange(4)
    if kind == 0:
        return word[:at] + word[at + 1:]
    if kind == 1:
        return word[:at] + word[at] + word[at:]
    if kind == 2:
        other = "x" if word[at] != "x" else "q"
        return word[:at] + other + word[at + 1:]
    return word[:at] + word[at + 1] + word[at] + word[at + 2:]


def queries_for(db, count, rng):
    """About `count` distinct (kind, path) pairs drawn from the site's own texts."""
    with sqlite3.connect(db) as conn:
        names = [row[0] for row in conn.execute("SELECT name FROM tools")]
        taglines = [row[0] for row in conn.execute("SELECT tagline FROM tools LIMIT 2000")]
        quotes = [row[0] for row in conn.execute("SELECT quote FROM reviews LIMIT 5000")]
    words = lambda texts: sorted({w.lower() for t in texts for w in re.findall(r"[A-Za-z]+", t)})
    name_words = [w for w in words(names) if len(w) >= 3]
    long_name_words = [w for w in name_words if len(w) >= 5]
    text_words = words(taglines + quotes)
    common = ["the", "a", "and", "to", "it", "for", "of", "is", "code", "review", "agent",
              "teams", "work", "what", "ship"]
    by_kind = {
        "common word": [[w] for w in common],
        "rare word": [[w] for w in rng.sample(text_words, min(30, len(text_words)))],
        "several words": [rng.sample(text_words, 2) for _ in range(20)] +
                         [["the", w] for w in rng.sample(text_words, 10)],
        "tool name": [[n] for n in rng.sample(names, 30)],
        "name start": [[n.split()[0][:rng.randrange(3, 7)]] for n in rng.sample(names, 20)],
        "typo": [[typo_of(w, rng)] for w in rng.sample(long_name_words, min(30, len(long_name_words)))],
        "two names": [[a.split()[0], "vs", b.split()[0]] for a, b in
                      zip(rng.sample(names, 15), rng.sample(names, 15))],
        "no match": [["".join(rng.choice("bcdfghjklmnpqrstvwxz") for _ in range(rng.randrange(4, 12)))]
                     for _ in range(20)],
        "syntax": [['"'], ["AND"], ["NEAR(", "the"], ["*"], ["^the"], ["the", "OR", "a"],
                   ["name:", "code"], ['"the', 'code"'], ["(", ")"], ["-the"]],
        "punctuation": [["!?"], ["..."], ["—"], ["🙂"], ["&&", "||"]],
        "longest": [["the a " * 33 + "xy"], [("codereview" * 20)[:200]]],
    }
    chosen = []
    for kind, asked in by_kind.items():
        for terms in asked:
            chosen.append((kind, "/search?q=" + urllib.parse.quote(" ".join(terms))))
    for page in (2, 10, 30, 50):  # deep pages of the commonest word
        chosen.append(("deep page", "/search?q=the&page=%d" % page))
    seen, distinct = set(), []
    for kind, path in chosen:
        if path not in seen:
            seen.add(path)
            distinct.append((kind, path))
    return distinct[:max(count, 200)]


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def serve(binary, db):
    log = open(db + ".log", "w+")
    process = subprocess.Popen([binary, "--db", db, "--port", "0", "--rate-limit", "0"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = process.stderr.readline()
    match = re.search(r"127\.0\.0\.1:(\d+)/", line)
    if not match:
        raise SystemExit("verdict did not start: " + line + process.stderr.read())
    return process, "http://127.0.0.1:%s" % match.group(1), log


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db")
    parser.add_argument("--binary", default=os.path.join(ROOT, "build", "verdict"))
    parser.add_argument("--tools", type=int, default=10000)
    parser.add_argument("--queries", type=int, default=250)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="verdict-search-")
    try:
        db = os.path.join(work, "site.db")
        if args.db:
            shutil.copyfile(args.db, db)
        else:
            generate = os.path.join(os.path.dirname(args.binary), "verdict-generate")
            subprocess.run([generate, "--tools", str(args.tools), "--reviews",
                            str(args.tools * 10), "--comparisons", str(args.tools // 2), db],
                           check=True)
        queries = queries_for(db, args.queries, rng)
        process, base, _ = serve(args.binary, db)
        try:
            # The first search after a start reads every tool's name (the name index): said on
            # its own row, then the queries.
            first_status, first_cpu = ask(base, "/search?q=" + urllib.parse.quote("first"))
            by_kind, statuses, costliest = {}, {}, []
            for kind, path in queries:
                status, cpu = ask(base, path)
                costliest.append((cpu or 0, path))
                statuses[status] = statuses.get(status, 0) + 1
                if cpu is None:
                    raise SystemExit("no Server-Timing on " + path + " (status %d)" % status)
                by_kind.setdefault(kind, []).append(cpu)
        finally:
            process.terminate()
            process.wait()
        every = [cpu for costs in by_kind.values() for cpu in costs]
        print("Search, server CPU per answer (ms), each query asked once: %d queries, statuses %s"
              % (len(every), ", ".join("%d×%d" % (n, s) for s, n in sorted(statuses.items()))))
        print()
        print("| queries | n | median | p90 | p99 | most |")
        print("|---|---:|---:|---:|---:|---:|")
        for kind, costs in by_kind.items():
            print("| %s | %d | %.2f | %.2f | %.2f | %.2f |" % (
                kind, len(costs), statistics.median(costs), percentile(costs, 0.9),
                percentile(costs, 0.99), max(costs)))
        print("| **all** | %d | %.2f | %.2f | **%.2f** | %.2f |" % (
            len(every), statistics.median(every), percentile(every, 0.9),
            percentile(every, 0.99), max(every)))
        print()
        print("Costliest: " + ", ".join("%s %.2f ms" % (urllib.parse.unquote(path[len("/search?q="):]), cpu)
                                        for cpu, path in sorted(costliest, reverse=True)[:6]))
        print()
        print("The first search after the start (reads every name): %.2f ms (status %d)"
              % (first_cpu or -1, first_status))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
