// RUN: uop-opt %s --split-input-file --uop-lower-gemm --verify-diagnostics
// RUN: not uop-opt %s --split-input-file --uop-lower-gemm 2>&1 | FileCheck %s --check-prefix=LOC
//
// A tensor-core opt (`tc`) that uop-lower-gemm cannot apply is an error at
// the kernel, with its place in the file (file:line:col) and what is wrong.
// LOC: uop-lower-gemm-errors.mlir:[[# @LINE + 4]]:1: error: 'func.func' op uop-lower-gemm: opts tc on a kernel that is not a GEMM

// A sum of squares is no GEMM (uop-match-gemm says why).
// expected-error @+1 {{uop-lower-gemm: opts tc on a kernel that is not a GEMM: the operands are not broadcast along different output axes (A along N, B along M)}}
func.func private @sum_of_squares() -> tensor<32x32xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 1, 1: 2}, unroll = 2, gpu, local = {0: 2, 1: 2}, stages = 3, tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>} {
  %a = uop.buffer 0 : tensor<1024xf16>
  %af = uop.cast %a : tensor<1024xf16> to f32
  %a2 = uop.reshape %af, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %m = uop.mul %ae, %ae : tensor<32x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf32>
  return %c : tensor<32x32xf32>
}

// -----

// f32 operands: the instruction takes f16.
// expected-error @+1 {{uop-lower-gemm: the GEMM (32x32x32, f32 into f32) does not fit #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>: its operand and accumulator types, rows contiguous and 16-byte aligned, and M, N, K multiples of the instruction's}}
func.func private @f32_operands() -> tensor<32x32xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 1, 1: 2}, unroll = 2, gpu, local = {0: 2, 1: 2}, stages = 3, tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>} {
  %a = uop.buffer 0 : tensor<1024xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a2 = uop.reshape %a, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %b2 = uop.reshape %b, [32, 32] : tensor<1024xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<32x32xf32>
  %b3 = uop.reshape %bt, [1, 32, 32] : tensor<32x32xf32>
  %be = uop.expand %b3, [32, 32, 32] : tensor<1x32x32xf32>
  %m = uop.mul %ae, %be : tensor<32x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf32>
  return %c : tensor<32x32xf32>
}

// -----

// M not a multiple of the instruction's 16.
// expected-error @+1 {{uop-lower-gemm: the GEMM (24x32x32, f16 into f32) does not fit}}
func.func private @bad_m() -> tensor<24x32xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 1, 1: 2}, unroll = 2, gpu, local = {0: 2, 1: 2}, stages = 3, tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>} {
  %a = uop.buffer 0 : tensor<768xf16>
  %b = uop.buffer 1 : tensor<1024xf16>
  %af = uop.cast %a : tensor<768xf16> to f32
  %bf = uop.cast %b : tensor<1024xf16> to f32
  %a2 = uop.reshape %af, [24, 1, 32] : tensor<768xf32>
  %ae = uop.expand %a2, [24, 32, 32] : tensor<24x1x32xf32>
  %b2 = uop.reshape %bf, [32, 32] : tensor<1024xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<32x32xf32>
  %b3 = uop.reshape %bt, [1, 32, 32] : tensor<32x32xf32>
  %be = uop.expand %b3, [24, 32, 32] : tensor<1x32x32xf32>
  %m = uop.mul %ae, %be : tensor<24x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<24x32x32xf32>
  return %c : tensor<24x32xf32>
}

// -----

// The block tile (32x32x32) does not divide a 48x48x48 GEMM.
// expected-error @+1 {{the block tile 32x32x32 does not divide the GEMM 48x48x48}}
func.func private @tile_not_dividing() -> tensor<48x48xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 1, 1: 2}, unroll = 2, gpu, local = {0: 2, 1: 2}, stages = 3, tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>} {
  %a = uop.buffer 0 : tensor<2304xf16>
  %b = uop.buffer 1 : tensor<2304xf16>
  %af = uop.cast %a : tensor<2304xf16> to f32
  %bf = uop.cast %b : tensor<2304xf16> to f32
  %a2 = uop.reshape %af, [48, 1, 48] : tensor<2304xf32>
  %ae = uop.expand %a2, [48, 48, 48] : tensor<48x1x48xf32>
  %b2 = uop.reshape %bf, [48, 48] : tensor<2304xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<48x48xf32>
  %b3 = uop.reshape %bt, [1, 48, 48] : tensor<48x48xf32>
  %be = uop.expand %b3, [48, 48, 48] : tensor<1x48x48xf32>
  %m = uop.mul %ae, %be : tensor<48x48x48xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<48x48x48xf32>
  return %c : tensor<48x48xf32>
}

