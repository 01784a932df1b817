#!/usr/bin/env bash
# The main job: set up and build uop, then run uop-opt over the programs in
# examples/ and print their IR. (Later issues make this run them.)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${UOP_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh" "$BUILD"

OPT="$BUILD/bin/uop-opt"
status=0
shopt -s nullglob
progs=("$ROOT"/examples/*.mlir)
# .uir programs need the importer (uop-translate builds alongside it).
if [[ -x "$BUILD/bin/uop-translate" ]]; then
  progs+=("$ROOT"/examples/*.uir)
fi
for prog in "${progs[@]}"; do
  echo "==== uop-opt -cse ${prog#$ROOT/}"
  if ! "$OPT" -cse "$prog"; then
    status=1
  fi
done
exit $status
