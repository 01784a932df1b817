func.func @in_range(%i: i32) -> i32 {
  %0 = uop.const 0 : i32
  return %0 : i32
}

func.func @after_value(%x: f32, %i: i32) -> f32 {
  return %x : f32
}
