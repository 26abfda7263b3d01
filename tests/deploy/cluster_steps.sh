#!/bin/bash
# deploy/cluster/README.md's steps in their order (2 to 5, the NATS servers'; then 6 to 9, two
# Verdict nodes', given a verdict with the cluster's flags), as Debian 12 machines go through
# them, with Debian's /usr/sbin/nats-server as three processes on loopback: web-N at
# 127.0.0.N (the guide's 10.0.0.N), ephemeral ports, each machine's /etc and /var in a folder
# of a temporary one. The guide's commands are run as the README writes them, only
# `sudo` dropped, /etc and /var moved into the machine's folder, 10.0.0. read as 127.0.0.; the
# shipped nats-server.conf then gets the test's ports (and nothing else: its authorization,
# TLS and cluster blocks are the shipped ones). As root, each server runs as Debian's user
# nats with only what the guide gives it; otherwise as the caller. Then it checks:
#   - the three servers form one JetStream cluster (/healthz, /jsz on the monitoring port,
#     which listens on 127.0.0.1 only), and a lone one says it is not healthy;
#   - a NATS client (python3's socket and ssl, speaking NATS's text protocol) is refused over
#     plain TCP, refused without a password or with a wrong one, accepted with a node's;
#   - that node's user may make the stream and publish to it, but is refused deleting,
#     purging or changing it (and the stream is still there after);
#   - the routes' port refuses a plain connection, and TLS without a certificate or with one
#     the cluster's CA did not sign;
#   - a password missing from the environment stops the server rather than opening it;
#   - deploy/cluster/README.md lists the commands in the order they run here.
# Then, when VERDICT_BINARY has the cluster's flags (--cluster-key), steps 6 to 9 with two
# nodes, web-1 and web-2, started as verdict.service would start them with the guide's
# /etc/default/verdict: `verdict cluster status` lists both (and the test client's writes,
# not sealed with the cluster's key, as skipped), and a vote on web-1 shows on web-2. Then
# step 10 with nginx (when installed): the one-machine site file and the guide's upstream pass
# `nginx -t`, the site and the vote show through nginx over TLS, and with either node stopped
# nginx sends the reader to the other.
# One line per check, then "N passed, N failed"; exit status 1 on any failure.
#   tests/deploy/cluster_steps.sh VERDICT_BINARY
set -uo pipefail
export PATH="$PATH:/usr/sbin" # nats-server, for users whose PATH lacks it
verdict=${1:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
nats_server=$(command -v nats-server || echo /usr/sbin/nats-server)
work=$(mktemp -d)
verdict_pid=""
. "$(dirname "$0")/processes.sh"
passed=0
failed=0
check() { # check DESCRIPTION EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then
    echo "ok: $1"
    passed=$((passed + 1))
  else
    echo "FAILED: $1: expected [$2], got [$3]"
    failed=$((failed + 1))
  fi
}
finish() {
  if [ "$failed" -gt 0 ]; then
    for n in 1 2 3; do
      [ -s "$work/web-$n/nats-server.log" ] || continue
      echo "--- web-$n's nats-server log (last lines)"; tail -n 15 "$work/web-$n/nats-server.log"
    done
    for n in 1 2; do
      [ -s "$work/web-$n/verdict.log" ] || continue
      echo "--- web-$n's verdict log (last lines)"; tail -n 15 "$work/web-$n/verdict.log"
    done
  fi
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}
stop_here() { # a step the rest cannot go on without
  check "$1" "done" "$2"
  finish
}
free_ports() { # free_ports N: N distinct free ports on loopback
  python3 -c 'import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))' "$1"
}
[ -x "$nats_server" ] || { echo "no nats-server (Debian's package nats-server)"; exit 1; }
echo "# $("$nats_server" --version)"

# Root runs the servers as Debian's user nats, as nats-server.service does; anyone else runs
# them as themselves and the guide's owners (-o, -g) are left out.
as_nats=no
if [ "$(id -u)" = 0 ] && id nats >/dev/null 2>&1 && command -v setpriv >/dev/null; then
  as_nats=yes
  chmod 755 "$work" # a machine's / is open to its users; its secrets are in folders of their own
fi

# --- The guide's commands, as fixed strings: the README must hold each, on a line after the
# one before it, and each is run below as written (see `run`).
ex_line='ex=deploy/cluster'
packages='sudo apt-get install nats-server openssl curl'
ca_folder='mkdir -m 700 nats-ca && cd nats-ca'
ca='openssl req -x509 -newkey rsa:3072 -nodes -days 3650 -subj "/CN=Verdict NATS CA" -keyout ca-key.pem -out ca.pem'
cert_ext="printf 'subjectAltName=DNS:web-%s,IP:10.0.0.%s\\nextendedKeyUsage=serverAuth,clientAuth\\n' \$i \$i >web-\$i.ext"
cert_req='openssl req -newkey rsa:2048 -nodes -subj "/CN=web-$i" -keyout web-$i-key.pem -out web-$i.csr'
cert_sign='openssl x509 -req -in web-$i.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days 825 -extfile web-$i.ext -out web-$i.pem'
passwords='for i in 1 2 3; do echo "VERDICT_NATS_PASSWORD_$i=v$(openssl rand -hex 24)"; done >nats-passwords.env'
server_steps=(
  'sudo install -d -o nats -g nats -m 750 /var/lib/nats'
  'sudo install -d -o root -g nats -m 750 /etc/nats-server'
  'sudo install -o root -g nats -m 644 ca.pem /etc/nats-server/ca.pem'
  'sudo install -o root -g nats -m 644 "$NAME.pem" /etc/nats-server/server.pem'
  'sudo install -o root -g nats -m 640 "$NAME-key.pem" /etc/nats-server/server-key.pem'
  'sudo install -o root -g root -m 600 nats-passwords.env /etc/default/nats-server'
  'sudo install -m 644 "$ex/nats-authorization.conf" /etc/nats-authorization.conf'
  'sudo install -m 644 "$ex/nats-server.conf" /etc/nats-server.conf'
  'sudo sed -i -e "s/^server_name: .*/server_name: $NAME/" -e "s/^host: .*/host: $ADDR/" -e "s/^  listen: .*/  listen: $ADDR:6222/" /etc/nats-server.conf'
  'sudo install -D -m 644 "$ex/nats-server-service.conf" /etc/systemd/system/nats-server.service.d/verdict.conf'
)
config_test="sudo sh -c 'set -a && . /etc/default/nats-server && nats-server -t -c /etc/nats-server.conf'"
start='sudo systemctl daemon-reload && sudo systemctl restart nats-server'
healthz='curl -s http://127.0.0.1:8222/healthz'
jsz='curl -s http://127.0.0.1:8222/jsz'

readme=$root/deploy/cluster/README.md
after=0
for step in "$ex_line" "$packages" "$ca_folder" "$ca" "$cert_ext" "$cert_req" "$cert_sign" \
  "$passwords" "${server_steps[@]}" "$config_test" "$start" "$healthz" "$jsz"; do
  line=$(step=$step awk -v after="$after" 'NR > after && index($0, ENVIRON["step"]) { print NR; exit }' \
    "$readme")
  check "README.md says, after its line $after: $step" "yes" "$([ -n "$line" ] && echo yes || echo no)"
  [ -n "$line" ] && after=$line
done

# run MACHINE_ROOT COMMAND: a guide's command on the machine whose / is MACHINE_ROOT (empty:
# the admin's own folder), from the current folder: no sudo; /etc/ and /var/ inside the
# machine's folder; 10.0.0. as 127.0.0.; unless root, no owners, and without Debian's user
# verdict (the package's), none of its. A command that would still touch the real /etc or
# /var is not run.
run() {
  local cmd=${2//sudo -u verdict /}
  cmd=${cmd//sudo /}
  cmd=${cmd//10.0.0./127.0.0.}
  if [ -n "$1" ]; then
    cmd=$(printf '%s' "$cmd" | sed -E "s#(^|[^A-Za-z0-9_.\$-])/(etc|var)/#\1$1/\2/#g")
  fi
  if [ "$as_nats" = yes ]; then
    id verdict >/dev/null 2>&1 || cmd=$(printf '%s' "$cmd" | sed -E 's/ -o verdict//g; s/ -g verdict//g')
  else
    cmd=$(printf '%s' "$cmd" | sed -E 's/ -o [^ ]+ -g [a-z]+//g; s/ -o "[^"]*"//g')
  fi
  if printf '%s' "$cmd" | grep -qE '(^|[^A-Za-z0-9_.$-])/(etc|var)/'; then
    echo "not run, it would touch this machine's /etc or /var: $cmd" >&2
    return 1
  fi
  eval "$cmd"
}

# --- Steps 2 and 3, on the admin's machine: the CA, the three servers' certificates, the
# nodes' passwords.
(cd "$work" && run "" "$ca_folder" && run "" "$ca" && for i in 1 2 3; do
   run "" "$cert_ext" && run "" "$cert_req" && run "" "$cert_sign" || exit 1
 done && run "" "$passwords") >"$work/openssl.log" 2>&1 ||
  stop_here "steps 2 and 3 (the CA, certificates, passwords)" "$(tail -n 3 "$work/openssl.log")"
check "step 2: web-2's certificate names web-2 and its address, for servers and clients" \
  "DNS:web-2, IP Address:127.0.0.2 TLS Web Server Authentication, TLS Web Client Authentication" \
  "$(openssl x509 -in "$work/nats-ca/web-2.pem" -noout -ext subjectAltName,extendedKeyUsage |
     grep -v 'X509v3' | sed 's/^ *//' | paste -sd ' ')"
check "step 2: web-3's certificate is signed by the cluster's CA" "$work/nats-ca/web-3.pem: OK" \
  "$(openssl verify -CAfile "$work/nats-ca/ca.pem" "$work/nats-ca/web-3.pem" 2>&1)"
check "step 3: three passwords, a letter and 48 hex digits" 3 \
  "$(grep -cE '^VERDICT_NATS_PASSWORD_[123]=v[0-9a-f]{48}$' "$work/nats-ca/nats-passwords.env")"
password() { sed -n "s/^VERDICT_NATS_PASSWORD_$1=//p" "$work/nats-ca/nats-passwords.env"; }

# --- Step 4 on each machine, from the folder the files were copied to; then this test's own
# ports in the installed file (the README's 4222, 6222 and 8222 are the three servers' on
# three machines; here they share one).
read -r -a ports <<<"$(free_ports 9)"
client_port=("" "${ports[0]}" "${ports[1]}" "${ports[2]}")
route_port=("" "${ports[3]}" "${ports[4]}" "${ports[5]}")
monitor_port=("" "${ports[6]}" "${ports[7]}" "${ports[8]}")
ex=$root/deploy/cluster
for N in 1 2 3; do
  NAME=web-$N ADDR=127.0.0.$N m=$work/web-$N
  mkdir -p "$m/etc/default" "$m/var/lib"
  chmod 755 "$m" "$m/etc" "$m/var" "$m/var/lib"
  for step in "${server_steps[@]}"; do
    out=$(cd "$work/nats-ca" && run "$m" "$step" 2>&1) || stop_here "step 4 on web-$N: $step" "$out"
  done
  conf=$m/etc/nats-server.conf
  sed -i -e "s/^port: 4222\$/port: ${client_port[$N]}/" \
    -e "s/^\(  listen: 127\.0\.0\.$N\):6222\$/\1:${route_port[$N]}/" \
    -e "s|^http: \"127.0.0.1:8222\"\$|http: \"127.0.0.1:${monitor_port[$N]}\"|" \
    -e "s|nats-route://10.0.0.1:6222|nats-route://127.0.0.1:${route_port[1]}|" \
    -e "s|nats-route://10.0.0.2:6222|nats-route://127.0.0.2:${route_port[2]}|" \
    -e "s|nats-route://10.0.0.3:6222|nats-route://127.0.0.3:${route_port[3]}|" \
    -e "s#\([[:space:]]\)/\(etc\|var\)/#\1$m/\2/#g" "$conf"
done
check "step 4: only the guide's sed, then the test's ports and folders, changed nats-server.conf" \
  "$(grep -vE '^(server_name|host|port|http):|listen:|nats-route:' "$ex/nats-server.conf")" \
  "$(sed -e "s|$work/web-2||g" "$work/web-2/etc/nats-server.conf" |
     grep -vE '^(server_name|host|port|http):|listen:|nats-route:')"
check "step 4: web-2 is named, listens on its address and routes to the three" \
  "web-2 127.0.0.2:${client_port[2]} 127.0.0.2:${route_port[2]} 3" \
  "$(sed -n 's/^server_name: //p' "$work/web-2/etc/nats-server.conf") $(
     sed -n 's/^host: //p' "$work/web-2/etc/nats-server.conf"):$(
     sed -n 's/^port: //p' "$work/web-2/etc/nats-server.conf") $(
     sed -n 's/^  listen: //p' "$work/web-2/etc/nats-server.conf") $(
     grep -c 'nats-route://127\.0\.0\.[123]:' "$work/web-2/etc/nats-server.conf")"
check "step 4: the installed authorization file is the shipped one" "same" \
  "$(cmp -s "$ex/nats-authorization.conf" "$work/web-1/etc/nats-authorization.conf" && echo same)"
check "step 4: the installed file reads nothing outside the machine's folder" 0 \
  "$(grep -v '^ *#' "$work/web-1/etc/nats-server.conf" | grep -cE '(^|[[:space:]])/(etc|var)/' || true)"
if [ "$as_nats" = yes ]; then
  check "step 4: the state folder is the user nats's, the key readable by its group only" \
    "nats:nats 750 root:nats 640 root:root 600" \
    "$(stat -c '%U:%G %a' "$work/web-1/var/lib/nats") $(
       stat -c '%U:%G %a' "$work/web-1/etc/nats-server/server-key.pem") $(
       stat -c '%U:%G %a' "$work/web-1/etc/default/nats-server")"
