3// A detach marker is not a kernel boundary; an explicit stage is.
func.func @main() -> tensor<4xf32> {
  %a = uop.buffer 0 : tensor<4xf32>
  %d = uop.stage %a detach : tensor<4xf32>
  %m = uop.mul %d, %a : tensor<4xf32>
  %s = uop.stage %m : tensor<4xf32>
  %r = uop.sqrt %s : tensor<4xf32>
  return %r : tensor<4xf32>
}
