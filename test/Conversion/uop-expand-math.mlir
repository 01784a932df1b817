// RUN: uop-opt %s --uop-expand-math --split-input-file | FileCheck %s

// f32 exp2, scalar and vector: no math op is left; the range reduction is
// the 1.5*2^23 rounding, the polynomial ends in + 1.0, and the two scales
// are shifted into the exponent field.
// CHECK-LABEL: func.func @exp2
// CHECK-NOT: math.exp2
// CHECK-DAG: arith.constant 0x4B400000 : f32
// CHECK-DAG: arith.constant dense<0x4B400000> : vector<8xf32>
// CHECK-DAG: arith.constant dense<23> : vector<8xi32>
// CHECK: arith.shrsi
// CHECK: arith.shli
// CHECK: arith.bitcast {{.*}} : vector<8xi32> to vector<8xf32>
// CHECK-NOT: math.exp2
// CHECK: return
func.func @exp2(%x: f32, %v: vector<8xf32>) -> (f32, vector<8xf32>) {
  %0 = math.exp2 %x : f32
  %1 = math.exp2 %v : vector<8xf32>
  return %0, %1 : f32, vector<8xf32>
}

// -----

// f32 log2: the mantissa's series in f64, the special values selected.
// CHECK-LABEL: func.func @log2
// CHECK-NOT: math.log2
// CHECK: arith.extf {{.*}} : vector<4xf32> to vector<4xf64>
// CHECK: arith.divf {{.*}} : vector<4xf64>
// CHECK: arith.truncf {{.*}} : vector<4xf64> to vector<4xf32>
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf ult
// CHECK-NOT: math.log2
// CHECK: return
func.func @log2(%v: vector<4xf32>) -> vector<4xf32> {
  %0 = math.log2 %v : vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// f16 computes in f32; f64 (no uop dtype) keeps its math op.
// CHECK-LABEL: func.func @other_types
// CHECK: arith.extf %{{.*}} : vector<8xf16> to vector<8xf32>
// CHECK-NOT: math.exp2 {{.*}}f16
// CHECK: arith.truncf %{{.*}} : vector<8xf32> to vector<8xf16>
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: math.exp2 %{{.*}} : f64
// CHECK: math.log2 %{{.*}} : f64
func.func @other_types(%h: vector<8xf16>, %s: f16, %d: f64) -> (vector<8xf16>, f16, f64, f64) {
  %0 = math.exp2 %h : vector<8xf16>
  %1 = math.log2 %s : f16
  %2 = math.exp2 %d : f64
  %3 = math.log2 %d : f64
  return %0, %1, %2, %3 : vector<8xf16>, f16, f64, f64
}
