// RUN: uop-opt %s -split-input-file -uop-rangeify -verify-diagnostics

// expected-error @+1 {{'func.func' op uop-rangeify: shaped programs read uop.buffer slots; this function takes arguments}}
func.func @args(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = uop.exp2 %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A RANGE in a shaped program has no rule (the seed raises too).
func.func @range_in_l1() -> i32 {
  %c4 = uop.const 4 : i32
  // expected-error @+1 {{'uop.range' op uop-rangeify: no rule for this op in a shaped program}}
  %r = uop.range %c4 idx 0 <loop>
  return %r : i32
}

// -----

// expected-error @+1 {{'func.func' op uop-rangeify: axis of size 10 is not divisible by local 4 * upcast 1}}
func.func @gpu_indivisible() -> tensor<10xf32> attributes {uop.opts = #uop.opts<gpu, local = {0: 4}>} {
  %a = uop.buffer 0 : tensor<10xf32>
  %0 = uop.sin %a : tensor<10xf32>
  return %0 : tensor<10xf32>
}
