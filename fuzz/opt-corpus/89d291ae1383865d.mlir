0func.func @where_rules(%c: i1, %d: i1, %x: f32, %y: f32, %z: f32) -> (f32, f32, f32, f32, f32) {
  %t = uop.const true
  %f = uop.const false
  %0 = uop.where %t, %x, %y : f32
  %1 = uop.where %f, %x, %y : f32
  // where(c, where(c, x, _), y) -> where(c, x, y)
  %i = uop.where %c, %x, %z : f32
  %2 = uop.where %c, %i, %y : f32
  // where(c, x, where(c, _, y)) -> where(c, x, y)
  %j = uop.where %c, %z, %y : f32
  %3 = uop.where %c, %x, %j : f32
  // must not: a different condition
  %k = uop.where %d, %x, %z : f32
  %4 = uop.where %c, %k, %y : f32
  return %0, %1, %2, %3, %4 : f32, f32, f32, f32, f32
}
