// Passes and pipelines given the wrong place or level say so, never abort.
// RUN: not uop-opt %s --pass-pipeline='builtin.module(func.func(uop-cpu-pipeline))' 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: error: uop-cpu-pipeline runs on a builtin.module, not nested under 'func.func' (use --pass-pipeline='builtin.module(uop-cpu-pipeline)' or --uop-cpu-pipeline)
// NESTED-NOT: LLVM ERROR
// RUN: not uop-opt %s --pass-pipeline='builtin.module(uop-cpu-pipeline{opt=fast})' 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: Cannot find option named 'fast'
// RUN: uop-opt %s --uop-lower-host 2>&1 >/dev/null | FileCheck %s --check-prefix=HOST
// RUN: uop-opt %s --uop-linearize 2>&1 >/dev/null | FileCheck %s --check-prefix=LIN
// LIN: uop-pipeline-misuse.mlir:[[@LINE+2]]:1: warning: uop-linearize: @main is a shaped program (L1), not a kernel graph; run uop-rangeify first (nothing to linearize)
// HOST: uop-pipeline-misuse.mlir:[[@LINE+1]]:1: warning: uop-lower-host: @main is not the host of a kernelized program (run uop-kernelize first); nothing to lower
func.func @main() -> tensor<8xf32> {
  %a = uop.buffer 0 : tensor<8xf32>
  %e = uop.exp2 %a : tensor<8xf32>
  return %e : tensor<8xf32>
}
