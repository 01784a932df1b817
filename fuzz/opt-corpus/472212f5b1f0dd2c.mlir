4// STACK srcs must agree in shape and dtype (test_shape_dtype_inference: stack(1, 2.0)).
func.func @stack_dtype() {
  %a = uop.const 1 : i32
  %b = uop.const 2.0 : f32
  %0 = uop.stack %a, %b : i32, f32
  return
}
