4func.func @c243() -> i1 {
  %a0 = uop.const -2 : i32
  %r = uop.cast %a0 : i32 to i1
  return %r : i1
}
// cmpne i32->i1 [-7, 2147483647] => true