// -----

// One shared-memory buffer cannot overlap copies with compute.
// expected-error @+1 {{tc needs stages >= 2 (shared-memory buffers)}}
func.func private @one_stage() -> tensor<32x32xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 1, 1: 2}, unroll = 2, gpu, local = {0: 2, 1: 2}, tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>} {
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

// ldmatrix loads B two 8-column tiles at a time.
// expected-error @+1 {{tc needs an even upcast of axis 1 (ldmatrix loads two 8-column tiles of B)}}
func.func private @odd_tn() -> tensor<32x32xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 1, 1: 1}, unroll = 2, gpu, local = {0: 2, 1: 4}, stages = 2, tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>} {
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

// Only mma.sync m16n8k16 f16 into f32 is lowered.
// expected-error @+1 {{tensor-core instruction #uop.mma<m = 16, n = 8, k = 8, a = tf32, c = f32> is not supported (mma.sync m16n8k16 f16 into f32 is)}}
func.func private @tf32() -> tensor<32x32xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 1, 1: 2}, unroll = 2, gpu, local = {0: 2, 1: 2}, stages = 2, tc = #uop.mma<m = 16, n = 8, k = 8, a = tf32, c = f32>>} {
  %a = uop.buffer 0 : tensor<1024xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a2 = uop.reshape %a, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %b2 = uop.reshape %b, [32, 32] : tensor<1024xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<32x32xf32>
  %b3 = uop.reshape %bt, [1, 32, 32] : tensor<32x32xf32>
  %be = uop.expand %b3, [32, 32, 32] : tensor<1x32x32xf32>
  %m = uop.mul %ae, %be : tensor<32x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf32>
  return %c : tensor<32x32xf32>
}

// -----

// Warps on a third axis.
// expected-error @+1 {{tc takes warps on axes 0 and 1 only}}
func.func private @warps_axis2() -> tensor<32x32xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 1, 1: 2}, unroll = 2, gpu, local = {0: 2, 1: 2, 2: 2}, stages = 2, tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>} {
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

// The opts themselves: tc and stages need gpu.
// expected-error @+1 {{opts tc needs gpu (tensor cores)}}
func.func private @no_gpu() attributes {uop.opts = #uop.opts<tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>}

// -----

// expected-error @+1 {{opts stages needs gpu (shared-memory staging)}}
func.func private @stages_no_gpu() attributes {uop.opts = #uop.opts<stages = 2>}

// -----

// expected-error @+1 {{opts tc must be a #uop.mma, got 3 : i64}}
func.func private @tc_not_mma() attributes {uop.opts = #uop.opts<gpu, tc = 3>}

// -----

// `stages` without `tc` asks for the CUDA-core GEMM: on a kernel that is
// not a GEMM it is an error too.
// expected-error @+1 {{uop-lower-gemm: opts stages on a kernel that is not a GEMM: the operands are not broadcast along different output axes (A along N, B along M)}}
func.func private @stages_sum_of_squares() -> tensor<32x32xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 4, 1: 8}, unroll = 8, gpu, local = {0: 8, 1: 4}, stages = 2>} {
  %a = uop.buffer 0 : tensor<1024xf32>
  %a2 = uop.reshape %a, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %m = uop.mul %ae, %ae : tensor<32x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf32>
  return %c : tensor<32x32xf32>
}

// -----

// f16 operands without `tc`: the CUDA-core GEMM takes f32.
// expected-error @+1 {{stages without tc (the CUDA-core GEMM) takes f32 operands multiplied and summed in f32}}
func.func private @stages_f16() -> tensor<32x32xf16> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 4, 1: 8}, unroll = 8, gpu, local = {0: 8, 1: 4}, stages = 2>} {
  %a = uop.buffer 0 : tensor<1024xf16>
  %b = uop.buffer 1 : tensor<1024xf16>
  %a2 = uop.reshape %a, [32, 1, 32] : tensor<1024xf16>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf16>
  %b2 = uop.reshape %b, [32, 32] : tensor<1024xf16>
  %bt = uop.permute %b2, [1, 0] : tensor<32x32xf16>
  %b3 = uop.reshape %bt, [1, 32, 32] : tensor<32x32xf16>
  %be = uop.expand %b3, [32, 32, 32] : tensor<1x32x32xf16>
  %m = uop.mul %ae, %be : tensor<32x32x32xf16>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf16>
  return %c : tensor<32x32xf16>
}