fi

# The drop-in's EnvironmentFile is where the server's environment comes from, as systemd
# reads it (as root, before it becomes nats).
env_file() {
  sed -n 's/^EnvironmentFile=//p' "$1/etc/systemd/system/nats-server.service.d/verdict.conf"
}
check "step 4: the service's drop-in reads the passwords from /etc/default/nats-server" \
  /etc/default/nats-server "$(env_file "$work/web-1")"
for N in 1 2 3; do
  m=$work/web-$N
  out=$(run "$m" "$config_test" 2>&1)
  check "step 4: nats-server -t on web-$N" \
    "nats-server: configuration file $m/etc/nats-server.conf is valid" "$out"
done
grep -v '^VERDICT_NATS_PASSWORD_2=' "$work/web-1$(env_file "$work/web-1")" >"$work/partial.env"
out=$(env -i PATH="$PATH" sh -c ". $work/partial.env && export VERDICT_NATS_PASSWORD_1 VERDICT_NATS_PASSWORD_3 &&
  $nats_server -t -c $work/web-1/etc/nats-server.conf" 2>&1)
status=$?
check "a password missing from the environment stops nats-server" "1 1" \
  "$status $(printf '%s' "$out" | grep -c "'VERDICT_NATS_PASSWORD_2'.*can not be found")"

# `systemctl restart nats-server`: the unit's command, as its user, with the drop-in's
# environment. Its log in the machine's folder.
start_server() { # start_server N
  local m=$work/web-$1
  (
    set -a
    . "$m$(env_file "$m")"
    set +a
    if [ "$as_nats" = yes ]; then
      exec setpriv --reuid=nats --regid=nats --init-groups "$nats_server" -c "$m/etc/nats-server.conf"
    else
      exec "$nats_server" -c "$m/etc/nats-server.conf"
    fi
  ) 2>"$m/nats-server.log" &
}
monitor() { # monitor N PATH: status and body, on one line
  curl -s --max-time 5 -w ' %{http_code}' "http://127.0.0.1:${monitor_port[$1]}$2" | tr -d '\n'
}
wait_for() { # wait_for N PATH EXPECTED_STATUS: the last answer once it has that status, or after 30 s
  local answer=""
  for _ in $(seq 300); do
    answer=$(monitor "$1" "$2")
    [ "${answer##* }" = "$3" ] && break
    sleep 0.1
  done
  echo "$answer"
}

# --- One server alone: it runs but has no JetStream leader, so it is not healthy.
start_server 1
answer=$(wait_for 1 /varz 200)
[ "${answer##* }" = 200 ] || stop_here "web-1 starts and answers its monitoring port" "${answer##* }"
answer=$(monitor 1 /healthz)
check "web-1 alone: /healthz is not ok (no JetStream cluster yet)" 503 "${answer##* }"

# --- All three: one JetStream cluster, over TLS routes.
start_server 2
start_server 3
for N in 1 2 3; do
  check "step 5: web-$N's /healthz" '{"status":"ok"} 200' "$(wait_for "$N" /healthz 200)"
done
check "step 5: /healthz?js-enabled-only=true" '{"status":"ok"} 200' \
  "$(monitor 2 '/healthz?js-enabled-only=true')"
meta() { # meta N: the JetStream cluster web-N sees: its size and leader
  monitor "$1" /jsz | python3 -c 'import json, sys
try:
    meta = json.loads(sys.stdin.read().rsplit(" ", 1)[0]).get("meta_cluster", {})
    print(meta.get("cluster_size"), meta.get("leader") or "none")
except ValueError:
    print("no answer")'
}
# The cluster forms over a few moments (a busy machine takes longer): asked until all three
# servers count three and name one leader, for 30 s at most, then checked.
leader=""
others=""
for _ in $(seq 300); do
  leader=$(meta 1)
  others="$(meta 2) $(meta 3)"
  [ "${leader%% *}" = 3 ] && [ "${leader#* }" != none ] && [ "$others" = "$leader $leader" ] && break
  sleep 0.1
done
check "step 5: /jsz: three servers in the JetStream cluster, one leader" "3 web-" \
  "$(printf '%s' "$leader" | cut -c 1-6)"
check "step 5: the three servers agree on the leader" "$leader $leader" "$others"
check "step 5: each has two routes" "2 2 2" \
  "$(for N in 1 2 3; do monitor "$N" /routez | python3 -c 'import json, sys
print(json.loads(sys.stdin.read().rsplit(" ", 1)[0])["num_routes"])' 2>&1 | tail -n 1; done |
     paste -sd ' ')"
