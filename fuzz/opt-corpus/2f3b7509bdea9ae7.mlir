3func.func @c140() -> i1 {
  %a0 = uop.const true
  %a1 = uop.const false
  %r = uop.cmplt %a0, %a1 : i1
  return %r : i1
}
// cmplt f32->i1 [0.5, 0.10000000149011612] => false
