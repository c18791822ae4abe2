#!/bin/sh
# As the official redis image: protected mode off, and the server runs as redis.
set -eu
if [ "$1" = redis-server ]; then shift; set -- redis-server --protected-mode no "$@"; fi
exec setpriv --reuid redis --regid redis --init-groups "$@"
