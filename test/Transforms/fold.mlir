// RUN: uop-opt %s -canonicalize -split-input-file | FileCheck %s
// RUN: uop-opt %s -uop-symbolic -split-input-file | FileCheck %s
//
// Constant folding with exec_alu's exact semantics (test_w01
// test_const_fold_semantics, test_folding_matches_c_semantics,
// test_cast_inf_to_int_is_not_folded): i32 wraps, floor division and
// modulo, f32/f16 results rounded to their type, what C leaves undefined is
// left for run time, and exec_alu's special cases.

// CHECK-LABEL: func.func @i32_wraps
func.func @i32_wraps() -> (i32, i32, i32) {
  %max = uop.const 2147483647 : i32
  %one = uop.const 1 : i32
  %big = uop.const 65536 : i32
  %m1 = uop.const -1 : i32
  %min = uop.const -2147483648 : i32
  // CHECK-DAG: %[[A:.*]] = uop.const -2147483648 : i32
  // CHECK-DAG: %[[B:.*]] = uop.const 0 : i32
  // CHECK: return %[[A]], %[[B]], %[[A]]
  %0 = uop.add %max, %one : i32
  %1 = uop.mul %big, %big : i32
  %2 = uop.mul %min, %m1 : i32
  return %0, %1, %2 : i32, i32, i32
}

// -----

// CHECK-LABEL: func.func @floor_div_mod
func.func @floor_div_mod() -> (i32, i32, i32, i32, i32) {
  %m7 = uop.const -7 : i32
  %p7 = uop.const 7 : i32
  %p2 = uop.const 2 : i32
  %m2 = uop.const -2 : i32
  %min = uop.const -2147483648 : i32
  %m1 = uop.const -1 : i32
  // CHECK-DAG: %[[M4:.*]] = uop.const -4 : i32
  // CHECK-DAG: %[[P1:.*]] = uop.const 1 : i32
  // CHECK-DAG: %[[M1:.*]] = uop.const -1 : i32
  // CHECK-DAG: %[[Z:.*]] = uop.const 0 : i32
  // CHECK: return %[[M4]], %[[P1]], %[[M4]], %[[M1]], %[[Z]]
  %0 = uop.floordiv %m7, %p2 : i32
  %1 = uop.floormod %m7, %p2 : i32
  %2 = uop.floordiv %p7, %m2 : i32
  %3 = uop.floormod %p7, %m2 : i32
  // INT_MIN % -1 is 0 in the seed (only INT_MIN // -1 is refused)
  %4 = uop.floormod %min, %m1 : i32
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}

// -----

// What C leaves undefined is never folded.
// CHECK-LABEL: func.func @undefined_left_for_run_time
func.func @undefined_left_for_run_time() -> (i32, i32, i32, i32, i32) {
  %x = uop.const 5 : i32
  %zero = uop.const 0 : i32
  %min = uop.const -2147483648 : i32
  %m1 = uop.const -1 : i32
  %inf = uop.const 0x7F800000 : f32
  %nan = uop.const 0x7FC00000 : f32
  // CHECK: uop.floordiv %{{.*}}, %{{.*}} : i32
  // CHECK: uop.floormod %{{.*}}, %{{.*}} : i32
  // CHECK: uop.floordiv %{{.*}}, %{{.*}} : i32
  // Casts saturate (issue 32): inf is INT32_MAX, NaN 0; they fold.
  // CHECK-NOT: uop.cast
  %0 = uop.floordiv %x, %zero : i32
  %1 = uop.floormod %x, %zero : i32
  %2 = uop.floordiv %min, %m1 : i32
  %3 = uop.cast %inf : f32 to i32
  %4 = uop.cast %nan : f32 to i32
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}

// -----

