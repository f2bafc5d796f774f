#!/usr/bin/env bash
# Builds a Debian trixie base image (trixie: its Node 20.19 is the floor of Vite 8, which builds the PWA) from Debian's own packages, for machines that reach no
# image registry (the container test). A facility with a registry mirror passes its own
# BASE_IMAGE to the build instead. Reused when present: building it takes about a minute.
set -euo pipefail
name="${1:-localhost/lmp-debian-base:trixie}"
if podman image exists "$name"; then echo "base image $name: present"; exit 0; fi
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
dir="$(mktemp -d /var/tmp/lmp-base.XXXXXX)"
trap 'rm -rf "$dir"' EXIT
debootstrap --variant=minbase trixie "$dir" "$mirror" >/dev/null
tar -C "$dir" -c . | podman import -q --change 'CMD ["/bin/bash"]' - "$name" >/dev/null
echo "base image $name: built"
