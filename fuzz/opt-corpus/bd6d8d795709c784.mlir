1func.func @call_no_args_but_param() -> f32 {
  %0 = uop.call "f"() {
  ^bb0(%p0: f32):
    uop.yield %p0 : f32
  }
  return %0 : f32
}
