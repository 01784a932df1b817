0func.func @casts() -> (i32, i32, f32, i1, i1, f16, f16) {
  %a = uop.const -2.7 : f32
  %b = uop.const 3.0e9 : f32
  %c = uop.const 16777217 : i32
  %nan = uop.const 0x7FC00000 : f32
  %zero = uop.const 0.0 : f32
  %big = uop.const 1.0e6 : f32
  %tenth = uop.const 0.1 : f32
  %0 = uop.cast %a : f32 to i32     // C truncates toward zero
  %1 = uop.cast %b : f32 to i32     // the seed wraps
  %2 = uop.cast %c : i32 to f32     // rounded to f32
  %3 = uop.cast %nan : f32 to i1    // bool(nan) is true
  %4 = uop.cast %zero : f32 to i1
  %5 = uop.cast %big : f32 to f16   // not an f16 value (>= 65520): left for run time
  %6 = uop.cast %tenth : f32 to f16
  return %0, %1, %2, %3, %4, %5, %6 : i32, i32, f32, i1, i1, f16, f16
}
