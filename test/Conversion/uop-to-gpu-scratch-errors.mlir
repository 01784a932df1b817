// RUN: uop-opt %s -split-input-file -uop-to-gpu=temps-as-args=true -verify-diagnostics
//
// Per-thread memory that cannot be scratch memory (not a flat buffer of
// loads and stores) stays local memory, and past CUDA's 512 KiB a thread it
// is an error at the alloca.

func.func @main(%out: memref<1xf32>) attributes {uop.kernel, uop.slots = array<i64: 0>} {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'memref.alloca' op uop-to-gpu: 800000 bytes of per-thread memory (uop.alloc), but CUDA gives a thread at most 512 KiB of local memory}}
  %m = memref.alloca() : memref<2x100000xf32>
  %v = memref.load %m[%c0, %c0] : memref<2x100000xf32>
  memref.store %v, %out[%c0] : memref<1xf32>
  return
}

// -----

// With temps-as-args the scratch buffer is an argument of the caller, which
// only a host nobody calls can take.
func.func private @k(%out: memref<1xf32>) attributes {uop.kernel, uop.slots = array<i64: 0>} {
  %c0 = arith.constant 0 : index
  %m = memref.alloca() : memref<8192xf32>
  %v = memref.load %m[%c0] : memref<8192xf32>
  memref.store %v, %out[%c0] : memref<1xf32>
  return
}

func.func private @host(%out: memref<1xf32>) {
  // expected-error @+1 {{'func.call' op uop-to-gpu: kernel 'k' needs global scratch memory, an argument of its caller, but the caller is not a host function nobody calls}}
  call @k(%out) : (memref<1xf32>) -> ()
  return
}

func.func @main(%out: memref<1xf32>) {
  call @host(%out) : (memref<1xf32>) -> ()
  return
}
