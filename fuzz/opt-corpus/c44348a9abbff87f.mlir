0func.func @param_in_call() -> f32 {
  %0 = uop.call "f"() {
    %1 = uop.param 0 : f32
    uop.yield %1 : f32
  }
  return %0 : f32
}
