// RUN: uop-opt %s --split-input-file --uop-attach-target=target=sm_90 --uop-split-reduce | FileCheck %s
// RUN: uop-opt %s --split-input-file --uop-attach-target=target=sm_80 --uop-split-reduce | FileCheck %s --check-prefix=SM80
// RUN: uop-opt %s --split-input-file --uop-attach-target=target=sm_90 --uop-split-reduce --uop-kernelize | FileCheck %s --check-prefix=KERNELS
// RUN: uop-opt %s --split-input-file --uop-attach-target=target=x86-64-v3 --uop-split-reduce | FileCheck %s --check-prefix=CPU
// RUN: uop-opt %s --split-input-file --uop-attach-target=target=sm_90 '--uop-split-reduce=min-reduce=4096' | FileCheck %s --check-prefix=MIN
// RUN: not uop-opt %s --split-input-file --uop-attach-target=target=sm_90 '--uop-split-reduce=min-part=0' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not uop-opt %s --split-input-file '--uop-split-reduce=min-reduce=1' 2>&1 | FileCheck %s --check-prefix=BAD
//
// uop-split-reduce: a reduction with few outputs over a long axis becomes
// partial sums (a kernel with G times the threads) and their sum. sm_90 holds
// 132 x 1024 threads, sm_80 108 x 1024.

// A bias gradient: 64 outputs summed over 1024 rows. G is the largest power
// of two up to 256 that leaves 16 elements a part: 64.
// CHECK-LABEL: func.func @bias_grad
// CHECK:         %[[X:.*]] = uop.reshape %{{.*}}, [64, 1024]
// CHECK:         %[[V:.*]] = uop.reshape %[[X]], [64, 64, 16] : tensor<64x1024xf32>
// CHECK:         %[[P:.*]] = uop.reduce %[[V]] <add> pop 1 : tensor<64x64x16xf32>
// CHECK:         %[[R:.*]] = uop.reduce %[[P]] <add> pop 1 : tensor<64x64xf32>
// CHECK:         return %[[R]]
// Two kernels: the partial sums (64 x 64 outputs), then their sum.
// KERNELS-LABEL: func.func private @r_64_64
// KERNELS-LABEL: func.func private @r_64
// KERNELS-LABEL: func.func @bias_grad
// KERNELS-COUNT-2: uop.launch
// CPU-LABEL:     func.func @bias_grad
// CPU-NOT:       uop.reshape %{{.*}}, [64, 64, 16]
// CPU:           uop.reduce %{{.*}} <add> pop 1 : tensor<64x1024xf32>
// MIN-LABEL:     func.func @bias_grad
// MIN-NOT:       pop 1 : tensor<64x64xf32>
// BAD: error: uop-split-reduce: min-reduce must be >= 2 and min-part >= 1
func.func @bias_grad() -> tensor<64xf32> {
  %xf = uop.buffer 0 : tensor<65536xf32>
  %x = uop.reshape %xf, [64, 1024] : tensor<65536xf32>
  %r = uop.reduce %x <add> pop 1 : tensor<64x1024xf32>
  return %r : tensor<64xf32>
}

// -----

// A weight gradient, 192 x 64 outputs (its product over the batch's 1024
// rows): 12,288 x G threads within 135,168 (sm_90): G = 8; on sm_80
// (110,592 threads) also 8. The max of two reduced axes splits the outer one.
// CHECK-LABEL: func.func @weight_grad
// CHECK:         uop.reshape %{{.*}}, [192, 64, 8, 128]
// CHECK:         uop.reduce %{{.*}} <add> pop 1 : tensor<192x64x8x128xf32>
// CHECK:         uop.reduce %{{.*}} <add> pop 1 : tensor<192x64x8xf32>
// SM80-LABEL:    func.func @weight_grad
// SM80:          uop.reshape %{{.*}}, [192, 64, 8, 128]
// CHECK-LABEL: func.func @max_two_axes
// CHECK:         uop.reshape %{{.*}}, [16, 32, 1, 32] : tensor<16x32x32xf32>
// CHECK:         uop.reduce %{{.*}} <max> pop 2 : tensor<16x32x1x32xf32>
// CHECK:         uop.reduce %{{.*}} <max> pop 1 : tensor<16x32xf32>
// MIN-LABEL:     func.func @max_two_axes
// MIN-NOT:       uop.reshape %{{.*}}, [16, 32, 1, 32]
func.func @weight_grad() -> tensor<192x64xf32> {
  %af = uop.buffer 0 : tensor<196608xf32>
  %a = uop.reshape %af, [192, 1, 1024] : tensor<196608xf32>
  %bf = uop.buffer 1 : tensor<65536xf32>
  %b = uop.reshape %bf, [1, 64, 1024] : tensor<65536xf32>
  %ae = uop.expand %a, [192, 64, 1024] : tensor<192x1x1024xf32>
  %be = uop.expand %b, [192, 64, 1024] : tensor<1x64x1024xf32>
  %p = uop.mul %ae, %be : tensor<192x64x1024xf32>
  %r = uop.reduce %p <add> pop 1 : tensor<192x64x1024xf32>
  return %r : tensor<192x64xf32>
}
func.func @max_two_axes() -> tensor<16xf32> {
  %xf = uop.buffer 0 : tensor<16384xf32>
  %x = uop.reshape %xf, [16, 32, 32] : tensor<16384xf32>
  %r = uop.reduce %x <max> pop 2 : tensor<16x32x32xf32>
  return %r : tensor<16xf32>
}

