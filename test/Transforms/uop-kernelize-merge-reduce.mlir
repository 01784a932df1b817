// RUN: uop-opt %s --split-input-file --uop-kernelize=layout=true | FileCheck %s
// RUN: uop-opt %s --split-input-file --uop-kernelize | FileCheck %s --check-prefix=PLAIN
//
// uop-kernelize with layout merges the reduced axes of a reduce into one
// where every operand reads them as one strided run of memory
// (MergeReduceAxes.cpp): the strategies then see the one-axis GEMM.
// Without layout (the seed's kernelize) nothing changes.

// GPT's weight gradient: sum over batch (4) and context (8) of
// x[b, t, i] * g[b, t, j]: both operands walk (b, t) as b*8 + t.
// CHECK-LABEL: func.func private @r_3_5()
// CHECK:         uop.reshape %{{.*}}, [3, 5, 32] : tensor<3x5x4x8xf32>
// CHECK:         uop.reduce %{{.*}} <add> pop 1 : tensor<3x5x32xf32>
// PLAIN-LABEL: func.func private @r_3_5()
// PLAIN:         uop.reduce %{{.*}} <add> pop 2 : tensor<3x5x4x8xf32>
func.func @dw() -> tensor<3x5xf32> {
  %x = uop.buffer 0 : tensor<96xf32>
  %g = uop.buffer 1 : tensor<160xf32>
  %x1 = uop.reshape %x, [4, 8, 3] : tensor<96xf32>
  %x2 = uop.permute %x1, [2, 0, 1] : tensor<4x8x3xf32>
  %x3 = uop.reshape %x2, [3, 1, 4, 8] : tensor<3x4x8xf32>
  %x4 = uop.expand %x3, [3, 5, 4, 8] : tensor<3x1x4x8xf32>
  %g1 = uop.reshape %g, [4, 8, 5] : tensor<160xf32>
  %g2 = uop.permute %g1, [2, 0, 1] : tensor<4x8x5xf32>
  %g3 = uop.reshape %g2, [1, 5, 4, 8] : tensor<5x4x8xf32>
  %g4 = uop.expand %g3, [3, 5, 4, 8] : tensor<1x5x4x8xf32>
  %m = uop.mul %x4, %g4 : tensor<3x5x4x8xf32>
  %r = uop.reduce %m <add> pop 2 : tensor<3x5x4x8xf32>
  return %r : tensor<3x5xf32>
}

// -----

// A bias broadcast over both reduced axes (stride 0 on each) and a
// constant do not stop the merge.
// CHECK-LABEL: func.func private @r_5()
// CHECK:         uop.reduce %{{.*}} <add> pop 1 : tensor<5x32xf32>
func.func @bias() -> tensor<5xf32> {
  %g = uop.buffer 0 : tensor<160xf32>
  %b = uop.buffer 1 : tensor<5xf32>
  %c = uop.const dense<2.0> : tensor<5x4x8xf32>
  %g1 = uop.reshape %g, [4, 8, 5] : tensor<160xf32>
  %g2 = uop.permute %g1, [2, 0, 1] : tensor<4x8x5xf32>
  %b1 = uop.reshape %b, [5, 1, 1] : tensor<5xf32>
  %b2 = uop.expand %b1, [5, 4, 8] : tensor<5x1x1xf32>
  %s = uop.add %g2, %b2 : tensor<5x4x8xf32>
  %m = uop.mul %s, %c : tensor<5x4x8xf32>
  %r = uop.reduce %m <add> pop 2 : tensor<5x4x8xf32>
  return %r : tensor<5xf32>
}

// -----

// An operand that walks the reduced axes in another order (b inner in
// memory): merging would divide in every iteration, so the axes stay.
// CHECK-LABEL: func.func private @r_3()
// CHECK:         uop.reduce %{{.*}} <add> pop 2
// CHECK-NOT:     pop 1
func.func @crossed() -> tensor<3xf32> {
  %x = uop.buffer 0 : tensor<96xf32>
  %x1 = uop.reshape %x, [3, 8, 4] : tensor<96xf32>
  %x2 = uop.permute %x1, [0, 2, 1] : tensor<3x8x4xf32>
  %r = uop.reduce %x2 <add> pop 2 : tensor<3x4x8xf32>
  return %r : tensor<3xf32>
}

// -----

// One operand merges, the other (a per-position weight broadcast over the
// batch: stride 0 on b, 1 on t) does not: the axes stay.
// CHECK-LABEL: func.func private @r_5()
// CHECK:         uop.reduce %{{.*}} <add> pop 2 : tensor<5x4x8xf32>
func.func @mixed() -> tensor<5xf32> {
  %g = uop.buffer 0 : tensor<160xf32>
  %p = uop.buffer 1 : tensor<8xf32>
  %g1 = uop.reshape %g, [4, 8, 5] : tensor<160xf32>
  %g2 = uop.permute %g1, [2, 0, 1] : tensor<4x8x5xf32>
  %p1 = uop.reshape %p, [1, 1, 8] : tensor<8xf32>
  %p2 = uop.expand %p1, [5, 4, 8] : tensor<1x1x8xf32>
  %m = uop.mul %g2, %p2 : tensor<5x4x8xf32>
  %r = uop.reduce %m <add> pop 2 : tensor<5x4x8xf32>
  return %r : tensor<5xf32>
}
