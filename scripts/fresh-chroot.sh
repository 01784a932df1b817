#!/usr/bin/env bash
# The fresh-machine check of the README's main command: a minimal Debian 12
# (debootstrap --variant=minbase: no LLVM, cmake, python3 or git), this
# checkout cloned into it, and scripts/run.sh run there as root, so every
# package the build and the examples need must come from scripts/setup.sh.
#
#   sudo scripts/fresh-chroot.sh [DIR] [--ccache]
#
# DIR (default /var/tmp/uop-fresh) holds the chroot; its log is DIR/run.log.
# --ccache bind-mounts this machine's ccache (compiler outputs only, no
# packages) to shorten the build. Needs debootstrap and network access to
# the machine's Debian mirror (its apt sources are copied in).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR=${1:-/var/tmp/uop-fresh}
CCACHE=0
[[ "${2:-}" == --ccache || "${1:-}" == --ccache ]] && CCACHE=1
[[ "$DIR" == --ccache ]] && DIR=/var/tmp/uop-fresh
R="$DIR/root"
command -v debootstrap >/dev/null || apt-get install -y -q debootstrap
[[ -x "$R/bin/bash" ]] || debootstrap --variant=minbase bookworm "$R" http://deb.debian.org/debian
if [[ -d /etc/apt/sources.list.d ]]; then
  cp /etc/apt/sources.list.d/*.sources "$R/etc/apt/sources.list.d/" 2>/dev/null && rm -f "$R/etc/apt/sources.list" || true
fi
cp /etc/resolv.conf "$R/etc/"
mounts=(proc dev sys)
for m in "${mounts[@]}"; do mountpoint -q "$R/$m" || mount --bind "/$m" "$R/$m"; done
if ((CCACHE)); then
  mkdir -p "$R/root/.cache/ccache"
  mountpoint -q "$R/root/.cache/ccache" || mount --bind "${CCACHE_DIR:-$HOME/.cache/ccache}" "$R/root/.cache/ccache"
  mounts+=(root/.cache/ccache)
fi
trap 'for m in "${mounts[@]}"; do umount "$R/$m" 2>/dev/null || true; done' EXIT
rm -rf "$R/work/uop" && mkdir -p "$R/work" && git clone -q "$ROOT" "$R/work/uop"
echo "fresh-chroot: running scripts/run.sh in $R (log: $DIR/run.log)"
rc=0
chroot "$R" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  TERM=dumb LANG=C.UTF-8 bash -c "cd /work/uop && scripts/run.sh" > "$DIR/run.log" 2>&1 || rc=$?
tail -5 "$DIR/run.log"
echo "fresh-chroot: scripts/run.sh exited $rc"
exit $rc
