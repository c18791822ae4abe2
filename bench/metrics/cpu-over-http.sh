#!/usr/bin/env bash
# CPU time per request over HTTP (issue 15): two processes of one build answer GET /v1/guides?limit=50
# under wrk in alternating 8 s rounds; each round prints the CPU (utime + stime from /proc) each process
# spent per request it answered. `ab`: the first with METRICS_TOKEN (scraped every second), the second
# without; `aa`: neither, which shows how far two identical processes differ on this machine.
#   bench/metrics/cpu-over-http.sh [ab|aa] [rounds=4]
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-ab}
rounds=${2:-4}
work=$(mktemp -d /tmp/guide-cpu-http.XXXXXX)
out=.test-build/cpu-over-http-$$
scraper=""
cleanup() { for pid in $scraper $(cat "$work"/*/pid 2> /dev/null); do kill "$pid" 2> /dev/null || true; done; rm -rf "$work" "$out"; }
trap cleanup EXIT
npx tsc -p tsconfig.build.json --outDir "$out"
TOKEN=metrics-overhead-token-0123456789
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

start() { # name port [env…]
  mkdir -p "$work/$1"
  env PORT="$2" DATA_DIR="$work/$1" DATABASE_URL="file:$work/$1/service.db" LOG_LEVEL=warn RATE_LIMIT_PER_MINUTE=1000000 "${@:3}" \
    node "$out/main.js" > "$work/$1/out.log" 2>&1 &
  echo $! > "$work/$1/pid"
  for _ in $(seq 100); do grep -q 'Organization key' "$work/$1/out.log" 2> /dev/null && break; sleep 0.2; done
}
key() { grep -o 'Organization key ([^)]*): *gsk_[A-Za-z0-9]*' "$work/$1/out.log" | grep -o 'gsk_[A-Za-z0-9]*'; }
ticks() { awk '{ print $14 + $15 }' "/proc/$(cat "$work/$1/pid")/stat"; }
# µs of CPU per answered request: clock ticks are 10 ms.
measure() { # name port
  local before after requests
  before=$(ticks "$1")
  requests=$(wrk -t2 -c64 -d8s -H "Authorization: Bearer $(key "$1")" "http://127.0.0.1:$2/v1/guides?limit=50" | awk '/ requests in / { print $1 }')
  after=$(ticks "$1")
  awk -v a="$before" -v b="$after" -v n="$requests" 'BEGIN { printf "%.1f", (b - a) * 10000 / n }'
}

first_port=$(free_port); second_port=$(free_port)
if [ "$mode" = ab ]; then start first "$first_port" METRICS_TOKEN=$TOKEN; else start first "$first_port"; fi
start second "$second_port"
if [ "$mode" = ab ]; then
  (while :; do curl -s -o /dev/null -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:$first_port/metrics"; sleep 1; done) &
  scraper=$!
fi
measure first "$first_port" > /dev/null; measure second "$second_port" > /dev/null
label=$([ "$mode" = ab ] && echo "metrics on" || echo "first")
for round in $(seq "$rounds"); do
  echo "round $round: CPU µs per request: $label $(measure first "$first_port"), $([ "$mode" = ab ] && echo "metrics off" || echo "second") $(measure second "$second_port")"
done
