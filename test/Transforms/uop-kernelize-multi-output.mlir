// RUN: uop-opt %s --split-input-file --uop-kernelize='multi-output=true' | FileCheck %s
// RUN: uop-opt %s --split-input-file --uop-kernelize | FileCheck %s --check-prefix=SEED
//
// uop-kernelize{multi-output}: roots computed elementwise share one kernel
// with the other such roots of their shape (AdamW's parameter and moments,
// the updates of same-shaped parameters), where no other kernel lies
// between them. Without the option, the seed's one kernel per root.

// An optimizer's step: the moment m2 is stored and read by the parameter's
// update p2, which computes it in the same kernel (not reads it back); the
// second moment of another tensor of the same shape joins; the 8-element
// root has its own kernel.
// CHECK-LABEL: func.func private @e_64() -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) attributes {uop.kernel}
// CHECK:         %[[M:.*]] = uop.add
// CHECK:         %[[P:.*]] = uop.add %{{.*}}, %[[M]]
// CHECK:         %[[V:.*]] = uop.mul
// CHECK:         return %[[M]], %[[P]], %[[V]]
// CHECK-LABEL: func.func private @e_8() -> tensor<8xf32>
// CHECK-LABEL: func.func @main()
// CHECK:         %[[K:.*]]:3 = uop.launch @e_64(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
// CHECK-NEXT:    %[[E:.*]] = uop.launch @e_8(
// CHECK-NEXT:    return %[[K]]#1, %[[K]]#0, %[[K]]#2, %[[E]]
// SEED-LABEL: func.func @main()
// SEED-COUNT-4: uop.launch
// SEED-NEXT:    return
func.func @main() -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<8xf32>) {
  %p = uop.buffer 0 : tensor<64xf32>
  %m = uop.buffer 1 : tensor<64xf32>
  %g = uop.buffer 2 : tensor<64xf32>
  %q = uop.buffer 3 : tensor<8xf32>
  %m2 = uop.add %m, %g : tensor<64xf32>
  %g2 = uop.mul %g, %g : tensor<64xf32>
  %p2 = uop.add %p, %m2 : tensor<64xf32>
  %e = uop.exp2 %q : tensor<8xf32>
  return %p2, %m2, %g2, %e : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<8xf32>
}

// -----

// A kernel between two roots (the sums of %a, which %b reads): %b cannot
// share %a's kernel, which would have to run both before and after the
// sums. %c, which reads only the input, joins the open group of its shape,
// %b's.
// CHECK-LABEL: func.func private @e_2_4() -> tensor<2x4xf32>
// CHECK-LABEL: func.func private @r_2() -> tensor<2xf32>
// CHECK-LABEL: func.func private @e_2_4__1() -> (tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK-LABEL: func.func @main()
// CHECK:         %[[A:.*]] = uop.launch @e_2_4(
// CHECK:         %[[S:.*]] = uop.launch @r_2(
// CHECK:         %[[B:.*]]:2 = uop.launch @e_2_4__1(
// CHECK-NEXT:    return %[[A]], %[[B]]#0, %[[B]]#1
func.func @main() -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %x0 = uop.buffer 0 : tensor<8xf32>
  %x = uop.reshape %x0, [2, 4] : tensor<8xf32>
  %a = uop.exp2 %x : tensor<2x4xf32>
  %s = uop.reduce %a <add> pop 1 : tensor<2x4xf32>
  %s1 = uop.reshape %s, [2, 1] : tensor<2xf32>
  %sb = uop.expand %s1, [2, 4] : tensor<2x1xf32>
  %b = uop.add %a, %sb : tensor<2x4xf32>
  %c = uop.mul %x, %x : tensor<2x4xf32>
  return %a, %b, %c : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

// Roots that reduce, stages and roots of another shape keep their kernels;
// two identical computations on different buffers share one kernel with two
// values (the seed launches one kernel twice).
// CHECK-LABEL: func.func private @e_8() -> (tensor<8xf32>, tensor<8xf32>)
// CHECK-LABEL: func.func private @r_8() -> tensor<8xf32>
// CHECK-LABEL: func.func @main()
// CHECK:         uop.launch @e_8({{.*}}) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
// CHECK-NEXT:    uop.launch @r_8(
// CHECK-NOT:     uop.launch
// SEED-LABEL: func.func private @e_8() -> tensor<8xf32>
// SEED-LABEL: func.func @main()
// SEED:         uop.launch @e_8(
// SEED-NEXT:    uop.launch @e_8(
// SEED-NEXT:    uop.launch @r_8(
func.func @main() -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %a = uop.buffer 0 : tensor<8xf32>
  %b = uop.buffer 1 : tensor<8xf32>
  %w0 = uop.buffer 2 : tensor<64xf32>
  %w = uop.reshape %w0, [8, 8] : tensor<64xf32>
  %ea = uop.exp2 %a : tensor<8xf32>
  %eb = uop.exp2 %b : tensor<8xf32>
  %r = uop.reduce %w <add> pop 1 : tensor<8x8xf32>
  return %ea, %eb, %r : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
