#!/usr/bin/env python3
"""The benchmark behind `./dev bench` (bench/run installs the tools, then runs this).

  bench/run [--duration 10] [--reps 3] [--connections 32,64] [--vote-rate 200]

Builds a Release verdict, starts it on loopback with a fresh database, saves the pages it
serves and has nginx and h2o serve those same bytes from the same files, and has nginx with
deploy/'s proxy_cache setup in front of verdict. Each repetition runs every scenario once, in
the same order, at each connection count (wrk -t2, keep-alive, loopback), so noise on this
shared machine hits them all alike; the table gives medians over the repetitions and each
figure's ratio to nginx and to h2o serving the same page's bytes in the same run.
bench/README.md describes the scenarios.
"""
import argparse, http.client, json, os, re, shlex, shutil, signal, socket, statistics, subprocess
import sys, tempfile, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")
BUILD = os.path.join(ROOT, "build-bench")
sys.path.insert(0, BENCH)
sys.dont_write_bytecode = True  # no bench/__pycache__ in the tree
import vote_tokens  # noqa: E402  (bench/vote_tokens.py: the vote forms' tokens)
import h2o_static  # noqa: E402  (bench/h2o_static.py: h2o on the files nginx serves)

PAIR = "cursor-background-agent-vs-codestral-2-1"
COMPARE = "/compare/" + PAIR
# The tools vote.lua and paced_votes.py vote on, in turn, each with its page's token.
VOTE_TOOLS = ["cursor-background-agent", "codestral-2-1", "mistral-small-3-1",
              "cursor-background-agents", "mistral-3-small", "code-llama-4"]
PAGES = {"comparison": COMPARE, "tool": "/tools/codestral-2-1", "home": "/",
         "alternatives": "/tools/codestral-2-1/alternatives",
         "four-way": "/compare/code-llama-4-vs-codestral-2-1-vs-cursor-background-agent-vs-mistral-small-3-1"}
# The pages that show a voter their own votes: each is also measured as one voter sees it.
VOTER_PAGES = {name: PAGES[name] for name in ("comparison", "tool", "home")}
MANY_VOTERS_ROW = "verdict: 20,000 voters' comparison page, each request the next voter"
WRK_TIMEOUT = "10s"  # a request slower than this counts as a socket error (timeout)
# verdict as it ships (its default --threads) but for the write limit, which one loopback
# client's thousands of votes would hit.
VERDICT_FLAGS = ["--rate-limit", "0"]
# The servers of the saved bytes, each measured in every repetition: verdict's figures are
# given against each of them ("× nginx", "× h2o").
STATIC_SERVERS = ("nginx", "h2o")


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


def free_ports(count):
    """`count` different ports free on 127.0.0.1: all are held at once while the kernel picks
    them, so none is picked twice."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def get(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status, dict(answer.headers), answer.read()


def new_voter(port, tokens):
    """A reader who ships one tool of the comparison, skips the other and picks the first:
    their pages show all three. `tokens`: the forms' tokens, by tool slug and "pair" (taken
    from the pages in Bench.start). Returns their voter id."""
    voter = ""
    for path, form in (("/tools/cursor-background-agent/vote",
                        "verdict=ship&token=" + tokens["cursor-background-agent"]),
                       ("/tools/codestral-2-1/vote", "verdict=skip&token=" + tokens["codestral-2-1"]),
                       (COMPARE + "/vote", "pick=a&token=" + tokens["pair"])):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        headers = {"Content-Type": "application/x-www-form-urlencoded",
                   "Sec-Fetch-Site": "same-origin"}
        if voter:
            headers["Cookie"] = "verdict_voter=" + voter
        connection.request("POST", path, form, headers)
        answer = connection.getresponse()
        answer.read()
        if answer.status != 303:
            raise SystemExit(f"a vote answered {answer.status}")
        found = re.search(r"verdict_voter=([0-9a-f]{32})", answer.getheader("Set-Cookie") or "")
        voter = voter or (found.group(1) if found else "")
        connection.close()
    if not voter:
        raise SystemExit("no voter cookie was set")
    return voter


MANY_VOTERS = 20000  # more than a page keeps (ShownToVoters::kMaxPerPage): most are read


def new_voters(port, count, path, pair_token):
    """`count` readers who each pick one side of the comparison (with the comparison page's
    token); their ids go to `path`, one per line, for bench/voters.lua."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    ids = []
    for i in range(count):
        connection.request("POST", COMPARE + "/vote", f"pick={'ab'[i % 2]}&token={pair_token}",
                           {"Content-Type": "application/x-www-form-urlencoded",
                            "Sec-Fetch-Site": "same-origin"})
        answer = connection.getresponse()
        answer.read()
        found = re.search(r"verdict_voter=([0-9a-f]{32})", answer.getheader("Set-Cookie") or "")
        if answer.status != 303 or not found:
            raise SystemExit(f"a vote answered {answer.status} without a voter cookie")
        ids.append(found.group(1))
    connection.close()
    with open(path, "w") as f:
        f.write("\n".join(ids) + "\n")


