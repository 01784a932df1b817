5func.func @dynamic_tensor(%x: tensor<?xf32>) {
  %0 = uop.sqrt %x : tensor<?xf32>
  return
}
