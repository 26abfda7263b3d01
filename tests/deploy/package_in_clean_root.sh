#!/bin/bash
# The Debian package as a self-hoster meets it: deploy/make-deb packs the built binary, a clean
# Debian 12 root is made (mmdebstrap, from the machine's own Debian mirror), and inside it
# `apt-get install ./verdict_….deb` brings exactly the libraries the package Depends on.
# There the owner makes the site and its first editor (`verdict init`, as the user verdict),
# serves it on loopback at an ephemeral port and a page is fetched; removing and purging the
# package leave the database.
#   tests/deploy/package_in_clean_root.sh VERDICT_BINARY
set -euo pipefail
verdict=$1
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
root=$work/root
server_pid=""
cleanup() {
  local status=$?
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  for mount in "$root/proc" "$root/dev"; do
    mountpoint -q "$mount" && umount -l "$mount" || true
  done
  rm -rf "$work" 2>/dev/null || true
  exit "$status"
}
trap cleanup EXIT
checks=0
check() { # check DESCRIPTION EXPECTED ACTUAL
  if [ "$2" != "$3" ]; then
    echo "FAILED: $1: expected [$2], got [$3]"
    [ -f "$work/serve.log" ] && { echo "--- verdict's log"; cat "$work/serve.log"; }
    exit 1
  fi
  checks=$((checks + 1))
}
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

deb=$("$repo/deploy/make-deb" "$verdict" "$work")
# The machine's own Debian mirror, as apt here is set up to reach it.
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
mirror=${mirror:-http://deb.debian.org/debian}
mmdebstrap --quiet --variant=apt bookworm "$root" "$mirror" >"$work/mmdebstrap.log" 2>&1 ||
  { cat "$work/mmdebstrap.log"; exit 1; }
mount --bind /proc "$root/proc"
mount --bind /dev "$root/dev"
cp "$deb" "$root/tmp/"
# The root resolves names as this machine does, and reads the mirror's lists anew (mmdebstrap
# leaves none behind).
cp /etc/resolv.conf "$root/etc/resolv.conf"
in_root apt-get update -qq >"$work/update.log" 2>&1 || { cat "$work/update.log"; exit 1; }

# Nothing of Verdict's is in the root yet: the package must bring it all.
check "the clean root has no verdict" "absent" "$(in_root sh -c 'command -v verdict || echo absent')"
in_root apt-get install -y -qq "/tmp/$(basename "$deb")" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; exit 1; }
check "every library the binary needs is installed" "" \
  "$(in_root ldd /usr/bin/verdict | grep 'not found' || true)"
check "the system user" "verdict" "$(in_root id -un verdict)"
check "the state folder belongs to it" "verdict 750" "$(in_root stat -c '%U %a' /var/lib/verdict)"
check "the settings file is root's alone" "root 600" "$(in_root stat -c '%U %a' /etc/default/verdict)"
check "the settings file is a conffile" "/etc/default/verdict" \
  "$(in_root dpkg-query -W -f='${Conffiles}' verdict | awk '{print $1}')"
for unit in verdict.service verdict-backup.service verdict-backup.timer verdict-digest.service \
  verdict-digest.timer; do
  check "the unit $unit" "yes" "$(in_root sh -c "test -f /lib/systemd/system/$unit && echo yes")"
done
check "the documents' links hold where they are installed" "yes" \
  "$(test -f "$root/usr/share/doc/verdict/docs/RUNNING.md" &&
     test -f "$root/usr/share/doc/verdict/deploy/README.md" &&
     test -f "$root/usr/share/doc/verdict/docs/comparison-page.png" && echo yes || echo no)"
check "the copyright file names Verdict's licence" "yes" \
  "$(grep -q '^License: Expat$' "$root/usr/share/doc/verdict/copyright" && echo yes || echo no)"
check "the unit is not edited for settings" "" \
  "$(grep -E -- '--base-url|verdict\.example' "$root/lib/systemd/system/verdict.service" || true)"

# The owner's first steps: the site and its first editor, as the user the service runs as.
echo "a long desk password" | in_root runuser -u verdict -- \
  verdict init --db /var/lib/verdict/verdict.db --editor editor@example.com >"$work/init.log" 2>&1 ||
  { cat "$work/init.log"; exit 1; }
check "the first editor" "editor@example.com" \
  "$(in_root runuser -u verdict -- verdict user list --db /var/lib/verdict/verdict.db | awk '{print $1}')"

# Served from inside the root on loopback (the root shares this machine's network).
chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin runuser -u verdict -- \
  verdict serve --db /var/lib/verdict/verdict.db --port 0 >"$work/serve.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 100); do
  port=$(sed -n 's|.*serving http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$work/serve.log" | head -1)
  [ -n "$port" ] && break
  sleep 0.1
done
check "it serves" "yes" "$([ -n "$port" ] && echo yes || echo no)"
check "the front page" "200" "$(curl -s -o "$work/home.html" -w '%{http_code}' "http://127.0.0.1:$port/")"
check "with the examples' comparisons" "yes" \
  "$(grep -q 'Cursor Background Agent vs Codestral 2.1' "$work/home.html" && echo yes || echo no)"
check "healthz" "ok" "$(curl -s "http://127.0.0.1:$port/healthz")"
kill "$server_pid"
wait "$server_pid" || true
server_pid=""

# Removing the package, and purging it, keep the site.
in_root apt-get remove -y -qq verdict >"$work/remove.log" 2>&1 || { cat "$work/remove.log"; exit 1; }
check "removed" "absent" "$(in_root sh -c 'command -v verdict || echo absent')"
check "the database is kept on removal" "yes" \
  "$(test -s "$root/var/lib/verdict/verdict.db" && echo yes || echo no)"
in_root apt-get purge -y -qq verdict >"$work/purge.log" 2>&1 || { cat "$work/purge.log"; exit 1; }
check "the database is kept on purge" "yes" \
  "$(test -s "$root/var/lib/verdict/verdict.db" && echo yes || echo no)"
echo "package in a clean Debian 12 root: $checks checks passed"
