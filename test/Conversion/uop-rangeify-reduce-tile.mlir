// RUN: uop-opt %s --split-input-file --uop-rangeify | FileCheck %s
//
// `tile = {rank: kc}` on the axis after the output's: the root reduction in
// blocks of kc terms. The block loop is the first range (outermost); each
// block starts every element's accumulator from what the block before
// stored into the output (the identity in block 0: a where on block < 1),
// reading the output inside the block loop and the output's loops.

// CHECK-LABEL: func.func private @r_8_16
// CHECK-DAG:     %[[OUT:.*]] = uop.buffer 2 : memref<128xf32
// CHECK-DAG:     %[[ZERO:.*]] = uop.const 0.000000e+00 : f32
// CHECK:         %[[KB:.*]] = uop.range %{{.*}} idx 0 <loop>
// CHECK:         %[[I:.*]] = uop.range %{{.*}} idx 1 <loop>
// CHECK:         %[[J:.*]] = uop.range %{{.*}} idx 2 <loop>
// CHECK:         %[[KK:.*]] = uop.range %{{.*}} idx 3 <reduce>
// CHECK:         %[[PREV:.*]] = uop.after %[[OUT]], %[[I]], %[[J]], %[[KB]]
// CHECK:         %[[P:.*]] = uop.index %[[PREV]][%[[FLAT:.*]]] :
// CHECK:         %[[OLD:.*]] = uop.load %[[P]]
// CHECK:         %[[FIRST:.*]] = uop.cmplt %[[KB]], %{{.*}} : i32
// CHECK:         %[[START:.*]] = uop.where %[[FIRST]], %[[ZERO]], %[[OLD]] : f32
// CHECK:         uop.store %{{.*}}, %[[START]] : !uop.ptr<f32, local>
// CHECK:         uop.end %{{.*}}, %[[KK]] : !uop.void
// CHECK:         %[[Q:.*]] = uop.index %[[OUT]][%[[FLAT]]]
// CHECK:         uop.store %[[Q]], %{{.*}} : !uop.ptr<f32, global>
// CHECK:         uop.end %{{.*}}, %[[KB]], %[[I]], %[[J]] : !uop.void
func.func private @r_8_16() -> tensor<8x16xf32> attributes {uop.kernel, uop.opts = #uop.opts<tile = {2: 16}>} {
  %a = uop.buffer 0 : tensor<512xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a3 = uop.reshape %a, [8, 1, 64] : tensor<512xf32>
  %ae = uop.expand %a3, [8, 16, 64] : tensor<8x1x64xf32>
  %b3 = uop.reshape %b, [1, 16, 64] : tensor<1024xf32>
  %be = uop.expand %b3, [8, 16, 64] : tensor<1x16x64xf32>
  %m = uop.mul %ae, %be : tensor<8x16x64xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<8x16x64xf32>
  return %c : tensor<8x16xf32>
}

// -----

// A tile that does not divide the reduction, or a root that is not the
// reduction (a relu of it): no blocks (the tile names no output axis).
// CHECK-LABEL: func.func private @r_8_16_odd
// CHECK-NOT:     uop.where
// CHECK:         return
func.func private @r_8_16_odd() -> tensor<8x16xf32> attributes {uop.kernel, uop.opts = #uop.opts<tile = {2: 24}>} {
  %a = uop.buffer 0 : tensor<512xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a3 = uop.reshape %a, [8, 1, 64] : tensor<512xf32>
  %ae = uop.expand %a3, [8, 16, 64] : tensor<8x1x64xf32>
  %b3 = uop.reshape %b, [1, 16, 64] : tensor<1024xf32>
  %be = uop.expand %b3, [8, 16, 64] : tensor<1x16x64xf32>
  %m = uop.mul %ae, %be : tensor<8x16x64xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<8x16x64xf32>
  return %c : tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func.func private @r_relu
// CHECK-NOT:     uop.where
// CHECK:         return
func.func private @r_relu() -> tensor<8x16xf32> attributes {uop.kernel, uop.opts = #uop.opts<tile = {2: 16}>} {
  %a = uop.buffer 0 : tensor<512xf32>
  %b = uop.buffer 1 : tensor<1024xf32>
  %a3 = uop.reshape %a, [8, 1, 64] : tensor<512xf32>
  %ae = uop.expand %a3, [8, 16, 64] : tensor<8x1x64xf32>
  %b3 = uop.reshape %b, [1, 16, 64] : tensor<1024xf32>
  %be = uop.expand %b3, [8, 16, 64] : tensor<1x16x64xf32>
  %m = uop.mul %ae, %be : tensor<8x16x64xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<8x16x64xf32>
  %z = uop.const 0.0 : f32
  %z2 = uop.reshape %z, [1, 1] : f32
  %ze = uop.expand %z2, [8, 16] : tensor<1x1xf32>
  %r = uop.max %c, %ze : tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
