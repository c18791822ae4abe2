#!/bin/sh
# As the official haproxy image: options alone mean haproxy's; haproxy runs in the foreground (-db) in
# master-worker mode (-W), as the haproxy user.
set -eu
case "$1" in -*) set -- haproxy "$@" ;; esac
if [ "$1" = haproxy ]; then shift; set -- haproxy -W -db "$@"; fi
exec setpriv --reuid haproxy --regid haproxy --init-groups "$@"
