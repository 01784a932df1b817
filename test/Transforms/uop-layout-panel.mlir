// RUN: uop-opt %s --split-input-file --uop-layout="panel=16 unpacked-rows=0" | FileCheck %s
// RUN: uop-opt %s --split-input-file --uop-layout="panel=16 unpacked-rows=0" --uop-layout="panel=16 unpacked-rows=0" | FileCheck %s --check-prefix=TWICE
// RUN: uop-opt %s --split-input-file --uop-layout=panel=16 | FileCheck %s --check-prefix=UNPACKED
// RUN: not uop-opt %s --split-input-file --uop-layout="panel=16 unpacked-rows=-1" 2>&1 | FileCheck %s --check-prefix=BADU
// RUN: uop-opt %s --split-input-file --uop-kernelize="layout=true layout-panel=16" | FileCheck %s --check-prefix=KERNELS
// RUN: not uop-opt %s --split-input-file --uop-layout=panel=-1 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not uop-opt %s --split-input-file --uop-kernelize="layout=true layout-panel=-2" 2>&1 | FileCheck %s --check-prefix=BADK
//
// uop-layout with panel = W (uop-cpu-pipeline passes the host's register
// tile lanes): B of a matmul-shaped reduce is staged as panels of W columns,
// [J/W][K][W], and viewed back as J x K; A (broadcast along the columns) and
// operands whose columns are no multiple of W keep the seed's rule.
// By default (unpacked-rows=256) a B whose columns are contiguous and whose
// rows are at most 256 elements apart is read as it is: no stage.
// BAD: uop-layout: panel must be >= 0, got -1
// BADU: uop-layout: unpacked-rows must be >= 0, got -1
// BADK: uop-kernelize: layout-panel must be >= -1, got -2

// C = A @ B, B (K x N) read down its columns: B's view (1, 64, 48) is split
// into 4 panels of 16 columns, each stored K x 16 contiguously; by default
// its rows, 48 apart, are read as they are.
// UNPACKED-LABEL: func.func @gemm
// UNPACKED-NOT:     uop.stage
// UNPACKED:         return
// CHECK-LABEL: func.func @gemm
// CHECK:         %[[B3:.*]] = uop.reshape %{{.*}}, [1, 64, 48]
// CHECK:         %[[R1:.*]] = uop.reshape %[[B3]], [1, 4, 16, 48] : tensor<1x64x48xf32>
// CHECK:         %[[P1:.*]] = uop.permute %[[R1]], [0, 1, 3, 2] : tensor<1x4x16x48xf32>
// CHECK:         %[[S:.*]] = uop.stage %[[P1]] : tensor<1x4x48x16xf32>
// CHECK:         %[[P2:.*]] = uop.permute %[[S]], [0, 1, 3, 2] : tensor<1x4x48x16xf32>
// CHECK:         %[[R2:.*]] = uop.reshape %[[P2]], [1, 64, 48] : tensor<1x4x16x48xf32>
// CHECK:         uop.expand %[[R2]], [32, 64, 48]
// CHECK-NOT:     uop.stage
// CHECK:         return
// Packing twice is packing once: the view of the panels is recognized.
// TWICE-LABEL: func.func @gemm
// TWICE-COUNT-1: uop.stage
// TWICE-NOT:     uop.stage
// TWICE:         return
// Through uop-kernelize (unpacked-rows at its default): B's rows, 64
// apart, are read as they are, one kernel.
// KERNELS-LABEL: func.func private @r_32_64
// KERNELS-LABEL: func.func @gemm()
// KERNELS-NOT:   uop.launch
// KERNELS:       uop.launch @r_32_64
// KERNELS-NOT:   uop.launch
// KERNELS:       return
func.func @gemm() -> tensor<32x64xf32> {
  %a = uop.buffer 0 : tensor<1536xf32>
  %b = uop.buffer 1 : tensor<3072xf32>
  %a2 = uop.reshape %a, [32, 1, 48] : tensor<1536xf32>
  %ae = uop.expand %a2, [32, 64, 48] : tensor<32x1x48xf32>
  %b2 = uop.reshape %b, [48, 64] : tensor<3072xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<48x64xf32>
  %b3 = uop.reshape %bt, [1, 64, 48] : tensor<64x48xf32>
  %be = uop.expand %b3, [32, 64, 48] : tensor<1x64x48xf32>
  %m = uop.mul %ae, %be : tensor<32x64x48xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x64x48xf32>
  return %c : tensor<32x64xf32>
}

// -----

// B stored transposed (contiguous along K, which the seed leaves alone) is
// packed too: the register tile reads W columns per step of K.
// CHECK-LABEL: func.func @gemm_bt
// CHECK:         uop.stage %{{.*}} : tensor<1x2x32x16xf32>
// CHECK-NOT:     uop.stage
// CHECK:         return
func.func @gemm_bt() -> tensor<8x32xf32> {
  %a = uop.buffer 0 : tensor<256xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a2 = uop.reshape %a, [8, 1, 32] : tensor<256xf32>
  %ae = uop.expand %a2, [8, 32, 32] : tensor<8x1x32xf32>
  %b3 = uop.reshape %b, [1, 32, 32] : tensor<1024xf32>
  %be = uop.expand %b3, [8, 32, 32] : tensor<1x32x32xf32>
  %m = uop.mul %ae, %be : tensor<8x32x32xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<8x32x32xf32>
  return %c : tensor<8x32xf32>
}

// -----

// 24 columns are no multiple of 16: the seed's transposing stage.
// CHECK-LABEL: func.func @gemm_odd
// CHECK:         uop.stage %{{.*}} : tensor<1x24x16xf32>
// CHECK-NOT:     uop.stage
// CHECK:         return
func.func @gemm_odd() -> tensor<8x24xf32> {
  %a = uop.buffer 0 : tensor<128xf32>
  %b = uop.buffer 1 : tensor<384xf32>
  %a2 = uop.reshape %a, [8, 1, 16] : tensor<128xf32>
  %ae = uop.expand %a2, [8, 24, 16] : tensor<8x1x16xf32>
  %b2 = uop.reshape %b, [16, 24] : tensor<384xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<16x24xf32>
  %b3 = uop.reshape %bt, [1, 24, 16] : tensor<24x16xf32>
  %be = uop.expand %b3, [8, 24, 16] : tensor<1x24x16xf32>
  %m = uop.mul %ae, %be : tensor<8x24x16xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<8x24x16xf32>
  return %c : tensor<8x24xf32>
}

// -----

// A batched matmul (2 x 8 x 16 @ 2 x 16 x 32): B per batch in panels.
// CHECK-LABEL: func.func @bmm
// CHECK:         uop.stage %{{.*}} : tensor<2x1x2x16x16xf32>
// CHECK-NOT:     uop.stage
// CHECK:         return
func.func @bmm() -> tensor<2x8x32xf32> {
  %a = uop.buffer 0 : tensor<256xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a2 = uop.reshape %a, [2, 8, 1, 16] : tensor<256xf32>
  %ae = uop.expand %a2, [2, 8, 32, 16] : tensor<2x8x1x16xf32>
  %b2 = uop.reshape %b, [2, 16, 32] : tensor<1024xf32>
  %bt = uop.permute %b2, [0, 2, 1] : tensor<2x16x32xf32>
  %b3 = uop.reshape %bt, [2, 1, 32, 16] : tensor<2x32x16xf32>
  %be = uop.expand %b3, [2, 8, 32, 16] : tensor<2x1x32x16xf32>
  %m = uop.mul %ae, %be : tensor<2x8x32x16xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<2x8x32x16xf32>
  return %c : tensor<2x8x32xf32>
}
