// RUN: not uop-smt-check %s --after=%S/Inputs/wrong-after.mlir 2>&1 | FileCheck %s
// RUN: not uop-smt-check %s --after=%S/Inputs/wrong-after.mlir --exact 2>&1 | FileCheck %s --check-prefix=EXACT
//
// uop-smt-check on a given pair: a wrong "after" gets a counterexample at the
// op, a right one is proven, and one that holds only without i32 overflow is
// an error with --exact.

// The seed's (x % c1) // c2 -> (x // c2) % (c1 // c2) for a negative c1 (uop
// requires c1 > 0): wrong.
// CHECK: smt-counterexample.mlir:[[@LINE+7]]:8: error: uop-smt-check: in @mod_div_negative, not proven that result #0 is the same
// CHECK: note: counterexample: %arg0 =
// CHECK: wrong-after.mlir:{{[0-9]+}}:{{[0-9]+}}: note: after uop-symbolic
func.func @mod_div_negative(%x: i32) -> i32 {
  %cm4 = uop.const -4 : i32
  %c2 = uop.const 2 : i32
  %m = uop.floormod %x, %cm4 : i32
  %0 = uop.floordiv %m, %c2 : i32
  return %0 : i32
}

// Right: (x // 2) // 3 -> x // 6.
func.func @div_div(%x: i32) -> i32 {
  %c2 = uop.const 2 : i32
  %c3 = uop.const 3 : i32
  %d = uop.floordiv %x, %c2 : i32
  %0 = uop.floordiv %d, %c3 : i32
  return %0 : i32
}

// (x * 4) // 4 -> x holds only if x * 4 does not wrap.
// EXACT: error: uop-smt-check: in @div_sum, result #0 is the same only assuming no i32 overflow
func.func @div_sum(%x: i32) -> i32 {
  %c4 = uop.const 4 : i32
  %m = uop.mul %x, %c4 : i32
  %0 = uop.floordiv %m, %c4 : i32
  return %0 : i32
}

// A float max with a constant on the left keeps its order: max(1.0, nan) is
// 1.0 and max(nan, 1.0) is nan.
// CHECK: in @max_swap, not proven that result #0 is the same
// CHECK: note: counterexample: %arg0 = nan
// CHECK: note: before: 1{{.*}}; after: nan
func.func @max_swap(%f: f32) -> f32 {
  %c1 = uop.const 1.0 : f32
  %0 = uop.max %c1, %f : f32
  return %0 : f32
}
// CHECK: uop-smt-check: 4 functions, {{[0-9]+}} obligations: {{[0-9]+}} proven, 1 proven under the seed's premises, 2 failed, 0 not translated
