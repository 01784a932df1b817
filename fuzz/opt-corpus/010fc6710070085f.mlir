5// CALL arg i must match param i in shape and dtype.
func.func @call_arg_type() -> f32 {
  %c1 = uop.const 1 : i32
  %0 = uop.call "f"(%c1 : i32) {
  ^bb0(%p0: f32):
    uop.yield %p0 : f32
  }
  return %0 : f32
}
