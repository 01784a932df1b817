5func.func @log2_bool(%x: i1) {
  %0 = uop.log2 %x : i1
  return
}
