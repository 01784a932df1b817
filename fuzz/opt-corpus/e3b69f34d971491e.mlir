3//
// test_kernelize_fuses_elementwise_and_splits_reductions: softmax is three
// kernels (max, sum, the elementwise output), named as the seed names them;
// with fuse-reduce the reductions nest in one kernel.


// FUSE-COUNT-2: uop.reduce
// FUSE-COUNT-1: uop.launch
func.func @main() -> tensor<4x8xf32> {
  %b = uop.buffer 0 : tensor<32xf32>
  %x = uop.reshape %b, [4, 8] : tensor<32xf32>
  %m = uop.reduce %x <max> pop 1 : tensor<4x8xf32>
  %m1 = uop.reshape %m, [4, 1] : tensor<4xf32>
  %me = uop.expand %m1, [4, 8] : tensor<4x1xf32>
  %neg = uop.const -1.0 : f32
  %n1 = uop.reshape %neg, [1, 1] : f32
  %ne = uop.expand %n1, [4, 8] : tensor<1x1xf32>
  %mn = uop.mul %me, %ne : tensor<4x8xf32>
  %d = uop.add %x, %mn : tensor<4x8xf32>
  %l = uop.const 1.44269502 : f32
  %l1 = uop.reshape %l, [1, 1] : f32
  %le = uop.expand %l1, [4, 8] : tensor<1x1xf32>
  %dl = uop.mul %d, %le : tensor<4x8xf32>
  %e = uop.exp2 %dl : tensor<4x8xf32>
  %s = uop.reduce %e <add> pop 1 : tensor<4x8xf32>
  %s1 = uop.reshape %s, [4, 1] : tensor<4xf32>
  %r = uop.recip %s1 : tensor<4x1xf32>
  %re = uop.expand %r, [4, 8] : tensor<4x1xf32>
  %o = uop.mul %e, %re : tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
