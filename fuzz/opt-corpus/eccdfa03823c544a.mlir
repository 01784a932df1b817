5// WHERE condition must be bool.
func.func @where_cond(%c: i32, %a: f32, %b: f32) {
  %0 = uop.where %c, %a, %b : i32, f32, f32
  return
}
