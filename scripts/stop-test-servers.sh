#!/usr/bin/env bash
# Stops what start-test-servers.sh started (TEST_SERVERS_DIR) and removes its data.
set -u
base=${TEST_SERVERS_DIR:?run start-test-servers.sh first}
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$pg_bin/pg_ctl" -D "$base/pg" -m immediate stop > /dev/null 2>&1
else "$pg_bin/pg_ctl" -D "$base/pg" -m immediate stop > /dev/null 2>&1; fi
[ -f "$base/redis.pid" ] && kill "$(cat "$base/redis.pid")" 2> /dev/null
rm -rf "$base"
