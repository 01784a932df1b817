// RUN: uop-opt %s -split-input-file -uop-linearize=gpu=true -uop-to-gpu -verify-diagnostics
//
// CUDA has 3 grid and 3 block dimensions: a fourth global range is an error
// at the kernel (the seed's "fold axes" assertion).

// expected-error @+1 {{'func.func' op uop-to-gpu: 4 global ranges, but CUDA has 3 grid dimensions}}
func.func @four_global() -> !uop.void {
  %c2 = uop.const 2 : i32
  %c8 = uop.const 8 : i32
  %c4 = uop.const 4 : i32
  %one = uop.const 1.0 : f32
  %out = uop.buffer 0 : memref<16xf32, #uop.addrspace<global>>
  %a = uop.range %c2 idx 0 <global>
  %b = uop.range %c2 idx 1 <global>
  %c = uop.range %c2 idx 2 <global>
  %d = uop.range %c2 idx 3 <global>
  %a8 = uop.mul %a, %c8 : i32
  %b4 = uop.mul %b, %c4 : i32
  %c2x = uop.mul %c, %c2 : i32
  %s0 = uop.add %a8, %b4 : i32
  %s1 = uop.add %s0, %c2x : i32
  %i = uop.add %s1, %d : i32
  %p = uop.index %out[%i] : memref<16xf32, #uop.addrspace<global>>
  %s = uop.store %p, %one : !uop.ptr<f32, global>
  %e = uop.end %s, %a, %b, %c, %d : !uop.void
  %k = uop.sink(%e : !uop.void)
  return %k : !uop.void
}

// -----

// expected-error @+1 {{'func.func' op uop-to-gpu: a block of 2048 threads exceeds CUDA's 1024}}
func.func @big_block() -> !uop.void {
  %c64 = uop.const 64 : i32
  %c32 = uop.const 32 : i32
  %one = uop.const 1.0 : f32
  %out = uop.buffer 0 : memref<2048xf32, #uop.addrspace<global>>
  %a = uop.range %c64 idx 0 <local>
  %b = uop.range %c32 idx 1 <local>
  %a32 = uop.mul %a, %c32 : i32
  %i = uop.add %a32, %b : i32
  %p = uop.index %out[%i] : memref<2048xf32, #uop.addrspace<global>>
  %s = uop.store %p, %one : !uop.ptr<f32, global>
  %e = uop.end %s, %a, %b : !uop.void
  %k = uop.sink(%e : !uop.void)
  return %k : !uop.void
}

// -----

// A per-thread alloc larger than CUDA's local memory (512 KiB a thread) is a
// slice of a global scratch buffer, one slice per thread of the launch (see
// uop-to-gpu-scratch.mlir); 1 MiB for each of 8192 threads is 8 GiB of
// scratch memory, more than uop allows: an error at the alloc, at compile
// time, with the byte counts.
func.func @too_much_scratch_memory() -> !uop.void {
  %n = uop.const 262144 : i32
  %blocks = uop.const 8192 : i32
  %zero = uop.const 0.0 : f32
  %out = uop.buffer 0 : memref<8192xf32, #uop.addrspace<global>>
  %g = uop.range %blocks idx 0 <global>
  // expected-error @+1 {{'memref.alloca' op uop-to-gpu: 1048576 bytes of per-thread memory (uop.alloc) exceed the 512 KiB of local memory CUDA gives a thread, and global scratch memory for 1048576 bytes a thread in a launch of 8192x1x1 blocks of 1x1x1 threads would be 8589934592 bytes, more than the 4 GiB uop allows}}
  %acc = uop.alloc 0 : memref<262144xf32, #uop.addrspace<local>>
  %acc1 = uop.after %acc, %g : memref<262144xf32, #uop.addrspace<local>>, i32
  %r = uop.range %n idx 1 <loop>
  %p = uop.index %acc1[%r] : memref<262144xf32, #uop.addrspace<local>>
  %s = uop.store %p, %zero : !uop.ptr<f32, local>
  %e = uop.end %s, %r : !uop.void
  %after = uop.after %acc1, %e : memref<262144xf32, #uop.addrspace<local>>, !uop.void
  %c0 = uop.const 0 : i32
  %q = uop.index %after[%c0] : memref<262144xf32, #uop.addrspace<local>>
  %v = uop.load %q : !uop.ptr<f32, local>
  %o = uop.index %out[%g] : memref<8192xf32, #uop.addrspace<global>>
  %so = uop.store %o, %v : !uop.ptr<f32, global>
  %eg = uop.end %so, %g : !uop.void
  %k = uop.sink(%eg : !uop.void)
  return %k : !uop.void
}
