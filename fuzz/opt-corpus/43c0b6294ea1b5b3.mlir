3func.func @c152() -> i32 {
  %a0 = uop.const -1 : i32
  %a1 = uop.const 1 : i32
  %r = uop.add %a0, %a1 : i32
  return %r : i32
}
// mul i1->i1 [False, False] => false
