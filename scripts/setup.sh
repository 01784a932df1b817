#!/usr/bin/env bash
# One-step set-up on a fresh Debian 12 machine: installs the Debian packages
# uop needs (only those missing), configures a Ninja build with clang-22, lld
# and ccache, and builds. Idempotent: run it again and it only rebuilds.
#
#   scripts/setup.sh [BUILD_DIR] [extra cmake args...]
#
# Environment: UOP_BUILD_TYPE (default Release), UOP_JOBS (default: nproc).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
shift || true

PACKAGES=(llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools clang-22
          libomp-22-dev lld ninja-build ccache cmake libgtest-dev python3
          python3-numpy libclang-rt-22-dev libz3-dev
          # the Python package (python/): pybind11, the headers, its tests
          pybind11-dev python3-pybind11 python3-dev python3-pytest
          # the examples: gzip'd datasets (zlib), their data, plots
          zlib1g-dev dataset-fashion-mnist fortunes gnuplot-nox)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  echo "uop setup: installing missing Debian packages: ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then
    SUDO=()
  elif command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
  else
    echo "uop setup: error: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if ! "${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
    echo "uop setup: apt-get install failed; refreshing package lists and retrying"
    "${SUDO[@]}" apt-get update
    "${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}" || {
      echo "uop setup: error: could not install: ${missing[*]}" >&2
      exit 1
    }
  fi
else
  echo "uop setup: all Debian packages present"
fi

# ccache keys by paths relative to the checkout, so a fresh clone elsewhere
# (CI) reuses what an earlier build of the same sources compiled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$ROOT}"

if [[ ! -f "$BUILD/build.ninja" ]]; then
  echo "uop setup: configuring $BUILD"
  cmake -S "$ROOT" -B "$BUILD" -G Ninja \
    -DCMAKE_BUILD_TYPE="${UOP_BUILD_TYPE:-Release}" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    -DLLVM_USE_LINKER=lld -DUOP_ENABLE_FUZZ=ON -DPython3_EXECUTABLE=/usr/bin/python3 "$@"
fi

echo "uop setup: building in $BUILD"
ninja -C "$BUILD" -j "${UOP_JOBS:-$(nproc)}"
