// RUN: uop-translate --export-uir %s --split-input-file | FileCheck %s

// Structurally equal ops print once, as the seed's hash-consed graph does, and
// names follow the seed's toposort from the result, not the op order.
// CHECK-LABEL: %0 = param : slot=0 dtype=f32 shape=(4,)
// CHECK-NEXT: %1 = sqrt %0
// CHECK-NEXT: %2 = add %1, %1
// CHECK-NEXT: %3 = mul %2, %0
// CHECK-NOT: =
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %dead = uop.exp2 %x : tensor<4xf32>
  %b = uop.sqrt %x : tensor<4xf32>
  %a = uop.sqrt %x : tensor<4xf32>
  %s = uop.add %a, %b : tensor<4xf32>
  %m = uop.mul %s, %x : tensor<4xf32>
  return %m : tensor<4xf32>
}

// -----

// Function arguments are params by position, or by their uop.slot; a
// uop.param outside any call is a param too (and the same node as an equal
// argument).
// CHECK-LABEL: %0 = param : slot=3 dtype=i32
// CHECK-NEXT: %1 = param : slot=7 dtype=bool shape=(2, 2)
// CHECK-NEXT: %2 = cast %1 : dtype=i32
// CHECK-NEXT: %3 = param : slot=9 dtype=f16
// CHECK-NEXT: %4 = cast %3 : dtype=i32
// CHECK-NEXT: %5 = sink %0, %2, %4
func.func @main(%a: i32 {uop.slot = 3 : i64}, %b: tensor<2x2xi1> {uop.slot = 7 : i64}) -> !uop.void {
  %p = uop.param 3 : i32
  %c = uop.cast %b : tensor<2x2xi1> to i32
  %h = uop.param 9 : f16
  %hc = uop.cast %h : f16 to i32
  %s = uop.sink(%p, %c, %hc : i32, tensor<2x2xi32>, i32)
  return %s : !uop.void
}

// -----

// A folded dense constant prints as the seed prints run(...): a STACK of
// constants, nested for rank > 1, equal rows shared.
// CHECK-LABEL: %0 = stack 1.0, 2.0, 3.0
// CHECK-NEXT: %1 = stack 0.5, 0.5, 0.5
// CHECK-NEXT: %2 = stack %0, %1, %0
// CHECK-NOT: =
func.func @main() -> tensor<3x3xf32> {
  %0 = uop.const dense<[[1.0, 2.0, 3.0], [0.5, 0.5, 0.5], [1.0, 2.0, 3.0]]> : tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// Splats, i32, bool and f16 dense constants (f16 elements are the seed's
// CAST of an f32 CONST, printed at f16 precision).
// CHECK-LABEL: %0 = stack 7, 7
// CHECK-NEXT: %1 = stack %0, %0
// CHECK-NEXT: %2 = stack true, false
// CHECK-NEXT: %3 = cast 0.1 : dtype=f16
// CHECK-NEXT: %4 = cast -2.0 : dtype=f16
// CHECK-NEXT: %5 = stack %3, %4
// CHECK-NEXT: %6 = sink %1, %2, %5
func.func @main() -> !uop.void {
  %0 = uop.const dense<7> : tensor<2x2xi32>
  %1 = uop.const dense<[true, false]> : tensor<2xi1>
  %2 = uop.const dense<[0.1, -2.0]> : tensor<2xf16>
  %s = uop.sink(%0, %1, %2 : tensor<2x2xi32>, tensor<2xi1>, tensor<2xf16>)
  return %s : !uop.void
}

// -----

// A scalar result constant prints as `const`.
// CHECK-LABEL: %0 = const 4.5
// CHECK-NOT: =
func.func @main() -> f32 {
  %0 = uop.const 4.5 : f32
  return %0 : f32
}

// -----

// CHECK-LABEL: %0 = const -7
func.func @main() -> i32 {
  %0 = uop.const -7 : i32
  return %0 : i32
}

// -----

// CHECK-LABEL: %0 = cast 0.1 : dtype=f16
func.func @main() -> f16 {
  %0 = uop.const 0.1 : f16
  return %0 : f16
}

// -----

// Calls: the body's block arguments are its params; the same structure in
// and out of a body is one node (test_inline_call_does_not_enter_nested_bodies).
// CHECK-LABEL: %0 = param : slot=0 dtype=i32
// CHECK-NEXT: %1 = mul %0, %0
// CHECK-NEXT: %2 = add %0, 1
// CHECK-NEXT: %3 = call %1, %2 : name=sq
// CHECK-NEXT: %4 = add %3, %0
func.func @main(%p: i32) -> i32 {
  %c1 = uop.const 1 : i32
  %a = uop.add %p, %c1 : i32
  %0 = uop.call "sq"(%a : i32) {
  ^bb0(%q: i32):
    %m = uop.mul %q, %q : i32
    uop.yield %m : i32
  }
  %1 = uop.add %0, %p : i32
  return %1 : i32
}

// -----

// With several functions, @main is the program.
// CHECK-LABEL: %0 = const true
func.func @other() -> i32 {
  %0 = uop.const 1 : i32
  return %0 : i32
}
func.func @main() -> i1 {
  %0 = uop.const true
  return %0 : i1
}

// -----

// A bare literal reads back typed like the first named operand, so a constant
// of another dtype is printed as its own statement (the seed would print
// `sink %0, 3` and read back 3.0, or `call %1, 7` with an f32 body and read
// back an f32 argument).
// CHECK-LABEL: %0 = param : slot=0 dtype=i32
// CHECK-NEXT: %1 = cast %0 : dtype=f32
// CHECK-NEXT: %2 = const 7
// CHECK-NEXT: %3 = call %1, %2 : name=f
// CHECK-NEXT: %4 = const 3
// CHECK-NEXT: %5 = sink %3, 2.5, %4, true
func.func @main() -> !uop.void {
  %c7 = uop.const 7 : i32
  %0 = uop.call "f"(%c7 : i32) {
  ^bb0(%p: i32):
    %f = uop.cast %p : i32 to f32
    uop.yield %f : f32
  }
  %c25 = uop.const 2.5 : f32
  %c3 = uop.const 3 : i32
  %t = uop.const true
  %s = uop.sink(%0, %c25, %c3, %t : f32, f32, i32, i1)
  return %s : !uop.void
}
