#!/usr/bin/env python3
"""The cluster's benchmark (`./dev bench cluster`): three nats-server processes clustered on
loopback (a JetStream stream with 3 replicas) and three verdict nodes following it, each with
its own copy of one site's file, all on this machine. It measures durable votes through the
cluster (wrk's bench/vote.lua against one node or every node: each 303 is a vote JetStream
acknowledged on a majority and the node's own file applied), checks that every node's file
then holds the same votes and at least every vote answered 303, and measures each node's
cached comparison page beside nginx serving the same bytes. Prints a markdown table.
  bench/cluster.py VERDICT [--duration 10] [--reps 3] [--connections 128] [--spread]"""
import argparse, http.client, os, random, shutil, signal, socket, statistics, subprocess, sys, tempfile, time

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)
sys.dont_write_bytecode = True  # no bench/__pycache__ in the tree
import bench  # noqa: E402  (bench/bench.py: wrk, its figures, nginx's configuration)
import vote_tokens  # noqa: E402

ROOT = os.path.dirname(BENCH)
NODES = ["web-1", "web-2", "web-3"]
NATS = "/usr/sbin/nats-server"


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


class Cluster:
    def __init__(self, verdict, work):
        self.verdict, self.work = verdict, work
        self.nats, self.nodes, self.ports = [], {}, {}
        self.nginx_pid = None

    def start_nats(self):
        ports = bench.free_ports(9)
        servers = [ports[i * 3:i * 3 + 3] for i in range(3)]  # client, route, monitor
        routes = "".join(f"    nats-route://127.0.0.1:{s[1]}\n" for s in servers)
        for i, (client, route, monitor) in enumerate(servers):
            folder = os.path.join(self.work, f"nats-{i}")
            os.makedirs(folder)
            conf = os.path.join(folder, "nats.conf")
            with open(conf, "w") as f:
                f.write(f"server_name: n{i}\nhost: 127.0.0.1\nport: {client}\n"
                        f"http: 127.0.0.1:{monitor}\n"
                        f"jetstream {{\n  store_dir: {folder}/js\n}}\n"
                        f"cluster {{\n  name: verdict\n  listen: 127.0.0.1:{route}\n"
                        f"  routes: [\n{routes}  ]\n}}\n")
            self.nats.append(subprocess.Popen([NATS, "-c", conf], stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL))
        self.urls = ",".join(f"nats://127.0.0.1:{s[0]}" for s in servers)
        for _ in range(300):
            try:
                ready = all(b'"leader"' in bench.get(f"http://127.0.0.1:{s[2]}/jsz")[2]
                            for s in servers)
            except OSError:
                ready = False
            if ready:
                return
            time.sleep(0.1)
        raise SystemExit("the NATS servers did not form a JetStream cluster")

    def start_nodes(self, threads):
        first = os.path.join(self.work, NODES[0] + ".db")
        subprocess.run([self.verdict, "init", "--db", first, "--example-content"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run([self.verdict, "import", "--db", first,
                        os.path.join(ROOT, "content", "verdict.json")], check=True,
                       stdout=subprocess.DEVNULL)
        for name in NODES[1:]:
            shutil.copyfile(first, os.path.join(self.work, name + ".db"))
        # Every node seals its writes with the cluster's key, as in production.
        key = os.path.join(self.work, "cluster.key")
        subprocess.run([self.verdict, "cluster", "key", "--out", key], check=True,
                       stdout=subprocess.DEVNULL)
        for name in NODES:
            logfile = open(os.path.join(self.work, name + ".log"), "w+")
            self.nodes[name] = subprocess.Popen(
                [self.verdict, "--db", os.path.join(self.work, name + ".db"), "--port", "0",
                 # Each vote published with itself: the lag measured is the stream's, from a
                 # vote's taking to its figure on every node, not the wait for the log's batch.
                 "--threads", str(threads), *bench.VERDICT_FLAGS, "--publish-votes-every", "0",
                 "--cluster", self.urls,
                 "--node", name, "--cluster-key", key], stderr=logfile)
            for _ in range(600):
                logfile.seek(0)
                text = logfile.read()
                if "serving http://127.0.0.1:" in text:
                    self.ports[name] = int(text.split("serving http://127.0.0.1:")[1].split("/")[0])
                    break
                if self.nodes[name].poll() is not None:
                    raise SystemExit(f"{name} exited:\n{text}")
                time.sleep(0.1)
            else:
                raise SystemExit(f"{name} did not start; it said:\n{text}")

    def start_nginx(self):
        """nginx serving the bytes of the comparison page as a node serves them."""
        os.makedirs(os.path.join(self.work, "www", "compare"))
        for sub in ("tmp",):
            os.makedirs(os.path.join(self.work, sub), exist_ok=True)
        self.static_port, = bench.free_ports(1)
        self.save_page()
        conf = os.path.join(self.work, "nginx.conf")
        with open(conf, "w") as f:
            f.write(bench.nginx_conf(self.work, self.static_port, ""))
        self.nginx_pid = bench.start_nginx(self.work, conf)

    def save_page(self):
        status, _, body = bench.get(f"http://127.0.0.1:{self.ports[NODES[0]]}{bench.COMPARE}")
        if status != 200:
            raise SystemExit(f"{NODES[0]} answered {status}")
        # PATH.html: where bench.nginx_conf's try_files looks
        with open(os.path.join(self.work, "www", bench.COMPARE.lstrip("/") + ".html"), "wb") as f:
            f.write(body)

    def votes_in(self, name):
        out = subprocess.run(["sqlite3", os.path.join(self.work, name + ".db"),
                              "SELECT count(*), (SELECT sequence FROM cluster_applied) "
                              "FROM tool_votes"], capture_output=True, text=True, check=True)
        count, applied = out.stdout.strip().split("|")
        return int(count), int(applied or 0)

    def settled(self, within=60):
        """Each node's votes once all have applied the same writes: {name: (votes, applied)}."""
        deadline = time.time() + within
        while True:
            seen = {name: self.votes_in(name) for name in NODES}
            if len(set(seen.values())) == 1 or time.time() > deadline:
                return seen
            time.sleep(0.5)

    def stop(self):
        if self.nginx_pid:
            try:
                os.kill(self.nginx_pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for process in [*self.nodes.values(), *self.nats]:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in [*self.nodes.values(), *self.nats]:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()


def cpu_seconds(processes):
    """The CPU time (user and system) the processes have used so far."""
    total = 0
    for process in processes:
        with open(f"/proc/{process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime: fields 14 and 15 of stat
    return total / os.sysconf("SC_CLK_TCK")


def vote_run(cluster, tokens, connections, duration, spread):
    """wrk's vote.lua against one node, or against each at once (the connections shared out);
    the votes/s answered 303, the slowest p99 of them, and the CPU the nodes and the NATS
    servers spent per vote (a figure that moves less than the rate when the machine is shared)."""
    drain = min(0.5, duration / 5)
    targets = NODES if spread else NODES[:1]
    each = max(2, connections // len(targets))
    args = (duration, drain, *(f"{slug}={token}" for slug, token in tokens.items()))
    command = lambda name: ["wrk", "-t2", f"-c{each}", f"-d{duration}s", "--latency", "--timeout",
                            bench.WRK_TIMEOUT, "-s", os.path.join(BENCH, "vote.lua"),
                            f"http://127.0.0.1:{cluster.ports[name]}", "--", *map(str, args)]
    nodes_before, nats_before = cpu_seconds(cluster.nodes.values()), cpu_seconds(cluster.nats)
    runs = [subprocess.Popen(command(name), stdout=subprocess.PIPE, text=True) for name in targets]
    results = []
    for run in runs:
        out = run.communicate()[0]
        result = {"raw": out}
        for line in out.splitlines():
            words = line.split()
            if words[:1] == ["99%"]:
                result["p99"] = bench.to_ms(words[1])
            elif words[:1] == ["50%"]:
                result["p50"] = bench.to_ms(words[1])
            elif line.startswith("votes: 303"):
                result["n303"], result["other"], result["window"] = (
                    int(words[2]), int(words[4]), float(words[6]))
        if "n303" not in result:
            raise SystemExit("wrk gave no vote figures:\n" + out)
        results.append(result)
    answered = max(1, sum(r["n303"] for r in results))
    nodes_cpu = cpu_seconds(cluster.nodes.values()) - nodes_before
    nats_cpu = cpu_seconds(cluster.nats) - nats_before
    return {"rate": sum(r["n303"] / r["window"] for r in results),
            "nodes_us": nodes_cpu * 1e6 / answered, "nats_us": nats_cpu * 1e6 / answered,
            "n303": sum(r["n303"] for r in results),
            "other": sum(r["other"] for r in results),
            "p50": max(r["p50"] for r in results), "p99": max(r["p99"] for r in results)}


def tool_tally(port, slug):
    """The community figure of the tool's card, as an anonymous reader of the node at `port`
    gets it: every vote moves it (a counted vote its figures, a set-aside one its counts)."""
    status, _, body = bench.get(f"http://127.0.0.1:{port}/tools/{slug}")
    if status != 200:
        raise SystemExit(f"/tools/{slug} answered {status}")
    start = body.find(f'data-community="{slug}"'.encode())
    return body[start:body.find(b"</p>", start)]


def anonymous_lag(cluster, tokens, samples):
    """How long after a vote's 303 from web-1 an anonymous reader of each other node sees it:
    {name: [seconds]}. One vote at a time, at a random moment, so the page epoch is met at
    every phase."""
    slug, token = next(iter(tokens.items()))
    lags = {name: [] for name in NODES[1:]}
    for _ in range(samples):
        time.sleep(random.uniform(0.1, 1.2))
        before = {name: tool_tally(cluster.ports[name], slug) for name in lags}
        connection = http.client.HTTPConnection("127.0.0.1", cluster.ports[NODES[0]], timeout=10)
        connection.request("POST", f"/tools/{slug}/vote", f"verdict=ship&token={token}",
                           {"Content-Type": "application/x-www-form-urlencoded",
                            "Sec-Fetch-Site": "same-origin"})
        status = connection.getresponse().status
        answered = time.monotonic()
        connection.close()
        if status != 303:
            raise SystemExit(f"a vote through {NODES[0]} answered {status}")
        for name in lags:
            while tool_tally(cluster.ports[name], slug) == before[name]:
                if time.monotonic() - answered > 10:
                    raise SystemExit(f"{name} did not show a vote within 10 s")
                time.sleep(0.002)
            lags[name].append(time.monotonic() - answered)
    return lags


def main():
    parser = argparse.ArgumentParser(prog="./dev bench cluster", description=__doc__.splitlines()[0])
    parser.add_argument("verdict")
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--connections", type=int, default=128,
                        help="wrk's connections, for votes and reads (128: each vote waits on "
                             "the network, so more are in flight than on one machine)")
    parser.add_argument("--threads", type=int, default=64, help="each node's --threads")
    parser.add_argument("--spread", action="store_true", help="votes through every node at once")
    parser.add_argument("--lag-samples", type=int, default=20,
                        help="single votes timed until another node's anonymous page shows them")
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="verdict-cluster-bench-")
    cluster = Cluster(os.path.abspath(args.verdict), work)
    try:
        cluster.start_nats()
        cluster.start_nodes(args.threads)
        base = f"http://127.0.0.1:{cluster.ports[NODES[0]]}"
        tokens = vote_tokens.tool_tokens(base, bench.VOTE_TOOLS[:3])
        vote_tokens.wait_until_readable(tokens.values())
        cluster.start_nginx()
        votes, reads = [], {name: [] for name in [*NODES, "nginx"]}
        for rep in range(1, args.reps + 1):
            log(f"repetition {rep}: votes")
            votes.append(vote_run(cluster, tokens, args.connections, args.duration, args.spread))
            time.sleep(1.5)  # the shared pages show those votes once the page epoch moves
            cluster.save_page()
            for name in [*NODES, "nginx"]:
                port = cluster.static_port if name == "nginx" else cluster.ports[name]
                log(f"repetition {rep}: reads from {name}")
                reads[name].append(bench.wrk(f"http://127.0.0.1:{port}{bench.COMPARE}",
                                             args.connections, args.duration))
        answered = sum(v["n303"] for v in votes)
        log(f"anonymous readers' lag: {args.lag_samples} votes, one at a time")
        lags = anonymous_lag(cluster, tokens, args.lag_samples)
        answered += args.lag_samples
        # Counted once the lag's votes are in too: they are among those answered 303.
        settled = cluster.settled()
    finally:
        cluster.stop()
        shutil.rmtree(work, ignore_errors=True)

    median = statistics.median

    def each(values, form):
        return ", ".join(format(value, form) for value in values)

    print(f"\n## Verdict cluster: 3 nats-server (JetStream, 3 replicas) and 3 nodes on one "
          f"machine ({os.cpu_count()} cores)\n")
    print(f"{args.reps} repetitions of {args.duration} s, {args.connections} connections; votes "
          f"through {'every node' if args.spread else NODES[0]}.\n")
    print("| measure | median | each repetition |\n|---|---|---|")
    print(f"| durable votes/s (303 once a majority of NATS and the node's file hold it) | "
          f"{median(v['rate'] for v in votes):,.0f} | "
          f"{each((v['rate'] for v in votes), ',.0f')} |")
    print(f"| vote p50 / p99 ms | {median(v['p50'] for v in votes):.1f} / "
          f"{median(v['p99'] for v in votes):.1f} | "
          f"{', '.join('%.1f/%.1f' % (v['p50'], v['p99']) for v in votes)} |")
    print(f"| CPU per durable vote, µs: the 3 nodes / the 3 NATS servers | "
          f"{median(v['nodes_us'] for v in votes):.0f} / {median(v['nats_us'] for v in votes):.0f} | "
          f"{', '.join('%.0f/%.0f' % (v['nodes_us'], v['nats_us']) for v in votes)} |")
    print(f"| votes not answered 303 | {sum(v['other'] for v in votes)} | |")
    nginx_rps = median(r["rps"] for r in reads["nginx"])
    for name in NODES:
        rps = median(r["rps"] for r in reads[name])
        print(f"| {name}: cached comparison page, req/s | {rps:,.0f} ({rps / nginx_rps:.2f}× nginx) | "
              f"{each((r['rps'] for r in reads[name]), ',.0f')} |")
    print(f"| nginx: the same bytes, req/s | {nginx_rps:,.0f} | "
          f"{each((r['rps'] for r in reads['nginx']), ',.0f')} |")
    for name, seen in lags.items():
        print(f"| {name}: an anonymous page shows a vote taken by {NODES[0]} after, ms "
              f"(median / slowest of {len(seen)}) | {median(seen) * 1000:.0f} / "
              f"{max(seen) * 1000:.0f} | |")
    counts = {count for count, _ in settled.values()}
    print(f"\nEvery node's file after the runs (votes, applied sequence): "
          f"{', '.join('%s %d/%d' % (n, v[0], v[1]) for n, v in settled.items())}; "
          f"votes answered 303: {answered:,}.")
    if len(counts) != 1 or min(counts) < answered:
        raise SystemExit("the nodes' files differ, or hold fewer votes than were answered 303")


if __name__ == "__main__":
    main()