def vote_rows(db):
    out = subprocess.run(["sqlite3", db, "SELECT count(*) FROM tool_votes"],
                         capture_output=True, text=True, check=True)
    return int(out.stdout.strip())


# --- wrk ------------------------------------------------------------------------------------

def to_ms(text):
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]


def wrk(url, connections, duration, script=None, script_args=()):
    command = ["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency",
               "--timeout", WRK_TIMEOUT]
    if script:
        command += ["-s", os.path.join(BENCH, script)]
    command.append(url)
    if script_args:
        command += ["--", *map(str, script_args)]
    out = subprocess.run(command, capture_output=True, text=True).stdout
    result = {"rps": None, "p50": None, "p99": None, "errors": 0, "raw": out}
    for line in out.splitlines():
        words = line.split()
        if line.startswith("Requests/sec:"):
            result["rps"] = float(words[1])
        elif words[:1] == ["50%"]:
            result["p50"] = to_ms(words[1])
        elif words[:1] == ["99%"]:
            result["p99"] = to_ms(words[1])
        elif "Non-2xx or 3xx responses:" in line:
            result["errors"] += int(words[-1])
        elif line.strip().startswith("Socket errors:"):
            result["errors"] += sum(int(n) for n in re.findall(r"\d+", line))
        elif line.startswith("votes: 303"):
            result["n303"], result["other"], result["window"] = int(words[2]), int(words[4]), float(words[6])
    if result["rps"] is None:
        raise SystemExit(f"wrk gave no figures for {url}:\n{out}")
    return result


# --- nginx: static files and the proxy cache of deploy/nginx-verdict.conf --------------------

def bench_site_conf(deploy_text, verdict_port, listen_port, cache_dir):
    """deploy/nginx-verdict.conf made runnable on loopback without TLS: the port-80 redirect
    server is dropped, the TLS server listens on 127.0.0.1:listen_port in plain HTTP (its
    ssl_* lines dropped), verdict is at verdict_port and the cache in cache_dir. Everything
    else, the proxy_cache directives above all, is the shipped file's own."""
    text = "\n".join(line for line in deploy_text.splitlines() if not line.lstrip().startswith("#"))
    servers = []
    for match in re.finditer(r"^server\s*\{", text, re.M):
        depth, i = 0, match.start()
        while True:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        servers.append((match.start(), i + 1))
    for start, end in reversed(servers):
        if "return 301" in text[start:end]:
            text = text[:start] + text[end:]
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("listen [::]") or stripped.startswith("ssl_"):
            continue
        if stripped == "listen 443 ssl http2;":
            line = line.replace(stripped, f"listen 127.0.0.1:{listen_port};")
        lines.append(line)
    text = "\n".join(lines)
    text = text.replace("127.0.0.1:8080", f"127.0.0.1:{verdict_port}")
    text = text.replace("/var/cache/nginx/verdict", cache_dir)
    left = re.findall(r"listen (?!127\.0\.0\.1:)\S+|:8080\b|/var/cache|\bssl\b|letsencrypt", text)
    if left or "proxy_cache verdict;" not in text:
        raise SystemExit(f"deploy/nginx-verdict.conf changed shape; bench_site_conf left {left}")
    return text


def nginx_conf(work, static_port, site_conf):
    return f"""# written by bench/bench.py
user root;
worker_processes auto;
pid {work}/nginx.pid;
error_log {work}/nginx-error.log;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {work}/tmp/body;
  proxy_temp_path {work}/tmp/proxy;
  fastcgi_temp_path {work}/tmp/fastcgi;
  uwsgi_temp_path {work}/tmp/uwsgi;
  scgi_temp_path {work}/tmp/scgi;

  # The same bytes verdict serves, from files saved at the start of each repetition.
  server {{
    listen 127.0.0.1:{static_port};
    root {work}/www;
    default_type text/html;
    charset utf-8;
    location = / {{ try_files /index.html =404; }}
    location = /voter/ {{ try_files /voter/index.html =404; }}
    location / {{ try_files $uri.html =404; }}
  }}

  # deploy/nginx-verdict.conf, made plain HTTP on loopback (bench_site_conf).
{site_conf}
}}
"""


