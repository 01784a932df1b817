// C = A @ B (32 x 288 x 64) from movement ops, B read down its columns: the
// seed's bench_gemm / test_w06 graph. uop-layout stages B transposed (or,
// in uop-run's pipeline, as panels: its rows are 288 elements apart, more
// than uop-layout's unpacked-rows).
func.func @main() -> tensor<32x288xf32> {
  %a = uop.buffer 0 : tensor<2048xf32>
  %b = uop.buffer 1 : tensor<18432xf32>
  %a2 = uop.reshape %a, [32, 1, 64] : tensor<2048xf32>
  %ae = uop.expand %a2, [32, 288, 64] : tensor<32x1x64xf32>
  %b2 = uop.reshape %b, [64, 288] : tensor<18432xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<64x288xf32>
  %b3 = uop.reshape %bt, [1, 288, 64] : tensor<288x64xf32>
  %be = uop.expand %b3, [32, 288, 64] : tensor<1x288x64xf32>
  %m = uop.mul %ae, %be : tensor<32x288x64xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<32x288x64xf32>
  return %c : tensor<32x288xf32>
}
