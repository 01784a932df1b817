// RUN: uop-opt %s --split-input-file --uop-kernelize='fuse-epilogue=true' | FileCheck %s
// RUN: uop-opt %s --split-input-file --uop-kernelize | FileCheck %s --check-prefix=SEED
// RUN: uop-opt %s --split-input-file --uop-kernelize='fuse-epilogue=true multi-output=true' | FileCheck %s --check-prefix=MULTI
// RUN: not uop-opt %s --split-input-file --uop-kernelize='fuse-epilogue=maybe' 2>&1 | FileCheck %s --check-prefix=BAD
//
// uop-kernelize{fuse-epilogue}: a reduce read only by elementwise ops of its
// shape on the way to one point of its shape is computed in that point's
// kernel (once per output: the GEMM's bias and ReLU applied to its
// accumulators), not stored and read back. A reduce read through a movement
// op (but reshapes of unit axes back to its shape), by a reduce, or on the
// way to two kernels stays a point. Without the option, the seed's kernels.

// BAD: for the --fuse-epilogue option: 'maybe' is invalid value for boolean argument

// A GEMM (x @ W, 4x8 @ 8x16) + bias, then ReLU: one kernel.
// CHECK-LABEL: func.func private @r_4_16() -> tensor<4x16xf32> attributes {uop.kernel}
// CHECK:         %[[R:.*]] = uop.reduce %{{.*}} <add> pop 1 : tensor<4x16x8xf32>
// CHECK:         %[[H:.*]] = uop.add %[[R]], %{{.*}} : tensor<4x16xf32>
// CHECK:         %[[Y:.*]] = uop.max %[[H]], %{{.*}} : tensor<4x16xf32>
// CHECK-NEXT:    return %[[Y]]
// CHECK-LABEL: func.func @main()
// CHECK-COUNT-1: uop.launch @r_4_16(
// CHECK-NOT:     uop.launch
// SEED-LABEL: func.func private @r_4_16() -> tensor<4x16xf32>
// SEED-LABEL: func.func private @e_4_16() -> tensor<4x16xf32>
// SEED-LABEL: func.func @main()
// SEED-COUNT-2: uop.launch
// SEED-NOT:     uop.launch
func.func @main() -> tensor<4x16xf32> {
  %x0 = uop.buffer 0 : tensor<32xf32>
  %w0 = uop.buffer 1 : tensor<128xf32>
  %b0 = uop.buffer 2 : tensor<16xf32>
  %x = uop.reshape %x0, [4, 1, 8] : tensor<32xf32>
  %xe = uop.expand %x, [4, 16, 8] : tensor<4x1x8xf32>
  %w = uop.reshape %w0, [8, 16] : tensor<128xf32>
  %wt = uop.permute %w, [1, 0] : tensor<8x16xf32>
  %w1 = uop.reshape %wt, [1, 16, 8] : tensor<16x8xf32>
  %we = uop.expand %w1, [4, 16, 8] : tensor<1x16x8xf32>
  %p = uop.mul %xe, %we : tensor<4x16x8xf32>
  %r = uop.reduce %p <add> pop 1 : tensor<4x16x8xf32>
  %b1 = uop.reshape %b0, [1, 16] : tensor<16xf32>
  %be = uop.expand %b1, [4, 16] : tensor<1x16xf32>
  %h = uop.add %r, %be : tensor<4x16xf32>
  %z = uop.const 0.0 : f32
  %z1 = uop.reshape %z, [1, 1] : f32
  %ze = uop.expand %z1, [4, 16] : tensor<1x1xf32>
  %y = uop.max %h, %ze : tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

// A bias alone, and a ReLU alone (two GEMMs, two kernels, not four).
// CHECK-LABEL: func.func private @r_4_16() -> tensor<4x16xf32>
// CHECK:         uop.reduce
// CHECK-NEXT:    uop.buffer 2
// CHECK:         uop.add
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @r_4_16__1() -> tensor<4x16xf32>
// CHECK:         %[[R:.*]] = uop.reduce
// CHECK:         %[[Y:.*]] = uop.max %[[R]]
// CHECK-NEXT:    return %[[Y]]
// CHECK-LABEL: func.func @main()
// CHECK-COUNT-2: uop.launch
// CHECK-NOT:     uop.launch
// SEED-LABEL: func.func @main()
// SEED-COUNT-4: uop.launch
// SEED-NOT:     uop.launch
func.func @main() -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %x0 = uop.buffer 0 : tensor<32xf32>
  %w0 = uop.buffer 1 : tensor<128xf32>
  %b0 = uop.buffer 2 : tensor<16xf32>
  %x = uop.reshape %x0, [4, 1, 8] : tensor<32xf32>
  %xe = uop.expand %x, [4, 16, 8] : tensor<4x1x8xf32>
  %w = uop.reshape %w0, [8, 16] : tensor<128xf32>
  %wt = uop.permute %w, [1, 0] : tensor<8x16xf32>
  %w1 = uop.reshape %wt, [1, 16, 8] : tensor<16x8xf32>
  %we = uop.expand %w1, [4, 16, 8] : tensor<1x16x8xf32>
  %p = uop.mul %xe, %we : tensor<4x16x8xf32>
  %r = uop.reduce %p <add> pop 1 : tensor<4x16x8xf32>
  %b1 = uop.reshape %b0, [1, 16] : tensor<16xf32>
  %be = uop.expand %b1, [4, 16] : tensor<1x16xf32>
  %h = uop.add %r, %be : tensor<4x16xf32>
  %q = uop.mul %xe, %xe : tensor<4x16x8xf32>
  %s = uop.reduce %q <add> pop 1 : tensor<4x16x8xf32>
  %z = uop.const 0.0 : f32
  %z1 = uop.reshape %z, [1, 1] : f32
  %ze = uop.expand %z1, [4, 16] : tensor<1x1xf32>
  %y = uop.max %s, %ze : tensor<4x16xf32>
  return %h, %y : tensor<4x16xf32>, tensor<4x16xf32>
}

