#!/usr/bin/env bash
# The cost of measuring (issue 15), over HTTP: the same read, GET /v1/guides?limit=50 with the demo's
# organization key (answered from the read cache, so the measurement's share is as large as it gets),
# against two processes of one build (rate limit out of the way), one with METRICS_TOKEN and scraped
# every second, one without. Rounds alternate between them so that drift on a shared machine hits both
# alike; prints req/s per round and the medians. bench/metrics/cpu-per-read.mjs measures CPU time instead.
#   bench/metrics/overhead.sh [rounds=5] [seconds=8]
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
read -r off_port off_key < <(start off)
read -r on_port on_key < <(start on METRICS_TOKEN=$TOKEN)

run() { # port key
  wrk -t2 -c64 -d"${seconds}s" -H "Authorization: Bearer $2" "http://127.0.0.1:$1/v1/guides?limit=50" | awk '/Requests\/sec/ { print $2 }'
}
scraping() { while :; do curl -s -o /dev/null -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$on_port/metrics"; sleep 1; done; }
scraping & pids+=($!)
# Warm-up of both.
run "$off_port" "$off_key" > /dev/null; run "$on_port" "$on_key" > /dev/null
offs=(); ons=()
for round in $(seq "$rounds"); do
  if [ $((round % 2)) = 1 ]; then off=$(run "$off_port" "$off_key"); on=$(run "$on_port" "$on_key")
  else on=$(run "$on_port" "$on_key"); off=$(run "$off_port" "$off_key"); fi
  offs+=("$off"); ons+=("$on")
  echo "round $round: metrics off $off req/s, on $on req/s"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
m_off=$(median "${offs[@]}"); m_on=$(median "${ons[@]}")
echo "median: off $m_off req/s, on $m_on req/s, on/off $(awk -v a="$m_on" -v b="$m_off" 'BEGIN { printf "%.3f", a / b }')"
curl -s -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$on_port/metrics" | grep -E '^guide_http_request_duration_seconds_count\{route="/v1/guides"' || true
