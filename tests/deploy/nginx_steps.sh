#!/bin/bash
# deploy/README.md's TLS steps in their order, as a fresh Debian 12 server goes through them,
# with the server's /etc and /var in a temporary folder, nginx on loopback and ephemeral ports,
# and a self-signed pair standing in for Let's Encrypt's:
#   1. no certificate yet: nginx-verdict-http.conf passes `nginx -t` and nginx-verdict.conf
#      does not (its certificate files are missing: why the HTTP-first file comes first);
#      nginx with the HTTP-first file serves the webroot's ACME challenge files and passes
#      everything else to a real verdict;
#   2. the certificate where certbot puts it: nginx-verdict.conf passes `nginx -t`, and after a
#      reload nginx still serves the challenge on port 80 (renewals), sends everything else
#      to HTTPS, and serves verdict over TLS with that certificate.
# The README must list the same commands in the same order. nginx's main file is Debian's own
# /etc/nginx/nginx.conf (its pid, logs and includes moved into the folder), so a site file
# that clashes with Debian's http { } block fails here as it would on the server.
#   tests/deploy/nginx_steps.sh VERDICT_BINARY
set -euo pipefail
verdict=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
nginx=$(command -v nginx || echo /usr/sbin/nginx)
work=$(mktemp -d)
server=$work/server # the server's / for what the steps touch: etc/nginx, etc/letsencrypt, var
domain=verdict.test
verdict_pid=""
. "$(dirname "$0")/processes.sh"
checks=0
fail() {
  echo "FAILED: $1"
  echo "--- nginx error log"; cat "$work/error.log" 2>/dev/null || true
  echo "--- verdict log"; cat "$work/verdict.log" 2>/dev/null || true
  exit 1
}
check() { # check DESCRIPTION EXPECTED ACTUAL
  [ "$2" = "$3" ] || fail "$1: expected [$2], got [$3]"
  checks=$((checks + 1))
}
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# --- deploy/README.md's step 4 says these commands, in this order (a fixed string each, found on a line after
# the one before it). What this test does below is what they do.
readme=$root/deploy/README.md
after=0
raise_connections="sudo sed -i -e 's/worker_connections 768;/worker_connections 8192;/' -e '/^worker_processes/a worker_rlimit_nofile 20000;' /etc/nginx/nginx.conf"
for step in \
  'sudo mkdir -p /var/www/letsencrypt /var/cache/nginx' \
  "$raise_connections" \
  'sudo cp "$ex/nginx-verdict-http.conf" /etc/nginx/sites-available/verdict' \
  'sudo sed -i "s/verdict\.example\.com/$DOMAIN/g" /etc/nginx/sites-available/verdict' \
  'sudo ln -s /etc/nginx/sites-available/verdict /etc/nginx/sites-enabled/verdict' \
  'sudo nginx -t && sudo systemctl reload nginx' \
  'sudo certbot certonly --webroot -w /var/www/letsencrypt -d "$DOMAIN"' \
  'sudo cp "$ex/nginx-verdict.conf" /etc/nginx/sites-available/verdict' \
  'sudo sed -i "s/verdict\.example\.com/$DOMAIN/g" /etc/nginx/sites-available/verdict' \
  'sudo nginx -t && sudo systemctl reload nginx'; do
  line=$(awk -v after="$after" -v step="$step" 'NR > after && index($0, step) { print NR; exit }' "$readme")
  [ -n "$line" ] || fail "deploy/README.md says, after its line $after: $step"
  after=$line
  checks=$((checks + 1))
done
for file in nginx-verdict-http.conf nginx-verdict.conf; do
  check "$file serves the webroot certbot writes to" 1 \
    "$(grep -c '^ *root /var/www/letsencrypt;$' "$root/deploy/$file" || true)"
done
check "nginx-verdict-http.conf names no certificate and no TLS" 0 \
  "$(grep -v '^ *#' "$root/deploy/nginx-verdict-http.conf" | grep -cE 'ssl|443|letsencrypt/live' || true)"

# --- A fresh server: Debian's folders, no certificate, no webroot, no cache folder.
mkdir -p "$server/etc/nginx/sites-available" "$server/etc/nginx/sites-enabled" \
  "$server/etc/nginx/conf.d" "$server/var/www" "$server/var/cache" "$work/temp"
start_verdict --db "$work/site.db" --trusted-proxy 127.0.0.1
http_port=$(free_port)
https_port=$(free_port)

