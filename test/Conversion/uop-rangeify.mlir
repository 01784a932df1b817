// RUN: uop-opt %s -split-input-file -uop-rangeify | FileCheck %s

// The syllabus "gemm": (256,256,1) * (1,256,256) summed over the last axis.
// The index math ravel/unravel simplifies away, the accumulator sits in the
// output loops, the reduce gets its own REDUCE range.
// CHECK-LABEL: func.func @syllabus
// CHECK-SAME: -> !uop.void attributes {uop.output_shape = array<i64: 256, 256>, uop.output_slot = 2 : i64}
// CHECK-DAG: %[[OUT:.*]] = uop.buffer 2 : memref<65536xf32, #uop.addrspace<global>>
// CHECK-DAG: %[[I:.*]] = uop.range %{{.*}} idx 0 <loop>
// CHECK-DAG: %[[J:.*]] = uop.range %{{.*}} idx 1 <loop>
// CHECK-DAG: %[[K:.*]] = uop.range %{{.*}} idx 2 <reduce>
// CHECK: %[[ACC:.*]] = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
// CHECK: uop.after %[[ACC]], %[[I]], %[[J]]
// CHECK: uop.end %{{.*}}, %[[K]] : !uop.void
// CHECK: uop.end %{{.*}}, %[[I]], %[[J]] : !uop.void
// CHECK: uop.sink
// CHECK-NOT: uop.reshape
// CHECK-NOT: uop.expand
func.func @syllabus() -> tensor<256x256xf32> {
  %a = uop.buffer 0 : tensor<65536xf32>
  %b = uop.buffer 1 : tensor<65536xf32>
  %0 = uop.reshape %a, [256, 256, 1] : tensor<65536xf32>
  %1 = uop.reshape %b, [1, 256, 256] : tensor<65536xf32>
  %2 = uop.expand %0, [256, 256, 256] : tensor<256x256x1xf32>
  %3 = uop.expand %1, [256, 256, 256] : tensor<1x256x256xf32>
  %4 = uop.mul %2, %3 : tensor<256x256x256xf32>
  %5 = uop.reduce %4 <add> pop 1 : tensor<256x256x256xf32>
  return %5 : tensor<256x256xf32>
}

// -----

// A STACK is a where-chain over its leading index; a scalar result is stored
// at index 0 with no loops.
// CHECK-LABEL: func.func @stack_index
// CHECK-NOT: uop.range
// CHECK: uop.store
func.func @stack_index() -> i32 {
  %c1 = uop.const 1 : i32
  %c2 = uop.const 2 : i32
  %s = uop.stack %c1, %c2 : i32
  %x = uop.index %s[%c1] : tensor<2xi32>
  return %x : i32
}

// -----

// Kernel graphs are already lowered: left alone.
// CHECK-LABEL: func.func @kernel
// CHECK-NOT: uop.output_slot
func.func @kernel() -> !uop.void {
  %k = uop.sink()
  return %k : !uop.void
}

// -----

// upcast {0: 2}: two unrolled copies per iteration of a halved loop; the
// copies END the same loop once, over a SINK (the seed's merge_ends).
// CHECK-LABEL: func.func @upcast
// CHECK: %[[R:.*]] = uop.range %{{.*}} idx 0 <loop>
// CHECK-COUNT-2: uop.store
// CHECK: %[[S:.*]] = uop.sink(%{{.*}}, %{{.*}} : !uop.void, !uop.void)
// CHECK: uop.end %[[S]], %[[R]] : !uop.void
// CHECK-NOT: uop.end
func.func @upcast() -> tensor<8xf32> attributes {uop.opts = #uop.opts<upcast = {0: 2}>} {
  %a = uop.buffer 0 : tensor<8xf32>
  %0 = uop.exp2 %a : tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// thread = 1 makes axis 1 the outermost loop (range idx 0) and a THREAD range.
// CHECK-LABEL: func.func @thread
// CHECK-DAG: uop.range %{{.*}} idx 0 <thread>
// CHECK-DAG: uop.range %{{.*}} idx 1 <loop>
func.func @thread() -> tensor<4x6xf32> attributes {uop.opts = #uop.opts<thread = 1>} {
  %a = uop.buffer 0 : tensor<24xf32>
  %0 = uop.reshape %a, [4, 6] : tensor<24xf32>
  %1 = uop.sqrt %0 : tensor<4x6xf32>
  return %1 : tensor<4x6xf32>
}

// -----

// gpu + local: GLOBAL and LOCAL ranges.
// CHECK-LABEL: func.func @gpu
// CHECK-DAG: uop.range %{{.*}} idx 0 <global>
// CHECK-DAG: uop.range %{{.*}} idx 1 <local>
func.func @gpu() -> tensor<64xf32> attributes {uop.opts = #uop.opts<gpu, local = {0: 16}>} {
  %a = uop.buffer 0 : tensor<64xf32>
  %0 = uop.sin %a : tensor<64xf32>
  return %0 : tensor<64xf32>
}
