// RUN: uop-opt %s --split-input-file --uop-rangeify | FileCheck %s
//
// A ragged upcast: a factor that does not divide its output axis (or the
// axis's tile) still unrolls it, over ceil(size / factor) iterations, each
// copy's index clamped to the last one: min(base * f + c, size - 1), as
// -max(-(base * f) - c, 1 - size). The clamped copies recompute the last
// row and store the same value to it. Where a kernel reads back its output
// (`stash`, a reduce tile) the seed's rule stays: no upcast of that axis.

// 7 rows upcast by 3: a loop of 3, the three copies clamped at row 6.
// CHECK-LABEL: func.func private @r_7_16
// CHECK-DAG:     %[[M3:.*]] = uop.const -3 : i32
// CHECK-DAG:     %[[M1:.*]] = uop.const -1 : i32
// CHECK-DAG:     %[[M2:.*]] = uop.const -2 : i32
// CHECK-DAG:     %[[LIM:.*]] = uop.const -6 : i32
// CHECK-DAG:     %[[THREE:.*]] = uop.const 3 : i32
// CHECK:         %[[R:.*]] = uop.range %[[THREE]] idx 0 <loop>
// CHECK:         %[[B0:.*]] = uop.mul %[[R]], %[[M3]] : i32
// CHECK:         uop.max %[[B0]], %[[LIM]] : i32
// CHECK:         %[[B1:.*]] = uop.mul %[[R]], %[[M3]] : i32
// CHECK:         %[[C1:.*]] = uop.add %[[B1]], %[[M1]] : i32
// CHECK:         uop.max %[[C1]], %[[LIM]] : i32
// CHECK:         %[[B2:.*]] = uop.mul %[[R]], %[[M3]] : i32
// CHECK:         %[[C2:.*]] = uop.add %[[B2]], %[[M2]] : i32
// CHECK:         uop.max %[[C2]], %[[LIM]] : i32
// One reduce loop for the three copies, three stores after it.
// CHECK-COUNT-1: uop.end %{{.*}}, %{{.*}} : !uop.void
// CHECK-COUNT-3: uop.store %{{.*}} : !uop.ptr<f32, global>
func.func private @r_7_16() -> tensor<7x16xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 3}>} {
  %a = uop.buffer 0 : tensor<56xf32>
  %r = uop.reshape %a, [7, 1, 8] : tensor<56xf32>
  %e = uop.expand %r, [7, 16, 8] : tensor<7x1x8xf32>
  %c = uop.reduce %e <add> pop 1 : tensor<7x16x8xf32>
  return %c : tensor<7x16xf32>
}

// -----

// A ragged tile: blocks of 8 rows (the threads take blocks), 3 rows a copy
// in a loop of 3 clamped at the block's row 7, offset by block * 8.
// CHECK-LABEL: func.func private @r_16_16
// CHECK-DAG:     %[[LIM:.*]] = uop.const -7 : i32
// CHECK:         %[[BLK:.*]] = uop.range %{{.*}} idx 0 <thread>
// CHECK:         %[[R:.*]] = uop.range %{{.*}} idx 1 <loop>
// CHECK:         %[[B0:.*]] = uop.mul %[[R]], %{{.*}} : i32
// CHECK:         uop.max %[[B0]], %[[LIM]] : i32
// CHECK:         uop.mul %[[BLK]], %{{.*}} : i32
func.func private @r_16_16() -> tensor<16x16xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 3}, thread = 0, tile = {0: 8}>} {
  %a = uop.buffer 0 : tensor<128xf32>
  %r = uop.reshape %a, [16, 1, 8] : tensor<128xf32>
  %e = uop.expand %r, [16, 16, 8] : tensor<16x1x8xf32>
  %c = uop.reduce %e <add> pop 1 : tensor<16x16x8xf32>
  return %c : tensor<16x16xf32>
}

// -----

// `stash` stores values into the output and reads them back: no ragged
// upcast (7 rows, a loop of 7, no clamp).
// CHECK-LABEL: func.func private @r_stash
// CHECK-DAG:     %[[SEVEN:.*]] = uop.const 7 : i32
// CHECK:         uop.range %[[SEVEN]] idx 0 <loop>
// CHECK-NOT:     uop.max %{{.*}} : i32
// CHECK:         return
func.func private @r_stash() -> tensor<7x16xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 3}, stash>} {
  %a = uop.buffer 0 : tensor<56xf32>
  %r = uop.reshape %a, [7, 1, 8] : tensor<56xf32>
  %e = uop.expand %r, [7, 16, 8] : tensor<7x1x8xf32>
  %c = uop.reduce %e <add> pop 1 : tensor<7x16x8xf32>
  return %c : tensor<7x16xf32>
}

// -----

// A reduce tile reads back what the block before stored: no ragged upcast.
// CHECK-LABEL: func.func private @r_reduce_tile
// CHECK-DAG:     %[[SEVEN:.*]] = uop.const 7 : i32
// CHECK:         uop.range %{{.*}} idx 0 <loop>
// CHECK:         uop.range %[[SEVEN]] idx 1 <loop>
// CHECK-NOT:     uop.max %{{.*}} : i32
// CHECK:         return
func.func private @r_reduce_tile() -> tensor<7x16xf32> attributes {uop.kernel, uop.opts = #uop.opts<upcast = {0: 3}, tile = {2: 4}>} {
  %a = uop.buffer 0 : tensor<56xf32>
  %r = uop.reshape %a, [7, 1, 8] : tensor<56xf32>
  %e = uop.expand %r, [7, 16, 8] : tensor<7x1x8xf32>
  %c = uop.reduce %e <add> pop 1 : tensor<7x16x8xf32>
  return %c : tensor<7x16xf32>
}