if [ "$as_nats" = yes ]; then
  check "step 4's state folder holds JetStream's files, as nats" "nats" \
    "$(stat -c %U "$work/web-1/var/lib/nats/jetstream" 2>&1)"
fi
check "the monitoring port is on 127.0.0.1 only (not web-2's own address)" "000" \
  "$(curl -s --max-time 5 -o /dev/null -w '%{http_code}' "http://127.0.0.2:${monitor_port[2]}/healthz")"

# --- A NATS client, as a node's libnats would talk: what the servers let it do.
cat >"$work/nats_client.py" <<'PY'
# A NATS client of a few lines, speaking the text protocol over a socket, so the test sees the
# servers' own answers: nats_client.py HOST PORT [--ca FILE] [--cert FILE --key FILE]
#   [--user U --pass P] [--route] STEP...   Each STEP prints one line:
#   info                "INFO" (once --route's TLS handshake is through)
#   connect             CONNECT then PING: "PONG", or the -ERR the server answered
#   pub SUBJECT         PUB then PING: "+OK", or the -ERR
#   sub SUBJECT         SUB then PING: "+OK", or the -ERR
#   request SUBJECT JSON   the reply's payload (one line), or the -ERR
# --ca: TLS, checking the server's certificate and its address against FILE (else plain TCP);
# a client's TLS starts after the server's INFO, a route's (--route) at once.
import json, socket, ssl, sys

