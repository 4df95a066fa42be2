#!/usr/bin/env bash
# The first run, as a new user has it: `npm start` on this checkout (demo mode, an empty database),
# then every curl command it prints, each of which must succeed. Used by .ci/run after the tests.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

work=$(mktemp -d)
server_pid=
# The server runs in a process group of its own (npm, its shell, node): stopped as one, and nothing
# else on the machine (another checkout's server, a CI job beside this one) is touched.
cleanup() {
  if [ -n "$server_pid" ]; then
    kill -TERM -- "-$server_pid" 2>/dev/null || true
    # Its drain (SHUTDOWN_DRAIN_MS) runs out before it exits: wait for it, then make sure.
    for _ in $(seq 1 60); do kill -0 -- "-$server_pid" 2>/dev/null || break; sleep 0.25; done
    kill -KILL -- "-$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# A database of its own, so a developer's ./data is never touched; everything else as `npm start`.
PORT=0 DATABASE_URL="file:$work/first-run.sqlite" setsid npm start >"$work/stdout" 2>"$work/stderr" &
server_pid=$!

for _ in $(seq 1 240); do
  grep -q "Get App WebApp Settings" "$work/stderr" 2>/dev/null && break
  if ! kill -0 "$server_pid" 2>/dev/null; then cat "$work/stderr" >&2; echo "first run: the server exited" >&2; exit 1; fi
  sleep 0.5
done
grep -q "Get App WebApp Settings" "$work/stderr" || { cat "$work/stderr" >&2; echo "first run: no banner" >&2; exit 1; }

commands=$(grep -E '^\s+curl ' "$work/stderr")
count=$(wc -l <<<"$commands")
[ "$count" -eq 13 ] || { echo "first run: expected 13 curl commands, got $count" >&2; exit 1; }
while IFS= read -r command; do
  if ! output=$(sh -c "$command" 2>&1); then
    echo "first run: this printed command failed: $command" >&2
    echo "$output" >&2
    exit 1
  fi
done <<<"$commands"
echo "first run: npm start served the demo and all $count printed curl commands succeeded"
