// RUN: uop-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(uop-stash))" | FileCheck %s
//
// uop-stash (#uop.opts<stash>): the store loop of a fused softmax (two
// upcast rows) reads back the exp2 that the sum's loop computed in the same
// iteration, which that loop now also stores into the output; the store
// loop keeps its own multiply. Each row's value goes to its own element.

// CHECK-LABEL: func.func @softmax
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK:           %[[I0:.*]] = arith.addi %[[BASE:.*]], %[[J]]
// CHECK:           %[[E0:.*]] = math.exp2
// CHECK:           %[[K0:.*]] = arith.addi %[[BASE]], %[[J]]
// CHECK:           %[[X0:.*]] = arith.index_cast %[[K0]]
// CHECK:           memref.store %[[E0]], %[[OUT:.*]][%[[X0]]]
// CHECK:           %[[E1:.*]] = math.exp2
// CHECK:           %[[K1:.*]] = arith.addi %[[BASE]], %[[J]]
// CHECK:           %[[L1:.*]] = arith.addi %[[K1]], %c64_i32
// CHECK:           %[[X1:.*]] = arith.index_cast %[[L1]]
// CHECK:           memref.store %[[E1]], %[[OUT]][%[[X1]]]
// CHECK:         }
// CHECK:         scf.for %[[J2:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK-NOT:       math.exp2
// CHECK:           %[[B0:.*]] = memref.load %[[OUT]]
// CHECK:           %[[Y0:.*]] = arith.mulf %[[B0]], %[[R0:.*]] : f32
// CHECK:           memref.store %[[Y0]], %[[OUT]]
// CHECK:           %[[B1:.*]] = memref.load %[[OUT]]
// CHECK:           arith.mulf %[[B1]], %[[R1:.*]] : f32
// CHECK-NOT:       math.exp2
// CHECK:         }
func.func @softmax(%x: memref<128xf32>, %out: memref<128xf32>, %base: i32, %m0: f32, %m1: f32)
    attributes {uop.opts = #uop.opts<upcast = {0: 2}, stash>} {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c64_i32 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %acc0 = memref.alloca() : memref<1xf32>
  %acc1 = memref.alloca() : memref<1xf32>
  memref.store %zero, %acc0[%c0] : memref<1xf32>
  memref.store %zero, %acc1[%c0] : memref<1xf32>
  %neg = arith.constant -1.0 : f32
  %sh0 = arith.mulf %m0, %neg : f32
  scf.for %j = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
    %a0 = memref.load %acc0[%c0] : memref<1xf32>
    %i0 = arith.addi %base, %j : i32
    %k0 = arith.index_cast %i0 : i32 to index
    %x0 = memref.load %x[%k0] : memref<128xf32>
    %s0 = arith.addf %x0, %sh0 : f32
    %e0 = math.exp2 %s0 : f32
    %n0 = arith.addf %a0, %e0 fastmath<reassoc,contract> : f32
    memref.store %n0, %acc0[%c0] : memref<1xf32>
    %a1 = memref.load %acc1[%c0] : memref<1xf32>
    %i1 = arith.addi %i0, %c64_i32 : i32
    %k1 = arith.index_cast %i1 : i32 to index
    %x1 = memref.load %x[%k1] : memref<128xf32>
    %s1 = arith.addf %x1, %m1 : f32
    %e1 = math.exp2 %s1 : f32
    %n1 = arith.addf %a1, %e1 fastmath<reassoc,contract> : f32
    memref.store %n1, %acc1[%c0] : memref<1xf32>
  }
  %t0 = memref.load %acc0[%c0] : memref<1xf32>
  %r0 = arith.divf %one, %t0 : f32
  %t1 = memref.load %acc1[%c0] : memref<1xf32>
  %r1 = arith.divf %one, %t1 : f32
  // The shift computed again outside the loops (equal, not the same value).
  %sh0b = arith.mulf %m0, %neg : f32
  scf.for %j = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
    %i0 = arith.addi %base, %j : i32
    %k0 = arith.index_cast %i0 : i32 to index
    %x0 = memref.load %x[%k0] : memref<128xf32>
    %s0 = arith.addf %x0, %sh0b : f32
    %e0 = math.exp2 %s0 : f32
    %y0 = arith.mulf %e0, %r0 : f32
    memref.store %y0, %out[%k0] : memref<128xf32>
    %i1 = arith.addi %i0, %c64_i32 : i32
    %k1 = arith.index_cast %i1 : i32 to index
    %x1 = memref.load %x[%k1] : memref<128xf32>
    %s1 = arith.addf %x1, %m1 : f32
    %e1 = math.exp2 %s1 : f32
    %y1 = arith.mulf %e1, %r1 : f32
    memref.store %y1, %out[%k1] : memref<128xf32>
  }
  return
}

// -----

