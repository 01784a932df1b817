// RUN: uop-opt %s -split-input-file -uop-emulate-gpu -verify-diagnostics
//
// What uop-emulate-gpu cannot run as CPU loops, each an error at the op.

#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>

// A barrier under a condition: not every thread reaches it.
func.func @barrier_under_if(%m: memref<16xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
    // expected-error @+1 {{'scf.if' op uop-emulate-gpu: a barrier under a condition cannot be emulated}}
    scf.if %c {
      gpu.barrier
    }
    scf.reduce
  } {mapping = [#tx], uop.axis = #uop.axis<local>}
  return
}

// -----

#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>

// The number of steps of a loop holding a barrier depends on the thread.
func.func @thread_dependent_trip_count(%m: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%t) = (%c0) to (%c16) step (%c1) {
    // expected-error @+1 {{'scf.for' op uop-emulate-gpu: a loop with a barrier has bounds that depend on the thread}}
    scf.for %k = %c0 to %t step %c1 {
      gpu.barrier
    }
    scf.reduce
  } {mapping = [#tx], uop.axis = #uop.axis<local>}
  return
}

// -----

#tx = #gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>

// The block size must be a constant (the per-thread arrays have one size).
func.func @dynamic_block(%m: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.parallel' op uop-emulate-gpu: a block size that is not a constant}}
  scf.parallel (%t) = (%c0) to (%n) step (%c1) {
    gpu.barrier
    scf.reduce
  } {mapping = [#tx], uop.axis = #uop.axis<local>}
  return
}
