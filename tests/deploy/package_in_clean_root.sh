#!/bin/bash
# The Debian package as a self-hoster meets it: deploy/make-deb packs the built binary (the
# same package each time), lintian finds no error or warning in it, a clean Debian 12 root is
# made (mmdebstrap, from the machine's own Debian mirror), and inside it
# `apt-get install ./verdict_….deb` brings exactly the libraries the package Depends on. What
# it installed is checked: the manual page has a section for every command `verdict --help`
# names, the changelog is this version's, the cluster's examples are there and every relative
# link in the installed documents leads to an installed file (and heading). There the owner
# makes the site and its first editor (`verdict init`, as the user verdict), serves it on
# loopback at an ephemeral port and a page is fetched; removing the package disables the units
# the owner enabled, and removing and purging it leave the database. Then, in a second clean
# root, the guide's path without the package is run as deploy/README.md writes it: the
# binary, every unit and the digest's timer enabled.
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
  for mount in "$root/proc" "$root/dev" "$work/bare/proc" "$work/bare/dev"; do
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

for tool in lintian man python3; do
  command -v "$tool" >/dev/null || { echo "FAILED: $tool is not installed (./dev test installs it)"; exit 1; }
done
deb=$("$repo/deploy/make-deb" "$verdict" "$work")
# Every date in it is the changelog's, so the same binary makes the same bytes.
again=$("$repo/deploy/make-deb" "$verdict" "$work/again")
check "the same binary makes the same package" "$(sha256sum <"$deb")" "$(sha256sum <"$again")"
# lintian as strict as it goes (pedantic, experimental and info tags), reading the overrides
# the package installs, each with its reason above it (deploy/debian/lintian-overrides).
lintian --pedantic --display-info --display-experimental --fail-on none "$deb" \
  >"$work/lintian.log" 2>"$work/lintian.err" || { cat "$work/lintian.log" "$work/lintian.err"; exit 1; }
