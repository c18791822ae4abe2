#!/usr/bin/env bash
# Starts a throwaway PostgreSQL and Redis on loopback for the test suite and prints the variables that
# point the suite at them. Run as root (CI) or as a user who may run postgres; installs nothing.
#   eval "$(scripts/start-test-servers.sh)"; npm test
# TEST_PG_DURABLE=1 keeps PostgreSQL's durable defaults (fsync, synchronous commit), as the benchmark does.
set -euo pipefail
# Ports the system hands out as free, unless given.
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
pg_port=${TEST_PG_PORT:-$(free_port)}
redis_port=${TEST_REDIS_PORT:-$(free_port)}
base=$(mktemp -d /tmp/guide-service-servers.XXXXXX)
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$pg_bin" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }

as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
[ "$(id -u)" = 0 ] && chown postgres "$base"
as_postgres "$pg_bin/initdb" -D "$base/pg" -A trust -U postgres --no-locale -E UTF8 > "$base/initdb.log"
# Durability is not needed for a throwaway test server; speed is. A benchmark measures it as deployed.
durability="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
[ "${TEST_PG_DURABLE:-}" = 1 ] && durability=""
# TEST_PG_OPTIONS: more settings for the server (the bench's --pg-statements loads pg_stat_statements).
as_postgres "$pg_bin/pg_ctl" -D "$base/pg" -l "$base/pg.log" -w start \
  -o "-p $pg_port -k $base -c listen_addresses=127.0.0.1 $durability -c max_connections=400 ${TEST_PG_OPTIONS:-}" > /dev/null
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
  --dir "$base" --logfile "$base/redis.log" --pidfile "$base/redis.pid"

echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$pg_port/postgres"
echo "export TEST_REDIS_URL=redis://127.0.0.1:$redis_port"
echo "export TEST_SERVERS_DIR=$base"
