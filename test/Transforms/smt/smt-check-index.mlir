// RUN: uop-smt-check %s --after=%S/Inputs/check-index-after.mlir -v 2>&1 | FileCheck %s
// RUN: not uop-smt-check %s --after=%S/Inputs/check-index-wrong.mlir 2>&1 | FileCheck %s --check-prefix=WRONG
// RUN: uop-opt %S/../../Integration/CPU/Inputs/gather-expand.uir --uop-kernelize --uop-rangeify > %t.mlir
// RUN: uop-smt-check %t.mlir | FileCheck %s --check-prefix=KERNEL
//
// uop.check_index (uop-rangeify's per-axis check of a gather, issue 32) in
// the SMT encoder: its value is its index, defined only in [0, size) (a
// failed check is an error, as an index out of bounds is); a uop.after of
// a value is the value. Both were opaque functions: nothing about the index
// followed from them.

// The index is in [0, 3) wherever the program is defined: // 4 is 0.
// CHECK: @in_range: proven
func.func @in_range(%i: i32) -> i32 {
  %c = uop.check_index %i, 3
  %c4 = uop.const 4 : i32
  %q = uop.floordiv %c, %c4 : i32
  return %q : i32
}

// The after is its value.
// CHECK: @after_value: proven
func.func @after_value(%x: f32, %i: i32) -> f32 {
  %c = uop.check_index %i, 3
  %a = uop.after %x, %c : f32, i32
  return %a : f32
}
// CHECK: 0 failed, 0 not translated

// A wrong after (1 for 0) is not proven.
// WRONG: error: uop-smt-check: in @in_range, not proven that result #0 is the same

// KERNEL: 0 failed, 0 not translated
