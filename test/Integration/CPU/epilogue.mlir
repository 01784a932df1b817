// Epilogues fused into the reduce that produces their input
// (uop-kernelize{fuse-epilogue}, on by default in the tools for the cpu
// target): a GEMM with its bias and ReLU whose output another kernel also
// reads, log-sum-exp (the sum's kernel takes the log and adds the max), an
// integer sum with a cast, a max reduce with a square, a GEMM read back
// through reshapes of unit axes and masked, all beside a
// multi-output kernel of the GEMM's shape and a sum read by two roots (its
// own kernel). Fewer launches, and the values are bit for bit those of the
// unfused plan (--fuse-epilogue=false) with the hand opts and without opts,
// and close to the emulated GPU's (which leaves the option off) and to the
// program without opts.
// REQUIRES: numpy
// RUN: rm -rf %t && mkdir -p %t
// RUN: uop-run %s --random-inputs=7 --print-plan | FileCheck %s --check-prefix=PLAN
// RUN: uop-run %s --random-inputs=7 --print-plan --fuse-epilogue=false | FileCheck %s --check-prefix=SEED
// RUN: uop-run %s --random-inputs=7 --print-plan --multi-output=false | FileCheck %s --check-prefix=SINGLE
// RUN: uop-run %s --random-inputs=7 --print-plan --multi-output=false --fuse-epilogue=false | FileCheck %s --check-prefix=SINGLE-SEED
// RUN: uop-run %s --random-inputs=7 --output=%t/fused0.npy --output=%t/fused1.npy --output=%t/fused2.npy --output=%t/fused3.npy --output=%t/fused4.npy --output=%t/fused5.npy --output=%t/fused6.npy --output=%t/fused7.npy --output=%t/fused8.npy --output=%t/fused9.npy
// RUN: uop-run %s --random-inputs=7 --fuse-epilogue=false --output=%t/unfused0.npy --output=%t/unfused1.npy --output=%t/unfused2.npy --output=%t/unfused3.npy --output=%t/unfused4.npy --output=%t/unfused5.npy --output=%t/unfused6.npy --output=%t/unfused7.npy --output=%t/unfused8.npy --output=%t/unfused9.npy
// RUN: uop-run %s --random-inputs=7 --opt=none --output=%t/none0.npy --output=%t/none1.npy --output=%t/none2.npy --output=%t/none3.npy --output=%t/none4.npy --output=%t/none5.npy --output=%t/none6.npy --output=%t/none7.npy --output=%t/none8.npy --output=%t/none9.npy
// RUN: uop-run %s --random-inputs=7 --opt=none --fuse-epilogue=false --output=%t/noneunfused0.npy --output=%t/noneunfused1.npy --output=%t/noneunfused2.npy --output=%t/noneunfused3.npy --output=%t/noneunfused4.npy --output=%t/noneunfused5.npy --output=%t/noneunfused6.npy --output=%t/noneunfused7.npy --output=%t/noneunfused8.npy --output=%t/noneunfused9.npy
// RUN: uop-run %s --random-inputs=7 --target=emulate --output=%t/emulate0.npy --output=%t/emulate1.npy --output=%t/emulate2.npy --output=%t/emulate3.npy --output=%t/emulate4.npy --output=%t/emulate5.npy --output=%t/emulate6.npy --output=%t/emulate7.npy --output=%t/emulate8.npy --output=%t/emulate9.npy
// RUN: for i in 0 1 2 3 4 5 6 7 8 9; do cmp %t/fused$i.npy %t/unfused$i.npy && cmp %t/none$i.npy %t/noneunfused$i.npy || exit 1; done
// RUN: %python -c "import numpy as np; [np.testing.assert_allclose(np.load(f'%t/fused{i}.npy'), np.load(f'%t/{o}{i}.npy'), rtol=1e-5, atol=1e-5) for o in ('emulate', 'none') for i in range(10)]"
// PLAN: plan: shaped, 10 launch(es)
// PLAN-NOT: kernel e_32
// PLAN-NOT: kernel e_48
// SEED: plan: shaped, 12 launch(es)
// SEED-DAG: kernel e_32:
// SEED-DAG: kernel e_48:
// SINGLE: plan: shaped, 12 launch(es)
// SINGLE-SEED: plan: shaped, 17 launch(es)
func.func @main() -> (tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<32xf32>,
                      tensor<48xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64xf32>,
                      tensor<64xf32>, tensor<64x64xf32>) {
  %x0 = uop.buffer 0 : tensor<3072xf32>
  %w0 = uop.buffer 1 : tensor<3072xf32>
  %b0 = uop.buffer 2 : tensor<64xf32>
  %i0 = uop.buffer 3 : tensor<3072xi32>
  %v0 = uop.buffer 4 : tensor<4096xf32>
  // y = relu(x @ W + b): one kernel; y is also read by another kernel (its
  // row sums, %ys).
  %x = uop.reshape %x0, [64, 1, 48] : tensor<3072xf32>
  %xe = uop.expand %x, [64, 64, 48] : tensor<64x1x48xf32>
  %w = uop.reshape %w0, [48, 64] : tensor<3072xf32>
  %wt = uop.permute %w, [1, 0] : tensor<48x64xf32>
  %w1 = uop.reshape %wt, [1, 64, 48] : tensor<64x48xf32>
  %we = uop.expand %w1, [64, 64, 48] : tensor<1x64x48xf32>
  %p = uop.mul %xe, %we : tensor<64x64x48xf32>
  %r = uop.reduce %p <add> pop 1 : tensor<64x64x48xf32>
  %b1 = uop.reshape %b0, [1, 64] : tensor<64xf32>
  %be = uop.expand %b1, [64, 64] : tensor<1x64xf32>
  %h = uop.add %r, %be : tensor<64x64xf32>
  %z = uop.const 0.0 : f32
  %z1 = uop.reshape %z, [1, 1] : f32
  %ze = uop.expand %z1, [64, 64] : tensor<1x1xf32>
  %y = uop.max %h, %ze : tensor<64x64xf32>
  %ys = uop.reduce %y <add> pop 1 : tensor<64x64xf32>
  // log-sum-exp of x's rows (base 2): the sum's kernel adds the max.
  %xr = uop.reshape %x0, [64, 48] : tensor<3072xf32>
  %m = uop.reduce %xr <max> pop 1 : tensor<64x48xf32>
  %m1 = uop.reshape %m, [64, 1] : tensor<64xf32>
  %me = uop.expand %m1, [64, 48] : tensor<64x1xf32>
  %neg = uop.const -1.0 : f32
  %n1 = uop.reshape %neg, [1, 1] : f32
  %ne = uop.expand %n1, [64, 48] : tensor<1x1xf32>
  %mn = uop.mul %me, %ne : tensor<64x48xf32>
  %d = uop.add %xr, %mn : tensor<64x48xf32>
  %e = uop.exp2 %d : tensor<64x48xf32>
  %s = uop.reduce %e <add> pop 1 : tensor<64x48xf32>
  %l = uop.log2 %s : tensor<64xf32>
  %lse = uop.add %l, %m : tensor<64xf32>
  // An integer sum with a cast and an add as its epilogue.
  %ir = uop.reshape %i0, [32, 96] : tensor<3072xi32>
  %is = uop.reduce %ir <add> pop 1 : tensor<32x96xi32>
  %c = uop.cast %is : tensor<32xi32> to f32
  %half = uop.const 0.5 : f32
  %h1 = uop.reshape %half, [1] : f32
  %he = uop.expand %h1, [32] : tensor<1xf32>
  %ci = uop.mul %c, %he : tensor<32xf32>
  // A max reduce's epilogue: the squared row max of W.
  %wm = uop.reduce %w <max> pop 1 : tensor<48x64xf32>
  %wm2 = uop.mul %wm, %wm : tensor<48xf32>
  // Elementwise roots of y's shape (a multi-output kernel beside it).
  %v = uop.reshape %v0, [64, 64] : tensor<4096xf32>
  %a = uop.mul %v, %v : tensor<64x64xf32>
  %a2 = uop.add %v, %be : tensor<64x64xf32>
  // The same product read back through reshapes of unit axes (as autodiff
  // reads a GEMM's gradient), then masked where y is positive.
  %r2 = uop.reduce %p <add> pop 1 : tensor<64x64x48xf32>
  %r3 = uop.reshape %r2, [64, 1, 64] : tensor<64x64xf32>
  %r4 = uop.reshape %r3, [64, 64] : tensor<64x1x64xf32>
  %pos = uop.cmplt %ze, %y : tensor<64x64xf32>
  %g = uop.where %pos, %r4, %ze : tensor<64x64xf32>
  // A sum read by two roots: its own kernel (not computed twice).
  %t = uop.reduce %v <add> pop 1 : tensor<64x64xf32>
  %t1 = uop.mul %t, %t : tensor<64xf32>
  %t2 = uop.add %t, %t : tensor<64xf32>
  return %y, %ys, %lse, %ci, %wm2, %a, %a2, %t1, %t2, %g
      : tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<32xf32>,
        tensor<48xf32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>,
        tensor<64x64xf32>
}
