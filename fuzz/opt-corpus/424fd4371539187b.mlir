3func.func @floormod_bool(%a: tensor<2xi1>, %b: tensor<2xi1>) {
  %0 = uop.floormod %a, %b : tensor<2xi1>
  return
}
