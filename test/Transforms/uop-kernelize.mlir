// RUN: uop-opt %s --split-input-file --uop-kernelize | FileCheck %s
//
// uop-kernelize (the seed's make_plan): materialization points, outlining with
// local buffer numbers, one function per distinct kernel, the seed's names,
// aliased roots, stage_broadcast_compute, detach markers.

// Two roots computing the same thing on different buffers: one kernel, launched twice.
// CHECK-LABEL: func.func private @e_8() -> tensor<8xf32> attributes {uop.kernel}
// CHECK-NEXT:    uop.buffer 0 : tensor<8xf32>
// CHECK-NEXT:    uop.exp2
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func @main() -> (tensor<8xf32>, tensor<8xf32>) attributes {uop.host}
// CHECK-DAG:     %[[A:.*]] = uop.buffer 0 : tensor<8xf32>
// CHECK-DAG:     %[[B:.*]] = uop.buffer 1 : tensor<8xf32>
// CHECK:         %[[EA:.*]] = uop.launch @e_8(%[[A]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %[[EB:.*]] = uop.launch @e_8(%[[B]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    return %[[EA]], %[[EB]]
func.func @main() -> (tensor<8xf32>, tensor<8xf32>) {
  %a = uop.buffer 0 : tensor<8xf32>
  %b = uop.buffer 1 : tensor<8xf32>
  %ea = uop.exp2 %a : tensor<8xf32>
  %eb = uop.exp2 %b : tensor<8xf32>
  return %ea, %eb : tensor<8xf32>, tensor<8xf32>
}

// -----

// A contiguous input buffer as a root is aliased: no kernel.
// CHECK-NOT:   uop.kernel
// CHECK-LABEL: func.func @main() -> tensor<2x4xf32> attributes {uop.host}
// CHECK-NEXT:    %[[A:.*]] = uop.buffer 0 : tensor<8xf32>
// CHECK-NEXT:    %[[R:.*]] = uop.reshape %[[A]], [2, 4]
// CHECK-NEXT:    return %[[R]]
func.func @main() -> tensor<2x4xf32> {
  %a = uop.buffer 0 : tensor<8xf32>
  %r = uop.reshape %a, [2, 4] : tensor<8xf32>
  return %r : tensor<2x4xf32>
}

// -----

// A shrink of a buffer is not contiguous: it is copied by a kernel.
// CHECK-LABEL: func.func private @e_4() -> tensor<4xf32> attributes {uop.kernel}
// CHECK:         uop.shrink
// CHECK-LABEL: func.func @main()
// CHECK:         uop.launch @e_4(
func.func @main() -> tensor<4xf32> {
  %a = uop.buffer 0 : tensor<8xf32>
  %r = uop.shrink %a [2:6] : tensor<8xf32>
  return %r : tensor<4xf32>
}

// -----

// stage_broadcast_compute: exp2 of a 64x64 buffer (4096 ALU-elements) is
// broadcast 4x: staged into its own kernel.
// CHECK-LABEL: func.func private @e_64_64_1() -> tensor<64x64x1xf32>
// CHECK:         uop.exp2
// CHECK-LABEL: func.func private @e_64_64_4() -> tensor<64x64x4xf32>
// CHECK-NOT:     uop.exp2
// CHECK:         uop.expand
// CHECK-LABEL: func.func @main()
// CHECK:         %[[E:.*]] = uop.launch @e_64_64_1(%{{.*}}) : (tensor<4096xf32>) -> tensor<64x64x1xf32>
// CHECK-NEXT:    %[[F:.*]] = uop.reshape %[[E]], [4096] : tensor<64x64x1xf32>
// CHECK-NEXT:    uop.launch @e_64_64_4(%[[F]]) : (tensor<4096xf32>) -> tensor<64x64x4xf32>
func.func @main() -> tensor<64x64x4xf32> {
  %a = uop.buffer 0 : tensor<4096xf32>
  %x = uop.reshape %a, [64, 64, 1] : tensor<4096xf32>
  %e = uop.exp2 %x : tensor<64x64x1xf32>
  %b = uop.expand %e, [64, 64, 4] : tensor<64x64x1xf32>
  return %b : tensor<64x64x4xf32>
}

// -----

// The same with 32x32 (1024 ALU-elements): recomputing is cheaper, one kernel.
// CHECK-LABEL: func.func private @e_32_32_4()
// CHECK:         uop.exp2
// CHECK:         uop.expand
// CHECK-NOT:   func.func private
// CHECK-LABEL: func.func @main()
// CHECK-COUNT-1: uop.launch
// CHECK-NOT:     uop.launch
func.func @main() -> tensor<32x32x4xf32> {
  %a = uop.buffer 0 : tensor<1024xf32>
  %x = uop.reshape %a, [32, 32, 1] : tensor<1024xf32>
  %e = uop.exp2 %x : tensor<32x32x1xf32>
  %b = uop.expand %e, [32, 32, 4] : tensor<32x32x1xf32>
  return %b : tensor<32x32x4xf32>
}

// -----

// A detach marker is not a kernel boundary; an explicit stage is.
// CHECK-LABEL: func.func private @e_4()
// CHECK-NOT:     uop.stage
// CHECK:         uop.mul %[[X:.*]], %[[X]] : tensor<4xf32>
// CHECK-LABEL: func.func private @e_4__1()
// CHECK:         uop.sqrt
// CHECK-LABEL: func.func @main()
// CHECK:         %[[M:.*]] = uop.launch @e_4(%{{.*}})
// CHECK-NEXT:    uop.launch @e_4__1(%[[M]])
func.func @main() -> tensor<4xf32> {
  %a = uop.buffer 0 : tensor<4xf32>
  %d = uop.stage %a detach : tensor<4xf32>
  %m = uop.mul %d, %a : tensor<4xf32>
  %s = uop.stage %m : tensor<4xf32>
  %r = uop.sqrt %s : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A scalar root: r_1. #uop.opts is copied to every kernel.
// CHECK-LABEL: func.func private @r_1() -> f32 attributes {uop.kernel, uop.opts = #uop.opts<unroll = 4>}
// CHECK-LABEL: func.func @main() -> f32 attributes {uop.host}
// CHECK:         uop.launch @r_1(%{{.*}}) : (tensor<16xf32>) -> f32
func.func @main() -> f32 attributes {uop.opts = #uop.opts<unroll = 4>} {
  %a = uop.buffer 0 : tensor<16xf32>
  %s = uop.reduce %a <add> pop 1 : tensor<16xf32>
  return %s : f32
}

// -----

// A closed program: a kernel with no buffers.
// CHECK-LABEL: func.func private @e_2() -> tensor<2xi32>
// CHECK-LABEL: func.func @main()
// CHECK-NEXT:    %[[V:.*]] = uop.launch @e_2() : () -> tensor<2xi32>
// CHECK-NEXT:    return %[[V]]
func.func @main() -> tensor<2xi32> {
  %c = uop.const 3 : i32
  %r = uop.reshape %c, [1] : i32
  %e = uop.expand %r, [2] : tensor<1xi32>
  return %e : tensor<2xi32>
}
