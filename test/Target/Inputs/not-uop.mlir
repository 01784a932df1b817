func.func @main(%a: i32) -> i32 {
  %c = uop.const 1 : i32
  %0 = arith.addi %a, %c : i32
  return %0 : i32
}
