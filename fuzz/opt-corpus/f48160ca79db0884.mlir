0// exec_alu's special cases.
func.func @special_cases() -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
  %zero = uop.const 0.0 : f32
  %nzero = uop.const -0.0 : f32
  %m1 = uop.const -1.0 : f32
  %one = uop.const 1.0 : f32
  %big = uop.const 200.0 : f32
  %inf = uop.const 0x7F800000 : f32
  %nan = uop.const 0x7FC00000 : f32
  %0 = uop.recip %zero : f32    // +inf
  %1 = uop.recip %nzero : f32   // -inf
  %2 = uop.log2 %zero : f32     // -inf
  %3 = uop.log2 %m1 : f32       // nan
  %4 = uop.sqrt %m1 : f32       // nan
  %5 = uop.exp2 %big : f32      // overflow: inf
  %6 = uop.exp2 %nan : f32      // the seed: nan < 1024 is false, so inf
  %7 = uop.mul %inf, %zero : f32  // the seed's math.nan (positive), not x86's default NaN
  %8 = uop.max %nan, %one : f32   // python max(a, b): a unless b > a
  %9 = uop.max %one, %nan : f32
  %10 = uop.sin %inf : f32      // nan
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32
}
