// RUN: uop-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(uop-lanes-to-loops))' -verify-diagnostics

// uop-linearize keeps lanes in accumulators, never in loop-carried values.
func.func @carried(%x: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %v = vector.load %x[%c0] : memref<16xf32>, vector<8xf32>
  // expected-error @+1 {{'scf.for' op uop-lanes-to-loops: vector values carried by loops or yielded by regions have no lane form}}
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %v) -> (vector<8xf32>) {
    %s = arith.addf %a, %a : vector<8xf32>
    scf.yield %s : vector<8xf32>
  }
  vector.store %r, %x[%c0] : memref<16xf32>, vector<8xf32>
  return
}

// -----

func.func @shuffle(%x: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %x[%c0] : memref<16xf32>, vector<4xf32>
  // expected-error @+1 {{'vector.shuffle' op uop-lanes-to-loops: this vector op has no lane form}}
  %s = vector.shuffle %v, %v [3, 2, 1, 0] : vector<4xf32>, vector<4xf32>
  vector.store %s, %x[%c0] : memref<16xf32>, vector<4xf32>
  return
}
