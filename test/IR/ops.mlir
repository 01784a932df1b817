// RUN: uop-opt %s | uop-opt | FileCheck %s
// RUN: uop-opt %s --mlir-print-op-generic | uop-opt | FileCheck %s
//
// Every uop op round-trips through the custom and the generic form.

// CHECK-LABEL: func.func @values
func.func @values(%a: tensor<3xf32>, %i: i32, %h: f16) -> tensor<3xf32> {
  // CHECK: %[[C1:.*]] = uop.const 1 : i32
  %c1 = uop.const 1 : i32
  // CHECK: uop.const 1.000000e+00 : f32
  %f1 = uop.const 1.0 : f32
  // CHECK: uop.const true
  %t = uop.const true
  // CHECK: uop.const -0.000000e+00 : f32
  %nz = uop.const -0.0 : f32
  // CHECK: uop.const 1.500000e+00 : f16
  %h1 = uop.const 1.5 : f16
  // CHECK: %[[D:.*]] = uop.const dense<2.000000e+00> : tensor<3xf32>
  %d = uop.const dense<2.0> : tensor<3xf32>
  // CHECK: uop.const dense<[1, 2, 3]> : tensor<3xi32>
  %d2 = uop.const dense<[1, 2, 3]> : tensor<3xi32>
  // CHECK: uop.param 0 : tensor<3xf32>
  %p = uop.param 0 : tensor<3xf32>
  // CHECK: %[[S:.*]] = uop.stack %[[C1]], %{{.*}}, %[[C1]] : i32
  %c2 = uop.const 2 : i32
  %s = uop.stack %c1, %c2, %c1 : i32
  // CHECK: %[[S2:.*]] = uop.stack %[[S]], %[[S]] : tensor<3xi32>
  %s2 = uop.stack %s, %s : tensor<3xi32>
  // CHECK: uop.index %[[S2]][%[[C1]], %{{.*}}] : tensor<2x3xi32>
  %e = uop.index %s2[%c1, %c2] : tensor<2x3xi32>
  // CHECK: uop.index %[[S2]][%[[C1]]] : tensor<2x3xi32>
  %row = uop.index %s2[%c1] : tensor<2x3xi32>
  // CHECK: uop.index %[[S2]][] : tensor<2x3xi32>
  %all = uop.index %s2[] : tensor<2x3xi32>
  // CHECK: uop.cast %[[S2]] : tensor<2x3xi32> to f32
  %cf = uop.cast %s2 : tensor<2x3xi32> to f32
  // CHECK: uop.cast %{{.*}} : f32 to f16
  %ch = uop.cast %f1 : f32 to f16
  // CHECK: uop.recip %{{.*}} : tensor<3xf32>
  %r0 = uop.recip %a : tensor<3xf32>
  // CHECK: uop.exp2 %{{.*}} : tensor<3xf32>
  %r1 = uop.exp2 %a : tensor<3xf32>
  // CHECK: uop.log2 %{{.*}} : f16
  %r2 = uop.log2 %h : f16
  // CHECK: uop.sqrt %{{.*}} : f32
  %r3 = uop.sqrt %f1 : f32
  // CHECK: uop.sin %{{.*}} : tensor<3xf32>
  %r4 = uop.sin %a : tensor<3xf32>
  // CHECK: %[[M:.*]] = uop.mul %{{.*}}, %[[D]] : tensor<3xf32>
  %m = uop.mul %a, %d : tensor<3xf32>
  // CHECK: uop.add %{{.*}}, %{{.*}} : i32
  %b0 = uop.add %c1, %i : i32
  // CHECK: uop.max %{{.*}}, %{{.*}} : tensor<3xf32>
  %b1 = uop.max %a, %d : tensor<3xf32>
  // CHECK: uop.cmplt %{{.*}}, %{{.*}} : i32
  %b2 = uop.cmplt %c1, %i : i32
  // CHECK: uop.cmpne %{{.*}}, %{{.*}} : tensor<3xf32>
  %b3 = uop.cmpne %a, %d : tensor<3xf32>
  // CHECK: uop.floordiv %{{.*}}, %{{.*}} : i32
  %b4 = uop.floordiv %c1, %i : i32
  // CHECK: uop.floormod %{{.*}}, %{{.*}} : i32
  %b5 = uop.floormod %c1, %i : i32
  // CHECK: uop.where %{{.*}}, %{{.*}}, %{{.*}} : tensor<3xf32>
  %w = uop.where %b3, %a, %d : tensor<3xf32>
  // CHECK: uop.where %{{.*}}, %{{.*}}, %{{.*}} : f32{{$}}
  %w2 = uop.where %t, %f1, %nz : i1, f32, f32
  return %m : tensor<3xf32>
}

