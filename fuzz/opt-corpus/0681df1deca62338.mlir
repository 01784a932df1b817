5// Binary ops: dtype mismatch (test_shape_dtype_inference: const(1) + const(1.0)).
func.func @add_dtype() {
  %a = uop.const 1 : i32
  %b = uop.const 1.0 : f32
  %0 = uop.add %a, %b : i32, f32
  return
}
