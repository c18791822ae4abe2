#!/bin/sh
# The official postgres image's start, reduced to what compose.yaml uses: as root, hand the data directory
# to postgres and start again as postgres; on an empty data directory, initdb with POSTGRES_USER and
# POSTGRES_PASSWORD (password logins from other hosts) and create POSTGRES_DB; then run the command.
set -eu
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
  exec setpriv --reuid postgres --regid postgres --init-groups "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  user=${POSTGRES_USER:-postgres}
  printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is not set}" > /tmp/pwfile
  initdb --username="$user" --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256 > /dev/null
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
  db=${POSTGRES_DB:-$user}
  if [ "$db" != postgres ]; then
    echo "CREATE DATABASE \"$db\"" | postgres --single -D "$PGDATA" postgres > /dev/null
  fi
fi
if [ "$1" = postgres ]; then shift; exec postgres "$@"; fi
exec "$@"
