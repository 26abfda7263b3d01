# Sourced by the deploy tests that start nginx and verdict.

# start_verdict ARGS…: verdict ($verdict) on loopback at an ephemeral port, its errors in
# $work/verdict.log; sets verdict_pid, and verdict_port once it serves.
start_verdict() {
  "$verdict" --bind 127.0.0.1 --port 0 --demo "$@" 2>"$work/verdict.log" &
  verdict_pid=$!
  # Up to a minute: making the demo site on a busy machine has taken over ten seconds.
  for _ in $(seq 600); do
    grep -q "serving http://127.0.0.1:" "$work/verdict.log" 2>/dev/null && break
    kill -0 "$verdict_pid" 2>/dev/null || break
    sleep 0.1
  done
  verdict_port=$(grep -o "serving http://127.0.0.1:[0-9]*" "$work/verdict.log" | grep -o "[0-9]*$")
}

# On exit, each process is stopped
# and waited for before $work goes (nginx's pid in $work/nginx.pid, verdict's in $verdict_pid),
# so a server still flushing its files cannot turn a pass into a failure; the removal cannot
# change the exit status.
cleanup() {
  local status=$?
  local nginx_pid=""
  [ -f "$work/nginx.pid" ] && nginx_pid=$(cat "$work/nginx.pid")
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null || true
  [ -n "$verdict_pid" ] && kill "$verdict_pid" 2>/dev/null || true
  jobs -p | xargs -r kill 2>/dev/null || true
  wait 2>/dev/null || true
  for _ in $(seq 50); do
    { [ -z "$nginx_pid" ] || ! kill -0 "$nginx_pid" 2>/dev/null; } && break
    sleep 0.1
  done
  rm -rf "$work" 2>/dev/null || true
  exit "$status"
}
trap cleanup EXIT
