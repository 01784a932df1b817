0func.func @self_rules(%x: i32, %f: f32) -> (i32, f32, i32, f32, i1, i1, i32) {
  %m1 = uop.const -1 : i32
  %m1f = uop.const -1.0 : f32
  %0 = uop.add %x, %x : i32        // x + x -> x * 2
  %1 = uop.add %f, %f : f32        // must not: floats
  %n = uop.mul %x, %m1 : i32
  %2 = uop.add %x, %n : i32        // x + x*-1 -> 0
  %nf = uop.mul %f, %m1f : f32
  %3 = uop.add %f, %nf : f32       // must not: floats
  %4 = uop.cmplt %x, %x : i32
  %5 = uop.cmpne %x, %x : i32
  %6 = uop.cast %x : i32 to i32
  return %0, %1, %2, %3, %4, %5, %6 : i32, f32, i32, f32, i1, i1, i32
}
