3func.func @c302() -> i32 {
  %a0 = uop.const -46341 : i32
  %a1 = uop.const 100 : i32
  %r = uop.floordiv %a0, %a1 : i32
  return %r : i32
}
// cast i32->i1 [-46341] => true
