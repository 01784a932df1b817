1func.func @c180() -> i1 {
  %a0 = uop.const 65536 : i32
  %a1 = uop.const 65536 : i32
  %r = uop.cmpne %a0, %a1 : i32
  return %r : i1
}
// cast i32->f16 [65536] => NOFOLD
