// RUN: uop-opt %s --split-input-file --verify-diagnostics --uop-gradient
// RUN: not uop-opt %s --split-input-file --uop-gradient=wrt=3 2>&1 | FileCheck %s --check-prefix=SLOT
// RUN: not uop-opt %s --split-input-file --uop-gradient="func=args wrt=2" 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: not uop-opt %s --split-input-file --uop-gradient="func=args wrt=1" 2>&1 | FileCheck %s --check-prefix=INT
// RUN: not uop-opt %s --split-input-file --uop-gradient=func=nope 2>&1 | FileCheck %s --check-prefix=NOPE
//
// uop-gradient's errors: each a diagnostic, never a crash.

// SLOT: error: uop-gradient: wrt=3: @main reads no tensor uop.buffer slot 3 (it has 2 buffer slots: 0 1)
// NOPE: error: uop-gradient: no func.func @nope
func.func @main() -> f32 {
  %x = uop.buffer 0 : tensor<4xf32>
  %y = uop.buffer 1 : tensor<4xf32>
  %0 = uop.mul %x, %y : tensor<4xf32>
  %1 = uop.reduce %0 <add> pop 1 : tensor<4xf32>
  return %1 : f32
}

// ARG: error: uop-gradient: wrt=2: @args has no argument 2 (it has 2 arguments)
// INT: error: uop-gradient: wrt=1: argument 1 is 'i32'; gradients are of float inputs
func.func @args(%x: f32, %n: i32) -> f32 {
  %c = uop.cast %n : i32 to f32
  %0 = uop.mul %x, %c : f32
  return %0 : f32
}

// -----

func.func @main() -> tensor<4xf32> {
  %x = uop.buffer 0 : tensor<4xf32>
  // expected-error @+1 {{uop-gradient: the loss must be an f32 or f16 scalar, not 'tensor<4xf32>'}}
  return %x : tensor<4xf32>
}

// -----

func.func @main() -> i32 {
  %x = uop.buffer 0 : tensor<4xi32>
  %0 = uop.reduce %x <add> pop 1 : tensor<4xi32>
  // expected-error @+1 {{uop-gradient: the loss must be an f32 or f16 scalar, not 'i32'}}
  return %0 : i32
}

// -----

// expected-error @+1 {{uop-gradient: @main must return one value (a scalar loss)}}
func.func @main() -> (f32, f32) {
  %x = uop.buffer 0 : tensor<4xf32>
  %0 = uop.reduce %x <add> pop 1 : tensor<4xf32>
  return %0, %0 : f32, f32
}

// -----

// A gather by data: the seed raises NotImplementedError, uop reports it at the index.
func.func @main() -> f32 {
  %x = uop.buffer 0 : tensor<4xf32>
  %i = uop.buffer 1 : tensor<1xi32>
  %c0 = uop.const 0 : i32
  %k = uop.index %i[%c0] : tensor<1xi32>
  // expected-error @+1 {{no gradient of a data-dependent uop.index (its indices must be uop.const; use a one-hot matmul)}}
  %0 = uop.index %x[%k] : tensor<4xf32>
  return %0 : f32
}

// -----

// A call on the path has no rule (inline it first).
func.func @main() -> f32 {
  %x = uop.buffer 0 : tensor<4xf32>
  %s = uop.reduce %x <add> pop 1 : tensor<4xf32>
  // expected-error @+1 {{no gradient rule for 'uop.call' (autodiff works on pure shaped graphs; run uop-inline-calls first)}}
  %0 = uop.call "sq"(%s : f32) {
  ^bb0(%a: f32):
    %1 = uop.mul %a, %a : f32
    uop.yield %1 : f32
  }
  return %0 : f32
}

// -----

// expected-error @+1 {{uop-gradient: @main has no float input to differentiate by}}
func.func @main() -> f32 {
  %x = uop.buffer 0 : tensor<4xi32>
  %0 = uop.cast %x : tensor<4xi32> to f32
  %1 = uop.reduce %0 <add> pop 1 : tensor<4xf32>
  return %1 : f32
}
