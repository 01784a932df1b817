// RUN: uop-opt %s -uop-evaluate -split-input-file -verify-diagnostics
//
// Without -verify-diagnostics (which turns it off), each error is still one
// clean line at the op: no "see current operation" note dumping the op (the
// division by zero was followed by one), and exit 1.
// RUN: not uop-opt %s -uop-evaluate -split-input-file 2>&1 | FileCheck %s --implicit-check-not=note:
// CHECK: uop-evaluate-errors.mlir:[[@LINE+13]]:8: error: index 5 out of bounds for stack of 3
// CHECK: uop-evaluate-errors.mlir:[[@LINE+22]]:8: error: index -1 out of bounds for stack of 2
// CHECK: uop-evaluate-errors.mlir:[[@LINE+35]]:8: error: index 5 out of bounds for stack of 3
// CHECK: uop-evaluate-errors.mlir:[[@LINE+47]]:8: error: integer division by zero
// CHECK: uop-evaluate-errors.mlir:[[@LINE+58]]:8: error: integer modulo by zero
// CHECK-NOT: see current operation
//
// A constant index out of bounds of a stack is an error at that index.

func.func @out_of_bounds(%x: i32) -> i32 {
  %c5 = uop.const 5 : i32
  %s = uop.stack %x, %x, %x : i32
  // expected-error @+1 {{index 5 out of bounds for stack of 3}}
  %0 = uop.index %s[%c5] : tensor<3xi32>
  return %0 : i32
}

// -----

func.func @out_of_bounds_const() -> i32 {
  %m1 = uop.const -1 : i32
  %s = uop.const dense<[1, 2]> : tensor<2xi32>
  // expected-error @+1 {{index -1 out of bounds for stack of 2}}
  %0 = uop.index %s[%m1] : tensor<2xi32>
  return %0 : i32
}

// -----

// The error is at the index that is out of bounds, not at its user (the
// index of an index was merged into the user, which then carried the error).
func.func @out_of_bounds_nested(%x: i32) -> i32 {
  %c5 = uop.const 5 : i32
  %c0 = uop.const 0 : i32
  %r = uop.stack %x, %x : i32
  %s = uop.stack %r, %r, %r : tensor<2xi32>
  // expected-error @+1 {{index 5 out of bounds for stack of 3}}
  %i = uop.index %s[%c5] : tensor<3x2xi32>
  %j = uop.index %i[%c0] : tensor<2xi32>
  return %j : i32
}

// -----

// An integer division by a divisor that folds to 0 is an error at the
// division (the seed raises ZeroDivisionError), not a program left dividing.
func.func @division_by_zero() -> i32 {
  %a = uop.const 7 : i32
  %z = uop.const 0 : i32
  // expected-error @+1 {{integer division by zero}}
  %d = uop.floordiv %a, %z : i32
  return %d : i32
}

// -----

func.func @modulo_by_zero(%x: i32) -> i32 {
  %z = uop.const 0 : i32
  %s = uop.stack %x, %z : i32
  %c1 = uop.const 1 : i32
  %y = uop.index %s[%c1] : tensor<2xi32>
  // expected-error @+1 {{integer modulo by zero}}
  %m = uop.floormod %x, %y : i32
  return %m : i32
}
