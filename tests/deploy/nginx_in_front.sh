#!/bin/bash
# deploy/nginx-verdict.conf as shipped (only its addresses, certificate and cache folder
# swapped for loopback, ephemeral ports and a throwaway self-signed certificate) in front of a
# real verdict: pages over TLS, a vote, 304s, the proxy cache, each client's own address
# reaching verdict's rate limiter, and trickling clients that never reach verdict.
#   tests/deploy/nginx_in_front.sh VERDICT_BINARY
set -euo pipefail
verdict=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
nginx=$(command -v nginx || echo /usr/sbin/nginx)
work=$(mktemp -d)
verdict_pid=""
. "$(dirname "$0")/processes.sh"
checks=0
check() { # check DESCRIPTION EXPECTED ACTUAL
  if [ "$2" != "$3" ]; then
    echo "FAILED: $1: expected [$2], got [$3]"
    echo "--- verdict log"; cat "$work/verdict.log" || true
    echo "--- nginx error log"; cat "$work/error.log" || true
    exit 1
  fi
  checks=$((checks + 1))
}
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_verdict --db "$work/site.db" --trusted-proxy 127.0.0.1 --rate-limit 2

openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
  -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
http_port=$(free_port)
https_port=$(free_port)
sed -e "s|127.0.0.1:8080|127.0.0.1:$verdict_port|" \
    -e "s|listen 80;|listen 127.0.0.1:$http_port;|" \
    -e "s|listen 443 ssl http2;|listen 127.0.0.1:$https_port ssl http2;|" \
    -e "/listen \[::\]/d" \
    -e "s|/etc/letsencrypt/live/verdict.example.com/fullchain.pem|$work/cert.pem|" \
    -e "s|/etc/letsencrypt/live/verdict.example.com/privkey.pem|$work/key.pem|" \
    -e "s|/var/cache/nginx/verdict|$work/cache|" \
    -e "s|/var/www/letsencrypt|$work/acme|" \
    "$root/deploy/nginx-verdict.conf" >"$work/site.conf"
# Every address of the shipped file was swapped: nothing can listen beyond loopback.
check "no address of the shipped file is left" 0 \
  "$(grep -v '^ *#' "$work/site.conf" | grep -cE 'listen (80|443)|8080|letsencrypt|/var/' || true)"

cat >"$work/nginx.conf" <<CONF
user root;
worker_processes 1;
pid $work/nginx.pid;
error_log $work/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/body;
  proxy_temp_path $work/proxy;
  fastcgi_temp_path $work/fastcgi;
  uwsgi_temp_path $work/uwsgi;
  scgi_temp_path $work/scgi;
  include $work/site.conf;
}
CONF
"$nginx" -t -q -c "$work/nginx.conf"
"$nginx" -c "$work/nginx.conf"

site="https://127.0.0.1:$https_port"
page=/compare/cursor-background-agent-vs-codestral-2-1
curl_tls() { curl -sk --max-time 10 "$@"; }

check "plain HTTP is sent to HTTPS" 301 \
  "$(curl -s --max-time 10 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$http_port$page")"
check "the comparison page over TLS" 1 \
  "$(curl_tls "$site$page" | grep -c '<h1>Cursor Background Agent vs Codestral 2.1</h1>')"
etag=$(curl_tls -D - -o /dev/null "$site$page" | tr -d '\r' | awk -F': ' 'tolower($1) == "etag" { print $2 }')
check "a revalidation answers 304" 304 \
  "$(curl_tls -o /dev/null -w '%{http_code}' -H "If-None-Match: $etag" "$site$page")"
check "nginx serves anonymous readers from its cache" HIT \
  "$(curl_tls -D - -o /dev/null "$site$page" | tr -d '\r' | awk -F': ' 'tolower($1) == "x-cache" { print $2 }')"

# A browser's visit (brotli accepted) first, then a client that accepts no compression: nginx
# keeps a copy per Accept-Encoding (verdict says Vary), so the second reads plain HTML.
methodology=/methodology
curl_tls -o /dev/null -H 'Accept-Encoding: gzip, deflate, br' "$site$methodology"
check "a compressed copy kept for a browser never reaches a client that asked for none" 1 \
  "$(curl_tls "$site$methodology" | grep -c '<h1>')"

# Bodies: a desk form of up to 128 KiB (under /admin/) reaches verdict, which answers it (403
# here: nobody is signed in); one a little over that gets verdict's own 413, which says what
# to shorten; any other body over 16 KiB, and a desk body over 136 KiB, stop at nginx. (From
# 127.0.3.1, a network of its own, so that no vote below is limited by these.)
body_to() { # body_to BYTES PATH: the status, and who answered (nginx or verdict)
  head -c "$1" /dev/zero | tr '\0' a >"$work/form.txt"
  curl_tls --interface 127.0.3.1 -o "$work/answer.html" -w '%{http_code} ' -X POST \
    -H 'Sec-Fetch-Site: same-origin' \
    --data-binary @"$work/form.txt" "$site$2"
  grep -q '<center>nginx' "$work/answer.html" && echo nginx || echo verdict
}
desk=/admin/tools/new
check "a desk form of 128 KiB passes nginx" "403 verdict" "$(body_to 131072 $desk)"
check "a desk form over 128 KiB gets verdict's 413" "413 verdict" "$(body_to 133000 $desk)"
check "a desk form over 136 KiB stops at nginx" "413 nginx" "$(body_to 140000 $desk)"
check "any other body over 16 KiB stops at nginx" "413 nginx" \
  "$(body_to 20000 /tools/codestral-2-1/vote)"

