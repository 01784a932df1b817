5func.func @range_idx(%n: i32) {
  %0 = uop.range %n idx -1 <loop>
  return
}
