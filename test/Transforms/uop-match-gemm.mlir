// RUN: uop-opt %s --split-input-file --uop-match-gemm=explain --verify-diagnostics | FileCheck %s
//
// The seed's test_wmma (tests/test_w07_gpu.py) asks match_gemm which kernels
// are GEMMs: C[m, n] = sum_k A(m, k) * B(k, n), a reduce-add of a product of
// two views of buffers broadcast along different output axes. uop-match-gemm
// writes the answer on the kernel (`uop.gemm`), and with `explain` says why
// every other kernel is not one.

// The seed's gemm_graph(32, 32, 32) with f16 buffers, each operand cast to
// f32 before the multiply (the WMMA contract: exact products, f32 sums).
// CHECK-LABEL: func.func private @f16_gemm
// CHECK-SAME: uop.gemm = {a = {offset = 0 : i64, slot = 0 : i64, strides = array<i64: 32, 1>}, acc = f32,
// CHECK-SAME: b = {offset = 0 : i64, slot = 1 : i64, strides = array<i64: 32, 1>}, exact = true,
// CHECK-SAME: in = f16, k = 32 : i64, m = 32 : i64, n = 32 : i64, out = f32}
func.func private @f16_gemm() -> tensor<32x32xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<1024xf16>
  %b = uop.buffer 1 : tensor<1024xf16>
  %af = uop.cast %a : tensor<1024xf16> to f32
  %bf = uop.cast %b : tensor<1024xf16> to f32
  %a2 = uop.reshape %af, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %b2 = uop.reshape %bf, [32, 32] : tensor<1024xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<32x32xf32>
  %b3 = uop.reshape %bt, [1, 32, 32] : tensor<32x32xf32>
  %be = uop.expand %b3, [32, 32, 32] : tensor<1x32x32xf32>
  %m = uop.mul %ae, %be : tensor<32x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf32>
  return %c : tensor<32x32xf32>
}

// -----

// f32 operands, B given as B^T (N x K row-major: the seed's bt=True), operands
// in either order, M != N != K.
// CHECK-LABEL: func.func private @f32_gemm_bt
// CHECK-SAME: uop.gemm = {a = {offset = 0 : i64, slot = 1 : i64, strides = array<i64: 48, 1>}, acc = f32,
// CHECK-SAME: b = {offset = 0 : i64, slot = 0 : i64, strides = array<i64: 1, 48>}, exact = true,
// CHECK-SAME: in = f32, k = 48 : i64, m = 16 : i64, n = 64 : i64, out = f32}
func.func private @f32_gemm_bt() -> tensor<16x64xf32> attributes {uop.kernel} {
  %bbuf = uop.buffer 0 : tensor<3072xf32>
  %abuf = uop.buffer 1 : tensor<768xf32>
  %a2 = uop.reshape %abuf, [16, 1, 48] : tensor<768xf32>
  %ae = uop.expand %a2, [16, 64, 48] : tensor<16x1x48xf32>
  %b2 = uop.reshape %bbuf, [1, 64, 48] : tensor<3072xf32>
  %be = uop.expand %b2, [16, 64, 48] : tensor<1x64x48xf32>
  %m = uop.mul %be, %ae : tensor<16x64x48xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<16x64x48xf32>
  return %c : tensor<16x64xf32>
}

// -----

// Products rounded to f16 and then summed in f32: a GEMM, but not exact (a
// tensor core would compute more precisely than written).
// CHECK-LABEL: func.func private @f16_products
// CHECK-SAME: exact = false, in = f16
func.func private @f16_products() -> tensor<16x16xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<256xf16>
  %b = uop.buffer 1 : tensor<256xf16>
  %a2 = uop.reshape %a, [16, 1, 16] : tensor<256xf16>
  %ae = uop.expand %a2, [16, 16, 16] : tensor<16x1x16xf16>
  %b2 = uop.reshape %b, [16, 16] : tensor<256xf16>
  %bt = uop.permute %b2, [1, 0] : tensor<16x16xf16>
  %b3 = uop.reshape %bt, [1, 16, 16] : tensor<16x16xf16>
  %be = uop.expand %b3, [16, 16, 16] : tensor<1x16x16xf16>
  %m = uop.mul %ae, %be : tensor<16x16x16xf16>
  %mf = uop.cast %m : tensor<16x16x16xf16> to f32
  %c = uop.reduce %mf <add> pop 1 : tensor<16x16x16xf32>
  return %c : tensor<16x16xf32>
}