# nginx's main file: Debian's, with its pid, logs, temp folders and includes moved here (and
# its worker as root, to read the folder). Without Debian's file, the least that holds a site.
main_conf() { # main_conf SITES_DIR OUT
  if [ -f /etc/nginx/nginx.conf ]; then
    # The README's raising of its connections, run on a copy of Debian's file.
    cp /etc/nginx/nginx.conf "$work/debian-nginx.conf"
    local raised=${raise_connections//sudo /}
    eval "${raised//\/etc\/nginx\/nginx.conf/$work/debian-nginx.conf}"
    check "the README's step raises nginx's connections per worker" 1 \
      "$(grep -c '^[[:space:]]*worker_connections 8192;' "$work/debian-nginx.conf")"
    check "and the files a worker may open" 1 \
      "$(grep -c '^worker_rlimit_nofile 20000;' "$work/debian-nginx.conf")"
    sed -e "s|^user .*;|user root;|" \
        -e "s|^worker_processes .*;|worker_processes 1;|" \
        -e "s|^pid .*;|pid $work/nginx.pid;|" \
        -e "s|^\([[:space:]]*error_log\) .*;|\1 $work/error.log;|" \
        -e "s|^\([[:space:]]*access_log\) .*;|\1 $work/access.log;|" \
        -e "s|/etc/nginx/conf.d/|$server/etc/nginx/conf.d/|" \
        -e "s|/etc/nginx/sites-enabled/|$1/|" \
        -e "s|^http {|http {\n\tinclude $work/temp_paths.conf;|" \
        "$work/debian-nginx.conf" >"$2"
  else
    printf 'user root;\nworker_processes 1;\npid %s/nginx.pid;\nerror_log %s/error.log;\n%s\n%s\n' \
      "$work" "$work" 'events { worker_connections 768; }' \
      "http { access_log off; include $work/temp_paths.conf; include $1/*; }" >"$2"
  fi
  check "nginx's main file keeps to the test's folder" 0 \
    "$(grep -v '^[[:space:]]*#' "$2" | sed "s|$work|WORK|g" | grep -cE '/(var|run)/' || true)"
}
cat >"$work/temp_paths.conf" <<CONF
client_body_temp_path $work/temp/body;
proxy_temp_path $work/temp/proxy;
fastcgi_temp_path $work/temp/fastcgi;
uwsgi_temp_path $work/temp/uwsgi;
scgi_temp_path $work/temp/scgi;
CONF
main_conf "$server/etc/nginx/sites-enabled" "$work/nginx.conf"

# A site file as the server has it (SOURCE: the README's cp and sed) made runnable here as
# TARGET: loopback and ephemeral ports, verdict's port, and every /etc and /var path inside
# $server. Nothing may be left that listens elsewhere or reads outside the folder.
install_site() { # install_site SOURCE TARGET
  cp "$1" "$server/etc/nginx/sites-available/verdict"
  sed -i "s/verdict\.example\.com/$domain/g" "$server/etc/nginx/sites-available/verdict"
  sed -e "s|listen 80;|listen 127.0.0.1:$http_port;|" \
      -e "s|listen 443 ssl http2;|listen 127.0.0.1:$https_port ssl http2;|" \
      -e "/listen \[::\]/d" \
      -e "s|127.0.0.1:8080|127.0.0.1:$verdict_port|" \
      -e "s#\([[:space:]]\)/\(etc\|var\)/#\1$server/\2/#g" \
      "$server/etc/nginx/sites-available/verdict" >"$2"
  check "$(basename "$1") listens on loopback only" 0 \
    "$(grep -v '^ *#' "$2" | grep 'listen' | grep -cv "listen 127.0.0.1:" || true)"
  check "$(basename "$1") reads nothing outside the test's folder" 0 \
    "$(grep -v '^ *#' "$2" | grep -v '^ *location' | sed "s|$work|WORK|g" |
       grep -cE '[[:space:]]/[A-Za-z]|8080' || true)"
}
nginx_t() { "$nginx" -t -c "$1" 2>&1; }
http() { # http PATH [curl args]: the body on one line, then the status, asking for $domain
  local path=$1; shift
  curl -s --max-time 10 --resolve "$domain:$http_port:127.0.0.1" -w ' %{http_code}' "$@" \
    "http://$domain:$http_port$path" | tr -d '\n'
}

# --- A fresh server, step 4a: the webroot and the cache's folder, then the HTTP-first file.
mkdir -p "$server/var/www/letsencrypt" "$server/var/cache/nginx"
install_site "$root/deploy/nginx-verdict-http.conf" "$server/etc/nginx/sites-enabled/verdict"
check "the installed HTTP-first file names the domain" 1 \
  "$(grep -c "^ *server_name $domain;\$" "$server/etc/nginx/sites-available/verdict" || true)"
out=$(nginx_t "$work/nginx.conf") ||
  fail "nginx -t with nginx-verdict-http.conf, no certificate: $out"
checks=$((checks + 1))

