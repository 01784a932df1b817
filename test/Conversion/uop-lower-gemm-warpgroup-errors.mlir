// RUN: uop-opt %s --split-input-file --uop-lower-gemm --verify-diagnostics
// RUN: not uop-opt %s --split-input-file --uop-lower-gemm 2>&1 | FileCheck %s --check-prefix=LOC
//
// A warpgroup `tc` (Hopper's wgmma fed by TMA) that uop-lower-gemm cannot
// apply is an error at the kernel, with its place in the file.
// LOC: uop-lower-gemm-warpgroup-errors.mlir:[[# @LINE + 4]]:1: error: 'func.func' op uop-lower-gemm: opts

// does not divide
// expected-error @+1 {{uop-lower-gemm: opts #uop.opts<unroll = 4, gpu, local = {0: 2}, stages = 2, tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>>: the block tile 128x128x64 does not divide the GEMM 192x128x128}}
func.func private @does_not_divide() -> tensor<192x128xf32> attributes {uop.kernel, uop.opts = #uop.opts<unroll = 4, gpu, local = {0: 2}, stages = 2, tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>>} {
  %a = uop.buffer 0 : tensor<24576xf16>
  %b = uop.buffer 1 : tensor<16384xf16>
  %af = uop.cast %a : tensor<24576xf16> to f32
  %bf = uop.cast %b : tensor<16384xf16> to f32
  %a2 = uop.reshape %af, [192, 1, 128] : tensor<24576xf32>
  %ae = uop.expand %a2, [192, 128, 128] : tensor<192x1x128xf32>
  %b2 = uop.reshape %bf, [128, 128] : tensor<16384xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<128x128xf32>
  %b3 = uop.reshape %bt, [1, 128, 128] : tensor<128x128xf32>
  %be = uop.expand %b3, [192, 128, 128] : tensor<1x128x128xf32>
  %m = uop.mul %ae, %be : tensor<192x128x128xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<192x128x128xf32>
  return %c : tensor<192x128xf32>
}

// -----

// B^T (N x K) takes one 64-row instruction tile a warpgroup
// expected-error @+1 {{a warpgroup tc with B^T (N x K) takes one 64-row instruction tile a warpgroup (no upcast of axis 0)}}
func.func private @b_transposed() -> tensor<128x128xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 2}, unroll = 4, gpu, stages = 2, tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>>} {
  %a = uop.buffer 0 : tensor<16384xf16>
  %b = uop.buffer 1 : tensor<16384xf16>
  %af = uop.cast %a : tensor<16384xf16> to f32
  %bf = uop.cast %b : tensor<16384xf16> to f32
  %a2 = uop.reshape %af, [128, 1, 128] : tensor<16384xf32>
  %ae = uop.expand %a2, [128, 128, 128] : tensor<128x1x128xf32>
  %b3 = uop.reshape %bf, [1, 128, 128] : tensor<16384xf32>
  %be = uop.expand %b3, [128, 128, 128] : tensor<1x128x128xf32>
  %m = uop.mul %ae, %be : tensor<128x128x128xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<128x128x128xf32>
  return %c : tensor<128x128xf32>
}

// -----

// f16 out
// expected-error @+1 {{uop-lower-gemm: the GEMM (128x128x128, f16 into f32, C f16) does not fit}}
func.func private @f16_out() -> tensor<128x128xf16> attributes {uop.kernel, uop.opts = #uop.opts<unroll = 4, gpu, local = {0: 2}, stages = 2, tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>>} {
  %a = uop.buffer 0 : tensor<16384xf16>
  %b = uop.buffer 1 : tensor<16384xf16>
  %af = uop.cast %a : tensor<16384xf16> to f32
  %bf = uop.cast %b : tensor<16384xf16> to f32
  %a2 = uop.reshape %af, [128, 1, 128] : tensor<16384xf32>
  %ae = uop.expand %a2, [128, 128, 128] : tensor<128x1x128xf32>
  %b2 = uop.reshape %bf, [128, 128] : tensor<16384xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<128x128xf32>
  %b3 = uop.reshape %bt, [1, 128, 128] : tensor<128x128xf32>
  %be = uop.expand %b3, [128, 128, 128] : tensor<1x128x128xf32>
  %m = uop.mul %ae, %be : tensor<128x128x128xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<128x128x128xf32>
  %h = uop.cast %c : tensor<128x128xf32> to f16
  return %h : tensor<128x128xf16>
}

// -----

// unroll 2
// expected-error @+1 {{a warpgroup tc needs unroll = 4 (a stage is 64 f16 of K: one 128-byte swizzled row)}}
func.func private @unroll_2() -> tensor<128x128xf32> attributes {uop.kernel, uop.opts = #uop.opts<unroll = 2, gpu, local = {0: 2}, stages = 2, tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>>} {
  %a = uop.buffer 0 : tensor<16384xf16>
  %b = uop.buffer 1 : tensor<16384xf16>
  %af = uop.cast %a : tensor<16384xf16> to f32
  %bf = uop.cast %b : tensor<16384xf16> to f32
  %a2 = uop.reshape %af, [128, 1, 128] : tensor<16384xf32>
  %ae = uop.expand %a2, [128, 128, 128] : tensor<128x1x128xf32>
  %b2 = uop.reshape %bf, [128, 128] : tensor<16384xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<128x128xf32>
  %b3 = uop.reshape %bt, [1, 128, 128] : tensor<128x128xf32>
  %be = uop.expand %b3, [128, 128, 128] : tensor<1x128x128xf32>
  %m = uop.mul %ae, %be : tensor<128x128x128xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<128x128x128xf32>
  return %c : tensor<128x128xf32>
}