// -----

// A softmax piece: log-sum-exp (log2 of the sum of exp2(x - max), plus the
// max) as a root. The max is read broadcast (by exp2's argument) and stays a
// point; the sum is read only by the log2 and the add at its own shape, and
// is computed in the root's kernel: two kernels, not three.
// CHECK-LABEL: func.func private @r_4() -> tensor<4xf32>
// CHECK:         uop.reduce %{{.*}} <max>
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @r_4__1() -> tensor<4xf32>
// CHECK-DAG:     %[[M:.*]] = uop.buffer 1 : tensor<4xf32>
// CHECK:         %[[S:.*]] = uop.reduce %{{.*}} <add>
// CHECK-NEXT:    %[[L:.*]] = uop.log2 %[[S]]
// CHECK-NEXT:    %[[O:.*]] = uop.add %[[L]], %[[M]]
// CHECK-NEXT:    return %[[O]]
// CHECK-LABEL: func.func @main()
// CHECK-NEXT:    uop.buffer 0
// CHECK-NEXT:    %[[MX:.*]] = uop.launch @r_4(
// CHECK-NEXT:    uop.launch @r_4__1(%{{.*}}, %[[MX]])
// CHECK-NEXT:    return
// SEED-LABEL: func.func @main()
// SEED-COUNT-3: uop.launch
// SEED-NOT:     uop.launch
func.func @main() -> tensor<4xf32> {
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
  %e = uop.exp2 %d : tensor<4x8xf32>
  %s = uop.reduce %e <add> pop 1 : tensor<4x8xf32>
  %l = uop.log2 %s : tensor<4xf32>
  %o = uop.add %l, %m : tensor<4xf32>
  return %o : tensor<4xf32>
}

// -----

