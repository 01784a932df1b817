// RUN: uop-opt %s -uop-evaluate -split-input-file -verify-diagnostics
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
