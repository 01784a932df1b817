// RUN: uop-opt %s --split-input-file --uop-kernelize=layout=true | FileCheck %s
// RUN: uop-opt %s --split-input-file --uop-kernelize | FileCheck %s --check-prefix=PLAIN
//
// uop-kernelize with layout (opt=hand, opt=search): a reduce whose only
// reader is a permute (through reshapes that come back to its shape) is
// computed in the permuted order, its reduced axes left last: the reduce's
// kernel writes its buffer in the order its readers read it, and no kernel
// copies it transposed. Without layout (the seed's kernelize) nothing
// moves.

// The weight gradient of x @ W (W stored in x out) as autodiff writes it:
// dH^T @ X over the batch (16), then permuted back to W's shape: one
// kernel, r_12_8, its source permuted [1, 0, 2] after autodiff's [1, 2, 0].
// CHECK-LABEL: func.func private @r_12_8() -> tensor<12x8xf32>
// CHECK:         %[[G:.*]] = uop.permute %{{.*}}, [1, 2, 0] : tensor<16x8x12xf32>
// CHECK:         %[[G2:.*]] = uop.permute %[[G]], [1, 0, 2] : tensor<8x12x16xf32>
// CHECK:         %[[X:.*]] = uop.permute %{{.*}}, [1, 2, 0] : tensor<16x8x12xf32>
// CHECK:         %[[X2:.*]] = uop.permute %[[X]], [1, 0, 2] : tensor<8x12x16xf32>
// CHECK:         %[[M:.*]] = uop.mul %[[G2]], %[[X2]] : tensor<12x8x16xf32>
// CHECK:         %[[R:.*]] = uop.reduce %[[M]] <add> pop 1 : tensor<12x8x16xf32>
// CHECK:         return %[[R]] : tensor<12x8xf32>
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func @dw() -> tensor<12x8xf32> attributes {uop.host}
// CHECK:         %[[L:.*]] = uop.launch @r_12_8(%{{.*}}, %{{.*}}) : (tensor<128xf32>, tensor<192xf32>) -> tensor<12x8xf32>
// CHECK-NOT:     uop.launch
// CHECK:         return %[[L]] : tensor<12x8xf32>
// PLAIN-LABEL: func.func private @r_8_12() -> tensor<8x12xf32>
// PLAIN-LABEL: func.func private @e_12_8() -> tensor<12x8xf32>
// PLAIN-LABEL: func.func @dw()
// PLAIN:         uop.launch @r_8_12
// PLAIN:         uop.launch @e_12_8
func.func @dw() -> tensor<12x8xf32> {
  %g = uop.buffer 0 : tensor<128xf32>
  %x = uop.buffer 1 : tensor<192xf32>
  %g2 = uop.reshape %g, [16, 8, 1] : tensor<128xf32>
  %ge = uop.expand %g2, [16, 8, 12] : tensor<16x8x1xf32>
  %x2 = uop.reshape %x, [16, 1, 12] : tensor<192xf32>
  %xe = uop.expand %x2, [16, 8, 12] : tensor<16x1x12xf32>
  %m = uop.mul %ge, %xe : tensor<16x8x12xf32>
  %p = uop.permute %m, [1, 2, 0] : tensor<16x8x12xf32>
  %r = uop.reduce %p <add> pop 1 : tensor<8x12x16xf32>
  %r1 = uop.reshape %r, [1, 8, 12] : tensor<8x12xf32>
  %r2 = uop.reshape %r1, [8, 12] : tensor<1x8x12xf32>
  %t = uop.permute %r2, [1, 0] : tensor<8x12xf32>
  return %t : tensor<12x8xf32>
}

// -----

// The reduce is read as it is too (a second reader): it keeps its order,
// and the permuted reader is a kernel of its own.
// CHECK-LABEL: func.func private @r_8_12() -> tensor<8x12xf32>
// CHECK-LABEL: func.func private @e_12_8() -> tensor<12x8xf32>
// CHECK-LABEL: func.func @both()
// CHECK:         uop.launch @r_8_12
// CHECK:         uop.launch @e_12_8
func.func @both() -> (tensor<12x8xf32>, tensor<8x12xf32>) {
  %x = uop.buffer 0 : tensor<1536xf32>
  %x2 = uop.reshape %x, [8, 12, 16] : tensor<1536xf32>
  %r = uop.reduce %x2 <add> pop 1 : tensor<8x12x16xf32>
  %t = uop.permute %r, [1, 0] : tensor<8x12xf32>
  return %t, %r : tensor<12x8xf32>, tensor<8x12xf32>
}

// -----

// A reduce with opts of its own keeps its axes (the opts name them).
// CHECK-LABEL: func.func private @r_8_12() -> tensor<8x12xf32>
// CHECK-SAME:    uop.opts = #uop.opts<upcast = {1: 4}>
// CHECK-LABEL: func.func private @e_12_8()
func.func @own_opts() -> tensor<12x8xf32> {
  %x = uop.buffer 0 : tensor<1536xf32>
  %x2 = uop.reshape %x, [8, 12, 16] : tensor<1536xf32>
  %r = uop.reduce %x2 <add> pop 1 {uop.opts = #uop.opts<upcast = {1: 4}>} : tensor<8x12x16xf32>
  %t = uop.permute %r, [1, 0] : tensor<8x12xf32>
  return %t : tensor<12x8xf32>
}

// -----

// A max over two axes, permuted 3-d: the two reduced axes, one run of
// memory, are merged first (MergeReduceAxes.cpp), then the kept axes move
// and the reduced one stays last.
// CHECK-LABEL: func.func private @r_4_2_3() -> tensor<4x2x3xf32>
// CHECK:         uop.reshape %{{.*}}, [2, 3, 4, 30] : tensor<2x3x4x5x6xf32>
// CHECK:         uop.permute %{{.*}}, [2, 0, 1, 3] : tensor<2x3x4x30xf32>
// CHECK:         uop.reduce %{{.*}} <max> pop 1 : tensor<4x2x3x30xf32>
// CHECK-NOT:   func.func private
func.func @max3() -> tensor<4x2x3xf32> {
  %x = uop.buffer 0 : tensor<720xf32>
  %x2 = uop.reshape %x, [2, 3, 4, 5, 6] : tensor<720xf32>
  %r = uop.reduce %x2 <max> pop 2 : tensor<2x3x4x5x6xf32>
  %t = uop.permute %r, [2, 0, 1] : tensor<2x3x4xf32>
  return %t : tensor<4x2x3xf32>
}