args = sys.argv[1:]
host, port = args[0], int(args[1])
opts, steps, i = {}, [], 2
while i < len(args):
    if args[i] == "--route":
        opts["route"] = True; i += 1
    elif args[i].startswith("--"):
        opts[args[i][2:]] = args[i + 1]; i += 2
    else:
        steps.append(args[i]); i += 1

buf = b""
def line():
    global buf
    while b"\r\n" not in buf:
        try:
            got = conn.recv(65536)
        except (ssl.SSLError, OSError) as e:
            return "closed: " + (str(e).splitlines()[0] if str(e) else e.__class__.__name__)
        if not got:
            return "closed"
        buf += got
    out, buf = buf.split(b"\r\n", 1)
    return out.decode(errors="replace")
def payload(n):
    global buf
    while len(buf) < n + 2:
        got = conn.recv(65536)
        if not got:
            break
        buf += got
    out, buf = buf[:n], buf[n + 2:]
    return out.decode(errors="replace")
def send(text):
    try:
        conn.sendall(text.encode())
    except (ssl.SSLError, OSError) as e:
        return "closed: " + e.__class__.__name__
    return None
def until_pong(want):
    answers = []
    while True:
        got = line()
        if got == "PONG" or got.startswith("closed"):
            answers.append(got); break
        if got.startswith("-ERR") or got.startswith("+OK"):
            answers.append(got)
    errors = [a for a in answers if a.startswith("-ERR") or a.startswith("closed")]
    return errors[0] if errors else want if want in answers else " ".join(answers)

try:
    conn = sock = socket.create_connection((host, port), timeout=5)
except OSError as e:
    print("no connection: %s" % e); sys.exit(0)
if not opts.get("route"):
    info = line()
    if not info.startswith("INFO "):
        print("no INFO: " + info); sys.exit(0)
    tls_required = json.loads(info[5:]).get("tls_required", False)
if "ca" in opts:
    ctx = ssl.create_default_context(cafile=opts["ca"])
    if "cert" in opts:
        ctx.load_cert_chain(opts["cert"], opts["key"])
    try:
        conn = ctx.wrap_socket(sock, server_hostname=host)
        if opts.get("route"):
            info = line() # with TLS 1.3 a refused certificate shows here, after the handshake
            if not info.startswith("INFO "):
                print("TLS refused: " + info); sys.exit(0)
    except (ssl.SSLError, OSError) as e:
        print("TLS refused: " + str(e).splitlines()[0]); sys.exit(0)

if opts.get("route"):
    connect = {"verbose": False, "pedantic": False, "tls_required": "ca" in opts,
               "name": "NOT-A-SERVER", "cluster": "verdict", "headers": True}
else:
    connect = {"verbose": True, "pedantic": False, "tls_required": "ca" in opts,
               "name": "cluster_steps", "lang": "python", "version": "0", "protocol": 1}
    if "user" in opts:
        connect["user"], connect["pass"] = opts["user"], opts["pass"]
for step in steps:
    if step == "info":
        print("INFO")
    elif step == "tls_required":
        print("tls_required" if tls_required else "plain allowed")
    elif step == "connect":
        print(send("CONNECT " + json.dumps(connect) + "\r\nPING\r\n") or until_pong("PONG"))
    elif step.startswith("pub "):
        print(send("PUB %s 2\r\nhi\r\nPING\r\n" % step[4:]) or until_pong("+OK"))
    elif step.startswith("sub "):
        print(send("SUB %s 1\r\nPING\r\n" % step[4:]) or until_pong("+OK"))
    elif step.startswith("request "):
        subject, body = step[8:].split(" ", 1)
        # A node's user listens only under its own inbox prefix (nats-authorization.conf).
        inbox = ("_INBOX_%s" % opts["user"] if "user" in opts else "_INBOX") + ".cluster_steps"
        sent = send("SUB %s 9\r\nPUB %s %s %d\r\n%s\r\n"
                    % (inbox, subject, inbox, len(body.encode()), body))
        answer = sent
        while answer is None:
            got = line()
            if got.startswith("MSG "):
                answer = payload(int(got.split()[-1])).replace("\n", " ")
            elif got.startswith("-ERR") or got.startswith("closed"):
                answer = got
        send("UNSUB 9\r\n")
        print(answer)
    sys.stdout.flush()
PY
ca_file=$work/nats-ca/ca.pem
json_get() { # json_get EXPRESSION: of the JSON `a` on stdin, or what came instead of JSON
  python3 -c 'import json, sys
text = sys.stdin.read()
try:
    a = json.loads(text)
    print(eval(sys.argv[1]))
except Exception as e:
    print("not that JSON: %s (%s)" % (text.strip()[:160], e))' "$1"
}
nats() { python3 "$work/nats_client.py" "$@" 2>&1; }
node1=(--ca "$ca_file" --user verdict-node-1 --pass "$(password 1)")

check "a client over plain TCP is told TLS is required" "tls_required" \
  "$(nats 127.0.0.1 "${client_port[1]}" tls_required)"
check "a client over plain TCP, even with a node's password, is refused" "closed" \
  "$(nats 127.0.0.1 "${client_port[1]}" --user verdict-node-1 --pass "$(password 1)" connect)"
check "a client over TLS without a password is refused" "-ERR 'Authorization Violation'" \
  "$(nats 127.0.0.1 "${client_port[1]}" --ca "$ca_file" connect)"
check "a client over TLS with a wrong password is refused" "-ERR 'Authorization Violation'" \
  "$(nats 127.0.0.1 "${client_port[1]}" --ca "$ca_file" --user verdict-node-1 --pass "$(password 2)" connect)"
check "a client over TLS as a node, with its password, is in (web-1)" "PONG" \
  "$(nats 127.0.0.1 "${client_port[1]}" "${node1[@]}" connect)"
check "node 3 with its own password, on web-3 (checked as 127.0.0.3)" "PONG" \
  "$(nats 127.0.0.3 "${client_port[3]}" --ca "$ca_file" --user verdict-node-3 --pass "$(password 3)" connect)"

