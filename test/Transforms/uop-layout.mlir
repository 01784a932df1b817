// RUN: uop-opt %s --split-input-file --uop-layout | FileCheck %s
// RUN: uop-opt %s --split-input-file --uop-kernelize=layout=true | FileCheck %s --check-prefix=KERNELS
// RUN: uop-opt %s --split-input-file --uop-kernelize | FileCheck %s --check-prefix=PLAIN
//
// uop-layout: the seed's layout_pass. The expectations are what the seed's
// layout_pass does to the same graphs (test_w06's
// test_layout_pass_stages_transposed_operand, and the seed run on the
// others): which value is staged, or that none is.

// C = A @ B with B (K x N) read down its columns: the view of B feeding the
// reduce has stride 64, so B's transposed view is staged before the
// broadcast (seed: one STAGE, of the RESHAPE (1, 64, 64)).
// CHECK-LABEL: func.func @gemm
// CHECK:         %[[B:.*]] = uop.buffer 1
// CHECK:         %[[B2:.*]] = uop.reshape %[[B]], [64, 64]
// CHECK:         %[[BT:.*]] = uop.permute %[[B2]], [1, 0]
// CHECK:         %[[B3:.*]] = uop.reshape %[[BT]], [1, 64, 64]
// CHECK:         %[[S:.*]] = uop.stage %[[B3]] : tensor<1x64x64xf32>
// CHECK:         uop.expand %[[S]], [64, 64, 64]
// CHECK-NOT:     uop.stage
// CHECK:         return
// The stage is a materialization point: a kernel writes B transposed, the
// gemm kernel reads it contiguously.
// KERNELS-LABEL: func.func private @e_1_64_64
// KERNELS-LABEL: func.func private @r_64_64
// KERNELS-LABEL: func.func @gemm
// KERNELS-COUNT-2: uop.launch
// PLAIN-LABEL:   func.func @gemm
// PLAIN-COUNT-1: uop.launch
// PLAIN-NOT:     uop.launch
// PLAIN:         return
func.func @gemm() -> tensor<64x64xf32> {
  %a = uop.buffer 0 : tensor<4096xf32>
  %b = uop.buffer 1 : tensor<4096xf32>
  %a2 = uop.reshape %a, [64, 1, 64] : tensor<4096xf32>
  %ae = uop.expand %a2, [64, 64, 64] : tensor<64x1x64xf32>
  %b2 = uop.reshape %b, [64, 64] : tensor<4096xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<64x64xf32>
  %b3 = uop.reshape %bt, [1, 64, 64] : tensor<64x64xf32>
  %be = uop.expand %b3, [64, 64, 64] : tensor<1x64x64xf32>
  %m = uop.mul %ae, %be : tensor<64x64x64xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<64x64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

// B stored transposed: both operands are contiguous along the reduce axis;
// nothing to do (seed: no STAGE).
// CHECK-LABEL: func.func @gemm_bt
// CHECK-NOT:     uop.stage
// CHECK:         return
// KERNELS-LABEL: func.func @gemm_bt
// KERNELS-COUNT-1: uop.launch
// KERNELS-NOT:   uop.launch
// KERNELS:       return
func.func @gemm_bt() -> tensor<64x64xf32> {
  %a = uop.buffer 0 : tensor<4096xf32>
  %b = uop.buffer 1 : tensor<4096xf32>
  %a2 = uop.reshape %a, [64, 1, 64] : tensor<4096xf32>
  %ae = uop.expand %a2, [64, 64, 64] : tensor<64x1x64xf32>
  %b3 = uop.reshape %b, [1, 64, 64] : tensor<4096xf32>
  %be = uop.expand %b3, [64, 64, 64] : tensor<1x64x64xf32>
  %m = uop.mul %ae, %be : tensor<64x64x64xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<64x64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

// A @ (B + 1): the permute is pushed through the add to the leaves (B and
// the constant), and only B's view is staged: the constant's chain ends at
// no data (seed: the same graph, one STAGE of B's RESHAPE (1, 16, 16)).
// CHECK-LABEL: func.func @gemm_pushed
// CHECK-DAG:     %[[B:.*]] = uop.buffer 1
// CHECK-DAG:     %[[B2:.*]] = uop.reshape %[[B]], [16, 16]
// CHECK-DAG:     %[[ONE:.*]] = uop.const 1.0
// CHECK-DAG:     %[[O2:.*]] = uop.reshape %[[ONE]], [1, 1]
// CHECK-DAG:     %[[OE:.*]] = uop.expand %[[O2]], [16, 16]
// CHECK-DAG:     %[[BT:.*]] = uop.permute %[[B2]], [1, 0] : tensor<16x16xf32>
// CHECK-DAG:     %[[CT:.*]] = uop.permute %[[OE]], [1, 0] : tensor<16x16xf32>
// CHECK-DAG:     %[[B3:.*]] = uop.reshape %[[BT]], [1, 16, 16]
// CHECK-DAG:     %[[S:.*]] = uop.stage %[[B3]]
// CHECK-DAG:     %[[C3:.*]] = uop.reshape %[[CT]], [1, 16, 16]
// CHECK-DAG:     %[[BE:.*]] = uop.expand %[[S]], [16, 16, 16]
// CHECK-DAG:     %[[CE:.*]] = uop.expand %[[C3]], [16, 16, 16]
// CHECK:         %[[ADD:.*]] = uop.add %[[BE]], %[[CE]] : tensor<16x16x16xf32>
// CHECK:         uop.mul %{{.*}}, %[[ADD]]
// CHECK-NOT:     uop.stage
// CHECK:         return
func.func @gemm_pushed() -> tensor<16x16xf32> {
  %a = uop.buffer 0 : tensor<256xf32>
  %b = uop.buffer 1 : tensor<256xf32>
  %a2 = uop.reshape %a, [16, 1, 16] : tensor<256xf32>
  %ae = uop.expand %a2, [16, 16, 16] : tensor<16x1x16xf32>
  %b2 = uop.reshape %b, [16, 16] : tensor<256xf32>
  %one = uop.const 1.0 : f32
  %o2 = uop.reshape %one, [1, 1] : f32
  %oe = uop.expand %o2, [16, 16] : tensor<1x1xf32>
  %bp = uop.add %b2, %oe : tensor<16x16xf32>
  %bt = uop.permute %bp, [1, 0] : tensor<16x16xf32>
  %b3 = uop.reshape %bt, [1, 16, 16] : tensor<16x16xf32>
  %be = uop.expand %b3, [16, 16, 16] : tensor<1x16x16xf32>
  %m = uop.mul %ae, %be : tensor<16x16x16xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<16x16x16xf32>
  return %c : tensor<16x16xf32>
}

// -----

// Column sums: B read down its columns, but the view is not broadcast into
// the reduce (it has as many elements as the reduce's source): copying it
// would cost as much as the reduce, so it is left (seed: no STAGE).
// CHECK-LABEL: func.func @column_sums
// CHECK-NOT:     uop.stage
// CHECK:         return
func.func @column_sums() -> tensor<32xf32> {
  %b = uop.buffer 0 : tensor<512xf32>
  %b2 = uop.reshape %b, [16, 32] : tensor<512xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<16x32xf32>
  %c = uop.reduce %bt <add> pop 1 : tensor<32x16xf32>
  return %c : tensor<32xf32>
}
