#!/bin/sh
# Differential fuzzing of uop against the Python seed.
#
#   scripts/fuzz-diff.sh N [SEED]     (default: 200 programs, seed 0)
#
# N random programs (L1 shaped f32 and i32 chains, L2 loop programs: the
# generator of test/Integration/randprog.py) run by build/bin/uop-run with
# --target=cpu and --target=emulate (a quarter also --opt=hand and
# --fuse-reduce) and by the seed from the same .uir text; values compared.
# A difference is minimized (delta debugging) into
# $UOP_FUZZ_DIFF_RESULTS (default build/fuzz-diff/) and the command that
# reproduces it printed. Kernels are cached in $UOP_CACHE (default
# build/fuzz-diff/uop-cache, kept warm between runs).
#
# Environment: UOP_BUILD_DIR (default build), UOP_SEED_ROOT (default
# ../shared/reference/uopc-python), PYTHON (default /usr/bin/python3),
# FUZZ_DIFF_ARGS (more arguments, e.g. --extra-frac 1 --no-minimize).
set -e
n=${1:-200}
seed=${2:-0}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${UOP_BUILD_DIR:-$root/build}
seed_root=${UOP_SEED_ROOT:-$(cd "$root/.." && pwd)/shared/reference/uopc-python}
[ -d "$seed_root" ] || seed_root=/work/shared/reference/uopc-python
results=${UOP_FUZZ_DIFF_RESULTS:-$build/fuzz-diff}
mkdir -p "$results"
export UOP_CACHE="${UOP_CACHE:-$results/uop-cache}"
exec "${PYTHON:-/usr/bin/python3}" "$root/test/Integration/fuzz_diff.py" "$seed_root" \
  "$build/bin/uop-run" "$results" "$n" "$seed" $FUZZ_DIFF_ARGS