# The stream as a node makes it at its first start, two writes, then what must be refused:
# asked as JetStream's API is asked (with a reply subject), so that, were they let through,
# they would be done, and the stream's state at the end would show it.
stream='{"name":"VERDICT_WRITES","subjects":["verdict.writes"],"retention":"limits","storage":"file","num_replicas":3,"duplicate_window":120000000000,"max_age":5184000000000000}'
answers=$(nats 127.0.0.1 "${client_port[1]}" "${node1[@]}" connect \
  "request \$JS.API.STREAM.CREATE.VERDICT_WRITES $stream" \
  "pub verdict.writes" \
  "request verdict.writes {\"a\":\"write\"}" \
  "pub verdict.writes.news" \
  "sub verdict.writes.news" \
  "request \$JS.API.STREAM.DELETE.VERDICT_WRITES {}" \
  "request \$JS.API.STREAM.PURGE.VERDICT_WRITES {}" \
  "request \$JS.API.STREAM.UPDATE.VERDICT_WRITES ${stream/\"num_replicas\"/\"max_msgs\":1,\"num_replicas\"}" \
  "request \$JS.API.STREAM.MSG.DELETE.VERDICT_WRITES {\"seq\":1}" \
  "pub \$JS.API.STREAM.DELETE.KV_VERDICT_WRITES_NODES" \
  "pub \$JS.API.STREAM.CREATE.SOMETHING_ELSE" \
  "pub elsewhere" \
  "sub verdict.writes" \
  "request \$JS.API.STREAM.INFO.VERDICT_WRITES {}" \
  "sub _INBOX_verdict-node-2.>" \
  "sub _INBOX.>" \
  "pub \$JS.API.CONSUMER.DELETE.VERDICT_WRITES.any" \
  "pub \$JS.API.CONSUMER.INFO.VERDICT_WRITES.any")
answer() { sed -n "${1}p" <<<"$answers"; }
check "the node's user connects" "PONG" "$(answer 1)"
check "the node's user makes the stream (3 replicas)" "VERDICT_WRITES 3 none" \
  "$(answer 2 | json_get '"%s %s %s" % (a.get("config", {}).get("name"), a.get("config", {}).get("num_replicas"), a.get("error", {}).get("description", "none"))')"
check "the node's user may PUB to verdict.writes" "+OK" "$(answer 3)"
check "a write to verdict.writes is stored by the stream" "VERDICT_WRITES 2" \
  "$(answer 4 | json_get '"%s %s" % (a.get("stream"), a.get("seq"))')"
check "the node's user may tell the others news" "+OK" "$(answer 5)"
check "the node's user may hear the others' news" "+OK" "$(answer 6)"
check "the node's user may not delete the stream" \
  "-ERR 'Permissions Violation for Publish to \"\$JS.API.STREAM.DELETE.VERDICT_WRITES\"'" "$(answer 7)"
check "the node's user may not purge the stream" \
  "-ERR 'Permissions Violation for Publish to \"\$JS.API.STREAM.PURGE.VERDICT_WRITES\"'" "$(answer 8)"
check "the node's user may not change the stream" \
  "-ERR 'Permissions Violation for Publish to \"\$JS.API.STREAM.UPDATE.VERDICT_WRITES\"'" "$(answer 9)"
check "the node's user may not delete a write" \
  "-ERR 'Permissions Violation for Publish to \"\$JS.API.STREAM.MSG.DELETE.VERDICT_WRITES\"'" "$(answer 10)"
check "the node's user may not delete the nodes' bucket" \
  "-ERR 'Permissions Violation for Publish to \"\$JS.API.STREAM.DELETE.KV_VERDICT_WRITES_NODES\"'" "$(answer 11)"
check "the node's user may not make another stream" \
  "-ERR 'Permissions Violation for Publish to \"\$JS.API.STREAM.CREATE.SOMETHING_ELSE\"'" "$(answer 12)"
check "the node's user may not publish elsewhere" \
  "-ERR 'Permissions Violation for Publish to \"elsewhere\"'" "$(answer 13)"
check "the node's user may not listen to the writes' subject" \
  "-ERR 'Permissions Violation for Subscription to \"verdict.writes\"'" "$(answer 14)"
check "after all that, the stream holds its two writes" "2 2" \
  "$(answer 15 | json_get '"%s %s" % (a["state"]["messages"], a["state"]["last_seq"])')"
check "the node's user may not listen to another node's inbox" \
  "-ERR 'Permissions Violation for Subscription to \"_INBOX_verdict-node-2.>\"'" "$(answer 16)"
check "the node's user may not listen to every inbox" \
  "-ERR 'Permissions Violation for Subscription to \"_INBOX.>\"'" "$(answer 17)"
check "the node's user may not delete a consumer" \
  "-ERR 'Permissions Violation for Publish to \"\$JS.API.CONSUMER.DELETE.VERDICT_WRITES.any\"'" "$(answer 18)"
check "the node's user may not read a consumer" \
  "-ERR 'Permissions Violation for Publish to \"\$JS.API.CONSUMER.INFO.VERDICT_WRITES.any\"'" "$(answer 19)"
check "another server (web-3) holds them too" "2" \
  "$(nats 127.0.0.3 "${client_port[3]}" --ca "$ca_file" --user verdict-node-2 --pass "$(password 2)" \
     connect "request \$JS.API.STREAM.INFO.VERDICT_WRITES {}" | sed -n 2p | json_get 'a["state"]["messages"]')"

# --- The routes: TLS both ways, with a certificate the cluster's CA signed, or nothing.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=web-9" \
  -addext "subjectAltName=DNS:web-9,IP:127.0.0.1" -addext "extendedKeyUsage=serverAuth,clientAuth" \
  -keyout "$work/stranger-key.pem" -out "$work/stranger.pem" 2>/dev/null
check "the routes' port refuses a plain route" "closed" \
  "$(nats 127.0.0.1 "${route_port[1]}" --route connect)"
check "the routes' port refuses TLS without a certificate" "TLS refused" \
  "$(nats 127.0.0.1 "${route_port[1]}" --route --ca "$ca_file" connect | cut -c 1-11)"
check "the routes' port refuses a certificate the cluster's CA did not sign" "TLS refused" \
  "$(nats 127.0.0.1 "${route_port[1]}" --route --ca "$ca_file" \
     --cert "$work/stranger.pem" --key "$work/stranger-key.pem" connect | cut -c 1-11)"
check "the routes' port takes TLS with a server's certificate (the control)" "INFO" \
  "$(nats 127.0.0.1 "${route_port[1]}" --route --ca "$ca_file" \
     --cert "$work/nats-ca/web-2.pem" --key "$work/nats-ca/web-2-key.pem" info)"

