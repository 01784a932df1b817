// RUN: uop-opt %s -uop-linearize -uop-to-gpu -verify-diagnostics
//
// A kernel linearized for the CPU keeps its thread range as an scf.parallel
// with no GPU mapping: uop-to-gpu says how to get the GPU path.

// expected-error @+1 {{'func.func' op uop-to-gpu: a parallel loop that is not a GPU range}}
func.func @threads() -> !uop.void {
  %c64 = uop.const 64 : i32
  %one = uop.const 1.0 : f32
  %out = uop.buffer 0 : memref<64xf32, #uop.addrspace<global>>
  // expected-note @+1 {{this loop}}
  %t = uop.range %c64 idx 0 <thread>
  %p = uop.index %out[%t] : memref<64xf32, #uop.addrspace<global>>
  %s = uop.store %p, %one : !uop.ptr<f32, global>
  %e = uop.end %s, %t : !uop.void
  %k = uop.sink(%e : !uop.void)
  return %k : !uop.void
}