// -----

// B stored N x K: cp.async copies rows of B along N.
// expected-error @+1 {{stages without tc (the CUDA-core GEMM) takes row-major A (M x K) and B (K x N), rows 16-byte aligned}}
func.func private @stages_bt() -> tensor<32x32xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 4, 1: 8}, unroll = 8, gpu, local = {0: 8, 1: 4}, stages = 2>} {
  %a = uop.buffer 0 : tensor<1024xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a2 = uop.reshape %a, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %b3 = uop.reshape %b, [1, 32, 32] : tensor<1024xf32>
  %be = uop.expand %b3, [32, 32, 32] : tensor<1x32x32xf32>
  %m = uop.mul %ae, %be : tensor<32x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf32>
  return %c : tensor<32x32xf32>
}

// -----

// Columns of a thread not a multiple of 4 (16-byte loads).
// expected-error @+1 {{the CUDA-core GEMM needs upcast of axis 1 and unroll (BK) multiples of 4 (16-byte loads)}}
func.func private @stages_tn2() -> tensor<32x32xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 4, 1: 2}, unroll = 8, gpu, local = {0: 8, 1: 4}, stages = 2>} {
  %a = uop.buffer 0 : tensor<1024xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a2 = uop.reshape %a, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %b2 = uop.reshape %b, [32, 32] : tensor<1024xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<32x32xf32>
  %b3 = uop.reshape %bt, [1, 32, 32] : tensor<32x32xf32>
  %be = uop.expand %b3, [32, 32, 32] : tensor<1x32x32xf32>
  %m = uop.mul %ae, %be : tensor<32x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf32>
  return %c : tensor<32x32xf32>
}

// -----

// A block tile that does not divide the GEMM.
// expected-error @+1 {{the block tile 64x32x8 does not divide the GEMM 32x32x32}}
func.func private @stages_tile() -> tensor<32x32xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 8, 1: 8}, unroll = 8, gpu, local = {0: 8, 1: 4}, stages = 2>} {
  %a = uop.buffer 0 : tensor<1024xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a2 = uop.reshape %a, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %b2 = uop.reshape %b, [32, 32] : tensor<1024xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<32x32xf32>
  %b3 = uop.reshape %bt, [1, 32, 32] : tensor<32x32xf32>
  %be = uop.expand %b3, [32, 32, 32] : tensor<1x32x32xf32>
  %m = uop.mul %ae, %be : tensor<32x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf32>
  return %c : tensor<32x32xf32>
}

// -----

// More threads than 16-byte chunks in a tile.
// expected-error @+1 {{the block's threads do not divide the 16-byte chunks of a tile}}
func.func private @stages_threads() -> tensor<32x32xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 4, 1: 4}, unroll = 4, gpu, local = {0: 8, 1: 8}, stages = 2>} {
  %a = uop.buffer 0 : tensor<1024xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a2 = uop.reshape %a, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %b2 = uop.reshape %b, [32, 32] : tensor<1024xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<32x32xf32>
  %b3 = uop.reshape %bt, [1, 32, 32] : tensor<32x32xf32>
  %be = uop.expand %b3, [32, 32, 32] : tensor<1x32x32xf32>
  %m = uop.mul %ae, %be : tensor<32x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf32>
  return %c : tensor<32x32xf32>
}

// -----

// One buffer is no pipeline.
// expected-error @+1 {{stages must be >= 2 (shared-memory buffers)}}
func.func private @stages_one() -> tensor<32x32xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 4, 1: 8}, unroll = 8, gpu, local = {0: 8, 1: 4}, stages = 1>} {
  %a = uop.buffer 0 : tensor<1024xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a2 = uop.reshape %a, [32, 1, 32] : tensor<1024xf32>
  %ae = uop.expand %a2, [32, 32, 32] : tensor<32x1x32xf32>
  %b2 = uop.reshape %b, [32, 32] : tensor<1024xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<32x32xf32>
  %b3 = uop.reshape %bt, [1, 32, 32] : tensor<32x32xf32>
  %be = uop.expand %b3, [32, 32, 32] : tensor<1x32x32xf32>
  %m = uop.mul %ae, %be : tensor<32x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x32x32xf32>
  return %c : tensor<32x32xf32>
}
