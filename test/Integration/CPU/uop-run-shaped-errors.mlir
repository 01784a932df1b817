// Errors of uop-run on shaped (kernelized) programs: each names what is
// wrong and exits 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not uop-run %s 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: uop-run: error: missing input for slot 0 (a buffer of 4 x f32 the program reads): pass --input 0=FILE.npy or --random-inputs
// RUN: not uop-run %s --random-inputs --output %t/a.npy --output %t/b.npy 2>&1 | FileCheck %s --check-prefix=TOOMANY
// TOOMANY: uop-run: error: --output {{.*}}b.npy: the program has only 1 value(s)
// RUN: not uop-run %s --random-inputs --output 1=%t/a.npy 2>&1 | FileCheck %s --check-prefix=NOSLOT
// NOSLOT: uop-run: error: --output 1={{.*}}a.npy: the program has no buffer slot 1 (save a shaped program's value with --output FILE.npy)
// RUN: not uop-run %S/Inputs/mixed-returns.mlir 2>&1 | FileCheck %s --check-prefix=MIXED
// MIXED: mixed-returns.mlir:1:1: error: @main returns both values and effects (!uop.void); a shaped program returns values only
// MIXED-NOT: see current operation
func.func @main() -> tensor<4xf32> {
  %b = uop.buffer 0 : tensor<4xf32>
  %e = uop.exp2 %b : tensor<4xf32>
  return %e : tensor<4xf32>
}
