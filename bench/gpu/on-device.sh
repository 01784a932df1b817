#!/usr/bin/env bash
# On a GPU machine with no LLVM/MLIR: build the MLIR-free runtime and tools
# (-DUOP_RUNTIME_ONLY=ON), then run what the compiler prepared here (DIR):
#   DIR/progs: every CPU integration program as a CUDA bundle + its CPU result
#   DIR/gemm:  the GEMM bundles of bench/gpu/gemm.py (fp32 and f16)
#   DIR/opts:  optional, candidate opts of one GEMM (gemm.py prepare-opts), timed one by one
#   DIR/smem.uopx: the seed's smem_gemm_ir(64, 16) (2 barriers, shared memory)
#   DIR/cudac: every program as a PTX bundle and a CUDA C bundle (--codegen=cuda-c),
#              test/Integration/GPU/cuda_c_vs_ptx.py prepare (optional)
# Usage: bench/gpu/on-device.sh DIR [OUT]
set -uo pipefail
DIR=$1; OUT=${2:-/tmp}
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
cmake -S "$ROOT" -B /tmp/build-rt -G Ninja -DUOP_RUNTIME_ONLY=ON -DCMAKE_BUILD_TYPE=Release > /tmp/cmake.log 2>&1 || { tail -20 /tmp/cmake.log; exit 1; }
ninja -C /tmp/build-rt > /tmp/ninja.log 2>&1 || { tail -30 /tmp/ninja.log; exit 1; }
RUNNER=$(find /tmp/build-rt -name uop-runner -type f -perm -u+x | head -1)
echo "== runtime unit tests on the GPU"
T=$(find /tmp/build-rt -name UopRuntimeTests -type f | head -1)
if [[ -n "$T" ]]; then "$T" --gtest_filter='GpuTest.*:Cuda*' 2>&1 | tail -15; else echo "(no googletest here)"; fi
echo "== every CPU integration program with --target=cuda vs the CPU"
python3 "$ROOT/test/Integration/GPU/cuda_vs_cpu.py" check "$RUNNER" "$DIR/progs"
if [[ -d "$DIR/cudac" ]]; then
  echo "== every program: the CUDA C bundle (nvcc) vs the PTX bundle"
  python3 "$ROOT/test/Integration/GPU/cuda_c_vs_ptx.py" check "$RUNNER" "$DIR/cudac"
fi
echo "== smem gemm (2 barriers, 2 x 256-float shared tiles) vs numpy"
"$RUNNER" "$DIR/smem.uopx" --random-inputs=3 --output 0=$OUT/a.npy --output 1=$OUT/b.npy --output 2=$OUT/c.npy && \
python3 -c "
import numpy as np
a, b, c = (np.load('$OUT/%s.npy' % x).reshape(64, 64) for x in 'abc')
print('smem gemm max abs error vs numpy:', np.abs(a @ b - c).max(), 'PASS' if np.allclose(a @ b, c, rtol=1e-4, atol=1e-4) else 'FAIL')"
if [[ -d "$DIR/opts" ]]; then
  echo "== GEMM opts candidates"
  python3 "$ROOT/bench/gpu/gemm.py" run-opts "$RUNNER" "$DIR/opts" 10
fi
echo "== GEMM vs cuBLAS and Triton"
python3 "$ROOT/bench/gpu/gemm.py" run "$RUNNER" "$DIR/gemm" 10