# The full file in the same state fails, and for its missing certificate.
mkdir -p "$work/full-too-early"
main_conf "$work/full-too-early" "$work/nginx-too-early.conf"
install_site "$root/deploy/nginx-verdict.conf" "$work/full-too-early/verdict"
if out=$(nginx_t "$work/nginx-too-early.conf"); then
  fail "nginx -t passed nginx-verdict.conf before any certificate exists: $out"
fi
check "nginx -t on nginx-verdict.conf before the certificate fails on it" 1 \
  "$(printf '%s\n' "$out" | grep -c "$server/etc/letsencrypt/live/$domain/fullchain.pem" || true)"
# (install_site overwrote sites-available/verdict: the server still has the HTTP-first file.)
install_site "$root/deploy/nginx-verdict-http.conf" "$server/etc/nginx/sites-enabled/verdict"

"$nginx" -c "$work/nginx.conf"
for _ in $(seq 300); do [ -s "$work/nginx.pid" ] && break; sleep 0.1; done
challenge=$server/var/www/letsencrypt/.well-known/acme-challenge
mkdir -p "$challenge" # what certbot --webroot does, then writes the token's file
printf 'token-1.thumbprint' >"$challenge/token-1"
check "HTTP first: the challenge's file is served from the webroot" "token-1.thumbprint 200" \
  "$(http /.well-known/acme-challenge/token-1)"
check "HTTP first: a challenge that is not there is nginx's 404, not verdict's" "404 nginx" \
  "$(http /.well-known/acme-challenge/token-0 -o "$work/answer.html" | tr -d ' ') $(
     grep -q '<center>nginx' "$work/answer.html" && echo nginx || echo verdict)"
check "HTTP first: everything else reaches verdict" "ok 200" "$(http /healthz)"
check "HTTP first: pages reach verdict" 200 "$(http / -o /dev/null | tr -d ' ')"

# --- Step 4b: the certificate where certbot puts it for -d $domain (a self-signed pair here).
live=$server/etc/letsencrypt/live/$domain
mkdir -p "$live"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=$domain" \
  -addext "subjectAltName=DNS:$domain" -keyout "$live/privkey.pem" -out "$live/fullchain.pem" \
  2>/dev/null

# --- Step 4c: the full file in the HTTP-first one's place, `nginx -t`, reload.
install_site "$root/deploy/nginx-verdict.conf" "$server/etc/nginx/sites-enabled/verdict"
check "the installed full file's certificate is where certbot puts $domain's" 2 \
  "$(grep -cE "^ *ssl_certificate(_key)? +/etc/letsencrypt/live/$domain/(fullchain|privkey)\.pem;\$" \
     "$server/etc/nginx/sites-available/verdict" || true)"
out=$(nginx_t "$work/nginx.conf") ||
  fail "nginx -t with nginx-verdict.conf and the certificate: $out"
checks=$((checks + 1))
# As `systemctl reload nginx` does; the reload is done once the workers that served the old
# file have gone (until then they may still take a connection).
# (Read through cat: a process that ends between the glob and the read is skipped, where awk
# given the files itself stops at the first one gone, on a busy machine finding no worker.)
children() {
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v parent="$(cat "$work/nginx.pid")" \
    '$4 == parent { print $1 }' || true
}
old_workers=$(children)
[ -n "$old_workers" ] || fail "nginx runs no worker before the reload"
"$nginx" -c "$work/nginx.conf" -s reload 2>"$work/reload.log" ||
  fail "nginx -s reload: $(cat "$work/reload.log")"
for _ in $(seq 300); do # up to 30 s: a busy machine ends old workers slowly
  gone=yes
  for pid in $old_workers; do kill -0 "$pid" 2>/dev/null && gone=no; done
  [ "$gone" = yes ] && break
  sleep 0.1
done
check "the reload replaced nginx's workers" yes "$gone"
check "after the reload, plain HTTP is sent to HTTPS" "301 https://$domain/healthz" \
  "$(curl -s --max-time 10 --resolve "$domain:$http_port:127.0.0.1" -o /dev/null \
     -w '%{http_code} %{redirect_url}' "http://$domain:$http_port/healthz")"
printf 'token-2.thumbprint' >"$challenge/token-2"
check "after the reload, renewals' challenges are still served over HTTP" "token-2.thumbprint 200" \
  "$(http /.well-known/acme-challenge/token-2)"
check "verdict over TLS, with the certificate from certbot's place" ok \
  "$(curl -s --max-time 10 --cacert "$live/fullchain.pem" --resolve "$domain:$https_port:127.0.0.1" \
     "https://$domain:$https_port/healthz")"

echo "nginx steps, HTTP first then TLS: $checks checks passed"
