// RUN: uop-opt %s --uop-prefetch-next --split-input-file | FileCheck %s

// A fused row kernel's shape: the first loop brings row %i of %x in (a
// max), the second computes on it (a sum of exp2) and stores the output,
// the third rescales the output. `prefetch_next = 64`: the second loop is
// strip-mined by 64 and each strip first prefetches the 4 lines (16 f32
// each) of the next row's strip, the last row its own. The first loop and
// the third (it reads %y, which no earlier loop loads) are left alone.
// CHECK-LABEL: func.func @row_kernel
// CHECK:       scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[N:.*]]) step (%[[ONE:.*]]) {
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NOT:       memref.prefetch
// CHECK:           memref.load %arg0
// CHECK:         }
// CHECK:         %[[NEXT:.*]] = arith.addi %[[I]], %[[ONE]] : index
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi slt, %[[NEXT]], %[[N]] : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.select %[[IN]], %[[NEXT]], %[[I]] : index
// CHECK:         scf.for %[[J0:.*]] = %{{.*}} to %{{.*}} step %[[C64:.*]] : i32 {
// CHECK:           %[[R:.*]] = arith.index_cast %[[ROW]] : index to i32
// CHECK:           %[[RB:.*]] = arith.muli %[[R]], %{{.*}} overflow<nsw> : i32
// CHECK:           %[[E:.*]] = arith.addi %[[RB]], %[[J0]] overflow<nsw> : i32
// CHECK:           %[[B:.*]] = arith.index_cast %[[E]] : i32 to index
// CHECK-NEXT:      memref.prefetch %arg0[%[[B]]], read, locality<3>, data
// CHECK:           %[[P1:.*]] = arith.addi %[[B]], %{{.*}} : index
// CHECK-NEXT:      memref.prefetch %arg0[%[[P1]]], read, locality<3>, data
// CHECK:           memref.prefetch
// CHECK:           memref.prefetch
// CHECK-NOT:       memref.prefetch
// CHECK:           scf.for %[[JJ:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NEXT:        %[[J:.*]] = arith.addi %[[J0]], %[[JJ]] overflow<nsw> : i32
// CHECK-NOT:         memref.prefetch
// CHECK:             arith.addi %{{.*}}, %[[J]] overflow<nsw> : i32
// CHECK:             math.exp2
// CHECK:           }
// CHECK:         }
// CHECK:         scf.for
// CHECK-NOT:       memref.prefetch
// CHECK:       return
func.func @row_kernel(%x: memref<16384xf32>, %y: memref<16384xf32>) attributes {uop.kernel, uop.opts = #uop.opts<thread = 0, prefetch_next = 64>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c256_i32 = arith.constant 256 : i32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %m = memref.alloca() : memref<1xf32>
    %s = memref.alloca() : memref<1xf32>
    memref.store %ninf, %m[%c0] : memref<1xf32>
    memref.store %zero, %s[%c0] : memref<1xf32>
    %ii = arith.index_cast %i : index to i32
    %row = arith.muli %ii, %c256_i32 overflow<nsw> : i32
    scf.for %j = %c0_i32 to %c256_i32 step %c1_i32 : i32 {
      %a = memref.load %m[%c0] : memref<1xf32>
      %k = arith.addi %row, %j overflow<nsw> : i32
      %ki = arith.index_cast %k : i32 to index
      %v = memref.load %x[%ki] : memref<16384xf32>
      %gt = arith.cmpf ogt, %a, %v : f32
      %mx = arith.select %gt, %a, %v : f32
      memref.store %mx, %m[%c0] : memref<1xf32>
    }
    %mv = memref.load %m[%c0] : memref<1xf32>
    scf.for %j = %c0_i32 to %c256_i32 step %c1_i32 : i32 {
      %a = memref.load %s[%c0] : memref<1xf32>
      %k = arith.addi %row, %j overflow<nsw> : i32
      %ki = arith.index_cast %k : i32 to index
      %v = memref.load %x[%ki] : memref<16384xf32>
      %d = arith.subf %v, %mv : f32
      %e = math.exp2 %d : f32
      memref.store %e, %y[%ki] : memref<16384xf32>
      %t = arith.addf %a, %e fastmath<reassoc,contract> : f32
      memref.store %t, %s[%c0] : memref<1xf32>
    }
    %sv = memref.load %s[%c0] : memref<1xf32>
    scf.for %j = %c0_i32 to %c256_i32 step %c1_i32 : i32 {
      %k = arith.addi %row, %j overflow<nsw> : i32
      %ki = arith.index_cast %k : i32 to index
      %v = memref.load %y[%ki] : memref<16384xf32>
      %r = arith.divf %v, %sv : f32
      memref.store %r, %y[%ki] : memref<16384xf32>
    }
    scf.reduce
  }
  return
}