def start_nginx(work, conf):
    """Checks and starts nginx on `conf` (nginx_conf's, its pid file in `work`); its pid."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    subprocess.run([nginx, "-q", "-t", "-c", conf], check=True)
    subprocess.run([nginx, "-c", conf], check=True)
    for _ in range(50):
        try:
            with open(os.path.join(work, "nginx.pid")) as f:
                return int(f.read())
        except (OSError, ValueError):
            time.sleep(0.1)
    return None


# --- the run --------------------------------------------------------------------------------

class Bench:
    def __init__(self, args):
        self.args = args
        self.work = tempfile.mkdtemp(prefix="verdict-bench-")
        self.verdict = None
        self.nginx_pid = None
        self.h2o = None
        self.results = {}      # (scenario, c) -> [wrk result per rep]
        self.vote_checks = []  # (rep, c, 303 answers, rows added)
        self.mixed = []        # per rep: {"reads": wrk result, "votes": generator result, "rows": n}

    def start(self):
        db = os.path.join(self.work, "site.db")
        self.db = db
        logfile = open(os.path.join(self.work, "verdict.log"), "w+")
        self.verdict = subprocess.Popen(
            [os.path.join(BUILD, "verdict"), "--db", db, "--demo", "--bind", "127.0.0.1", "--port", "0",
             *VERDICT_FLAGS], stderr=logfile)
        for _ in range(300):
            logfile.seek(0)
            found = re.search(r"serving http://127\.0\.0\.1:(\d+)/", logfile.read())
            if found:
                break
            if self.verdict.poll() is not None:
                raise SystemExit("verdict exited:\n" + open(logfile.name).read())
            time.sleep(0.1)
        else:
            raise SystemExit("verdict did not start")
        self.port = int(found.group(1))
        self.base = f"http://127.0.0.1:{self.port}"

        # The readers made here loaded the pages they vote from: the tools' and the
        # comparison's tokens, then one wait until 2 s have passed since the tokens' time.
        tokens = vote_tokens.tool_tokens(self.base, ["cursor-background-agent", "codestral-2-1"])
        tokens["pair"] = vote_tokens.pair_token(self.base, PAIR)
        vote_tokens.wait_until_readable(tokens.values())
        self.voter = new_voter(self.port, tokens)
        self.many_voters = os.path.join(self.work, "voters.txt")
        new_voters(self.port, MANY_VOTERS, self.many_voters, tokens["pair"])
        time.sleep(1.1)  # the shared pages count those votes once the page epoch moves
        for sub in ("www/voter", "tmp", "cache"):
            os.makedirs(os.path.join(self.work, sub), exist_ok=True)
        self.static_port, self.proxy_port, h2o_port = free_ports(3)
        with open(os.path.join(ROOT, "deploy", "nginx-verdict.conf")) as f:
            site = bench_site_conf(f.read(), self.port, self.proxy_port, os.path.join(self.work, "cache"))
        conf = os.path.join(self.work, "nginx.conf")
        with open(conf, "w") as f:
            f.write(nginx_conf(self.work, self.static_port, site))
        self.save_pages()
        self.nginx_pid = start_nginx(self.work, conf)
        # h2o on the same files, as many threads as nginx has workers, saying the same
        # Content-Type as nginx's static server (default_type text/html, charset utf-8).
        self.nginx_workers = h2o_static.nginx_worker_count(self.nginx_pid)
        paths = [*PAGES.values(), *("/voter" + path for path in VOTER_PAGES.values())]
        self.h2o = h2o_static.H2o(self.work, h2o_port, self.nginx_workers,
                                  {path: self.saved_file(path) for path in paths},
                                  "text/html; charset=utf-8")
        self.static_bases = {"nginx": f"http://127.0.0.1:{self.static_port}", "h2o": self.h2o.base}
        self.check_static_servers()

    def stop(self):
        if self.nginx_pid:
            try:
                os.kill(self.nginx_pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        if self.h2o:
            self.h2o.stop()
        if self.verdict and self.verdict.poll() is None:
            self.verdict.send_signal(signal.SIGTERM)
            try:
                self.verdict.wait(10)
            except subprocess.TimeoutExpired:
                self.verdict.kill()
        time.sleep(0.2)
        shutil.rmtree(self.work, ignore_errors=True)

    def saved_file(self, path):
        """The file that holds the saved answer to `path` (nginx's and h2o's root is www/):
        PATH.html, so that a page (/tools/SLUG) and one below it (/tools/SLUG/alternatives)
        are a file and a folder beside each other."""
        relative = path + "index.html" if path.endswith("/") else path + ".html"
        return os.path.join(self.work, "www", relative.lstrip("/"))

    def save_pages(self):
        """The static servers' files = the bytes verdict serves now (tallies move as votes
        arrive)."""
        self.page_bytes = {}
        for name, path in PAGES.items():
            status, _, body = get(self.base + path)
            if status != 200 or not body:
                raise SystemExit(f"verdict answered {status} for {path}")
            target = self.saved_file(path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target + ".tmp", "wb") as f:
                f.write(body)
            os.replace(target + ".tmp", target)
            self.page_bytes[name] = body
        self.voter_bytes = {}
        for name, path in VOTER_PAGES.items():
            status, _, body = get(self.base + path, {"Cookie": "verdict_voter=" + self.voter})
            if status != 200 or not body or body == self.page_bytes[name] and name != "home":
                raise SystemExit(f"verdict answered {status} for the voter's {path}")
            target = self.saved_file("/voter" + path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target + ".tmp", "wb") as f:
                f.write(body)
            os.replace(target + ".tmp", target)
            self.voter_bytes[name] = body
        subprocess.run(["chmod", "-R", "a+rX", self.work], check=True)  # workers may not be root

    def check_static_servers(self):
        """nginx and h2o answer every path the bench asks them for with the bytes just saved
        (the same bytes from both, the same Content-Type, uncompressed); stops the run if not."""
        for name, path in PAGES.items():
            h2o_static.check_same_bytes(self.static_bases, path, self.page_bytes[name])
        for name, path in VOTER_PAGES.items():
            h2o_static.check_same_bytes(self.static_bases, "/voter" + path, self.voter_bytes[name])

    def fetch_vote_tokens(self):
        """Each vote is a reader who loaded the tool's page: its vote form's token, taken from
        GET /tools/SLUG at the start of each repetition block (a token lasts 24 h)."""
        self.tokens = vote_tokens.tool_tokens(self.base, VOTE_TOOLS)

    def wait_for_vote_tokens(self):
        """Before votes are sent: once, until 2 s have passed since the tokens' time, so no vote
        is set aside as too fast (by then the block's page runs have usually taken longer)."""
        slept = vote_tokens.wait_until_readable(self.tokens.values())
        if slept:
            log(f"  waited {slept:.2f} s for the vote tokens to be 2 s old")

    def warm_proxy(self):
        """Fill nginx's cache with the comparison page; it must then answer HIT."""
        url = f"http://127.0.0.1:{self.proxy_port}{COMPARE}"
        for _ in range(20):
            status, headers, _ = get(url)
            if status == 200 and headers.get("X-Cache") == "HIT":
                return
            time.sleep(0.05)
        log(f"warning: nginx's proxy cache does not answer HIT (X-Cache: {headers.get('X-Cache')})")

    def record(self, scenario, c, result):
        self.results.setdefault((scenario, c), []).append(result)
        extra = f"  303 {result['n303']}" if "n303" in result else ""
        log(f"  {scenario:<44} c={c:<3} {result['rps']:>10,.0f} req/s  p50 {fmt_ms(result['p50'])}"
            f"  p99 {fmt_ms(result['p99'])}  errors {result['errors']}{extra}")

    def rep(self, number):
        d = self.args.duration
        for c in self.args.connections:
            log(f"rep {number}/{self.args.reps}, c={c}")
            self.save_pages()
            self.check_static_servers()
            self.fetch_vote_tokens()
            for name, path in PAGES.items():
                for server, base in self.static_bases.items():
                    self.record(f"{server}: {name} page bytes", c, wrk(base + path, c, d))
                get(self.base + path)  # render it if a vote retired it
                self.record(f"verdict: {name} page (warm)", c, wrk(self.base + path, c, d))
                if name == "comparison":
                    self.warm_proxy()
                    self.record("nginx proxy_cache → verdict: comparison", c,
                                wrk(f"http://127.0.0.1:{self.proxy_port}{COMPARE}", c, d))
            for name, path in VOTER_PAGES.items():
                for server, base in self.static_bases.items():
                    self.record(f"{server}: voter's {name} page bytes", c,
                                wrk(base + "/voter" + path, c, d))
                self.record(f"verdict: voter's {name} page", c,
                            wrk(self.base + path, c, d, "voter.lua", (self.voter,)))
            self.record(MANY_VOTERS_ROW, c,
                        wrk(self.base + COMPARE, c, d, "voters.lua", (self.many_voters,)))
            self.wait_for_vote_tokens()
            before = vote_rows(self.db)
            result = wrk(self.base, c, d, "vote.lua",
                         (d, self.drain, *(f"{slug}={token}" for slug, token in self.tokens.items())))
            time.sleep(0.3)  # a vote still being committed would show here as a row without a 303
            rows = vote_rows(self.db) - before
            result["vote_rps"] = result["n303"] / result["window"]
            result["errors"] += result["other"]
            self.vote_checks.append((number, c, result["n303"], rows))
            self.record("verdict: vote POST (303, durable)", c, result)
        self.mixed_load(number)

    def mixed_load(self, number):
        """Readers at c=64 on the warm comparison page while votes arrive at --vote-rate, each
        on a new connection by a new reader (bench/paced_votes.py)."""
        d, c = self.args.duration, 64
        if c not in self.args.connections:  # the figures it is compared with, same rep
            self.save_pages()
            self.check_static_servers()
            for server, base in self.static_bases.items():
                self.record(f"{server}: comparison page bytes", c, wrk(base + COMPARE, c, d))
        get(self.base + COMPARE)
        self.wait_for_vote_tokens()
        before = vote_rows(self.db)
        generator = subprocess.Popen(
            [sys.executable, os.path.join(BENCH, "paced_votes.py"), "--port", str(self.port),
             "--rate", str(self.args.vote_rate), "--duration", str(d),
             *(f"--token={slug}={token}" for slug, token in self.tokens.items())],
            stdout=subprocess.PIPE, text=True)
        reads = wrk(self.base + COMPARE, c, d)
        votes = json.loads(generator.communicate()[0])
        time.sleep(0.3)
        rows = vote_rows(self.db) - before
        self.record(f"mixed: comparison (warm) + {self.args.vote_rate:g} votes/s", c, reads)
        log(f"  votes: {votes['statuses']} failures {votes['failures']} p50 {votes['p50_ms']} ms"
            f" p99 {votes['p99_ms']} ms max {votes['max_ms']} ms, rows added {rows}")
        self.mixed.append({"votes": votes, "rows": rows})

    def run(self):
        self.drain = min(0.5, self.args.duration / 5)
        self.start()
        self.first_bytes = {name: len(body) for name, body in self.page_bytes.items()}
        log(f"verdict on :{self.port}, nginx static on :{self.static_port} "
            f"({self.nginx_workers} workers), h2o on {self.h2o.base} ({self.nginx_workers} "
            f"threads), nginx proxy_cache on :{self.proxy_port}; pages: "
            + ", ".join(f"{n} {len(b):,} B" for n, b in self.page_bytes.items()))
        # One unmeasured second each, so the first measured run meets warm processes.
        for base in [*self.static_bases.values(), self.base]:
            wrk(base + COMPARE, 32, 1)
        for number in range(1, self.args.reps + 1):
            self.rep(number)
        with open(f"/proc/{self.verdict.pid}/status") as f:
            self.peak_rss = re.search(r"VmHWM:\s+(\d+)", f.read()).group(1)


# --- the report -----------------------------------------------------------------------------

def fmt_ms(value):
    if value is None:
        return "—"
    if value < 10:
        return f"{value:.2f} ms"
    if value < 1000:
        return f"{value:.1f} ms"
    return f"{value / 1000:.2f} s"


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def report(bench, command, started):
    args = bench.args
    out = []
    say = out.append
    say(f"`{command}`")
    say("")
    say(f"{started}, {os.cpu_count()} cores, {memory_gib()} GiB, load average before "
        f"{bench.load_before}, after {os.getloadavg()[0]:.2f}; commit {commit()}; "
        f"{tool_version(['nginx', '-v'])} ({bench.nginx_workers} workers), "
        f"{tool_version(['h2o', '--version'])} ({bench.nginx_workers} threads), "
        f"{tool_version(['wrk', '-v']).split(' [')[0]}.")
    say(f"{args.reps} repetitions × connections {', '.join(map(str, args.connections))}, "
        f"{args.duration:g} s per run; wrk -t2 --timeout {WRK_TIMEOUT}, keep-alive, 127.0.0.1; "
        f"verdict {' '.join(VERDICT_FLAGS)}; page bytes at the start, then at the last rep: "
        + ", ".join(f"{n} {bench.first_bytes[n]:,} → {len(b):,}" for n, b in bench.page_bytes.items())
        + " (tallies grow with the votes).")
    say("")
    say("| scenario | c | req/s (median) | each rep | p50 | p99 | errors | × nginx | × h2o |")
    say("|---|---|---|---|---|---|---|---|---|")
    reference = {}  # (static server, page, c) -> its median req/s serving that page's bytes
    for (scenario, c), runs in bench.results.items():
        server, _, what = scenario.partition(": ")
        if server in STATIC_SERVERS and what.endswith(" page bytes"):
            reference[(server, what[:-len(" page bytes")], c)] = median(r["rps"] for r in runs)

    def row(scenario, c, runs, rate_key="rps", against="comparison"):
        rps = median(r[rate_key] for r in runs)
        each = " / ".join(f"{r[rate_key]:,.0f}" for r in runs)
        ratios = []
        for server in STATIC_SERVERS:
            ref = reference.get((server, against, c))
            ratios.append(f"{rps / ref:.2f}" if ref else "—")
        errors = sum(r["errors"] for r in runs)
        say(f"| {scenario} | {c} | {rps:,.0f} | {each} | {fmt_ms(median(r['p50'] for r in runs))} | "
            f"{fmt_ms(median(r['p99'] for r in runs))} | {errors} | {' | '.join(ratios)} |")

    order = []
    for name in PAGES:
        order += [f"{server}: {name} page bytes" for server in STATIC_SERVERS]
        order.append(f"verdict: {name} page (warm)")
        if name == "comparison":
            order.append("nginx proxy_cache → verdict: comparison")
    for name in VOTER_PAGES:
        order += [f"{server}: voter's {name} page bytes" for server in STATIC_SERVERS]
        order.append(f"verdict: voter's {name} page")
    order += [MANY_VOTERS_ROW, "verdict: vote POST (303, durable)"]
    mixed_name = f"mixed: comparison (warm) + {args.vote_rate:g} votes/s"
    for c in sorted({c for _, c in bench.results}):
        for scenario in order:
            runs = bench.results.get((scenario, c))
            if not runs:
                continue
            page = re.sub(r" page( bytes| \(warm\))?$", "", scenario.split(": ")[1])
            against = page if ("nginx", page, c) in reference and "proxy_cache" not in scenario \
                else "comparison"
            if "vote POST" in scenario:
                row("verdict: vote POST (303, durable) — votes/s", c, runs, "vote_rps")
            else:
                row(scenario, c, runs, against=against)
        if (mixed_name, c) in bench.results:
            row(mixed_name + " (reads)", c, bench.results[(mixed_name, c)])
    say("")
    say("× nginx, × h2o: each page, anonymous or a voter's, against nginx and against h2o serving "
        "that page's saved bytes (the same files); the proxy cache, many voters, votes and mixed "
        "reads against them serving the comparison page's bytes; medians of the same runs. "
        "errors: non-2xx/3xx answers and socket errors (connect, read, write, timeout) summed "
        "over the repetitions; for votes, any answer but 303.")
    say("")
    say("Durable votes (vote.lua): 303 answers wrk counted, rows added to tool_votes.")
    say("")
    say("| rep | c | 303 answers | rows added | equal |")
    say("|---|---|---|---|---|")
    mismatches = 0
    for number, c, answered, rows in bench.vote_checks:
        mismatches += answered != rows
        say(f"| {number} | {c} | {answered:,} | {rows:,} | {'yes' if answered == rows else '**NO**'} |")
    say("")
    say(f"Mixed load: readers at c=64 on the warm comparison page (row above) while "
        f"{args.vote_rate:g} votes/s arrive, each on a new connection by a new reader "
        f"(bench/paced_votes.py); latency from each vote's due time to its whole answer; lag: "
        f"how late the generator itself began a vote.")
    say("")
    say("| rep | votes sent | 303 | not 303 or failed | rows added | p50 | p99 | max | generator lag p99 |")
    say("|---|---|---|---|---|---|---|---|---|")
    for number, m in enumerate(bench.mixed, 1):
        v = m["votes"]
        ok = v["statuses"].get("303", 0)
        bad = v["sent"] - ok
        mismatches += ok != m["rows"]
        say(f"| {number} | {v['sent']:,} | {ok:,} | {bad} | {m['rows']:,} | {fmt_ms(v['p50_ms'])} | "
            f"{fmt_ms(v['p99_ms'])} | {fmt_ms(v['max_ms'])} | {fmt_ms(v['lag_p99_ms'])} |")
    if bench.mixed:
        say(f"| median | | | | | {fmt_ms(median(m['votes']['p50_ms'] for m in bench.mixed))} | "
            f"{fmt_ms(median(m['votes']['p99_ms'] for m in bench.mixed))} | "
            f"{fmt_ms(max(m['votes']['max_ms'] or 0 for m in bench.mixed))} (max) | |")
    say("")
    say(f"verdict peak RSS: {int(bench.peak_rss) / 1024:.1f} MB")
    if mismatches:
        say("")
        say(f"**{mismatches} run(s) where 303 answers and rows added differ.**")
    print("\n".join(out), flush=True)
    return mismatches


def memory_gib():
    with open("/proc/meminfo") as f:
        return round(int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1)) / 1048576)


