// RUN: uop-opt %s --uop-prefetch --split-input-file | FileCheck %s

// `prefetch = 4`: b[k*64 + j] strides 256 bytes a step, so it is prefetched
// 4 iterations ahead (no further than the last); b[... + 1] shares its line;
// b[... + 40] is a line on and gets its own. a[j*64 + k] walks a line (stride
// 4 bytes), the alloca is private memory and a[g*k] is not linear in k: none
// of them is prefetched.
// CHECK-LABEL: func.func @strided
// CHECK:       scf.for %[[K:.*]] = %[[C0:.*]] to %[[UB:.*]] step %{{.*}} : i32 {
// CHECK:         %[[LAST:.*]] = arith.subi %[[UB]], %{{.*}} : i32
// CHECK:         %[[LEFT:.*]] = arith.subi %[[LAST]], %[[K]] : i32
// CHECK:         %[[D:.*]] = arith.constant 4 : i32
// CHECK:         %[[MIN:.*]] = arith.minsi %[[D]], %[[LEFT]] : i32
// CHECK:         %[[AHEAD:.*]] = arith.index_cast %[[MIN]] : i32 to index
// CHECK-NOT:     memref.prefetch
// CHECK:         %[[S:.*]] = arith.muli %[[AHEAD]], %{{.*}} : index
// CHECK-NEXT:    %[[P:.*]] = arith.addi %[[IB:.*]], %[[S]] : index
// CHECK-NEXT:    memref.prefetch %arg1[%[[P]]], read, locality<3>, data : memref<4096xf32>
// CHECK-NEXT:    memref.load %arg1[%[[IB]]]
// CHECK-NOT:     memref.prefetch
// CHECK:         %[[S2:.*]] = arith.muli %[[AHEAD]], %{{.*}} : index
// CHECK-NEXT:    %[[P2:.*]] = arith.addi %[[IB2:.*]], %[[S2]] : index
// CHECK-NEXT:    memref.prefetch %arg1[%[[P2]]], read, locality<3>, data : memref<4096xf32>
// CHECK-NEXT:    memref.load %arg1[%[[IB2]]]
// CHECK-NOT:     memref.prefetch
// CHECK:         return
func.func @strided(%a: memref<4096xf32>, %b: memref<4096xf32>, %c: memref<64xf32>, %idx: memref<64xi32>) attributes {uop.kernel, uop.opts = #uop.opts<prefetch = 4>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c64_i32 = arith.constant 64 : i32
  %c40_i32 = arith.constant 40 : i32
  %cst = arith.constant 0.0 : f32
  %acc = memref.alloca() : memref<4096xf32>
  scf.for %j = %c0 to %c64 step %c1 {
    %ji = arith.index_cast %j : index to i32
    %row = arith.muli %ji, %c64_i32 overflow<nsw> : i32
    memref.store %cst, %c[%j] : memref<64xf32>
    scf.for %k = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
      %ia = arith.addi %row, %k overflow<nsw> : i32
      %iai = arith.index_cast %ia : i32 to index
      %x = memref.load %a[%iai] : memref<4096xf32>
      %kb = arith.muli %k, %c64_i32 overflow<nsw> : i32
      %ib = arith.addi %kb, %ji overflow<nsw> : i32
      %ibi = arith.index_cast %ib : i32 to index
      %y = memref.load %b[%ibi] : memref<4096xf32>
      %ib1 = arith.addi %ib, %c1_i32 overflow<nsw> : i32
      %ib1i = arith.index_cast %ib1 : i32 to index
      %y1 = memref.load %b[%ib1i] : memref<4096xf32>
      %ib2 = arith.addi %ib, %c40_i32 overflow<nsw> : i32
      %ib2i = arith.index_cast %ib2 : i32 to index
      %y2 = memref.load %b[%ib2i] : memref<4096xf32>
      %z = memref.load %acc[%ibi] : memref<4096xf32>
      %g = memref.load %idx[%j] : memref<64xi32>
      %gk = arith.muli %g, %k : i32
      %gi = arith.index_cast %gk : i32 to index
      %w = memref.load %a[%gi] : memref<4096xf32>
      %s0 = arith.mulf %x, %y : f32
      %s1 = arith.addf %s0, %y1 : f32
      %s2 = arith.addf %s1, %y2 : f32
      %s3 = arith.addf %s2, %z : f32
      %s4 = arith.addf %s3, %w : f32
      %o = memref.load %c[%j] : memref<64xf32>
      %n = arith.addf %o, %s4 : f32
      memref.store %n, %c[%j] : memref<64xf32>
    }
  }
  return
}

// -----

// Without `prefetch` in its opts a kernel is left as it is.
// CHECK-LABEL: func.func @no_opt
// CHECK-NOT:   memref.prefetch
func.func @no_opt(%b: memref<4096xf32>, %c: memref<1xf32>) attributes {uop.kernel, uop.opts = #uop.opts<gpu>} {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c64_i32 = arith.constant 64 : i32
  %c0 = arith.constant 0 : index
  scf.for %k = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
    %kb = arith.muli %k, %c64_i32 overflow<nsw> : i32
    %ibi = arith.index_cast %kb : i32 to index
    %y = memref.load %b[%ibi] : memref<4096xf32>
    memref.store %y, %c[%c0] : memref<1xf32>
  }
  return
}

// -----

// Only innermost loops: the outer loop's load (256 bytes a step) is not
// prefetched; an index loop with a step of 2 prefetches 2*2 elements ahead.
// CHECK-LABEL: func.func @outer_and_step
// CHECK:       scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NOT:     memref.prefetch
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %[[UB:.*]] step %{{.*}} {
// CHECK:           %[[LEFT:.*]] = arith.subi %{{.*}}, %[[K]] : index
// CHECK:           %[[D:.*]] = arith.constant 4 : index
// CHECK:           %[[MIN:.*]] = arith.minsi %[[D]], %[[LEFT]] : index
// CHECK:           %[[C:.*]] = arith.constant 128 : index
// CHECK:           %[[S:.*]] = arith.muli %[[MIN]], %[[C]] : index
// CHECK:           memref.prefetch %arg0[%{{.*}}], read
func.func @outer_and_step(%b: memref<16384xf32>, %c: memref<128xf32>) attributes {uop.kernel, uop.opts = #uop.opts<prefetch = 2>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %io = arith.muli %i, %c64 : index
    %v = memref.load %b[%io] : memref<16384xf32>
    memref.store %v, %c[%i] : memref<128xf32>
    scf.for %k = %c0 to %c128 step %c2 {
      %kb = arith.muli %k, %c128 : index
      %ib = arith.addi %kb, %i : index
      %y = memref.load %b[%ib] : memref<16384xf32>
      memref.store %y, %c[%i] : memref<128xf32>
    }
  }
  return
}
