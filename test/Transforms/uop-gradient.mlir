// RUN: uop-opt %s --split-input-file --uop-gradient | FileCheck %s
// RUN: uop-opt %s --split-input-file --uop-gradient=grad-name=main | FileCheck %s --check-prefix=REPLACE
//
// uop-gradient: @main_grad returns the loss and d(loss)/d(input), built by
// the seed's rules (autodiff.py) in the reverse of its toposort.

// loss = sum(x * x) over buffer slot 0: the seed's d/dx is g*x + g*x, with
// g = ones (the reduce's rule: reshape the scalar seed to (1,), expand).
// CHECK-LABEL: func.func @main() -> f32
// CHECK-LABEL: func.func @main_grad() -> (f32, tensor<4xf32>)
// CHECK-NEXT:    %[[X:.*]] = uop.buffer 0 : tensor<4xf32>
// CHECK-NEXT:    %[[SQ:.*]] = uop.mul %[[X]], %[[X]]
// CHECK-NEXT:    %[[L:.*]] = uop.reduce %[[SQ]] <add> pop 1
// CHECK-NEXT:    %[[ONE:.*]] = uop.const 1.000000e+00 : f32
// CHECK-NEXT:    %[[R:.*]] = uop.reshape %[[ONE]], [1] : f32
// CHECK-NEXT:    %[[G:.*]] = uop.expand %[[R]], [4] : tensor<1xf32>
// CHECK-NEXT:    %[[GX:.*]] = uop.mul %[[G]], %[[X]]
// CHECK-NEXT:    %[[SUM:.*]] = uop.add %[[GX]], %[[GX]]
// CHECK-NEXT:    return %[[L]], %[[SUM]] : f32, tensor<4xf32>
// grad-name=main replaces @main (the module holds only the gradient).
// REPLACE:      module {
// REPLACE-NEXT:   func.func @main() -> (f32, tensor<4xf32>)
// REPLACE:          return
// REPLACE-NEXT:   }
// REPLACE-NEXT: }
func.func @main() -> f32 {
  %x = uop.buffer 0 : tensor<4xf32>
  %0 = uop.mul %x, %x : tensor<4xf32>
  %1 = uop.reduce %0 <add> pop 1 : tensor<4xf32>
  return %1 : f32
}

// -----

// detach stops the gradient; a target the loss does not reach gets zeros.
// CHECK-LABEL: func.func @main_grad() -> (f32, tensor<3xf32>, tensor<2xf32>)
// CHECK:         %[[X:.*]] = uop.buffer 0 : tensor<3xf32>
// CHECK:         %[[D:.*]] = uop.stage %[[X]] detach
// CHECK:         %[[G:.*]] = uop.expand %{{.*}}, [3] : tensor<1xf32>
// CHECK-NEXT:    %[[DX:.*]] = uop.mul %[[G]], %[[D]] : tensor<3xf32>
// CHECK-NEXT:    %[[Z:.*]] = uop.const 0.000000e+00 : f32
// CHECK-NEXT:    %[[ZR:.*]] = uop.reshape %[[Z]], [1] : f32
// CHECK-NEXT:    %[[ZE:.*]] = uop.expand %[[ZR]], [2] : tensor<1xf32>
// CHECK-NEXT:    return %{{.*}}, %[[DX]], %[[ZE]]
func.func @main() -> f32 {
  %x = uop.buffer 0 : tensor<3xf32>
  %y = uop.buffer 1 : tensor<2xf32>
  %d = uop.stage %x detach : tensor<3xf32>
  %0 = uop.mul %d, %x : tensor<3xf32>
  %1 = uop.reduce %0 <add> pop 1 : tensor<3xf32>
  return %1 : f32
}

// -----

// sin's rule: g * cos(x) with cos(x) = 1 - 2 sin^2(x / 2) (x / 2 is exact;
// the seed's sin(x + pi/2) rounds x + pi/2 and loses digits on large x).
// The ones of the seed of the backward pass are the 1 of 1 - 2 sin^2.
// CHECK-LABEL: func.func @main_grad() -> (f32, tensor<4xf32>)
// CHECK:         %[[X:.*]] = uop.buffer 0 : tensor<4xf32>
// CHECK:         %[[G:.*]] = uop.expand %{{.*}}, [4] : tensor<1xf32>
// CHECK-NEXT:    %[[HALF:.*]] = uop.const 5.000000e-01 : f32
// CHECK:         %[[HE:.*]] = uop.expand %{{.*}}, [4] : tensor<1xf32>
// CHECK-NEXT:    %[[XH:.*]] = uop.mul %[[X]], %[[HE]] : tensor<4xf32>
// CHECK-NEXT:    %[[S:.*]] = uop.sin %[[XH]] : tensor<4xf32>
// CHECK-NEXT:    %[[S2:.*]] = uop.mul %[[S]], %[[S]] : tensor<4xf32>
// CHECK-NEXT:    %[[M2:.*]] = uop.const -2.000000e+00 : f32
// CHECK:         %[[M2E:.*]] = uop.expand %{{.*}}, [4] : tensor<1xf32>
// CHECK-NEXT:    %[[T:.*]] = uop.mul %[[S2]], %[[M2E]] : tensor<4xf32>
// CHECK-NEXT:    %[[COS:.*]] = uop.add %[[T]], %[[G]] : tensor<4xf32>
// CHECK-NEXT:    %[[DX:.*]] = uop.mul %[[G]], %[[COS]] : tensor<4xf32>
// CHECK-NEXT:    return %{{.*}}, %[[DX]]
func.func @main() -> f32 {
  %x = uop.buffer 0 : tensor<4xf32>
  %0 = uop.sin %x : tensor<4xf32>
  %1 = uop.reduce %0 <add> pop 1 : tensor<4xf32>
  return %1 : f32
}