// -----

// x * x summed over its last axis is a sum of squares, not a GEMM: both
// operands are broadcast along the same axis (the seed's check).
// CHECK-LABEL: func.func private @sum_of_squares
// CHECK-NOT: uop.gemm
// expected-remark @+1 {{not a GEMM: the operands are not broadcast along different output axes (A along N, B along M)}}
func.func private @sum_of_squares() -> tensor<32x32xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<1024xf32>
  %a2 = uop.reshape %a, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %m = uop.mul %ae, %ae : tensor<32x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf32>
  return %c : tensor<32x32xf32>
}

// -----

// A reduce-max of a product is no GEMM.
// CHECK-LABEL: func.func private @max_of_products
// CHECK-NOT: uop.gemm
// expected-remark @+1 {{not a GEMM: the value is not a reduce-add of one axis}}
func.func private @max_of_products() -> tensor<32x32xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<1024xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a2 = uop.reshape %a, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %b2 = uop.reshape %b, [32, 32] : tensor<1024xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<32x32xf32>
  %b3 = uop.reshape %bt, [1, 32, 32] : tensor<32x32xf32>
  %be = uop.expand %b3, [32, 32, 32] : tensor<1x32x32xf32>
  %m = uop.mul %ae, %be : tensor<32x32x32xf32>
  %c = uop.reduce %m <max> pop 1 : tensor<32x32x32xf32>
  return %c : tensor<32x32xf32>
}

// -----

// A sum of sums (no product) and an elementwise kernel are not GEMMs.
// CHECK-LABEL: func.func private @sum_of_sums
// CHECK-NOT: uop.gemm
// expected-remark @+1 {{not a GEMM: the reduced value is not a product}}
func.func private @sum_of_sums() -> tensor<32x32xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<1024xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a2 = uop.reshape %a, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %b2 = uop.reshape %b, [1, 32, 32] : tensor<1024xf32>
  %be = uop.expand %b2, [32, 32, 32] : tensor<1x32x32xf32>
  %s = uop.add %ae, %be : tensor<32x32x32xf32>
  %c = uop.reduce %s <add> pop 1 : tensor<32x32x32xf32>
  return %c : tensor<32x32xf32>
}

// CHECK-LABEL: func.func private @elementwise
// CHECK-NOT: uop.gemm
// expected-remark @+1 {{not a GEMM: the value is not a reduce-add of one axis}}
func.func private @elementwise() -> tensor<1024xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<1024xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %s = uop.mul %a, %b : tensor<1024xf32>
  return %s : tensor<1024xf32>
}

// -----

// A product whose operand is computed (exp2 of a buffer), not a view.
// CHECK-LABEL: func.func private @computed_operand
// CHECK-NOT: uop.gemm
// expected-remark @+1 {{not a GEMM: an operand of the product is 'uop.exp2', not a view of a buffer}}
func.func private @computed_operand() -> tensor<32x32xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<1024xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %e = uop.exp2 %a : tensor<1024xf32>
  %a2 = uop.reshape %e, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %b2 = uop.reshape %b, [32, 32] : tensor<1024xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<32x32xf32>
  %b3 = uop.reshape %bt, [1, 32, 32] : tensor<32x32xf32>
  %be = uop.expand %b3, [32, 32, 32] : tensor<1x32x32xf32>
  %m = uop.mul %ae, %be : tensor<32x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf32>
  return %c : tensor<32x32xf32>
}
