5// WHERE branches disagree.
func.func @where_branches(%c: i1, %a: f32, %b: i32) {
  %0 = uop.where %c, %a, %b : i1, f32, i32
  return
}
