// RUN: uop-opt %s -split-input-file -uop-linearize -verify-diagnostics

// test_w03 test_missing_end_is_an_error: a RANGE that is never closed.
func.func @missing_end() -> !uop.void {
  %c4 = uop.const 4 : i32
  %one = uop.const 1.0 : f32
  %out = uop.buffer 0 : memref<4xf32, #uop.addrspace<global>>
  // expected-error @+1 {{'uop.range' op RANGE without END: loops [0] are never closed}}
  %r = uop.range %c4 idx 0 <loop>
  %p = uop.index %out[%r] : memref<4xf32, #uop.addrspace<global>>
  %s = uop.store %p, %one : !uop.ptr<f32, global>
  %k = uop.sink(%s : !uop.void)
  return %k : !uop.void
}

// -----

// A graph whose END closes a loop that is not the innermost open one can't
// be scheduled.
func.func @unschedulable() -> !uop.void {
  %c4 = uop.const 4 : i32
  %one = uop.const 1.0 : f32
  %out = uop.buffer 0 : memref<16xf32, #uop.addrspace<global>>
  %i = uop.range %c4 idx 0 <loop>
  %j = uop.range %c4 idx 1 <loop>
  %ij = uop.add %i, %j : i32
  %p = uop.index %out[%ij] : memref<16xf32, #uop.addrspace<global>>
  %s = uop.store %p, %one : !uop.ptr<f32, global>
  // expected-error @+1 {{'uop.end' op uop-linearize: can't schedule; open loops [0, 1], stuck at}}
  %e = uop.end %s, %i : !uop.void
  %e2 = uop.end %e, %j : !uop.void
  %k = uop.sink(%e2 : !uop.void)
  return %k : !uop.void
}

// -----

func.func @shaped_buffer() -> !uop.void {
  %c0 = uop.const 0 : i32
  // expected-error @+1 {{'uop.buffer' op uop-linearize: expects a kernel graph (L2), but this buffer is a tensor value (run uop-rangeify first)}}
  %b = uop.buffer 0 : tensor<4xf32>
  %o = uop.buffer 1 : memref<1xf32, #uop.addrspace<global>>
  %v = uop.index %b[%c0] : tensor<4xf32>
  %p = uop.index %o[%c0] : memref<1xf32, #uop.addrspace<global>>
  %s = uop.store %p, %v : !uop.ptr<f32, global>
  %k = uop.sink(%s : !uop.void)
  return %k : !uop.void
}

// -----

func.func @barrier_on_cpu() -> !uop.void {
  // expected-error @+1 {{'uop.barrier' op uop-linearize: barriers need the GPU path (uop-to-gpu)}}
  %b = uop.barrier()
  %k = uop.sink(%b : !uop.void)
  return %k : !uop.void
}

// -----

// expected-error @+1 {{'func.func' op uop-linearize: a kernel graph takes no arguments (its inputs are uop.buffer slots)}}
func.func @with_args(%x: f32) -> !uop.void {
  %c0 = uop.const 0 : i32
  %o = uop.buffer 0 : memref<1xf32, #uop.addrspace<global>>
  %p = uop.index %o[%c0] : memref<1xf32, #uop.addrspace<global>>
  %s = uop.store %p, %x : !uop.ptr<f32, global>
  %k = uop.sink(%s : !uop.void)
  return %k : !uop.void
}

// -----

func.func @two_types_one_slot() -> !uop.void {
  %c0 = uop.const 0 : i32
  %one = uop.const 1 : i32
  // expected-error @+1 {{'uop.buffer' op slot 0 is also a buffer of type 'memref<4xi32, #uop.addrspace<global>>'}}
  %a = uop.buffer 0 : memref<4xf32, #uop.addrspace<global>>
  %b = uop.buffer 0 : memref<4xi32, #uop.addrspace<global>>
  %pa = uop.index %a[%c0] : memref<4xf32, #uop.addrspace<global>>
  %v = uop.load %pa : !uop.ptr<f32, global>
  %pb = uop.index %b[%c0] : memref<4xi32, #uop.addrspace<global>>
  %s = uop.store %pb, %one : !uop.ptr<i32, global>
  %k = uop.sink(%s, %v : !uop.void, f32)
  return %k : !uop.void
}