// A max reduce's epilogue (the row max, scaled), staged: the stage's kernel
// computes it. An integer reduce with a cast epilogue too.
// CHECK-LABEL: func.func private @r_4() -> tensor<4xf32>
// CHECK:         %[[M:.*]] = uop.reduce %{{.*}} <max>
// CHECK-NEXT:    %[[O:.*]] = uop.mul %[[M]], %[[M]]
// CHECK-NEXT:    return %[[O]]
// CHECK-LABEL: func.func private @r_4__1() -> tensor<4xf32>
// CHECK:         %[[I:.*]] = uop.reduce %{{.*}} <add> pop 1 : tensor<4x8xi32>
// CHECK-NEXT:    %[[C:.*]] = uop.cast %[[I]] : tensor<4xi32> to f32
// CHECK:         uop.add %[[C]]
// CHECK-LABEL: func.func @main()
// CHECK:         %[[ST:.*]] = uop.launch @r_4(
// CHECK-NEXT:    uop.launch @e_4_8(%{{.*}}, %[[ST]])
// CHECK-NEXT:    uop.launch @r_4__1(
// CHECK-NOT:     uop.launch
// SEED-LABEL: func.func @main()
// SEED-COUNT-5: uop.launch
// SEED-NOT:     uop.launch
func.func @main() -> (tensor<4x8xf32>, tensor<4xf32>) {
  %b = uop.buffer 0 : tensor<32xf32>
  %i0 = uop.buffer 1 : tensor<32xi32>
  %x = uop.reshape %b, [4, 8] : tensor<32xf32>
  %m = uop.reduce %x <max> pop 1 : tensor<4x8xf32>
  %m2 = uop.mul %m, %m : tensor<4xf32>
  %st = uop.stage %m2 : tensor<4xf32>
  %s1 = uop.reshape %st, [4, 1] : tensor<4xf32>
  %se = uop.expand %s1, [4, 8] : tensor<4x1xf32>
  %o = uop.add %x, %se : tensor<4x8xf32>
  %i = uop.reshape %i0, [4, 8] : tensor<32xi32>
  %is = uop.reduce %i <add> pop 1 : tensor<4x8xi32>
  %c = uop.cast %is : tensor<4xi32> to f32
  %one = uop.const 1.0 : f32
  %c1 = uop.reshape %one, [1] : f32
  %ce = uop.expand %c1, [4] : tensor<1xf32>
  %ci = uop.add %c, %ce : tensor<4xf32>
  return %o, %ci : tensor<4x8xf32>, tensor<4xf32>
}

// -----

// The epilogue is itself read by another kernel (through a broadcast, as
// the next layer's GEMM reads a hidden layer): it is a root, stored by the
// fused kernel, and the other kernel reads it back.
// CHECK-LABEL: func.func private @r_4() -> tensor<4xf32>
// CHECK:         %[[S:.*]] = uop.reduce
// CHECK-NEXT:    %[[E:.*]] = uop.exp2 %[[S]]
// CHECK-NEXT:    return %[[E]]
// CHECK-LABEL: func.func private @e_4_8() -> tensor<4x8xf32>
// CHECK-NOT:     uop.reduce
// CHECK-LABEL: func.func @main()
// CHECK-NEXT:    uop.buffer 0
// CHECK-NEXT:    %[[E4:.*]] = uop.launch @r_4(
// CHECK-NEXT:    uop.launch @e_4_8(%{{.*}}, %[[E4]])
// CHECK-NEXT:    return
// SEED-LABEL: func.func @main()
// SEED-COUNT-3: uop.launch
// SEED-NOT:     uop.launch
func.func @main() -> (tensor<4xf32>, tensor<4x8xf32>) {
  %b = uop.buffer 0 : tensor<32xf32>
  %x = uop.reshape %b, [4, 8] : tensor<32xf32>
  %s = uop.reduce %x <add> pop 1 : tensor<4x8xf32>
  %e = uop.exp2 %s : tensor<4xf32>
  %e1 = uop.reshape %e, [4, 1] : tensor<4xf32>
  %ee = uop.expand %e1, [4, 8] : tensor<4x1xf32>
  %o = uop.mul %x, %ee : tensor<4x8xf32>
  return %e, %o : tensor<4xf32>, tensor<4x8xf32>
}

// -----

// Stay points. %s is read by two roots (two kernels would compute it), %t is
// a root itself, %u is read broadcast, %v through a permute, %w through a
// reshape, %q by a reduce: 13 launches with and without the option.
// CHECK-LABEL: func.func @main()
// CHECK-COUNT-13: uop.launch
// CHECK-NOT:     uop.launch
// SEED-LABEL: func.func @main()
// SEED-COUNT-13: uop.launch
// SEED-NOT:     uop.launch
func.func @main() -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
                      tensor<4x8xf32>, tensor<4x4xf32>, tensor<2x2xf32>, f32) {
  %b = uop.buffer 0 : tensor<32xf32>
  %x = uop.reshape %b, [4, 8] : tensor<32xf32>
  %s = uop.reduce %x <add> pop 1 : tensor<4x8xf32>
  %s1 = uop.exp2 %s : tensor<4xf32>
  %s2 = uop.log2 %s : tensor<4xf32>
  %t = uop.reduce %x <max> pop 1 : tensor<4x8xf32>
  %t1 = uop.sqrt %t : tensor<4xf32>
  %u = uop.reduce %x <add> pop 1 : tensor<4x8xf32>
  %u1 = uop.reshape %u, [4, 1] : tensor<4xf32>
  %ue = uop.expand %u1, [4, 8] : tensor<4x1xf32>
  %uo = uop.mul %x, %ue : tensor<4x8xf32>
  %y = uop.reshape %b, [4, 4, 2] : tensor<32xf32>
  %v = uop.reduce %y <add> pop 1 : tensor<4x4x2xf32>
  %vt = uop.permute %v, [1, 0] : tensor<4x4xf32>
  %vo = uop.add %vt, %v : tensor<4x4xf32>
  %w = uop.reduce %x <max> pop 1 : tensor<4x8xf32>
  %wr = uop.reshape %w, [2, 2] : tensor<4xf32>
  %wo = uop.sqrt %wr : tensor<2x2xf32>
  %q = uop.reduce %y <max> pop 1 : tensor<4x4x2xf32>
  %qe = uop.exp2 %q : tensor<4x4xf32>
  %qq = uop.reduce %qe <add> pop 2 : tensor<4x4xf32>
  return %s1, %s2, %t, %t1, %uo, %vo, %wo, %qq
      : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>,
        tensor<4x8xf32>, tensor<4x4xf32>, tensor<2x2xf32>, f32
}