// Left alone: no `stash` in the opts; the output read elsewhere; loops of
// other bounds; an input the kernel writes (its loads may differ between
// the loops); a stored type the value does not have (f16 output).
// CHECK-LABEL: func.func @no_opt
// CHECK-COUNT-2: math.exp2
// CHECK-NOT:     memref.load %arg1
// CHECK-LABEL: func.func @output_read
// CHECK-COUNT-2: math.exp2
// CHECK-LABEL: func.func @other_bounds
// CHECK-COUNT-2: math.exp2
// CHECK-LABEL: func.func @input_written
// CHECK-COUNT-2: math.exp2
// CHECK-LABEL: func.func @f16_output
// CHECK-COUNT-2: math.exp2
// CHECK-LABEL: func.func @after
func.func @no_opt(%x: memref<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c64_i32 = arith.constant 64 : i32
  %acc = memref.alloca() : memref<1xf32>
  scf.for %j = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
    %a = memref.load %acc[%c0] : memref<1xf32>
    %k = arith.index_cast %j : i32 to index
    %v = memref.load %x[%k] : memref<64xf32>
    %e = math.exp2 %v : f32
    %n = arith.addf %a, %e : f32
    memref.store %n, %acc[%c0] : memref<1xf32>
  }
  %t = memref.load %acc[%c0] : memref<1xf32>
  scf.for %j = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
    %k = arith.index_cast %j : i32 to index
    %v = memref.load %x[%k] : memref<64xf32>
    %e = math.exp2 %v : f32
    %y = arith.mulf %e, %t : f32
    memref.store %y, %out[%k] : memref<64xf32>
  }
  return
}
func.func @output_read(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {uop.opts = #uop.opts<stash>} {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c64_i32 = arith.constant 64 : i32
  %acc = memref.alloca() : memref<1xf32>
  scf.for %j = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
    %a = memref.load %acc[%c0] : memref<1xf32>
    %k = arith.index_cast %j : i32 to index
    %v = memref.load %x[%k] : memref<64xf32>
    %e = math.exp2 %v : f32
    %n = arith.addf %a, %e : f32
    memref.store %n, %acc[%c0] : memref<1xf32>
  }
  %t = memref.load %out[%c0] : memref<64xf32>
  scf.for %j = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
    %k = arith.index_cast %j : i32 to index
    %v = memref.load %x[%k] : memref<64xf32>
    %e = math.exp2 %v : f32
    %y = arith.mulf %e, %t : f32
    memref.store %y, %out[%k] : memref<64xf32>
  }
  return
}
func.func @other_bounds(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {uop.opts = #uop.opts<stash>} {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c32_i32 = arith.constant 32 : i32
  %c64_i32 = arith.constant 64 : i32
  %acc = memref.alloca() : memref<1xf32>
  scf.for %j = %c0_i32 to %c32_i32 step %c1_i32 : i32 {
    %a = memref.load %acc[%c0] : memref<1xf32>
    %k = arith.index_cast %j : i32 to index
    %v = memref.load %x[%k] : memref<64xf32>
    %e = math.exp2 %v : f32
    %n = arith.addf %a, %e : f32
    memref.store %n, %acc[%c0] : memref<1xf32>
  }
  %t = memref.load %acc[%c0] : memref<1xf32>
  scf.for %j = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
    %k = arith.index_cast %j : i32 to index
    %v = memref.load %x[%k] : memref<64xf32>
    %e = math.exp2 %v : f32
    %y = arith.mulf %e, %t : f32
    memref.store %y, %out[%k] : memref<64xf32>
  }
  return
}
func.func @input_written(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {uop.opts = #uop.opts<stash>} {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c64_i32 = arith.constant 64 : i32
  %acc = memref.alloca() : memref<1xf32>
  scf.for %j = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
    %a = memref.load %acc[%c0] : memref<1xf32>
    %k = arith.index_cast %j : i32 to index
    %v = memref.load %x[%k] : memref<64xf32>
    %e = math.exp2 %v : f32
    %n = arith.addf %a, %e : f32
    memref.store %n, %acc[%c0] : memref<1xf32>
  }
  %t = memref.load %acc[%c0] : memref<1xf32>
  memref.store %t, %x[%c0] : memref<64xf32>
  scf.for %j = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
    %k = arith.index_cast %j : i32 to index
    %v = memref.load %x[%k] : memref<64xf32>
    %e = math.exp2 %v : f32
    %y = arith.mulf %e, %t : f32
    memref.store %y, %out[%k] : memref<64xf32>
  }
  return
}
func.func @f16_output(%x: memref<64xf32>, %out: memref<64xf16>)
    attributes {uop.opts = #uop.opts<stash>} {
  %c0 = arith.constant 0 : index
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %c64_i32 = arith.constant 64 : i32
  %acc = memref.alloca() : memref<1xf32>
  scf.for %j = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
    %a = memref.load %acc[%c0] : memref<1xf32>
    %k = arith.index_cast %j : i32 to index
    %v = memref.load %x[%k] : memref<64xf32>
    %e = math.exp2 %v : f32
    %n = arith.addf %a, %e : f32
    memref.store %n, %acc[%c0] : memref<1xf32>
  }
  %t = memref.load %acc[%c0] : memref<1xf32>
  scf.for %j = %c0_i32 to %c64_i32 step %c1_i32 : i32 {
    %k = arith.index_cast %j : i32 to index
    %v = memref.load %x[%k] : memref<64xf32>
    %e = math.exp2 %v : f32
    %y = arith.mulf %e, %t : f32
    %h = arith.truncf %y : f32 to f16
    memref.store %h, %out[%k] : memref<64xf16>
  }
  return
}
func.func @after() {
  return
}
