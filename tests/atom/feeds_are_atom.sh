#!/bin/bash
# Verdict's Atom feeds against the Atom format's own schema (RFC 4287, Appendix B, in
# tests/atom/atom.rnc), checked by Debian's jing: a real verdict on a fresh database of the
# bundled content, its site feed, one tool's feed and one reviewer's.
#   tests/atom/feeds_are_atom.sh VERDICT_BINARY
set -euo pipefail
verdict=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
verdict_pid=""
# Stop and wait for verdict before removing its folder, and never let the removal decide the
# exit status: the checks do.
cleanup() {
  local status=$?
  [ -n "$verdict_pid" ] && kill "$verdict_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work" 2>/dev/null || true
  exit "$status"
}
trap cleanup EXIT

"$verdict" --db "$work/site.db" --demo --bind 127.0.0.1 --port 0 2>"$work/verdict.log" &
verdict_pid=$!
for _ in $(seq 100); do
  grep -q "serving http://127.0.0.1:" "$work/verdict.log" 2>/dev/null && break
  sleep 0.1
done
port=$(grep -o "serving http://127.0.0.1:[0-9]*" "$work/verdict.log" | grep -o "[0-9]*$" || true)
if [ -z "$port" ]; then
  echo "FAILED: verdict did not start"
  cat "$work/verdict.log"
  exit 1
fi

checked=0
for path in /feed.xml /tools/codestral-2-1/feed.xml /reviewers/investor/feed.xml \
  /transparency/feed.xml; do
  feed="$work/feed-$checked.xml"
  status=$(curl -s --max-time 10 -o "$feed" -w '%{http_code}' "http://127.0.0.1:$port$path")
  if [ "$status" != 200 ] || ! grep -q "<entry>" "$feed"; then
    echo "FAILED: $path answered $status, or with no entry to check"
    exit 1
  fi
  # jing warns on stderr about optional libraries Debian leaves out; only its errors count.
  if ! jing -c "$here/atom.rnc" "$feed" >"$work/jing.out" 2>"$work/jing.err"; then
    echo "FAILED: $path is not Atom as RFC 4287's schema defines it:"
    cat "$work/jing.out"
    grep -v '^\[warning\]' "$work/jing.err" || true
    echo "--- $path"
    cat "$feed"
    exit 1
  fi
  checked=$((checked + 1))
done
echo "$checked feeds valid against RFC 4287's schema"