# --- Steps 6 to 9: two Verdict nodes, web-1 and web-2, on these servers with the guide's
# settings, once verdict has them (a copy of the binary, which may be rebuilt meanwhile).
if [ -z "$verdict" ] || ! "$verdict" help serve 2>&1 | grep -q -- '--cluster-key'; then
  if [ -n "$verdict" ]; then echo "# no Verdict nodes: $verdict has no --cluster-key"
  else echo "# no Verdict nodes: no binary given"; fi
  finish
fi
mkdir -p "$work/bin"
cp "$verdict" "$work/bin/verdict"
export PATH="$work/bin:$PATH" # `verdict` in the guide's commands
node_steps_web1=(
  'sudo -u verdict verdict init --db /var/lib/verdict/verdict.db --editor you@example.com'
  'sudo -u verdict verdict backup --db /var/lib/verdict/verdict.db /var/lib/verdict/site-copy.db'
  'sudo install -m 600 -o "$(id -un)" /var/lib/verdict/site-copy.db site.db'
  'sudo rm /var/lib/verdict/site-copy.db'
)
node_steps_copy='sudo install -o verdict -g verdict -m 600 site.db /var/lib/verdict/verdict.db'
key_steps_web1=(
  'sudo install -d -o root -g verdict -m 750 /etc/verdict'
  'sudo -u verdict verdict cluster key --out /var/lib/verdict/cluster.key --db /var/lib/verdict/verdict.db'
  'sudo mv /var/lib/verdict/cluster.key /etc/verdict/cluster.key'
)
key_steps_copy=(
  'sudo install -d -o root -g verdict -m 750 /etc/verdict'
  'sudo install -o verdict -g verdict -m 600 cluster.key /etc/verdict/cluster.key'
)
join_steps=(
  'sudo install -o root -g verdict -m 640 ca.pem /etc/verdict/nats-ca.pem'
  "sudo sh -c 'cat \"\$1\" >>/etc/default/verdict' sh \"\$ex/verdict-cluster.default\""
  'sed -n "s/^VERDICT_NATS_PASSWORD_$N=\(.*\)/s|verdict-node-1:PASSWORD@|verdict-node-$N:\1@|g/p" nats-passwords.env | sudo sed -i -f - /etc/default/verdict'
  'sudo sed -i -e "s/^VERDICT_NODE=.*/VERDICT_NODE=$NAME/" -e "s/^VERDICT_BIND=.*/VERDICT_BIND=$ADDR/" /etc/default/verdict'
  'sudo install -D -m 644 "$ex/verdict-cluster.conf" /etc/systemd/system/verdict.service.d/cluster.conf'
)
verdict_start='sudo systemctl daemon-reload && sudo systemctl restart verdict'
status="sudo sh -c 'set -a && . /etc/default/verdict && verdict cluster status'"
node_health='curl -s "http://$ADDR:8080/healthz"'
after=$(awk '/^\*\*6\. /{ print NR; exit }' "$readme")
for step in "${node_steps_web1[@]}" "$node_steps_copy" "${key_steps_web1[@]}" "${key_steps_copy[@]}" \
  "${join_steps[@]}" "$verdict_start" "$status" "$node_health"; do
  line=$(step=$step awk -v after="$after" 'NR > after && index($0, ENVIRON["step"]) { print NR; exit }' \
    "$readme")
  check "README.md says, after its line $after: $step" "yes" "$([ -n "$line" ] && echo yes || echo no)"
  [ -n "$line" ] && after=$line
done

# What Debian's verdict package gives each machine: /etc/default/verdict and the state folder.
for N in 1 2; do
  m=$work/web-$N
  mkdir -p "$m/var/lib/verdict"
  install -m 600 "$root/deploy/verdict.default" "$m/etc/default/verdict"
done
# Step 6 on web-1 (the editor's password on standard input, as `verdict init` reads it),
# then on web-2 from the copy; step 7 likewise.
cd "$work/nats-ca" || stop_here "the admin's folder" "missing"
N=1 NAME=web-1 ADDR=127.0.0.1 m=$work/web-1
for step in "${node_steps_web1[@]}"; do
  out=$(run "$m" "$step" 2>&1 <<<"a-long-enough-password-1") || stop_here "step 6 on web-1: $step" "$out"
  # init makes an empty site, as a production one starts; the steps below vote on the bundled
  # examples' tools, so the test imports them (an owner would import their own content).
  if [ "$step" = "${node_steps_web1[0]}" ]; then
    out=$(verdict import --db "$m/var/lib/verdict/verdict.db" "$root/content/verdict.json" 2>&1) ||
      stop_here "the bundled content, imported into web-1's new site" "$out"
  fi
done
for step in "${key_steps_web1[@]}"; do
  out=$(run "$m" "$step" 2>&1) || stop_here "step 7 on web-1: $step" "$out"
done
check "step 7: the cluster's key is mode 600" 600 "$(stat -c %a "$m/etc/verdict/cluster.key")"
install -m 600 "$m/etc/verdict/cluster.key" cluster.key # carried to web-2
N=2 NAME=web-2 ADDR=127.0.0.2 m=$work/web-2
out=$(run "$m" "$node_steps_copy" 2>&1) || stop_here "step 6 on web-2: $node_steps_copy" "$out"
for step in "${key_steps_copy[@]}"; do
  out=$(run "$m" "$step" 2>&1) || stop_here "step 7 on web-2: $step" "$out"
