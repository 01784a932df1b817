2func.func @opts_bad_field() {
  %0 = uop.const {opts = #uop.opts<vectorize = 4>} 1 : i32
  return
}
