#!/bin/sh
# Fuzz the .uir importer/exporter for a while.
#
#   scripts/fuzz-uir.sh [SECONDS] [JOBS]     (default: 600 seconds, 1 job)
#
# Builds tools/uop-uir-fuzz (clang-22, -fsanitize=fuzzer,address,undefined) in
# build-fuzz/ if needed, then runs libFuzzer from fuzz/corpus (the lit tests'
# programs; regenerate with fuzz/make-corpus.sh). New inputs go to
# build-fuzz/fuzz-corpus, crashes/timeouts to build-fuzz/fuzz-artifacts/; a
# crash reproduces with `build-fuzz/bin/uop-uir-fuzz FILE`.
set -e
secs=${1:-600}
jobs=${2:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${UOP_FUZZ_BUILD_DIR:-$root/build-fuzz}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DLLVM_USE_LINKER=lld -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 -DUOP_ENABLE_FUZZ=ON
fi
ninja -C "$build" uop-uir-fuzz
mkdir -p "$build/fuzz-corpus" "$build/fuzz-artifacts"
exec "$build/bin/uop-uir-fuzz" "$build/fuzz-corpus" "$root/fuzz/corpus" \
  -max_total_time="$secs" -jobs="$jobs" -workers="$jobs" -rss_limit_mb=4096 -timeout=30 \
  -dict="$root/fuzz/uir.dict" -artifact_prefix="$build/fuzz-artifacts/" -print_final_stats=1
