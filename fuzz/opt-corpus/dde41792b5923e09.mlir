4func.func @opts_dup_axis() {
  %0 = uop.const {opts = #uop.opts<tile = {0: 4, 0: 8}>} 1 : i32
  return
}
