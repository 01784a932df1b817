0func.func @f32_rounding() -> (f32, f32, f32) {
  %a = uop.const 16777216.0 : f32
  %one = uop.const 1.0 : f32
  %b = uop.const 16777217.0 : f32   // already 16777216 as an f32 literal
  %two = uop.const 2.0 : f32
  %p1 = uop.const 0.1 : f32
  %p2 = uop.const 0.2 : f32
  %0 = uop.add %a, %one : f32
  %1 = uop.add %b, %two : f32
  %2 = uop.add %p1, %p2 : f32
  return %0, %1, %2 : f32, f32, f32
}
