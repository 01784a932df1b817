2//
// Result types are inferred as the seed's `_infer` infers them: the custom form
// writes no result type, the generic form shows what was inferred.
// (test_w01 test_shape_dtype_inference and friends.)

func.func @stack_index() {
  %c1 = uop.const 1 : i32
  %c2 = uop.const 2 : i32
  %c3 = uop.const 3 : i32
  %a = uop.stack %c1, %c2, %c3 : i32
  %s = uop.stack %a, %a : tensor<3xi32>
  // s.index(1).shape == (3,)
  %r = uop.index %s[%c1] : tensor<2x3xi32>
  %e = uop.index %s[%c1, %c2] : tensor<2x3xi32>
  // (const(1) < const(2)).dtype == bool
  %lt = uop.cmplt %c1, %c2 : i32
  %ne = uop.cmpne %s, %s : tensor<2x3xi32>
  %w = uop.where %ne, %s, %s : tensor<2x3xi32>
  %h = uop.cast %s : tensor<2x3xi32> to f16
  %q = uop.sqrt %h : tensor<2x3xf16>
  return
}

func.func @movement(%x: tensor<65536xf32>, %y: tensor<65536xf32>) {
  // The syllabus example: gemm_256x256 by movement ops.
  %0 = uop.reshape %x, [256, 256, 1] : tensor<65536xf32>
  %1 = uop.reshape %y, [256, 1, 256] : tensor<65536xf32>
  %2 = uop.expand %0, [256, 256, 256] : tensor<256x256x1xf32>
  %3 = uop.expand %1, [256, 256, 256] : tensor<256x1x256xf32>
  %4 = uop.mul %2, %3 : tensor<256x256x256xf32>
  %5 = uop.reduce %4 <add> pop 1 : tensor<256x256x256xf32>
  %6 = uop.permute %4, [2, 0, 1] : tensor<256x256x256xf32>
  %7 = uop.shrink %6 [3:13, 0:256, 255:256] : tensor<256x256x256xf32>
  // A full reduce is a scalar.
  %8 = uop.reduce %7 <max> pop 3 : tensor<10x256x1xf32>
  // Reshape to () is a scalar too.
  %9 = uop.shrink %7 [0:1, 0:1, 0:1] : tensor<10x256x1xf32>
  %10 = uop.reshape %9, [1, 1] : tensor<1x1x1xf32>
  %11 = uop.reshape %10, [] : tensor<1x1xf32>
  // Reshape of a scalar grows axes.
  %12 = uop.reshape %11, [1, 1] : f32
  return
}

func.func @memory(%i: i32) {
  %b = uop.buffer 0 : memref<16xf32, #uop.addrspace<global>>
  %p = uop.index %b[%i] : memref<16xf32, #uop.addrspace<global>>
  %v = uop.load %p : !uop.ptr<f32, global>
  %s = uop.store %p, %v : !uop.ptr<f32, global>
  %a = uop.alloc 0 : memref<4xf16, #uop.addrspace<shared>>
  %q = uop.index %a[%i] : memref<4xf16, #uop.addrspace<shared>>
  // Movement ops keep the address space of memory.
  %m = uop.reshape %b, [4, 4] : memref<16xf32, #uop.addrspace<global>>
  %row = uop.index %m[%i] : memref<4x4xf32, #uop.addrspace<global>>
  %l = uop.load %row : memref<4xf32, #uop.addrspace<global>>
  %c = uop.const 4 : i32
  %r = uop.range %c idx 0 <loop>
  %e = uop.end %s, %r : !uop.void
  %af = uop.after %a, %e : memref<4xf16, #uop.addrspace<shared>>, !uop.void
  %k = uop.sink(%e : !uop.void)
  return
}

// A call's type is its body's.
func.func @call() {
  %c7 = uop.const 7 : i32
  %0 = uop.call "sq"(%c7 : i32) {
  ^bb0(%x: i32):
    %1 = uop.mul %x, %x : i32
    uop.yield %1 : i32
  }
  %2 = uop.call "f"() {
    %c = uop.const dense<1.0> : tensor<2xf32>
    uop.yield %c : tensor<2xf32>
  }
  return
}