check "lintian finds no error or warning" "" "$(grep -E '^[EW]: ' "$work/lintian.log" || true)"
# The machine's own Debian mirror, as apt here is set up to reach it.
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
mirror=${mirror:-http://deb.debian.org/debian}
mmdebstrap --quiet --variant=apt bookworm "$root" "$mirror" >"$work/mmdebstrap.log" 2>&1 ||
  { cat "$work/mmdebstrap.log"; exit 1; }
# A second clean root, for the guide's path without the package (the end of this test).
bare=$work/bare
cp -a "$root" "$bare"
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
# Each unit the package installs is a file in deploy/, and the guide's path without the
# package (deploy/README.md, its `sudo cp … /etc/systemd/system/`) copies every one of them.
no_package_cp=$(awk '/^sudo cp deploy\/verdict\.service/,/\/etc\/systemd\/system\//' "$repo/deploy/README.md")
for unit in verdict.service verdict-backup.service verdict-backup.timer verdict-digest.service \
  verdict-digest.timer; do
  check "the unit $unit" "yes" "$(in_root sh -c "test -f /lib/systemd/system/$unit && echo yes")"
  check "the path without the package installs $unit too" "yes" \
    "$(printf '%s\n' "$no_package_cp" | grep -qF "deploy/$unit" && echo yes || echo no)"
done
check "the units in deploy/ are the package's" \
  "verdict-backup.service verdict-backup.timer verdict-digest.service verdict-digest.timer verdict.service" \
  "$(cd "$repo/deploy" && ls -- *.service *.timer | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')"
# The package enables and starts nothing: the owner does, once the site exists.
check "no unit is enabled by the package" "" \
  "$(find "$root/etc/systemd/system" -name 'verdict*' 2>/dev/null || true)"

# The manual page, read as `man verdict` shows it: a section for every command the installed
# binary's --help lists (deploy/make-manpage makes them from each command's help).
manual=$root/usr/share/man/man1/verdict.1.gz
check "the manual page" "yes" "$(test -f "$manual" && echo yes || echo no)"
MANWIDTH=80 man --warnings -E UTF-8 -l "$manual" >"$work/manual.txt" 2>"$work/manual.err"
check "man reads the page without a warning" "" "$(cat "$work/manual.err")"
commands=$(in_root verdict --help | awk '/^Commands:/ { listed = 1; next }
  listed && /^  [^ ]/ { print $1; next } listed { exit }')
check "verdict --help lists its commands" "yes" \
  "$(echo "$commands" | grep -qx serve && echo yes || echo no)"
check "the manual page has a section for each command" "" \
  "$(for command in $commands; do grep -qx "   $command" "$work/manual.txt" || echo "$command"; done)"

# The changelog, Debian's format, its newest entry this binary's version.
changelog=$root/usr/share/doc/verdict/changelog.gz
check "the changelog" "yes" "$(test -f "$changelog" && echo yes || echo no)"
zcat "$changelog" >"$work/changelog"
check "the changelog's newest entry is this version" "$(in_root verdict --version)" \
  "verdict $(dpkg-parsechangelog -l "$work/changelog" -S Version)"

# The cluster's examples, where the installed documents' links and steps find them.
check "the cluster's examples" "$(cd "$repo/deploy/cluster" && ls)" \
  "$(cd "$root/usr/share/doc/verdict/deploy/cluster" 2>/dev/null && ls)"

# Every relative link in the installed documents (Markdown's [text](target) and [id]: target)
# leads to an installed file under /usr/share/doc/verdict, and a #heading to a heading there,
# named as GitHub names it.
python3 - "$root/usr/share/doc/verdict" >"$work/links.txt" <<'LINKS'
import re
import sys
from pathlib import Path
from urllib.parse import unquote

top = Path(sys.argv[1]).resolve()


def prose(path):
    """The file's lines outside fenced code blocks."""
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if re.match(r"\s*(```|~~~)", line):
            fenced = not fenced
        elif not fenced:
            yield line


def headings(path):
    slugs, seen = set(), {}
    for line in prose(path):
        match = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not match:
            continue
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", match.group(1))
        slug = re.sub(r"[^\w\- ]", "", text.replace("`", "").replace("*", "").lower())
        slug = slug.replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        slugs.add(slug if count == 0 else f"{slug}-{count}")
    return slugs


links = 0
for document in sorted(top.rglob("*.md")):
    text = "\n".join(prose(document))
    targets = re.findall(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", text)
    targets += re.findall(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", text, re.M)
    for target in targets:
        if re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", target):
            continue  # http:, https:, mailto:
        links += 1
        path, _, anchor = target.partition("#")
        resolved = (document.parent / unquote(path)).resolve() if path else document
        where = f"{document.relative_to(top)}: {target}"
        if top not in resolved.parents and resolved != top:
            print(f"{where} (outside the package's documents)")
        elif not resolved.is_file():
            print(f"{where} (not installed)")
        elif anchor and resolved.suffix == ".md" and anchor not in headings(resolved):
            print(f"{where} (no such heading)")
if links == 0:
    print("no relative links found: the check would hold vacuously")
LINKS
check "every relative link in the installed documents holds" "" "$(cat "$work/links.txt")"
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
check "init makes an empty site unless asked for the examples" "yes" \
  "$(grep -q 'empty: nothing is published yet' "$work/init.log" && echo yes || echo no)"
# The examples, imported as an owner imports their own content, for the pages checked below.
install -m 644 "$repo/content/verdict.json" "$root/tmp/content.json"
in_root runuser -u verdict -- verdict import --db /var/lib/verdict/verdict.db /tmp/content.json \
  >"$work/import.log" 2>&1 || { cat "$work/import.log"; exit 1; }

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
# `sudo verdict doctor` on the running install, with the settings file the package installed
# (its port given, as this test serves on another): the database and the site are well; a new
# install has no public address, backup or mail yet, each named with what to do, so it exits 1;
# and run as root it leaves nothing of root's beside the site's file.
doctor_status=0
in_root verdict doctor --port "$port" >"$work/doctor.log" 2>&1 || doctor_status=$?
check "doctor exits 1 while problems remain" 1 "$doctor_status"
check "doctor read the installed settings, and the site's file is well" "yes yes" \
  "$(grep -q '^ok       settings     from /etc/default/verdict' "$work/doctor.log" && echo yes || echo no) $(
     grep -q '^ok       database     /var/lib/verdict/verdict.db: its integrity and keys hold' \
       "$work/doctor.log" && echo yes || echo no)"
check "doctor found the site answering" "yes" \
  "$(grep -q "^ok       site         http://127.0.0.1:$port/healthz says ok" "$work/doctor.log" &&
     echo yes || echo no)"
check "doctor names what a new install still lacks, with what to do" "3 3" \
  "$(grep -cE '^PROBLEM  (address|backups|mail) ' "$work/doctor.log") $(grep -c 'to do: ' "$work/doctor.log")"
check "doctor as root leaves no file of root's in the site's folder" "" \
  "$(find "$root/var/lib/verdict" -user 0 2>/dev/null)"
kill "$server_pid"
wait "$server_pid" || true
server_pid=""

# The owner enabled the site and its backups (`systemctl enable verdict verdict-backup.timer`
# makes these links; the root runs no systemd): removing the package disables them.
wants=$root/etc/systemd/system
mkdir -p "$wants/multi-user.target.wants" "$wants/timers.target.wants"
ln -s /lib/systemd/system/verdict.service "$wants/multi-user.target.wants/verdict.service"
ln -s /lib/systemd/system/verdict-backup.timer "$wants/timers.target.wants/verdict-backup.timer"

# Removing the package, and purging it, keep the site.
in_root apt-get remove -y -qq verdict >"$work/remove.log" 2>&1 || { cat "$work/remove.log"; exit 1; }
check "removed" "absent" "$(in_root sh -c 'command -v verdict || echo absent')"
check "removing disables the units" "" "$(find "$wants" -name 'verdict*')"
check "the database is kept on removal" "yes" \
  "$(test -s "$root/var/lib/verdict/verdict.db" && echo yes || echo no)"
in_root apt-get purge -y -qq verdict >"$work/purge.log" 2>&1 || { cat "$work/purge.log"; exit 1; }
check "the database is kept on purge" "yes" \
  "$(test -s "$root/var/lib/verdict/verdict.db" && echo yes || echo no)"
check "purging forgets the units' records" "" \
  "$(find "$root/var/lib/systemd" -name 'verdict*' 2>/dev/null || true)"

# The guide's path without the package (deploy/README.md), its commands run as written (as
# root, so without `sudo`) in the second clean root, with the libraries the binary needs (a
# source tree's owner has them: they built it) and systemd's tools. No systemd runs there
# (SYSTEMD_OFFLINE=1 tells systemctl so: the root's /proc is this machine's): systemctl
# enables a unit by its links and says it ignores what needs a running systemd.
in_bare() {
  chroot "$bare" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 SYSTEMD_OFFLINE=1 "$@"
}
mount --bind /proc "$bare/proc"
mount --bind /dev "$bare/dev"
cp /etc/resolv.conf "$bare/etc/resolv.conf"
needs=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/(.*)//; s/|.*//; s/ //g' | grep -v '^$')
{ in_bare apt-get update -qq && in_bare apt-get install -y -qq systemd passwd $needs; } \
  >"$work/bare-install.log" 2>&1 || { cat "$work/bare-install.log"; exit 1; }
mkdir -p "$bare/src/build"
cp -a "$repo/deploy" "$bare/src/deploy"
install -m 755 "$verdict" "$bare/src/build/verdict"
steps=$(awk '/^Without the package, from the source tree/ { found = 1 }
  found && /^```sh$/ { inside = 1; next } inside && /^```$/ { exit } inside { print }' \
  "$repo/deploy/README.md")
check "the guide has the steps without the package" "yes" \
  "$(printf '%s\n' "$steps" | grep -q 'install -m 755 build/verdict' && echo yes || echo no)"
timer_step=$(grep -o '`sudo systemctl enable --now verdict-digest.timer`' "$repo/deploy/README.md" |
  head -1 | tr -d '`')
check "the guide enables the digest's timer without the package" \
  "sudo systemctl enable --now verdict-digest.timer" "$timer_step"
# As root, so without sudo; and the timer enabled without starting it (--now's start needs the
# running systemd the root has not: the links enabling makes are what is checked).
printf '%s\n%s\n' "$steps" "$timer_step" | sed 's/^sudo //; s/ sudo / /g; s/ enable --now / enable /' \
  >"$bare/src/steps.sh"
in_bare sh -euc 'cd /src && sh -eu steps.sh' >"$work/bare-steps.log" 2>&1 ||
  { cat "$work/bare-steps.log"; exit 1; }
check "without the package: the binary" "$("$verdict" --version)" \
  "$(in_bare verdict --version)"
for unit in verdict.service verdict-backup.service verdict-backup.timer verdict-digest.service \
  verdict-digest.timer; do
  check "without the package: the unit $unit" "yes" \
    "$(test -f "$bare/etc/systemd/system/$unit" && echo yes || echo no)"
done
check "without the package: the digest's timer is enabled" "/etc/systemd/system/verdict-digest.timer" \
  "$(readlink "$bare/etc/systemd/system/timers.target.wants/verdict-digest.timer" || true)"
check "without the package: the settings file is root's alone" "root 600" \
  "$(in_bare stat -c '%U %a' /etc/default/verdict)"
check "without the package: the state folder" "verdict 750" \
  "$(in_bare stat -c '%U %a' /var/lib/verdict)"

echo "package in a clean Debian 12 root: $checks checks passed"
