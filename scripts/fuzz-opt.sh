#!/bin/sh
# Fuzz the uop passes for a while.
#
#   scripts/fuzz-opt.sh [SECONDS] [JOBS]     (default: 600 seconds, 1 job)
#
# Builds tools/uop-opt-fuzz (clang-22, the passes compiled with
# -fsanitize=fuzzer,address,undefined and assertions; -DUOP_ENABLE_OPT_FUZZ=ON,
# which scripts/setup.sh leaves off) in build-fuzz/ if needed, then runs
# libFuzzer from fuzz/opt-corpus (the lit tests' .mlir pieces; regenerate with
# fuzz/make-opt-corpus.py). New inputs go to build-fuzz/opt-fuzz-corpus,
# crashes/timeouts to build-fuzz/opt-fuzz-artifacts/; a crash reproduces with
# `build-fuzz/bin/uop-opt-fuzz FILE`.
set -e
secs=${1:-600}
jobs=${2:-1}
. "$(dirname "$0")/fuzz-configure.sh"
fuzz_configure -DUOP_ENABLE_OPT_FUZZ=ON
ninja -C "$build" uop-opt-fuzz
mkdir -p "$build/opt-fuzz-corpus" "$build/opt-fuzz-artifacts"
exec "$build/bin/uop-opt-fuzz" "$build/opt-fuzz-corpus" "$root/fuzz/opt-corpus" \
  -max_total_time="$secs" -jobs="$jobs" -workers="$jobs" -rss_limit_mb=4096 -timeout=30 \
  -max_len=8192 -dict="$root/fuzz/opt.dict" -artifact_prefix="$build/opt-fuzz-artifacts/" \
  -print_final_stats=1