done
# Step 8 on each, then `systemctl restart verdict`: verdict.service's environment (its
# defaults, then /etc/default/verdict) with the test's ports and folders.
start_node() { # start_node N: verdict serve as machine N's unit runs it; sets node_port[N]
  local m=$work/web-$1
  # Each vote is published at once (VERDICT_PUBLISH_VOTES_EVERY=0), where the settings file
  # leaves the hourly batch: the steps read a vote on every node within seconds. The batches
  # in a cluster are tests/test_vote_batches.cpp's and test_cluster.cpp's.
  sed -e "s#=/\(etc\|var\)/#=$m/\1/#" -e "s/^VERDICT_PORT=.*/VERDICT_PORT=0/" \
    -e "s/^VERDICT_PUBLISH_VOTES_EVERY=.*/VERDICT_PUBLISH_VOTES_EVERY=0/" \
    -e "s/@10\.0\.0\.1:4222/@127.0.0.1:${client_port[1]}/g" \
    -e "s/@10\.0\.0\.2:4222/@127.0.0.2:${client_port[2]}/g" \
    -e "s/@10\.0\.0\.3:4222/@127.0.0.3:${client_port[3]}/g" \
    -e "s/=10\.0\.0\./=127.0.0./" "$m/etc/default/verdict" >"$m/verdict.env"
  (
    cd "$m/var/lib/verdict" || exit 1
    exec env -i PATH="$PATH" VERDICT_DB="$m/var/lib/verdict/verdict.db" VERDICT_BIND=127.0.0.1 \
      VERDICT_PORT=8080 VERDICT_TRUSTED_PROXY=127.0.0.1 sh -c "set -a && . $m/verdict.env && exec verdict serve"
  ) 2>"$m/verdict.log" &
  node_pid[$1]=$!
  for _ in $(seq 300); do
    grep -q "serving http://" "$m/verdict.log" 2>/dev/null && break
    kill -0 $! 2>/dev/null || break
    sleep 0.1
  done
  node_port[$1]=$(grep -o "serving http://127.0.0.$1:[0-9]*" "$m/verdict.log" | grep -o "[0-9]*$")
}
node_port=()
node_pid=()
for N in 1 2; do
  NAME=web-$N ADDR=127.0.0.$N m=$work/web-$N
  for step in "${join_steps[@]}"; do
    out=$(run "$m" "$step" 2>&1) || stop_here "step 8 on web-$N: $step" "$out"
  done
  check "step 8: web-$N's settings name its NATS user with its password, on the three servers" 3 \
    "$(grep '^VERDICT_CLUSTER=' "$m/etc/default/verdict" | grep -o "verdict-node-$N:$(password "$N")@" | wc -l)"
  check "step 8: web-$N's settings keep no placeholder" 0 \
    "$(grep -c 'PASSWORD@\|verdict-node-1:PASSWORD' "$m/etc/default/verdict" || true)"
  start_node "$N"
  [ -n "${node_port[$N]}" ] || { check "web-$N serves" "serving" "$(tail -n 5 "$m/verdict.log")"; finish; }
  check "step 8: web-$N serves, as a node, on its address" yes yes
done

# Step 9: the status the guide asks for (from web-1's settings, made loopback's as above),
# once both nodes have reported their place, and each node's health.
status_out=""
for _ in $(seq 100); do
  status_out=$(run "" "${status/\/etc\/default\/verdict/$work/web-1/verdict.env}" 2>&1)
  printf '%s' "$status_out" | grep -q web-1 && printf '%s' "$status_out" | grep -q web-2 && break
  sleep 0.1
done
printf '%s\n' "$status_out" | sed 's/^/# /'
check "step 9: verdict cluster status lists both nodes" "web-1 web-2" \
  "$(printf '%s\n' "$status_out" | grep -o 'web-[12]' | sort -u | paste -sd ' ')"
check "both nodes skipped the test client's two writes, not sealed with the cluster's key" 2 \
  "$(printf '%s\n' "$status_out" | grep -c 'skipped 2 entries not sealed')"
for N in 1 2; do
  check "step 9: web-$N's /healthz" ok \
    "$(curl -s --max-time 5 "http://127.0.0.$N:${node_port[$N]}/healthz")"
done

# A reader's vote through web-1 (its tool page's form, read for longer than the counting
# rule's reading time) shows on web-2's anonymous page within seconds.
page=/compare/cursor-background-agent-vs-codestral-2-1
votes_on() { # votes_on N: whether web-N's anonymous comparison page shows one vote
  curl -s --max-time 5 "http://127.0.0.$1:${node_port[$1]}$page" | grep -c 'stat-sep"> · </span>1 vote'
}
check "before the vote, web-2's page shows none" 0 "$(votes_on 2)"
token=$(curl -s --max-time 5 "http://127.0.0.1:${node_port[1]}/tools/codestral-2-1" |
  grep -o 'name="token" value="[^"]*"' | head -1 | sed 's/.*value="//; s/"$//')
sleep 2
check "a vote through web-1" 303 \
  "$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' -X POST -H 'Sec-Fetch-Site: same-origin' \
     --data "verdict=ship&token=$token" "http://127.0.0.1:${node_port[1]}/tools/codestral-2-1/vote")"
shown=0
for _ in $(seq 100); do
  shown=$(votes_on 2)
  [ "$shown" = 1 ] && break
  sleep 0.1
done
check "the vote shows on web-2's anonymous page within 10 s" 1 "$shown"
check "and on web-1's" 1 "$(votes_on 1)"

# --- Step 10 on web-1: nginx-verdict.conf installed as on one machine (deploy/README.md's
# step 4, which tests/deploy/nginx_steps.sh runs; here its cp, sed and link, and a self-signed
# certificate where certbot puts one), then the guide's commands. Each file then gets the
# test's ports and folders, and the servers' 10.0.0.N:8080 become the nodes' own; then nginx,
# with a main file that includes conf.d/ before sites-enabled/ as Debian's does.
nginx_steps=(
  'sudo cp "$ex/nginx-cluster.conf" /etc/nginx/conf.d/verdict-upstream.conf'
  "sudo sed -i '/^upstream verdict {/,/^}/d' /etc/nginx/sites-available/verdict"
  'sudo nginx -t && sudo systemctl reload nginx'
)
after=$(awk '/^\*\*10\. /{ print NR; exit }' "$readme")
for step in "${nginx_steps[@]}"; do
  line=$(step=$step awk -v after="$after" 'NR > after && index($0, ENVIRON["step"]) { print NR; exit }' \
    "$readme")
  check "README.md says, after its line $after: $step" "yes" "$([ -n "$line" ] && echo yes || echo no)"
  [ -n "$line" ] && after=$line
done
nginx=$(command -v nginx || echo /usr/sbin/nginx)
if [ ! -x "$nginx" ]; then
  echo "# step 10 not run: no nginx (Debian's nginx-light)"
  finish
fi
m=$work/web-1
domain=verdict.test
mkdir -p "$m/etc/nginx/sites-available" "$m/etc/nginx/sites-enabled" "$m/etc/nginx/conf.d" \
  "$m/var/www/letsencrypt" "$m/var/cache/nginx" "$m/etc/letsencrypt/live/$domain" "$work/nginx-temp"
cp "$root/deploy/nginx-verdict.conf" "$m/etc/nginx/sites-available/verdict"
sed -i "s/verdict\.example\.com/$domain/g" "$m/etc/nginx/sites-available/verdict"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=$domain" \
  -addext "subjectAltName=DNS:$domain" -keyout "$m/etc/letsencrypt/live/$domain/privkey.pem" \
  -out "$m/etc/letsencrypt/live/$domain/fullchain.pem" 2>/dev/null
for step in "${nginx_steps[@]:0:2}"; do
  out=$(cd "$work/nats-ca" && run "$m" "$step" 2>&1) ||
    stop_here "step 10 on web-1: $step" "$out"
