// Multi-output kernels (uop-kernelize{multi-output}, on by default in the
// tools): an AdamW-like update of two same-shaped parameters and their
// moments is one kernel with six values, a root read transposed by another
// is computed in its kernel, and the values are bit for bit those of one
// kernel per output (--multi-output=false, the seed's plan), on the CPU,
// emulated and without opts.
// RUN: uop-run %s --random-inputs=7 --print-plan | FileCheck %s --check-prefix=PLAN
// RUN: uop-run %s --random-inputs=7 --print-plan --multi-output=false | FileCheck %s --check-prefix=SEED
// RUN: uop-run %s --random-inputs=7 --output=%t.multi0.npy --output=%t.multi1.npy --output=%t.multi2.npy --output=%t.multi3.npy --output=%t.multi4.npy --output=%t.multi5.npy --output=%t.multi6.npy --output=%t.multi7.npy
// RUN: uop-run %s --random-inputs=7 --multi-output=false --output=%t.seed0.npy --output=%t.seed1.npy --output=%t.seed2.npy --output=%t.seed3.npy --output=%t.seed4.npy --output=%t.seed5.npy --output=%t.seed6.npy --output=%t.seed7.npy
// RUN: uop-run %s --random-inputs=7 --target=emulate --output=%t.emulate0.npy --output=%t.emulate1.npy --output=%t.emulate2.npy --output=%t.emulate3.npy --output=%t.emulate4.npy --output=%t.emulate5.npy --output=%t.emulate6.npy --output=%t.emulate7.npy
// RUN: uop-run %s --random-inputs=7 --opt=none --output=%t.none0.npy --output=%t.none1.npy --output=%t.none2.npy --output=%t.none3.npy --output=%t.none4.npy --output=%t.none5.npy --output=%t.none6.npy --output=%t.none7.npy
// RUN: cmp %t.multi0.npy %t.seed0.npy && cmp %t.multi1.npy %t.seed1.npy && cmp %t.multi2.npy %t.seed2.npy && cmp %t.multi3.npy %t.seed3.npy && cmp %t.multi4.npy %t.seed4.npy && cmp %t.multi5.npy %t.seed5.npy && cmp %t.multi6.npy %t.seed6.npy && cmp %t.multi7.npy %t.seed7.npy
// RUN: cmp %t.multi0.npy %t.emulate0.npy && cmp %t.multi1.npy %t.emulate1.npy && cmp %t.multi2.npy %t.emulate2.npy && cmp %t.multi3.npy %t.emulate3.npy && cmp %t.multi4.npy %t.emulate4.npy && cmp %t.multi5.npy %t.emulate5.npy && cmp %t.multi6.npy %t.emulate6.npy && cmp %t.multi7.npy %t.emulate7.npy
// RUN: cmp %t.multi0.npy %t.none0.npy && cmp %t.multi1.npy %t.none1.npy && cmp %t.multi2.npy %t.none2.npy && cmp %t.multi3.npy %t.none3.npy && cmp %t.multi4.npy %t.none4.npy && cmp %t.multi5.npy %t.none5.npy && cmp %t.multi6.npy %t.none6.npy && cmp %t.multi7.npy %t.none7.npy
// PLAN: plan: shaped, 2 launch(es)
// PLAN: kernel e_33_40: 1 launch(es)
// PLAN: kernel e_5_5: 1 launch(es)
// SEED: plan: shaped, 8 launch(es)
func.func @main() -> (tensor<33x40xf32>, tensor<33x40xf32>, tensor<33x40xf32>,
                      tensor<33x40xf32>, tensor<33x40xf32>, tensor<33x40xf32>,
                      tensor<5x5xf32>, tensor<5x5xf32>) {
  %p0 = uop.buffer 0 : tensor<1320xf32>
  %m0 = uop.buffer 1 : tensor<1320xf32>
  %g0 = uop.buffer 2 : tensor<1320xf32>
  %q0 = uop.buffer 3 : tensor<1320xf32>
  %n0 = uop.buffer 4 : tensor<1320xf32>
  %h0 = uop.buffer 5 : tensor<1320xf32>
  %x0 = uop.buffer 6 : tensor<25xf32>
  %p = uop.reshape %p0, [33, 40] : tensor<1320xf32>
  %m = uop.reshape %m0, [33, 40] : tensor<1320xf32>
  %g = uop.reshape %g0, [33, 40] : tensor<1320xf32>
  %q = uop.reshape %q0, [33, 40] : tensor<1320xf32>
  %n = uop.reshape %n0, [33, 40] : tensor<1320xf32>
  %h = uop.reshape %h0, [33, 40] : tensor<1320xf32>
  %x = uop.reshape %x0, [5, 5] : tensor<25xf32>
  %b1 = uop.const 0.9 : f32
  %b2 = uop.const 0.999 : f32
  %lr = uop.const 0.001 : f32
  %eps = uop.const 0.00000001 : f32
  %cb11 = uop.reshape %b1, [1, 1] : f32
  %cb1 = uop.expand %cb11, [33, 40] : tensor<1x1xf32>
  %cb21 = uop.reshape %b2, [1, 1] : f32
  %cb2 = uop.expand %cb21, [33, 40] : tensor<1x1xf32>
  %clr1 = uop.reshape %lr, [1, 1] : f32
  %clr = uop.expand %clr1, [33, 40] : tensor<1x1xf32>
  %ceps1 = uop.reshape %eps, [1, 1] : f32
  %ceps = uop.expand %ceps1, [33, 40] : tensor<1x1xf32>
  %m1 = uop.const -1.0 : f32
  %cm11 = uop.reshape %m1, [1, 1] : f32
  %cm1 = uop.expand %cm11, [33, 40] : tensor<1x1xf32>
  // Parameter p with moments m (first) and v (second).
  %mb = uop.mul %m, %cb1 : tensor<33x40xf32>
  %m2 = uop.add %mb, %g : tensor<33x40xf32>
  %gg = uop.mul %g, %g : tensor<33x40xf32>
  %vb = uop.mul %gg, %cb2 : tensor<33x40xf32>
  %v2 = uop.add %vb, %gg : tensor<33x40xf32>
  %sv = uop.sqrt %v2 : tensor<33x40xf32>
  %den = uop.add %sv, %ceps : tensor<33x40xf32>
  %r = uop.recip %den : tensor<33x40xf32>
  %u = uop.mul %m2, %r : tensor<33x40xf32>
  %ul = uop.mul %u, %clr : tensor<33x40xf32>
  %nul = uop.mul %ul, %cm1 : tensor<33x40xf32>
  %p2 = uop.add %p, %nul : tensor<33x40xf32>
  // Parameter q with moment n, gradient h.
  %nb = uop.mul %n, %cb1 : tensor<33x40xf32>
  %n2 = uop.add %nb, %h : tensor<33x40xf32>
  %nl = uop.mul %n2, %clr : tensor<33x40xf32>
  %nnl = uop.mul %nl, %cm1 : tensor<33x40xf32>
  %q2 = uop.add %q, %nnl : tensor<33x40xf32>
  %hh = uop.mul %h, %h : tensor<33x40xf32>
  // A root read transposed by another root of its shape.
  %e = uop.exp2 %x : tensor<5x5xf32>
  %et = uop.permute %e, [1, 0] : tensor<5x5xf32>
  %f = uop.add %et, %x : tensor<5x5xf32>
  return %p2, %m2, %v2, %q2, %n2, %hh, %e, %f
      : tensor<33x40xf32>, tensor<33x40xf32>, tensor<33x40xf32>,
        tensor<33x40xf32>, tensor<33x40xf32>, tensor<33x40xf32>,
        tensor<5x5xf32>, tensor<5x5xf32>
}