check "a request with any cookie goes past the cache" BYPASS \
  "$(curl_tls -D - -o /dev/null -H 'Cookie: theme=dark' "$site$page" | tr -d '\r' | awk -F': ' 'tolower($1) == "x-cache" { print $2 }')"

# A vote through nginx, as a reader sends it: from the tool's page (its form's token), read for
# longer than the counting rule's reading time. 303 with the voter's cookie, which then sees
# their vote.
token=$(curl_tls "$site/tools/codestral-2-1" | grep -o 'name="token" value="[^"]*"' | head -1 |
  sed 's/.*value="//; s/"$//')
check "the tool page's vote form carries its token" 1 "$(printf '%s' "$token" | grep -c '^[0-9]*\.[0-9a-f]\{32\}$')"
sleep 2
vote() { # vote FROM_ADDRESS [extra curl args]
  local from=$1; shift
  curl_tls --interface "$from" -o /dev/null -w '%{http_code}' -X POST \
    -H 'Sec-Fetch-Site: same-origin' --data "verdict=ship&token=$token" "$@" \
    "$site/tools/codestral-2-1/vote"
}
cookie=$(curl_tls --interface 127.0.2.1 -D - -o /dev/null -X POST -H 'Sec-Fetch-Site: same-origin' \
  --data "verdict=ship&token=$token" "$site/tools/codestral-2-1/vote" | tr -d '\r' |
  grep -io 'verdict_voter=[0-9a-f]*')
check "a vote through nginx sets the voter's cookie" 46 "${#cookie}"
check "the voter sees their vote, past the cache" 1 \
  "$(curl_tls -H "Cookie: $cookie" "$site$page" | grep -c 'stat-sep"> · </span>1 vote')"
check "the voter's own page is not stored: anonymous readers get the cached one" 0 \
  "$(curl_tls "$site$page" | grep -c 'stat-sep"> · </span>1 vote')"

# Each reader's own network (an IPv4 /24) reaches verdict's limit (2 writes a minute here),
# whatever X-Forwarded-For the reader sends. (The vote above came from 127.0.2.1, another one.)
check "first vote from 127.0.0.2" 303 "$(vote 127.0.0.2)"
check "second vote from 127.0.0.2, claiming another address" 303 \
  "$(vote 127.0.0.2 -H 'X-Forwarded-For: 10.1.1.1')"
check "third vote from 127.0.0.2 is over its limit" 429 \
  "$(vote 127.0.0.2 -H 'X-Forwarded-For: 10.2.2.2')"
check "moving to 127.0.0.3 in the same /24 does not escape the limit" 429 "$(vote 127.0.0.3)"
check "a reader on another network, 127.0.1.3, is not limited by it" 303 "$(vote 127.0.1.3)"

# Thirty readers trickling a request over TLS: nginx holds them; verdict sees none.
established() { ss -Htn state established "( dport = :$verdict_port )" | wc -l; }
before=$(established)
for _ in $(seq 30); do
  (printf 'GET / HTTP/1.1\r\nHost: x\r\nX-Slow: a'; sleep 5) |
    openssl s_client -quiet -connect "127.0.0.1:$https_port" >/dev/null 2>&1 &
done
sleep 2
check "trickling readers never reach verdict" yes \
  "$([ "$(established)" -le "$before" ] && echo yes || echo "no: $before then $(established)")"
check "verdict answers through nginx meanwhile" ok "$(curl_tls "$site/healthz")"

# One address holding forty requests in progress, their bodies trickling: past the file's
# per-client limit (limit_conn) nginx answers 503 at once, and a reader elsewhere is served.
held=$(python3 - "$https_port" <<'PY'
import socket, ssl, sys, time
port = int(sys.argv[1])
context = ssl.create_default_context()
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE
held = []
for _ in range(40):
    raw = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.6", 0))
    tls = context.wrap_socket(raw, server_hostname="localhost")
    tls.sendall(b"POST /subscribe HTTP/1.1\r\nHost: x\r\nSec-Fetch-Site: same-origin\r\n"
                b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ne")
    held.append(tls)
refused = 0
deadline = time.time() + 5
for tls in held:
    tls.settimeout(max(0.05, deadline - time.time()))
    try:
        refused += tls.recv(64).startswith(b"HTTP/1.1 503")
    except (socket.timeout, ssl.SSLError, OSError):
        pass
# Meanwhile, a reader at another address.
raw = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.7", 0))
reader = context.wrap_socket(raw, server_hostname="localhost")
reader.settimeout(10)
reader.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
answer = reader.recv(64)
print(refused, answer.split(b" ")[1].decode() if answer else "nothing")
for tls in held:
    tls.close()
PY
)
check "forty requests held from one address: those past the limit of 32 refused at once, and a \
reader at another address answered meanwhile" "8 200" "$held"

echo "nginx in front of verdict: $checks checks passed"