// CHECK-LABEL: func.func @casts
func.func @casts() -> (i32, i32, f32, i1, i1, f16, f16) {
  %a = uop.const -2.7 : f32
  %b = uop.const 3.0e9 : f32
  %c = uop.const 16777217 : i32
  %nan = uop.const 0x7FC00000 : f32
  %zero = uop.const 0.0 : f32
  %big = uop.const 1.0e6 : f32
  %tenth = uop.const 0.1 : f32
  // CHECK-DAG: %[[A:.*]] = uop.const -2 : i32
  // CHECK-DAG: %[[B:.*]] = uop.const 2147483647 : i32
  // CHECK-DAG: %[[C:.*]] = uop.const 0x4B800000 : f32
  // CHECK-DAG: %[[T:.*]] = uop.const true
  // CHECK-DAG: %[[F:.*]] = uop.const false
  // CHECK-DAG: %[[H:.*]] = uop.const 9.997550e-02 : f16
  // CHECK-DAG: %[[BIG:.*]] = uop.cast %{{.*}} : f32 to f16
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[T]], %[[F]], %[[BIG]], %[[H]]
  %0 = uop.cast %a : f32 to i32     // C truncates toward zero
  %1 = uop.cast %b : f32 to i32     // saturates (the seed wrapped)
  %2 = uop.cast %c : i32 to f32     // rounded to f32
  %3 = uop.cast %nan : f32 to i1    // bool(nan) is true
  %4 = uop.cast %zero : f32 to i1
  %5 = uop.cast %big : f32 to f16   // not an f16 value (>= 65520): left for run time
  %6 = uop.cast %tenth : f32 to f16
  return %0, %1, %2, %3, %4, %5, %6 : i32, i32, f32, i1, i1, f16, f16
}

// -----

// CHECK-LABEL: func.func @f32_rounding
func.func @f32_rounding() -> (f32, f32, f32) {
  %a = uop.const 16777216.0 : f32
  %one = uop.const 1.0 : f32
  %b = uop.const 16777217.0 : f32   // already 16777216 as an f32 literal
  %two = uop.const 2.0 : f32
  %p1 = uop.const 0.1 : f32
  %p2 = uop.const 0.2 : f32
  // CHECK-DAG: %[[A:.*]] = uop.const 0x4B800000 : f32
  // CHECK-DAG: %[[B:.*]] = uop.const 0x4B800001 : f32
  // CHECK-DAG: %[[C:.*]] = uop.const 3.000000e-01 : f32
  // CHECK: return %[[A]], %[[B]], %[[C]]
  %0 = uop.add %a, %one : f32
  %1 = uop.add %b, %two : f32
  %2 = uop.add %p1, %p2 : f32
  return %0, %1, %2 : f32, f32, f32
}

// -----

// CHECK-LABEL: func.func @f16
func.func @f16() -> (f16, f16) {
  %max = uop.const 65504.0 : f16
  %s = uop.const 16.0 : f16
  %one = uop.const 1.0 : f16
  %eps = uop.const 0.0004 : f16
  // CHECK-DAG: %[[R:.*]] = uop.const 1.000000e+00 : f16
  // CHECK-DAG: %[[O:.*]] = uop.add %{{.*}}, %{{.*}} : f16
  // CHECK: return %[[O]], %[[R]]
  %0 = uop.add %max, %s : f16   // 65520 is not an f16: left for run time
  %1 = uop.add %one, %eps : f16 // rounds back to 1.0
  return %0, %1 : f16, f16
}

// -----