// -----

// Reshapes that only insert or remove axes of size 1 and come back to the
// reduce's shape (autodiff's gradient of a GEMM read back through
// [4, 1, 16]) are the reduce itself: folded away, %r is computed in the
// stage's kernel at the output's own index. %s's epilogue ends in a point of
// another shape ([4, 1]): %s stays a point.
// CHECK-LABEL: func.func private @r_4_16() -> tensor<4x16xf32>
// CHECK:         %[[R:.*]] = uop.reduce %{{.*}} <add> pop 1 : tensor<4x16x8xf32>
// CHECK-NEXT:    %[[M:.*]] = uop.mul %[[R]], %[[R]]
// CHECK-NEXT:    return %[[M]]
// CHECK-LABEL: func.func private @r_4() -> tensor<4xf32>
// CHECK-LABEL: func.func private @e_4_1() -> tensor<4x1xf32>
// CHECK-LABEL: func.func @main()
// CHECK-COUNT-4: uop.launch
// CHECK-NOT:     uop.launch
// SEED-LABEL: func.func @main()
// SEED-COUNT-5: uop.launch
// SEED-NOT:     uop.launch
func.func @main() -> (tensor<4x16x8xf32>, tensor<4x1xf32>) {
  %z0 = uop.buffer 0 : tensor<512xf32>
  %z = uop.reshape %z0, [4, 16, 8] : tensor<512xf32>
  %r = uop.reduce %z <add> pop 1 : tensor<4x16x8xf32>
  %r3 = uop.reshape %r, [4, 1, 16] : tensor<4x16xf32>
  %r2 = uop.reshape %r3, [4, 16] : tensor<4x1x16xf32>
  %m = uop.mul %r2, %r2 : tensor<4x16xf32>
  %st = uop.stage %m : tensor<4x16xf32>
  %s1 = uop.reshape %st, [4, 16, 1] : tensor<4x16xf32>
  %se = uop.expand %s1, [4, 16, 8] : tensor<4x16x1xf32>
  %o = uop.add %z, %se : tensor<4x16x8xf32>
  %x = uop.reshape %z0, [4, 128] : tensor<512xf32>
  %s = uop.reduce %x <max> pop 1 : tensor<4x128xf32>
  %sr = uop.reshape %s, [4, 1] : tensor<4xf32>
  %sq = uop.sqrt %sr : tensor<4x1xf32>
  return %o, %sq : tensor<4x16x8xf32>, tensor<4x1xf32>
}

// -----