// -----

// n 96
// expected-error @+1 {{uop-lower-gemm: warpgroup instruction #uop.mma<m = 64, n = 96, k = 16, a = f16, c = f32, warpgroup = true> is not supported (wgmma m64nNk16, f16 into f32, N a multiple of 64 up to 256, is)}}
func.func private @n_96() -> tensor<128x192xf32> attributes {uop.kernel, uop.opts = #uop.opts<unroll = 4, gpu, local = {0: 2}, stages = 2, tc = #uop.mma<m = 64, n = 96, k = 16, a = f16, c = f32, warpgroup = true>>} {
  %a = uop.buffer 0 : tensor<16384xf16>
  %b = uop.buffer 1 : tensor<24576xf16>
  %af = uop.cast %a : tensor<16384xf16> to f32
  %bf = uop.cast %b : tensor<24576xf16> to f32
  %a2 = uop.reshape %af, [128, 1, 128] : tensor<16384xf32>
  %ae = uop.expand %a2, [128, 192, 128] : tensor<128x1x128xf32>
  %b2 = uop.reshape %bf, [128, 192] : tensor<24576xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<128x192xf32>
  %b3 = uop.reshape %bt, [1, 192, 128] : tensor<192x128xf32>
  %be = uop.expand %b3, [128, 192, 128] : tensor<1x192x128xf32>
  %m = uop.mul %ae, %be : tensor<128x192x128xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<128x192x128xf32>
  return %c : tensor<128x192xf32>
}

// -----

// upcast n
// expected-error @+1 {{a warpgroup tc takes instruction tiles on axis 0 only (the instruction's n is a warpgroup's columns)}}
func.func private @upcast_n() -> tensor<128x256xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {1: 2}, unroll = 4, gpu, local = {0: 2}, stages = 2, tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>>} {
  %a = uop.buffer 0 : tensor<16384xf16>
  %b = uop.buffer 1 : tensor<32768xf16>
  %af = uop.cast %a : tensor<16384xf16> to f32
  %bf = uop.cast %b : tensor<32768xf16> to f32
  %a2 = uop.reshape %af, [128, 1, 128] : tensor<16384xf32>
  %ae = uop.expand %a2, [128, 256, 128] : tensor<128x1x128xf32>
  %b2 = uop.reshape %bf, [128, 256] : tensor<32768xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<128x256xf32>
  %b3 = uop.reshape %bt, [1, 256, 128] : tensor<256x128xf32>
  %be = uop.expand %b3, [128, 256, 128] : tensor<1x256x128xf32>
  %m = uop.mul %ae, %be : tensor<128x256x128xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<128x256x128xf32>
  return %c : tensor<128x256xf32>
}

// -----

// one stage
// expected-error @+1 {{a warpgroup tc needs 2 to 8 stages}}
func.func private @one_stage() -> tensor<128x128xf32> attributes {uop.kernel, uop.opts = #uop.opts<unroll = 4, gpu, local = {0: 2}, stages = 1, tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>>} {
  %a = uop.buffer 0 : tensor<16384xf16>
  %b = uop.buffer 1 : tensor<16384xf16>
  %af = uop.cast %a : tensor<16384xf16> to f32
  %bf = uop.cast %b : tensor<16384xf16> to f32
  %a2 = uop.reshape %af, [128, 1, 128] : tensor<16384xf32>
  %ae = uop.expand %a2, [128, 128, 128] : tensor<128x1x128xf32>
  %b2 = uop.reshape %bf, [128, 128] : tensor<16384xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<128x128xf32>
  %b3 = uop.reshape %bt, [1, 128, 128] : tensor<128x128xf32>
  %be = uop.expand %b3, [128, 128, 128] : tensor<1x128x128xf32>
  %m = uop.mul %ae, %be : tensor<128x128x128xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<128x128x128xf32>
  return %c : tensor<128x128xf32>
}

// -----

// rows past box
// expected-error @+1 {{a block tile of more than 256 rows (a TMA box is at most 256)}}
func.func private @rows_past_box() -> tensor<512x128xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 2}, unroll = 4, gpu, local = {0: 4}, stages = 2, tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>>} {
  %a = uop.buffer 0 : tensor<65536xf16>
  %b = uop.buffer 1 : tensor<16384xf16>
  %af = uop.cast %a : tensor<65536xf16> to f32
  %bf = uop.cast %b : tensor<16384xf16> to f32
  %a2 = uop.reshape %af, [512, 1, 128] : tensor<65536xf32>
  %ae = uop.expand %a2, [512, 128, 128] : tensor<512x1x128xf32>
  %b2 = uop.reshape %bf, [128, 128] : tensor<16384xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<128x128xf32>
  %b3 = uop.reshape %bt, [1, 128, 128] : tensor<128x128xf32>
  %be = uop.expand %b3, [512, 128, 128] : tensor<1x128x128xf32>
  %m = uop.mul %ae, %be : tensor<512x128x128xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<512x128x128xf32>
  return %c : tensor<512x128xf32>
}