// exec_alu's special cases.
// CHECK-LABEL: func.func @special_cases
func.func @special_cases() -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %zero = uop.const 0.0 : f32
  %nzero = uop.const -0.0 : f32
  %m1 = uop.const -1.0 : f32
  %one = uop.const 1.0 : f32
  %big = uop.const 200.0 : f32
  %inf = uop.const 0x7F800000 : f32
  %nan = uop.const 0x7FC00000 : f32
  // CHECK-DAG: %[[INF:.*]] = uop.const 0x7F800000 : f32
  // CHECK-DAG: %[[NINF:.*]] = uop.const 0xFF800000 : f32
  // CHECK-DAG: %[[NAN:.*]] = uop.const 0x7FC00000 : f32
  // CHECK-DAG: %[[ONE:.*]] = uop.const 1.000000e+00 : f32
  // CHECK: return %[[INF]], %[[NINF]], %[[NINF]], %[[NAN]], %[[NAN]], %[[INF]], %[[INF]], %[[NAN]], %[[NAN]], %[[ONE]], %[[NAN]]
  %0 = uop.recip %zero : f32    // +inf
  %1 = uop.recip %nzero : f32   // -inf
  %2 = uop.log2 %zero : f32     // -inf
  %3 = uop.log2 %m1 : f32       // nan
  %4 = uop.sqrt %m1 : f32       // nan
  %5 = uop.exp2 %big : f32      // overflow: inf
  %6 = uop.exp2 %nan : f32      // the seed: nan < 1024 is false, so inf
  %7 = uop.mul %inf, %zero : f32  // the seed's math.nan (positive), not x86's default NaN
  %8 = uop.max %nan, %one : f32   // python max(a, b): a unless b > a
  %9 = uop.max %one, %nan : f32
  %10 = uop.sin %inf : f32      // nan
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
}

// -----

// CHECK-LABEL: func.func @bools_and_compares
func.func @bools_and_compares() -> (i1, i1, i1, i1, i32) {
  %t = uop.const true
  %f = uop.const false
  %a = uop.const 3 : i32
  %b = uop.const -3 : i32
  // CHECK-DAG: %[[T:.*]] = uop.const true
  // CHECK-DAG: %[[F:.*]] = uop.const false
  // CHECK-DAG: %[[THREE:.*]] = uop.const 3 : i32
  // CHECK: return %[[T]], %[[T]], %[[F]], %[[T]], %[[THREE]]
  %0 = uop.add %t, %t : i1      // bool(1 + 1)
  %1 = uop.cmplt %f, %t : i1
  %2 = uop.cmplt %a, %b : i32
  %3 = uop.cmpne %a, %b : i32
  %4 = uop.max %a, %b : i32
  return %0, %1, %2, %3, %4 : i1, i1, i1, i1, i32
}

// -----

// Dense tensor constants fold elementwise; a stack of constants is one.
// CHECK-LABEL: func.func @dense
func.func @dense() -> (tensor<3xi32>, tensor<3xi32>, tensor<2xi32>, tensor<2xf32>) {
  %a = uop.const dense<[1, 2, 3]> : tensor<3xi32>
  %b = uop.const dense<[10, 20, 30]> : tensor<3xi32>
  %s = uop.const dense<7> : tensor<2xi32>
  %z = uop.const dense<[1, 0]> : tensor<2xi32>
  %c1 = uop.const 1.0 : f32
  %c2 = uop.const 2.0 : f32
  // CHECK-DAG: %[[A:.*]] = uop.const dense<[11, 42, 93]> : tensor<3xi32>
  // CHECK-DAG: %[[W:.*]] = uop.const dense<[1, 20, 30]> : tensor<3xi32>
  // CHECK-DAG: %[[S:.*]] = uop.const dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  // CHECK-DAG: %[[D:.*]] = uop.floordiv %{{.*}}, %{{.*}} : tensor<2xi32>
  // CHECK: return %[[A]], %[[W]], %[[D]], %[[S]]
  %0 = uop.mul %a, %b : tensor<3xi32>
  %1 = uop.add %0, %a : tensor<3xi32>
  %two = uop.const dense<2> : tensor<3xi32>
  %lt = uop.cmplt %a, %two : tensor<3xi32>
  %w = uop.where %lt, %a, %b : tensor<3xi32>
  %d = uop.floordiv %s, %z : tensor<2xi32>  // 7 // 0 in one element: not folded
  %st = uop.stack %c1, %c2 : f32
  return %1, %w, %d, %st : tensor<3xi32>, tensor<3xi32>, tensor<2xi32>, tensor<2xf32>
}
