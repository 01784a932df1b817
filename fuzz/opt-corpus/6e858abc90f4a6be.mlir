0func.func @identities_must_not(%f: f32, %b: i1) -> (f32, i1, i1) {
  %zf = uop.const 0.0 : f32
  %true = uop.const true
  %0 = uop.mul %f, %zf : f32       // inf * 0.0 is nan: never folded for floats
  %1 = uop.cmpne %b, %true : i1
  %2 = uop.cmplt %f, %f : f32      // nan < nan: only i32 compares fold
  return %0, %1, %2 : f32, i1, i1
}
