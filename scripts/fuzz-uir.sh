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
. "$(dirname "$0")/fuzz-configure.sh"
fuzz_configure
ninja -C "$build" uop-uir-fuzz
mkdir -p "$build/fuzz-corpus" "$build/fuzz-artifacts"
exec "$build/bin/uop-uir-fuzz" "$build/fuzz-corpus" "$root/fuzz/corpus" \
  -max_total_time="$secs" -jobs="$jobs" -workers="$jobs" -rss_limit_mb=4096 -timeout=30 \
  -dict="$root/fuzz/uir.dict" -artifact_prefix="$build/fuzz-artifacts/" -print_final_stats=1
