# Sourced by scripts/fuzz-*.sh: sets $root and $build and configures the
# sanitizer build in $build (build-fuzz/, or $UOP_FUZZ_BUILD_DIR) with
# clang-22 and -DUOP_ENABLE_FUZZ=ON plus the CMake options given, once;
# an existing build gets the options given set again.
root=$(cd "$(dirname "$0")/.." && pwd)
build=${UOP_FUZZ_BUILD_DIR:-$root/build-fuzz}
fuzz_configure() {
  if [ ! -f "$build/build.ninja" ]; then
    cmake -S "$root" -B "$build" -G Ninja \
      -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
      -DLLVM_USE_LINKER=lld -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 -DUOP_ENABLE_FUZZ=ON "$@"
  elif [ $# -gt 0 ]; then
    cmake "$build" "$@" > /dev/null
  fi
}