done
check "step 10: the site file keeps no upstream of its own" 0 \
  "$(grep -c '^upstream ' "$m/etc/nginx/sites-available/verdict" || true)"
check "step 10: the site file still proxies to the upstream verdict" 2 \
  "$(grep -c 'proxy_pass http://verdict;' "$m/etc/nginx/sites-available/verdict")"
check "step 10: conf.d holds the upstream over the three nodes" 3 \
  "$(grep -cE '^ *server 10\.0\.0\.[123]:8080 ' "$m/etc/nginx/conf.d/verdict-upstream.conf")"
read -r http_port https_port dead_port <<<"$(free_ports 3)"
sed -i -e "s|listen 80;|listen 127.0.0.1:$http_port;|" \
  -e "s|listen 443 ssl http2;|listen 127.0.0.1:$https_port ssl http2;|" -e "/listen \[::\]/d" \
  -e "s#\([[:space:]]\)/\(etc\|var\)/#\1$m/\2/#g" "$m/etc/nginx/sites-available/verdict"
ln -s "$m/etc/nginx/sites-available/verdict" "$m/etc/nginx/sites-enabled/verdict"
sed -i -e "s/10\.0\.0\.1:8080/127.0.0.1:${node_port[1]}/" -e "s/10\.0\.0\.2:8080/127.0.0.2:${node_port[2]}/" \
  -e "s/10\.0\.0\.3:8080/127.0.0.3:$dead_port/" "$m/etc/nginx/conf.d/verdict-upstream.conf"
cat >"$work/nginx.conf" <<CONF
user root;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path $work/nginx-temp/body;
  proxy_temp_path $work/nginx-temp/proxy;
  fastcgi_temp_path $work/nginx-temp/fastcgi;
  uwsgi_temp_path $work/nginx-temp/uwsgi;
  scgi_temp_path $work/nginx-temp/scgi;
  include $m/etc/nginx/conf.d/*.conf;
  include $m/etc/nginx/sites-enabled/*;
}
CONF
out=$("$nginx" -t -c "$work/nginx.conf" 2>&1)
check "step 10: nginx -t with the cluster's upstream and the one-machine site file" 0 "$?"
[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/# /'
"$nginx" -c "$work/nginx.conf" || stop_here "nginx starts" "$(cat "$work/nginx-error.log")"
for _ in $(seq 50); do [ -s "$work/nginx.pid" ] && break; sleep 0.1; done
front() { # front PATH: the body through nginx over TLS, then the status
  curl -s --max-time 10 --cacert "$m/etc/letsencrypt/live/$domain/fullchain.pem" \
    --resolve "$domain:$https_port:127.0.0.1" -w ' %{http_code}' "https://$domain:$https_port$1" |
    tr -d '\n'
}
check "step 10: the site through nginx" "ok 200" "$(front /healthz)"
check "step 10: the reader's vote shows through nginx" 1 \
  "$(front "$page" | grep -c 'stat-sep"> · </span>1 vote')"
# Either node down, nginx sends the reader to the other (the reader's own node is whichever
# the hash picked: each is stopped in turn, the other running).
kill "${node_pid[1]}"
wait "${node_pid[1]}" 2>/dev/null
check "step 10: with web-1 down, the page through nginx (from web-2)" 200 \
  "$(front "$page" | grep -o '[0-9]*$')"
start_node 1
[ -n "${node_port[1]}" ] || stop_here "web-1 starts again" "$(tail -n 5 "$work/web-1/verdict.log")"
sed -i "s/127\.0\.0\.1:[0-9]* /127.0.0.1:${node_port[1]} /" "$m/etc/nginx/conf.d/verdict-upstream.conf"
"$nginx" -c "$work/nginx.conf" -s reload
kill "${node_pid[2]}"
wait "${node_pid[2]}" 2>/dev/null
# nginx's workers take the new upstream when the reload reaches them: polled, not waited for.
served=""
for _ in $(seq 100); do
  served=$(front "$page" | grep -o '[0-9]*$')
  [ "$served" = 200 ] && break
  sleep 0.1
done
check "step 10: with web-2 down, the page through nginx (from web-1)" 200 "$served"
# A node that answers 503 (it cannot reach its stream, or is too busy) hands the reader to the
# other (nginx-verdict.conf's proxy_next_upstream): in its place a server that answers every
# request 503, at web-2's address and then at web-1's, so the reader's own node is one of them.
answer_503_at() { # ADDRESS PORT: sets answering_503 to its pid once it answers
  python3 - "$1" "$2" <<'PY' &
import http.server, sys
class Busy(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(503)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
http.server.HTTPServer((sys.argv[1], int(sys.argv[2])), Busy).serve_forever()
PY
  answering_503=$!
  for _ in $(seq 100); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://$1:$2/")" = 503 ] && break
    sleep 0.1
  done
}
# A reader with a cookie, so nginx's cache (which would serve its stale page on a 503) is not
# what answers.
fresh_from_front() { # fresh_from_front PATH: the status through nginx, past its cache
  curl -s --max-time 10 --cacert "$m/etc/letsencrypt/live/$domain/fullchain.pem" \
    --resolve "$domain:$https_port:127.0.0.1" -H "Cookie: verdict_voter=$(printf 'f%.0s' $(seq 32))" \
    -o /dev/null -w '%{http_code}' "https://$domain:$https_port$1"
}
answer_503_at 127.0.0.2 "${node_port[2]}"
check "step 10: with web-2 answering 503, a reader's page through nginx (from web-1)" 200 \
  "$(fresh_from_front "$page")"
kill "$answering_503"
wait "$answering_503" 2>/dev/null
start_node 2
[ -n "${node_port[2]}" ] || stop_here "web-2 starts again" "$(tail -n 5 "$work/web-2/verdict.log")"
sed -i "s/127\.0\.0\.2:[0-9]* /127.0.0.2:${node_port[2]} /" "$m/etc/nginx/conf.d/verdict-upstream.conf"
"$nginx" -c "$work/nginx.conf" -s reload
kill "${node_pid[1]}"
wait "${node_pid[1]}" 2>/dev/null
answer_503_at 127.0.0.1 "${node_port[1]}"
for _ in $(seq 50); do # nginx's new workers take over from the old within moments
  status=$(fresh_from_front "$page")
  [ "$status" = 200 ] && break
  sleep 0.2
done
check "step 10: with web-1 answering 503, a reader's page through nginx (from web-2)" 200 "$status"
kill "$answering_503" "${node_pid[2]}" 2>/dev/null

finish
