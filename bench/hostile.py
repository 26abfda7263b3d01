#!/usr/bin/env python3
"""Figures for a verdict under hostile traffic, on loopback (issue: survive the open internet).

  bench/hostile.py VERDICT_BINARY

Starts the binary on an ephemeral port with a throwaway database, then measures:
  1. a fresh reader's latency while 300 idle keep-alive and 100 trickling clients are open;
  2. the time until 2,000 simultaneous connections are all answered;
  3. the CPU the server spends over 10 s holding 360 idle connections;
  4. RSS after a flood of 30,000 distinct URLs, query strings and client addresses;
  5. how long SIGTERM takes with a client trickling a header.
"""
import os, signal, socket, statistics, subprocess, sys, tempfile, threading, time

binary = sys.argv[1]
work = tempfile.mkdtemp()
proc = subprocess.Popen([binary, "--db", os.path.join(work, "site.db"), "--demo", "--port", "0",
                         "--trusted-proxy", "127.0.0.1", "--rate-limit", "0"],
                        stderr=subprocess.PIPE, text=True)
line = proc.stderr.readline()
port = int(line.split("127.0.0.1:")[1].split("/")[0])
threading.Thread(target=lambda: proc.stderr.read(), daemon=True).start()
GET = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"


def connect():
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    return s


def read_response(s):
    data = b""
    while b"</html>" not in data and b"\r\n\r\nok\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


# 1. idle and trickling clients, then a fresh reader
idle = []
for _ in range(300):
    s = connect(); s.sendall(GET); read_response(s); idle.append(s)
trickling = []
for _ in range(100):
    s = connect(); s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "); trickling.append(s)
stop = threading.Event()
def trickle():
    while not stop.is_set():
        for s in trickling:
            try: s.sendall(b"a")
            except OSError: pass
        time.sleep(0.5)
threading.Thread(target=trickle, daemon=True).start()
latencies = []
for _ in range(200):
    t = time.perf_counter(); s = connect(); s.sendall(GET); read_response(s); s.close()
    latencies.append((time.perf_counter() - t) * 1000)
latencies.sort()
print(f"1. fresh reader beside 300 idle + 100 trickling: p50 {statistics.median(latencies):.2f} ms, "
      f"p99 {latencies[int(len(latencies) * 0.99) - 1]:.2f} ms, max {latencies[-1]:.2f} ms")

# 3. CPU held by idle connections (the 300 idle and 60 of the trickling, now silent)
stop.set()
time.sleep(0.6)
extra = [connect() for _ in range(60)]
before = cpu_seconds(proc.pid)
time.sleep(10)
print(f"3. CPU over 10 s holding {len(idle) + len(extra)} idle connections: "
      f"{(cpu_seconds(proc.pid) - before) * 1000:.0f} ms")
for s in idle + trickling + extra:
    s.close()

# 2. 2,000 simultaneous connections
t = time.perf_counter()
socks = []
for _ in range(2000):
    s = socket.socket(); s.setblocking(False)
    s.connect_ex(("127.0.0.1", port)); socks.append(s)
pending = set(range(len(socks)))
sent = set()
import selectors
sel = selectors.DefaultSelector()
for i, s in enumerate(socks):
    sel.register(s, selectors.EVENT_WRITE | selectors.EVENT_READ, i)
buffers = {i: b"" for i in range(len(socks))}
while pending and time.perf_counter() - t < 60:
    for key, mask in sel.select(timeout=1):
        i = key.data
        s = socks[i]
        if mask & selectors.EVENT_WRITE and i not in sent:
            try:
                s.send(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"); sent.add(i)
                sel.modify(s, selectors.EVENT_READ, i)
            except OSError:
                pass
        elif mask & selectors.EVENT_READ:
            try:
                chunk = s.recv(4096)
            except OSError:
                chunk = b""
            buffers[i] += chunk
            if b"\r\n\r\nok\n" in buffers[i] or not chunk:
                pending.discard(i); sel.unregister(s)
answered = sum(1 for b in buffers.values() if b.startswith(b"HTTP/1.1 200"))
print(f"2. 2,000 simultaneous connections: {answered} answered 200 in {time.perf_counter() - t:.2f} s")
for s in socks:
    s.close()

# 4. RSS under a flood of distinct URLs, query strings and client addresses
s = connect()
for i in range(10000):
    s.sendall(f"GET /compare/cursor-background-agent-vs-codestral-2-1?x={i} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    read_response(s)
    s.sendall(f"GET /tools/no-such-tool-{i} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    read_response(s)
    body = b"verdict=maybe"
    s.sendall(f"POST /tools/codestral-2-1/vote HTTP/1.1\r\nHost: x\r\nSec-Fetch-Site: same-origin\r\n"
              f"Content-Type: application/x-www-form-urlencoded\r\nX-Forwarded-For: 10.{i // 256}.{i % 256}.1\r\n"
              f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
    read_response(s)
s.close()
print(f"4. RSS after 30,000 distinct URLs, query strings and client addresses: {rss_mb(proc.pid):.1f} MB")

# 5. SIGTERM beside a trickling client
s = connect(); s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
stop2 = threading.Event()
def trickle_one():
    while not stop2.is_set():
        try: s.sendall(b"a")
        except OSError: return
        time.sleep(0.2)
threading.Thread(target=trickle_one, daemon=True).start()
t = time.perf_counter()
proc.send_signal(signal.SIGTERM)
code = proc.wait(timeout=30)
print(f"5. SIGTERM with a trickling client: exited {code} after {time.perf_counter() - t:.2f} s")
stop2.set()
