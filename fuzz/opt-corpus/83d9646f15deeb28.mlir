0func.func @f16() -> (f16, f16) {
  %max = uop.const 65504.0 : f16
  %s = uop.const 16.0 : f16
  %one = uop.const 1.0 : f16
  %eps = uop.const 0.0004 : f16
  %0 = uop.add %max, %s : f16   // 65520 is not an f16: left for run time
  %1 = uop.add %one, %eps : f16 // rounds back to 1.0
  return %0, %1 : f16, f16
}
