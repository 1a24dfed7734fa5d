#!/usr/bin/env bash
# Builds the sandbox's base image with no container registry: a minimal Debian root file system
# made by debootstrap from the Debian mirror this machine's apt already uses, imported into Docker.
# Usage: build_rootfs.sh IMAGE_TAG
set -euo pipefail
tag=${1:?usage: build_rootfs.sh IMAGE_TAG}
suite=${JUDGE_DEBIAN_SUITE:-bookworm}   # bookworm ships Python 3.11

mirror=${JUDGE_DEBIAN_MIRROR:-}
if [ -z "$mirror" ]; then
  # Reuse the mirror apt is configured with, so no host name lives in this repository.
  mirror=$(grep -h -o -E '^(URIs:|deb) +[^ ]+' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null \
    | awk '{print $2}' | grep -v -E 'security|updates' | head -n 1 || true)
fi
[ -n "$mirror" ] || { echo "no Debian mirror found in apt's sources; set JUDGE_DEBIAN_MIRROR" >&2; exit 1; }

if ! command -v debootstrap >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
debootstrap --variant=minbase --include=python3 "$suite" "$work/rootfs" "$mirror" >"$work/log" 2>&1 \
  || { tail -n 20 "$work/log" >&2; exit 1; }
# Nothing of the package manager is needed at run time; a smaller image starts faster.
rm -rf "$work/rootfs/var/cache/apt/"* "$work/rootfs/var/lib/apt/lists/"* "$work/rootfs/usr/share/doc" \
  "$work/rootfs/usr/share/man" "$work/rootfs/usr/share/locale"
tar -C "$work/rootfs" -c . | docker import - "$tag" >/dev/null
echo "imported $tag"
