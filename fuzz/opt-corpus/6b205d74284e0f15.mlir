1func.func @opts_bad_factor() {
  %0 = uop.const {opts = #uop.opts<upcast = {1: 0}>} 1 : i32
  return
}
