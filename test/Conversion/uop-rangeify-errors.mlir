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

// -----

// A value of more than INT32_MAX elements (here broadcast from one) would wrap
// the i32 index arithmetic of the kernel, whose loops then run no iteration.
func.func @too_many_elements() -> tensor<65536x65536xf32> {
  %b = uop.buffer 0 : tensor<1xf32>
  %r = uop.reshape %b, [1, 1] : tensor<1xf32>
  // expected-error @+1 {{'uop.expand' op uop-rangeify: 4294967296 elements do not fit the i32 index arithmetic of the seed}}
  %e = uop.expand %r, [65536, 65536] : tensor<1x1xf32>
  return %e : tensor<65536x65536xf32>
}
