1func.func @c270() -> f16 {
  %a0 = uop.const 100 : i32
  %r = uop.cast %a0 : i32 to f16
  return %r : f16
}
// add i1->i1 [True, True] => true
