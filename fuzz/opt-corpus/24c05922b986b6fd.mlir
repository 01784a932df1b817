1func.func @c84() -> i1 {
  %a0 = uop.const -100 : i32
  %a1 = uop.const 100 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// cast i32->f16 [-100] => 0xD640
