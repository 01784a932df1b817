4// The syllabus "gemm": (256,256,1) * (1,256,256) summed over the last axis.
// The index math ravel/unravel simplifies away, the accumulator sits in the
// output loops, the reduce gets its own REDUCE range.
func.func @syllabus() -> tensor<256x256xf32> {
  %a = uop.buffer 0 : tensor<65536xf32>
  %b = uop.buffer 1 : tensor<65536xf32>
  %0 = uop.reshape %a, [256, 256, 1] : tensor<65536xf32>
  %1 = uop.reshape %b, [1, 256, 256] : tensor<65536xf32>
  %2 = uop.expand %0, [256, 256, 256] : tensor<256x256x1xf32>
  %3 = uop.expand %1, [256, 256, 256] : tensor<1x256x256xf32>
  %4 = uop.mul %2, %3 : tensor<256x256x256xf32>
  %5 = uop.reduce %4 <add> pop 1 : tensor<256x256x256xf32>
  return %5 : tensor<256x256xf32>
}