// A long epilogue (9 ALU ops, more than the 8 a fused kernel takes: it would
// run in the reduce's register tile, lane by lane where the tile's lanes
// are not vectors) keeps its own kernel; 8 ops fuse.
// CHECK-LABEL: func.func private @r_4() -> tensor<4xf32>
// CHECK:         uop.reduce
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @e_4() -> tensor<4xf32>
// CHECK-LABEL: func.func private @r_4__1() -> tensor<4xf32>
// CHECK:         uop.reduce
// CHECK-COUNT-8: uop.exp2
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @main()
// CHECK-COUNT-3: uop.launch
// CHECK-NOT:     uop.launch
// SEED-LABEL: func.func @main()
// SEED-COUNT-4: uop.launch
// SEED-NOT:     uop.launch
func.func @main() -> (tensor<4xf32>, tensor<4xf32>) {
  %b = uop.buffer 0 : tensor<32xf32>
  %x = uop.reshape %b, [4, 8] : tensor<32xf32>
  %s = uop.reduce %x <add> pop 1 : tensor<4x8xf32>
  %e1 = uop.exp2 %s : tensor<4xf32>
  %e2 = uop.exp2 %e1 : tensor<4xf32>
  %e3 = uop.exp2 %e2 : tensor<4xf32>
  %e4 = uop.exp2 %e3 : tensor<4xf32>
  %e5 = uop.exp2 %e4 : tensor<4xf32>
  %e6 = uop.exp2 %e5 : tensor<4xf32>
  %e7 = uop.exp2 %e6 : tensor<4xf32>
  %e8 = uop.exp2 %e7 : tensor<4xf32>
  %e9 = uop.exp2 %e8 : tensor<4xf32>
  %t = uop.reduce %x <max> pop 1 : tensor<4x8xf32>
  %f1 = uop.exp2 %t : tensor<4xf32>
  %f2 = uop.exp2 %f1 : tensor<4xf32>
  %f3 = uop.exp2 %f2 : tensor<4xf32>
  %f4 = uop.exp2 %f3 : tensor<4xf32>
  %f5 = uop.exp2 %f4 : tensor<4xf32>
  %f6 = uop.exp2 %f5 : tensor<4xf32>
  %f7 = uop.exp2 %f6 : tensor<4xf32>
  %f8 = uop.exp2 %f7 : tensor<4xf32>
  return %e9, %f8 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Two reduces of one point: one a kernel (the first fuses, the second stays
// a point): two kernels, not three.
// CHECK-LABEL: func.func private @r_4() -> tensor<4xf32>
// CHECK:         uop.reduce %{{.*}} <max>
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @r_4__1() -> tensor<4xf32>
// CHECK:         %[[S:.*]] = uop.reduce %{{.*}} <add>
// CHECK-NOT:     uop.reduce
// CHECK:         return
// CHECK-LABEL: func.func @main()
// CHECK-COUNT-2: uop.launch
// CHECK-NOT:     uop.launch
// SEED-LABEL: func.func @main()
// SEED-COUNT-3: uop.launch
// SEED-NOT:     uop.launch
func.func @main() -> tensor<4xf32> {
  %b = uop.buffer 0 : tensor<32xf32>
  %x = uop.reshape %b, [4, 8] : tensor<32xf32>
  %s = uop.reduce %x <add> pop 1 : tensor<4x8xf32>
  %m = uop.reduce %x <max> pop 1 : tensor<4x8xf32>
  %o = uop.add %s, %m : tensor<4xf32>
  return %o : tensor<4xf32>
}

// -----

// With multi-output: the fused kernel reduces, so it stores its root alone;
// the elementwise roots of its shape share another kernel.
// MULTI-LABEL: func.func private @r_4_16() -> tensor<4x16xf32>
// MULTI:         uop.reduce
// MULTI:         uop.add
// MULTI-LABEL: func.func private @e_4_16() -> (tensor<4x16xf32>, tensor<4x16xf32>)
// MULTI-NOT:     uop.reduce
// MULTI-LABEL: func.func @main()
// MULTI-COUNT-2: uop.launch
// MULTI-NOT:     uop.launch
// CHECK-LABEL: func.func @main()
// CHECK-COUNT-3: uop.launch
// CHECK-NOT:     uop.launch
// SEED-LABEL: func.func @main()
// SEED-COUNT-4: uop.launch
// SEED-NOT:     uop.launch
func.func @main() -> (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) {
  %x0 = uop.buffer 0 : tensor<64xf32>
  %y0 = uop.buffer 1 : tensor<64xf32>
  %z0 = uop.buffer 2 : tensor<512xf32>
  %x = uop.reshape %x0, [4, 16] : tensor<64xf32>
  %y = uop.reshape %y0, [4, 16] : tensor<64xf32>
  %z = uop.reshape %z0, [4, 16, 8] : tensor<512xf32>
  %r = uop.reduce %z <add> pop 1 : tensor<4x16x8xf32>
  %h = uop.add %r, %x : tensor<4x16xf32>
  %a = uop.mul %x, %y : tensor<4x16xf32>
  %c = uop.add %x, %y : tensor<4x16xf32>
  return %h, %a, %c : tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
}
