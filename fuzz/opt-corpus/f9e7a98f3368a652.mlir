3func.func @c182() -> i1 {
  %a0 = uop.const false
  %a1 = uop.const false
  %r = uop.add %a0, %a1 : i1
  return %r : i1
}
// floormod i32->i32 [13, 2147483647] => 13
