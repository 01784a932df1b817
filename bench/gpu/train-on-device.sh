#!/usr/bin/env bash
# On a GPU machine with no LLVM/MLIR: build the MLIR-free runtime and tools
# (-DUOP_RUNTIME_ONLY=ON), check the runtime on the GPU (its GPU unit tests:
# the driver, device memory, CUDA graphs, step replays), then run the
# training benchmark of what the compiler prepared here (DIR, made by
# `bench/gpu/train.py prepare build/bin DIR`): the MLP and GPT steps replayed
# from CUDA step bundles by uop-runner beside PyTorch eager and PyTorch with
# CUDA graphs, and their loss after 200 steps against the CPU run.
# Usage: bench/gpu/train-on-device.sh DIR [BUILD]
set -uo pipefail
DIR=$1; BUILD=${2:-/tmp/build-rt}
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
cmake -S "$ROOT" -B "$BUILD" -G Ninja -DUOP_RUNTIME_ONLY=ON -DCMAKE_BUILD_TYPE=Release > "$BUILD.cmake.log" 2>&1 || { tail -20 "$BUILD.cmake.log"; exit 1; }
ninja -C "$BUILD" > "$BUILD.ninja.log" 2>&1 || { tail -30 "$BUILD.ninja.log"; exit 1; }
RUNNER=$(find "$BUILD" -name uop-runner -type f -perm -u+x | head -1)
echo "== runtime unit tests on the GPU"
T=$(find "$BUILD" -name UopRuntimeTests -type f | head -1)
if [[ -n "$T" ]]; then "$T" --gtest_filter='GpuTest.*:CudaTest.*:StepTest.*' 2>&1 | grep -E "^\[ *(OK|FAILED|PASSED|SKIPPED) *\]|Failure|error" | tail -30
else echo "(no googletest here)"; fi
echo "== training steps: uop-runner on CUDA step bundles beside PyTorch"
PYTHONUNBUFFERED=1 python3 "$ROOT/bench/gpu/train.py" run "$RUNNER" "$DIR"
