2//
// Every uop op round-trips through the custom and the generic form.

func.func @values(%a: tensor<3xf32>, %i: i32, %h: f16) -> tensor<3xf32> {
  %c1 = uop.const 1 : i32
  %f1 = uop.const 1.0 : f32
  %t = uop.const true
  %nz = uop.const -0.0 : f32
  %h1 = uop.const 1.5 : f16
  %d = uop.const dense<2.0> : tensor<3xf32>
  %d2 = uop.const dense<[1, 2, 3]> : tensor<3xi32>
  %p = uop.param 0 : tensor<3xf32>
  %c2 = uop.const 2 : i32
  %s = uop.stack %c1, %c2, %c1 : i32
  %s2 = uop.stack %s, %s : tensor<3xi32>
  %e = uop.index %s2[%c1, %c2] : tensor<2x3xi32>
  %row = uop.index %s2[%c1] : tensor<2x3xi32>
  %all = uop.index %s2[] : tensor<2x3xi32>
  %cf = uop.cast %s2 : tensor<2x3xi32> to f32
  %ch = uop.cast %f1 : f32 to f16
  %r0 = uop.recip %a : tensor<3xf32>
  %r1 = uop.exp2 %a : tensor<3xf32>
  %r2 = uop.log2 %h : f16
  %r3 = uop.sqrt %f1 : f32
  %r4 = uop.sin %a : tensor<3xf32>
  %m = uop.mul %a, %d : tensor<3xf32>
  %b0 = uop.add %c1, %i : i32
  %b1 = uop.max %a, %d : tensor<3xf32>
  %b2 = uop.cmplt %c1, %i : i32
  %b3 = uop.cmpne %a, %d : tensor<3xf32>
  %b4 = uop.floordiv %c1, %i : i32
  %b5 = uop.floormod %c1, %i : i32
  %w = uop.where %b3, %a, %d : tensor<3xf32>
  %w2 = uop.where %t, %f1, %nz : i1, f32, f32
  return %m : tensor<3xf32>
}

func.func @calls() -> i32 {
  %c3 = uop.const 3 : i32
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
  %4 = uop.call "g"() {
    %c = uop.const 7 : i32
    uop.yield %c : i32
  }
  return %0 : i32
}

func.func @memory() -> !uop.void {
  %b = uop.buffer 0 : memref<16xf32, #uop.addrspace<global>>
  %bt = uop.buffer 1 : tensor<16xf32>
  %acc = uop.alloc 0 : memref<1xf32, #uop.addrspace<local>>
  %sh = uop.alloc 1 : memref<256xf16, #uop.addrspace<shared>>
  %c16 = uop.const 16 : i32
  %c0 = uop.const 0 : i32
  %r = uop.range %c16 idx 0 <loop>
  %k = uop.range %c16 idx 1 <reduce>
  %u = uop.range %c16 idx 2 <upcast>
  %th = uop.range %c16 idx 3 <thread>
  %g = uop.range %c16 idx 4 <global>
  %l = uop.range %c16 idx 5 <local>
  %p = uop.index %b[%r] : memref<16xf32, #uop.addrspace<global>>
  %v = uop.load %p : !uop.ptr<f32, global>
  %whole = uop.load %b : memref<16xf32, #uop.addrspace<global>>
  %s = uop.store %p, %v : !uop.ptr<f32, global>
  %s2 = uop.store %b, %whole : memref<16xf32, #uop.addrspace<global>>
  %e = uop.end %s, %r : !uop.void
  %e0 = uop.end %s : !uop.void
  %af = uop.after %acc, %e : memref<1xf32, #uop.addrspace<local>>, !uop.void
  %af0 = uop.after %acc : memref<1xf32, #uop.addrspace<local>>
  %bar = uop.barrier(%s : !uop.void)
  %bar0 = uop.barrier()
  %sk = uop.sink(%e, %bar : !uop.void, !uop.void)
  %sk0 = uop.sink()
  return %sk : !uop.void
}

func.func @movement(%x: tensor<6xf32>, %b: memref<6xf32, #uop.addrspace<global>>) {
  %0 = uop.reshape %x, [2, 3] : tensor<6xf32>
  %1 = uop.permute %0, [1, 0] : tensor<2x3xf32>
  %2 = uop.shrink %1 [0:1, 0:2] : tensor<3x2xf32>
  %3 = uop.expand %2, [4, 2] : tensor<1x2xf32>
  %4 = uop.reduce %3 <add> pop 1 : tensor<4x2xf32>
  %5 = uop.reduce %4 <max> pop 0 : tensor<4xf32>
  %sc0 = uop.reshape %2, [1, 2] : tensor<1x2xf32>
  %sc1 = uop.shrink %sc0 [0:1, 0:1] : tensor<1x2xf32>
  %sc = uop.reshape %sc1, [] : tensor<1x1xf32>
  %m = uop.reshape %b, [2, 3] : memref<6xf32, #uop.addrspace<global>>
  %6 = uop.stage %5 : tensor<4xf32>
  %h = uop.const dense<1.0> : tensor<16x16xf16>
  %f = uop.const dense<0.0> : tensor<16x16xf32>
  %7 = uop.wmma %h, %h, %f : tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>
  return
}

func.func @attrs() attributes {
    uop.opts = #uop.opts<upcast = {0: 4, 1: 4}, thread = 0, unroll = 4, tile = {1: 32}, gpu, local = {0: 16}>,
    uop.opts.default = #uop.opts<unroll = 1, gpu = false>,
    uop.space = #uop.addrspace<shared>, uop.axis = #uop.axis<reduce>, uop.red = #uop.reduce<max>} {
  return
}
