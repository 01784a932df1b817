5//
// A kernel graph lowers to the LLVM dialect: buffers are bare pointers in slot
// order, thread ranges OpenMP work-sharing loops.

func.func @main() -> !uop.void {
  %c64 = uop.const 64 : i32
  %two = uop.const 2.0 : f32
  %A = uop.buffer 0 : memref<64xf32, #uop.addrspace<global>>
  %B = uop.buffer 1 : memref<64xf32, #uop.addrspace<global>>
  %i = uop.range %c64 idx 0 <thread>
  %pa = uop.index %A[%i] : memref<64xf32, #uop.addrspace<global>>
  %a = uop.load %pa : !uop.ptr<f32, global>
  %m = uop.mul %a, %two : f32
  %pb = uop.index %B[%i] : memref<64xf32, #uop.addrspace<global>>
  %s = uop.store %pb, %m : !uop.ptr<f32, global>
  %e = uop.end %s, %i : !uop.void
  %k = uop.sink(%e : !uop.void)
  return %k : !uop.void
}

// A shaped program is kernelized first: one kernel (a gemm reduces: r_),
// whose value is stored into its next buffer slot, and a host @main taking
// the two inputs and the output, calling it.
