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
