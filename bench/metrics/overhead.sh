#!/usr/bin/env bash
# The cost of measuring (issue 15), over HTTP: the same read, GET /v1/guides?limit=50 with the demo's
# organization key (answered from the read cache, so the measurement's share is as large as it gets),
# against a pair of processes of one build (rate limit out of the way), one with METRICS_TOKEN and
# scraped every second, one without, in two sessions that start the pair in either order. Rounds alternate between them so
# that drift on a shared machine hits both alike; prints req/s per round and the on/off ratios.
# bench/metrics/cpu-per-read.mjs measures CPU time instead.
#   bench/metrics/overhead.sh [rounds=5] [seconds=8]      CONTROL=1: neither process measures
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
seconds=${2:-8}
work=$(mktemp -d /tmp/guide-metrics-overhead.XXXXXX)
out=.test-build/metrics-overhead-$$
pids=()
# The services start in a subshell (their port and key are read from it): their pids are kept in files.
cleanup() {
  for pid in "${pids[@]}" $(cat "$work"/*/pid 2> /dev/null); do kill "$pid" 2> /dev/null || true; done
  rm -rf "$work" "$out"
}
trap cleanup EXIT
npx tsc -p tsconfig.build.json --outDir "$out"
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
TOKEN=metrics-overhead-token-0123456789

start() { # name, extra env
  local name=$1 port; port=$(free_port); shift
  mkdir -p "$work/$name"
  env PORT="$port" DATA_DIR="$work/$name" DATABASE_URL="file:$work/$name/service.db" LOG_LEVEL=warn RATE_LIMIT_PER_MINUTE=1000000 "$@" \
    node "$out/main.js" > "$work/$name/out.log" 2>&1 &
  echo $! > "$work/$name/pid"
  for _ in $(seq 100); do grep -q 'Organization key' "$work/$name/out.log" 2> /dev/null && break; sleep 0.2; done
  echo "$port $(grep -o 'Organization key ([^)]*): *gsk_[A-Za-z0-9]*' "$work/$name/out.log" | grep -o 'gsk_[A-Za-z0-9]*')"
}
run() { # port key
  wrk -t2 -c64 -d"${seconds}s" -H "Authorization: Bearer $2" "http://127.0.0.1:$1/v1/guides?limit=50" | awk '/Requests\/sec/ { print $2 }'
}
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

# One session: a process without and one with metrics (scraped every second), started in the order
# given, measured in alternating rounds; prints the median on/off. On this machine the process started
# second was measured 4-13 % slower whatever it ran, so the script runs a session in each order.
session() { # first second (each "off" or "on")
  local started=() port key ports=() keys=() scraper
  for kind in "$1" "$2"; do
    # CONTROL=1: the "on" process without METRICS_TOKEN too, to see how far two like processes differ.
    if [ "$kind" = on ] && [ "${CONTROL:-0}" != 1 ]; then read -r port key < <(start "$kind-$3" METRICS_TOKEN=$TOKEN); else read -r port key < <(start "$kind-$3"); fi
    started+=("$kind"); ports+=("$port"); keys+=("$key")
  done
  local on_index=0; [ "${started[1]}" = on ] && on_index=1
  local off_index=$((1 - on_index))
  (while :; do curl -s -o /dev/null -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:${ports[$on_index]}/metrics"; sleep 1; done) &
  scraper=$!
  run "${ports[0]}" "${keys[0]}" > /dev/null; run "${ports[1]}" "${keys[1]}" > /dev/null
  local offs=() ons=() off on
  for round in $(seq "$rounds"); do
    if [ $((round % 2)) = 1 ]; then off=$(run "${ports[$off_index]}" "${keys[$off_index]}"); on=$(run "${ports[$on_index]}" "${keys[$on_index]}")
    else on=$(run "${ports[$on_index]}" "${keys[$on_index]}"); off=$(run "${ports[$off_index]}" "${keys[$off_index]}"); fi
    offs+=("$off"); ons+=("$on")
    echo "  started $1 then $2, round $round: metrics off $off req/s, on $on req/s" >&2
  done
  kill "$scraper"
  for pid in $(cat "$work/$1-$3/pid" "$work/$2-$3/pid"); do kill "$pid"; done
  ratio "$(median "${ons[@]}")" "$(median "${offs[@]}")"
}
first=$(session off on a)
second=$(session on off b)
echo "on/off: $first (off started first), $second (on started first), geometric mean $(awk -v a="$first" -v b="$second" 'BEGIN { printf "%.3f", sqrt(a * b) }')"