// CHECK-LABEL: func.func @calls
func.func @calls() -> i32 {
  %c3 = uop.const 3 : i32
  // CHECK: uop.call "f"(%{{.*}} : i32) {
  // CHECK-NEXT: ^bb0(%[[P:.*]]: i32):
  // CHECK: uop.call "sq"(%{{.*}} : i32) {
  // CHECK: uop.yield
  // CHECK: uop.yield
  %0 = uop.call "f"(%c3 : i32) {
  ^bb0(%p0: i32):
    %c1 = uop.const 1 : i32
    %a = uop.add %p0, %c1 : i32
    %1 = uop.call "sq"(%a : i32) {
    ^bb0(%q0: i32):
      %2 = uop.mul %q0, %q0 : i32
      uop.yield %2 : i32
    }
    %3 = uop.add %1, %p0 : i32
    uop.yield %3 : i32
  }
  // CHECK: uop.call "g"() {
  %4 = uop.call "g"() {
    %c = uop.const 7 : i32
    uop.yield %c : i32
  }
  return %0 : i32
}

// CHECK-LABEL: func.func @memory
func.func @memory() -> !uop.void {
  // CHECK: %[[B:.*]] = uop.buffer 0 : memref<16xf32, #uop.addrspace<global>>
  %b = uop.buffer 0 : memref<16xf32, #uop.addrspace<global>>
  // CHECK: uop.buffer 1 : tensor<16xf32>
  %bt = uop.buffer 1 : tensor<16xf32>
  // CHECK: %[[A:.*]] = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  // CHECK: uop.alloc 1 : memref<256xf16, #uop.addrspace<shared>>
  %sh = uop.alloc 1 : memref<256xf16, #uop.addrspace<shared>>
  %c16 = uop.const 16 : i32
  %c0 = uop.const 0 : i32
  // CHECK: %[[R:.*]] = uop.range %{{.*}} idx 0 <loop>{{$}}
  %r = uop.range %c16 idx 0 <loop>
  // CHECK: uop.range %{{.*}} idx 1 <reduce>
  %k = uop.range %c16 idx 1 <reduce>
  // CHECK: uop.range %{{.*}} idx 2 <upcast>
  %u = uop.range %c16 idx 2 <upcast>
  // CHECK: uop.range %{{.*}} idx 3 <thread>
  %th = uop.range %c16 idx 3 <thread>
  // CHECK: uop.range %{{.*}} idx 4 <global>
  %g = uop.range %c16 idx 4 <global>
  // CHECK: uop.range %{{.*}} idx 5 <local>
  %l = uop.range %c16 idx 5 <local>
  // CHECK: %[[P:.*]] = uop.index %[[B]][%[[R]]] : memref<16xf32, #uop.addrspace<global>>{{$}}
  %p = uop.index %b[%r] : memref<16xf32, #uop.addrspace<global>>
  // CHECK: uop.load %[[P]] : !uop.ptr<f32, global>
  %v = uop.load %p : !uop.ptr<f32, global>
  // CHECK: uop.load %[[B]] : memref<16xf32, #uop.addrspace<global>>
  %whole = uop.load %b : memref<16xf32, #uop.addrspace<global>>
  // CHECK: %[[ST:.*]] = uop.store %[[P]], %{{.*}} : !uop.ptr<f32, global>{{$}}
  %s = uop.store %p, %v : !uop.ptr<f32, global>
  // CHECK: uop.store %[[B]], %{{.*}} : memref<16xf32, #uop.addrspace<global>>{{$}}
  %s2 = uop.store %b, %whole : memref<16xf32, #uop.addrspace<global>>
  // CHECK: %[[E:.*]] = uop.end %[[ST]], %[[R]] : !uop.void
  %e = uop.end %s, %r : !uop.void
  // CHECK: uop.end %[[ST]] : !uop.void
  %e0 = uop.end %s : !uop.void
  // CHECK: uop.after %[[A]], %[[E]] : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %af = uop.after %acc, %e : memref<1xf32, #uop.addrspace<local>>, !uop.void
  // CHECK: uop.after %[[A]] : memref<1xf32, #uop.addrspace<local>>
  %af0 = uop.after %acc : memref<1xf32, #uop.addrspace<local>>
  // CHECK: uop.barrier(%[[ST]] : !uop.void)
  %bar = uop.barrier(%s : !uop.void)
  // CHECK: uop.barrier(){{$}}
  %bar0 = uop.barrier()
  // CHECK: uop.sink(%[[E]], %{{.*}} : !uop.void, !uop.void)
  %sk = uop.sink(%e, %bar : !uop.void, !uop.void)
  // CHECK: uop.sink(){{$}}
  %sk0 = uop.sink()
  return %sk : !uop.void
}

