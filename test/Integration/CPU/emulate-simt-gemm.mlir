// The staged CUDA-core GEMM (uop-lower-gemm, opts `stages` without `tc`),
// run on the CPU by --target=emulate: C = A[4:68] @ B with A a 72x64 buffer
// read from its row 4 (an offset view, 16-byte aligned), B 64x128, f32.
// 8x8 threads of 4x8 outputs (32x64 block tiles), BK = 8, 3 stages: the
// cp.async copies, the 16-byte shared loads of rows of A and interleaved
// column chunks of B, and the barriers between stages run as they would on
// the GPU (a thread that read a wrong chunk, or a stage overwritten before
// every thread is done with it, is a wrong result). Checked against numpy
// and the CPU's own kernel.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: %npy random %t/a.npy float32 4608 1
// RUN: %npy random %t/b.npy float32 8192 2
// RUN: uop-run %s --target=emulate --print-plan --input 0=%t/a.npy --input 1=%t/b.npy --output %t/c.npy | FileCheck %s
// RUN: %npy check %t/c.npy "load('%t/a.npy').astype(np.float64).reshape(72, 64)[4:68] @ load('%t/b.npy').astype(np.float64).reshape(64, 128)" 1e-4
// RUN: uop-run %s --input 0=%t/a.npy --input 1=%t/b.npy --output %t/cpu.npy
// RUN: %npy check %t/cpu.npy "load('%t/c.npy')" 1e-4
// CHECK: kernel r_64_128: 1 launch(es)
// CHECK-SAME: stages = 3>
func.func @main() -> tensor<64x128xf32> attributes {uop.opts = #uop.opts<upcast = {0: 4, 1: 8}, unroll = 8, gpu, local = {0: 8, 1: 8}, stages = 3>} {
  %a = uop.buffer 0 : tensor<4608xf32>
  %b = uop.buffer 1 : tensor<8192xf32>
  %a1 = uop.reshape %a, [72, 64] : tensor<4608xf32>
  %as = uop.shrink %a1 [4:68, 0:64] : tensor<72x64xf32>
  %a2 = uop.reshape %as, [64, 1, 64] : tensor<64x64xf32>
  %ae = uop.expand %a2, [64, 128, 64] : tensor<64x1x64xf32>
  %b2 = uop.reshape %b, [64, 128] : tensor<8192xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<64x128xf32>
  %b3 = uop.reshape %bt, [1, 128, 64] : tensor<128x64xf32>
  %be = uop.expand %b3, [64, 128, 64] : tensor<1x128x64xf32>
  %m = uop.mul %ae, %be : tensor<64x128x64xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<64x128x64xf32>
  return %c : tensor<64x128xf32>
}
