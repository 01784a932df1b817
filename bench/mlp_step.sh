#!/bin/sh
# The MLP training step (784-128-10, batch 128, AdamW): uop beside numpy,
# one table (uop-bench-mlp-step runs bench/mlp_step_numpy.py on the same
# initial parameters and data).
#   bench/mlp_step.sh [BUILD_DIR] [--steps=N] [--warmup=N] [--profile]
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
case "$build" in --*) build=$here/../build ;; *) [ $# -gt 0 ] && shift ;; esac
exec "$build/bin/uop-bench-mlp-step" --numpy="$here/mlp_step_numpy.py" "$@"
