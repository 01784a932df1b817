1func.func @param_negative_slot() {
  %0 = uop.param -2 : f32
  return
}
