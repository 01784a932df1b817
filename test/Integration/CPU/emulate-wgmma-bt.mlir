// Hopper's warpgroup MMA with B^T (B stored N x K, as a linear layer's
// weight: wgmma's K-major B), run on the CPU by --target=emulate
// --chip=sm_90a: C (f32, 128x128) = A (f16, 128x256) @ B^T, B^T f16
// 128x256. B's boxes are 128 rows of 64 of K (as A's) and each 16-wide step
// of K is one nvgpu.warpgroup.mma from descriptors 32 bytes further along
// the swizzled rows (uop-lower-gemm): the emulated TMA loads and wgmmas
// (uop-emulate-mma) read and write through the 128-byte swizzle as the
// hardware does, so a descriptor off by a step is a wrong result. The
// hand's choice: 2 warpgroups of 64x128, 4 stages. Checked against numpy.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npy random %t/a.npy float16 32768 3
// RUN: %npy random %t/bt.npy float16 32768 4
// RUN: uop-run %s --target=emulate --chip=sm_90a --print-plan --input 0=%t/a.npy --input 1=%t/bt.npy --output %t/c.npy | FileCheck %s
// RUN: %npy check %t/c.npy "load('%t/a.npy').astype(np.float64).reshape(128, 256) @ load('%t/bt.npy').astype(np.float64).reshape(128, 256).T" 1e-4
// CHECK: kernel r_128_128: 1 launch(es)
// CHECK-SAME: tc = #uop.mma<m = 64, n = 128, k = 16, a = f16, c = f32, warpgroup = true>
func.func @main() -> tensor<128x128xf32> {
  %a = uop.buffer 0 : tensor<32768xf16>
  %af = uop.cast %a : tensor<32768xf16> to f32
  %a2 = uop.reshape %af, [128, 1, 256] : tensor<32768xf32>
  %ae = uop.expand %a2, [128, 128, 256] : tensor<128x1x256xf32>
  %b = uop.buffer 1 : tensor<32768xf16>
  %bf = uop.cast %b : tensor<32768xf16> to f32
  %b3 = uop.reshape %bf, [1, 128, 256] : tensor<32768xf32>
  %be = uop.expand %b3, [128, 128, 256] : tensor<1x128x256xf32>
  %m = uop.mul %ae, %be : tensor<128x128x256xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<128x128x256xf32>
  return %c : tensor<128x128xf32>
}
