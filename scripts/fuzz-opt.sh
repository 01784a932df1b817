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
root=$(cd "$(dirname "$0")/.." && pwd)
build=${UOP_FUZZ_BUILD_DIR:-$root/build-fuzz}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DLLVM_USE_LINKER=lld -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 -DUOP_ENABLE_FUZZ=ON \
    -DUOP_ENABLE_OPT_FUZZ=ON
else
  cmake "$build" -DUOP_ENABLE_OPT_FUZZ=ON > /dev/null
fi
ninja -C "$build" uop-opt-fuzz
mkdir -p "$build/opt-fuzz-corpus" "$build/opt-fuzz-artifacts"
exec "$build/bin/uop-opt-fuzz" "$build/opt-fuzz-corpus" "$root/fuzz/opt-corpus" \
  -max_total_time="$secs" -jobs="$jobs" -workers="$jobs" -rss_limit_mb=4096 -timeout=30 \
  -max_len=8192 -dict="$root/fuzz/opt.dict" -artifact_prefix="$build/opt-fuzz-artifacts/" \
  -print_final_stats=1