// CHECK-LABEL: func.func @movement
func.func @movement(%x: tensor<6xf32>, %b: memref<6xf32, #uop.addrspace<global>>) {
  // CHECK: uop.reshape %{{.*}}, [2, 3] : tensor<6xf32>
  %0 = uop.reshape %x, [2, 3] : tensor<6xf32>
  // CHECK: uop.permute %{{.*}}, [1, 0] : tensor<2x3xf32>
  %1 = uop.permute %0, [1, 0] : tensor<2x3xf32>
  // CHECK: uop.shrink %{{.*}} [0:1, 0:2] : tensor<3x2xf32>
  %2 = uop.shrink %1 [0:1, 0:2] : tensor<3x2xf32>
  // CHECK: uop.expand %{{.*}}, [4, 2] : tensor<1x2xf32>
  %3 = uop.expand %2, [4, 2] : tensor<1x2xf32>
  // CHECK: uop.reduce %{{.*}} <add> pop 1 : tensor<4x2xf32>
  %4 = uop.reduce %3 <add> pop 1 : tensor<4x2xf32>
  // CHECK: uop.reduce %{{.*}} <max> pop 0 : tensor<4xf32>
  %5 = uop.reduce %4 <max> pop 0 : tensor<4xf32>
  // CHECK: uop.reshape %{{.*}}, [] : tensor<1x1xf32>
  %sc0 = uop.reshape %2, [1, 2] : tensor<1x2xf32>
  %sc1 = uop.shrink %sc0 [0:1, 0:1] : tensor<1x2xf32>
  %sc = uop.reshape %sc1, [] : tensor<1x1xf32>
  // CHECK: uop.reshape %{{.*}}, [2, 3] : memref<6xf32, #uop.addrspace<global>>
  %m = uop.reshape %b, [2, 3] : memref<6xf32, #uop.addrspace<global>>
  // CHECK: uop.stage %{{.*}} : tensor<4xf32>
  %6 = uop.stage %5 : tensor<4xf32>
  %h = uop.const dense<1.0> : tensor<16x16xf16>
  %f = uop.const dense<0.0> : tensor<16x16xf32>
  // CHECK: uop.wmma %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  %7 = uop.wmma %h, %h, %f : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  return
}

// CHECK-LABEL: func.func @attrs
// CHECK-SAME: uop.opts = #uop.opts<upcast = {0: 4, 1: 4}, thread = 0, unroll = 4, tile = {1: 32}, gpu, local = {0: 16}>
// CHECK-SAME: uop.opts.default = #uop.opts<>
// CHECK-SAME: uop.opts.gpu = #uop.opts<upcast = {0: 16, 1: 8}, gpu, local = {0: 8, 1: 16}, prefetch = 8>
// CHECK-SAME: uop.opts.merge = #uop.opts<gpu, local = {5: 16}, merge = {0: 2, 2: 3}>
// CHECK-SAME: uop.opts.next = #uop.opts<thread = 0, stash, prefetch_next = 256>
// CHECK-SAME: uop.opts.nostash = #uop.opts<thread = 0>
// CHECK-SAME: uop.opts.stash = #uop.opts<upcast = {0: 4}, stash>
// CHECK-SAME: uop.opts.tc = #uop.opts<upcast = {0: 4, 1: 8}, unroll = 2, gpu, local = {0: 2, 1: 2}, stages = 3, tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>
// CHECK-SAME: uop.space = #uop.addrspace<shared>
func.func @attrs() attributes {
    uop.opts = #uop.opts<upcast = {0: 4, 1: 4}, thread = 0, unroll = 4, tile = {1: 32}, gpu, local = {0: 16}>,
    uop.opts.default = #uop.opts<unroll = 1, gpu = false>,
    uop.opts.gpu = #uop.opts<prefetch = 8, gpu, local = {0: 8, 1: 16}, upcast = {0: 16, 1: 8}>,
    uop.opts.merge = #uop.opts<merge = {0: 2, 2: 3}, local = {5: 16}, gpu>,
    uop.opts.next = #uop.opts<prefetch_next = 256, thread = 0, stash>,
    uop.opts.nostash = #uop.opts<stash = false, thread = 0>,
    uop.opts.stash = #uop.opts<stash, upcast = {0: 4}>,
    uop.opts.tc = #uop.opts<tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>, stages = 3, gpu, local = {0: 2, 1: 2}, upcast = {0: 4, 1: 8}, unroll = 2>,
    uop.space = #uop.addrspace<shared>, uop.axis = #uop.axis<reduce>, uop.red = #uop.reduce<max>} {
  return
}