// -----

// Left alone: enough outputs to fill the chip (65,536 > 135,168 / 4), a
// short axis (100 < 256), and an axis no power of two from 4 divides.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: uop.reduce
// CHECK-NOT:     uop.reduce
// CHECK:         return
func.func @left_alone() -> (tensor<65536xf32>, tensor<8xf32>, tensor<8xf32>) {
  %xf = uop.buffer 0 : tensor<33554432xf32>
  %x = uop.reshape %xf, [65536, 512] : tensor<33554432xf32>
  %r = uop.reduce %x <add> pop 1 : tensor<65536x512xf32>
  %yf = uop.buffer 1 : tensor<800xf32>
  %y = uop.reshape %yf, [8, 100] : tensor<800xf32>
  %s = uop.reduce %y <add> pop 1 : tensor<8x100xf32>
  %zf = uop.buffer 2 : tensor<8176xf32>
  %z = uop.reshape %zf, [8, 1022] : tensor<8176xf32>
  %t = uop.reduce %z <add> pop 1 : tensor<8x1022xf32>
  return %r, %s, %t : tensor<65536xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// An f16 GEMM with few outputs and a long K is the tensor cores' (the `tc`
// opt takes it whole): not split. The same product in f32 is.
// CHECK-LABEL: func.func @half_gemm
// CHECK-NOT:     uop.reshape %{{.*}}, [16, 16,
// CHECK:         uop.reduce %{{.*}} <add> pop 1 : tensor<16x16x1024xf32>
// CHECK-LABEL: func.func @float_gemm
// CHECK:         uop.reshape %{{.*}}, [16, 16, 64, 16] : tensor<16x16x1024xf32>
func.func @half_gemm() -> tensor<16x16xf32> {
  %af = uop.buffer 0 : tensor<16384xf16>
  %bf = uop.buffer 1 : tensor<16384xf16>
  %a = uop.reshape %af, [16, 1, 1024] : tensor<16384xf16>
  %b = uop.reshape %bf, [1, 16, 1024] : tensor<16384xf16>
  %ae = uop.expand %a, [16, 16, 1024] : tensor<16x1x1024xf16>
  %be = uop.expand %b, [16, 16, 1024] : tensor<1x16x1024xf16>
  %ac = uop.cast %ae : tensor<16x16x1024xf16> to f32
  %bc = uop.cast %be : tensor<16x16x1024xf16> to f32
  %p = uop.mul %ac, %bc : tensor<16x16x1024xf32>
  %r = uop.reduce %p <add> pop 1 : tensor<16x16x1024xf32>
  return %r : tensor<16x16xf32>
}
func.func @float_gemm() -> tensor<16x16xf32> {
  %af = uop.buffer 0 : tensor<16384xf32>
  %bf = uop.buffer 1 : tensor<16384xf32>
  %a = uop.reshape %af, [16, 1, 1024] : tensor<16384xf32>
  %b = uop.reshape %bf, [1, 16, 1024] : tensor<16384xf32>
  %ae = uop.expand %a, [16, 16, 1024] : tensor<16x1x1024xf32>
  %be = uop.expand %b, [16, 16, 1024] : tensor<1x16x1024xf32>
  %p = uop.mul %ae, %be : tensor<16x16x1024xf32>
  %r = uop.reduce %p <add> pop 1 : tensor<16x16x1024xf32>
  return %r : tensor<16x16xf32>
}
