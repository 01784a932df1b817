// RUN: uop-opt %s --split-input-file --uop-kernelize --uop-hand-opt | FileCheck %s
//
// Per-kernel opts: each kernel keeps the #uop.opts of the op it computes
// (the point's own), uop-hand-opt chooses for the others, kernel by kernel;
// a function-level #uop.opts overrides them all (hand experiments).

// CHECK-LABEL: func.func private @r_64
// CHECK-SAME:    uop.opts = #uop.opts<unroll = 2>
// CHECK-LABEL: func.func private @r_64__1
// CHECK-SAME:    uop.opts = #uop.opts<upcast = {0: 4}>
// CHECK-LABEL: func.func private @e_64_64
// CHECK-SAME:    uop.opts = #uop.opts<thread = 0>
// CHECK-LABEL: func.func @main
func.func @main() -> tensor<64x64xf32> {
  %a = uop.buffer 0 : tensor<4096xf32>
  %x = uop.reshape %a, [64, 64] : tensor<4096xf32>
  %m = uop.reduce %x <max> pop 1 {uop.opts = #uop.opts<unroll = 2>} : tensor<64x64xf32>
  %m2 = uop.reshape %m, [64, 1] : tensor<64xf32>
  %me = uop.expand %m2, [64, 64] : tensor<64x1xf32>
  %d = uop.add %x, %me : tensor<64x64xf32>
  %s = uop.reduce %d <add> pop 1 : tensor<64x64xf32>
  %s2 = uop.reshape %s, [64, 1] : tensor<64xf32>
  %se = uop.expand %s2, [64, 64] : tensor<64x1xf32>
  %o = uop.mul %d, %se : tensor<64x64xf32>
  %o2 = uop.exp2 %o {uop.opts = #uop.opts<thread = 0>} : tensor<64x64xf32>
  return %o2 : tensor<64x64xf32>
}

// -----

// CHECK-LABEL: func.func private @r_64
// CHECK-SAME:    uop.opts = #uop.opts<thread = 0>
// CHECK-LABEL: func.func private @e_64_64
// CHECK-SAME:    uop.opts = #uop.opts<thread = 0>
// CHECK-LABEL: func.func @main
// CHECK-NOT:     uop.opts
func.func @main() -> tensor<64x64xf32> attributes {uop.opts = #uop.opts<thread = 0>} {
  %a = uop.buffer 0 : tensor<4096xf32>
  %x = uop.reshape %a, [64, 64] : tensor<4096xf32>
  %m = uop.reduce %x <max> pop 1 {uop.opts = #uop.opts<unroll = 2>} : tensor<64x64xf32>
  %m2 = uop.reshape %m, [64, 1] : tensor<64xf32>
  %me = uop.expand %m2, [64, 64] : tensor<64x1xf32>
  %d = uop.add %x, %me : tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
