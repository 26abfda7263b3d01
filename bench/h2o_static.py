"""h2o (Debian's 2.2.5) serving saved pages from files, the second static baseline beside nginx
for bench/bench.py and bench/scale. Each of those starts nginx on files holding the bytes
verdict serves; this starts h2o on the very same files, set up so that the comparison is fair:

  - only 127.0.0.1 and a port the caller found free (never a fixed port);
  - as many threads as the nginx beside it has worker processes (nginx_worker_count);
  - the same headers that matter: the Content-Type nginx gives those files, the same validators
    (ETag, Last-Modified) and no Cache-Control, keep-alive, and no compression (nginx's gzip is
    off in both benchmarks);
  - no access log, as nginx has none. It runs as root (as bench/bench.py's nginx workers do),
    so it can write its pid file and log into the run's folder.

The caller names each path it requests and the file that answers it (h2o's file.file), so
whatever layout nginx's try_files reads, h2o answers from the same file.
"""
import json, os, shutil, signal, subprocess, time, urllib.error, urllib.request


def nginx_worker_count(master_pid):
    """How many worker processes the nginx whose master is `master_pid` runs (its cache
    manager and loader are not workers); waits for the master to fork them."""
    for _ in range(100):
        workers = 0
        for task in os.listdir(f"/proc/{master_pid}/task"):
            with open(f"/proc/{master_pid}/task/{task}/children") as f:
                children = f.read().split()
            for child in children:
                try:
                    with open(f"/proc/{child}/cmdline", "rb") as f:
                        workers += f.read().startswith(b"nginx: worker process")
                except OSError:
                    pass
        if workers:
            return workers
        time.sleep(0.05)
    raise SystemExit(f"nginx (pid {master_pid}) started no worker process")


def h2o_conf(work, port, threads, files, content_type):
    """h2o's configuration: `files` maps each URL path to the file that answers it, and every
    answer says `content_type` (what nginx says for those files)."""
    quoted = json.dumps  # a JSON string is a YAML double-quoted scalar
    paths = "".join(f"      {quoted(path)}:\n        file.file: {quoted(file)}\n"
                    for path, file in sorted(files.items()))
    return f"""# written by bench/h2o_static.py
user: root
num-threads: {threads}
pid-file: {quoted(os.path.join(work, "h2o.pid"))}
error-log: {quoted(os.path.join(work, "h2o-error.log"))}
compress: OFF
file.mime.setdefaulttype: {quoted(content_type)}
file.mime.addtypes:
  {quoted(content_type)}: .html
listen:
  host: 127.0.0.1
  port: {port}
hosts:
  default:
    paths:
{paths}"""


class H2o:
    """One h2o in the foreground on 127.0.0.1:`port`, its configuration and log in `work`."""

    def __init__(self, work, port, threads, files, content_type):
        conf = os.path.join(work, "h2o.conf")
        with open(conf, "w") as f:
            f.write(h2o_conf(work, port, threads, files, content_type))
        h2o = shutil.which("h2o") or "/usr/bin/h2o"
        subprocess.run([h2o, "-t", "-c", conf], check=True, stdout=subprocess.DEVNULL)
        self.log = os.path.join(work, "h2o.log")
        with open(self.log, "w") as log:
            self.process = subprocess.Popen([h2o, "-c", conf], stdout=log, stderr=log)
        self.base = f"http://127.0.0.1:{port}"
        probe = min(files)
        for _ in range(200):
            if self.process.poll() is not None:
                raise SystemExit("h2o exited:\n" + open(self.log).read())
            try:
                with urllib.request.urlopen(self.base + probe, timeout=10):
                    return
            except urllib.error.HTTPError:
                return  # it answers; what it answers is checked by the caller
            except OSError:
                time.sleep(0.02)
        raise SystemExit("h2o did not answer; see " + self.log)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()



def check_same_bytes(servers, path, expected):
    """Each of `servers` (name -> base URL) answers `path` with 200 and exactly the bytes
    `expected`, uncompressed though the request accepts gzip, and all with the same
    Content-Type: otherwise the run stops here, saying who answered what."""
    content_types = {}
    for name, base in servers.items():
        request = urllib.request.Request(base + path, headers={"Accept-Encoding": "gzip"})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                status, headers, body = answer.status, answer.headers, answer.read()
        except urllib.error.HTTPError as error:
            status, headers, body = error.code, error.headers, error.read()
        if status != 200 or body != expected or headers.get("Content-Encoding"):
            raise SystemExit(
                f"{name} does not serve the saved bytes of {path}: {status}, {len(body):,} bytes "
                f"(saved {len(expected):,}), Content-Encoding {headers.get('Content-Encoding')}")
        content_types[name] = headers.get("Content-Type")
    if len(set(content_types.values())) > 1:
        raise SystemExit(f"the servers disagree on {path}'s Content-Type: {content_types}")
