0//
// Every rule of the seed's `symbolic` list: a case where it fires and one
// where it must not. The same rules are the ops' canonicalizations.

// Constants go to the right of commutative ops.
func.func @const_to_the_right(%x: i32, %y: i32) -> (i32, i1, i32) {
  %c3 = uop.const 3 : i32
  // must not: two non-constants keep their order
  %0 = uop.mul %c3, %x : i32
  %1 = uop.cmpne %c3, %x : i32
  %2 = uop.max %y, %x : i32
  return %0, %1, %2 : i32, i1, i32
}