def commit():
    def git(*a):
        return subprocess.run(["git", "-C", ROOT, *a], capture_output=True, text=True).stdout.strip()
    dirty = "+changes" if git("status", "--porcelain", "--untracked-files=no") else ""
    return (git("rev-parse", "--short", "HEAD") or "?") + dirty


def tool_version(command):
    out = subprocess.run(command, capture_output=True, text=True)
    text = (out.stdout + out.stderr).strip().splitlines()
    return text[0].replace("nginx version: ", "").replace("h2o version ", "h2o/") if text \
        else command[0]


def connection_list(text):
    values = [int(v) for v in text.split(",") if v.strip()]
    if not values or min(values) < 2:
        raise argparse.ArgumentTypeError("a comma-separated list of counts ≥ 2 (wrk -t2)")
    return values


def main():
    parser = argparse.ArgumentParser(prog="bench/run", description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=10, help="whole seconds per wrk run (10)")
    parser.add_argument("--reps", type=int, default=3, help="repetitions, at least 3 (3)")
    parser.add_argument("--connections", type=connection_list, default=[32, 64],
                        help="comma-separated connection counts (32,64)")
    parser.add_argument("--vote-rate", type=float, default=200,
                        help="votes/s on fresh connections in the mixed load (200)")
    args = parser.parse_args()
    if args.reps < 3:
        parser.error("--reps: at least 3, so that medians mean something")
    if args.duration < 1:
        parser.error("--duration: at least 1 s")
    command = "bench/run" + "".join(" " + shlex.quote(a) for a in sys.argv[1:])
    # Per connection count: each page, anonymous and a voter's, from every static server and
    # verdict; the proxy cache, the many voters, the votes. Then the mixed load, beside the
    # static servers at c=64 when c=64 is not among the counts.
    per_count = (len(PAGES) + len(VOTER_PAGES)) * (len(STATIC_SERVERS) + 1) + 3
    runs = args.reps * (len(args.connections) * per_count + 1
                        + len(STATIC_SERVERS) * (64 not in args.connections))
    log(f"{command}: {runs} runs of {args.duration:g} s, about "
        f"{runs * (args.duration + 0.6) / 60:.0f} min after the build")

    log("building build-bench (Release)")
    for step in (["cmake", "-S", ROOT, "-B", BUILD, "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF"],
                 ["cmake", "--build", BUILD, f"-j{os.cpu_count()}"]):
        built = subprocess.run(step, capture_output=True, text=True)
        if built.returncode:
            sys.exit(built.stdout + built.stderr)

    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    bench = Bench(args)
    bench.load_before = f"{os.getloadavg()[0]:.2f}"
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        bench.run()
    finally:
        bench.stop()
    sys.exit(1 if report(bench, command, started) else 0)


if __name__ == "__main__":
    main()