// -----

// Without the field the kernel is left as it is.
// CHECK-LABEL: func.func @no_opts
// CHECK-NOT:   memref.prefetch
// CHECK:       return
func.func @no_opts(%x: memref<1024xf32>, %y: memref<1024xf32>) attributes {uop.kernel, uop.opts = #uop.opts<thread = 0>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c256_i32 = arith.constant 256 : i32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %ii = arith.index_cast %i : index to i32
    %row = arith.muli %ii, %c256_i32 overflow<nsw> : i32
    scf.for %j = %c0_i32 to %c256_i32 step %c1_i32 : i32 {
      %k = arith.addi %row, %j overflow<nsw> : i32
      %ki = arith.index_cast %k : i32 to index
      %v = memref.load %x[%ki] : memref<1024xf32>
      memref.store %v, %y[%ki] : memref<1024xf32>
    }
    scf.for %j = %c0_i32 to %c256_i32 step %c1_i32 : i32 {
      %k = arith.addi %row, %j overflow<nsw> : i32
      %ki = arith.index_cast %k : i32 to index
      %v = memref.load %x[%ki] : memref<1024xf32>
      memref.store %v, %y[%ki] : memref<1024xf32>
    }
    scf.reduce
  }
  return
}

// -----

// Loops it leaves: a row read once (nothing to overlap: its one loop
// brings it in); a second loop whose 100 iterations no strip of at least a
// line divides; a load strided in the inner loop (x[j*64 + i]: a column).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:   memref.prefetch
// CHECK:       return
func.func @left_alone(%x: memref<6400xf32>, %y: memref<6400xf32>) attributes {uop.kernel, uop.opts = #uop.opts<prefetch_next = 64>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c64_i32 = arith.constant 64 : i32
  %c100_i32 = arith.constant 100 : i32
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %row = arith.muli %ii, %c100_i32 overflow<nsw> : i32
    scf.for %j = %c0_i32 to %c100_i32 step %c1_i32 : i32 {
      %k = arith.addi %row, %j overflow<nsw> : i32
      %ki = arith.index_cast %k : i32 to index
      %v = memref.load %x[%ki] : memref<6400xf32>
      memref.store %v, %y[%ki] : memref<6400xf32>
    }
    scf.for %j = %c0_i32 to %c100_i32 step %c1_i32 : i32 {
      %k = arith.addi %row, %j overflow<nsw> : i32
      %ki = arith.index_cast %k : i32 to index
      %v = memref.load %x[%ki] : memref<6400xf32>
      memref.store %v, %y[%ki] : memref<6400xf32>
    }
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    scf.for %j = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
      %jr = arith.muli %j, %c64_i32 overflow<nsw> : i32
      %k = arith.addi %jr, %ii overflow<nsw> : i32
      %ki = arith.index_cast %k : i32 to index
      %v = memref.load %x[%ki] : memref<6400xf32>
      memref.store %v, %y[%ki] : memref<6400xf32>
    }
    scf.for %j = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
      %jr = arith.muli %j, %c64_i32 overflow<nsw> : i32
      %k = arith.addi %jr, %ii overflow<nsw> : i32
      %ki = arith.index_cast %k : i32 to index
      %v = memref.load %x[%ki] : memref<6400xf32>
      memref.store %v, %y[%ki] : memref<6400xf32>
    }
  }
  return
}
