1// A body that yields its parameter yields the argument.
func.func @identity(%x: i32) -> i32 {
  %0 = uop.call "id"(%x : i32) {
  ^bb0(%p: i32):
    uop.yield %p : i32
  }
  return %0 : i32
}
