// RUN: uop-opt %s -uop-symbolic -split-input-file | FileCheck %s
// RUN: uop-opt %s -canonicalize -cse -split-input-file | FileCheck %s
//
// Every rule of the seed's `symbolic` list: a case where it fires and one
// where it must not. The same rules are the ops' canonicalizations.

// Constants go to the right of commutative ops.
// CHECK-LABEL: func.func @const_to_the_right
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32)
func.func @const_to_the_right(%x: i32, %y: i32) -> (i32, i1, i32) {
  %c3 = uop.const 3 : i32
  // CHECK-DAG: %[[C3:.*]] = uop.const 3 : i32
  // CHECK: %[[A:.*]] = uop.mul %[[X]], %[[C3]] : i32
  // CHECK: %[[B:.*]] = uop.cmpne %[[X]], %[[C3]] : i32
  // must not: two non-constants keep their order
  // CHECK: %[[C:.*]] = uop.max %[[Y]], %[[X]] : i32
  // CHECK: return %[[A]], %[[B]], %[[C]]
  %0 = uop.mul %c3, %x : i32
  %1 = uop.cmpne %c3, %x : i32
  %2 = uop.max %y, %x : i32
  return %0, %1, %2 : i32, i1, i32
}

// -----

// A float max keeps a constant on the left: exec_alu's max(1.0, nan) is 1.0
// and max(nan, 1.0) is nan (the seed swaps them; uop-smt-check found it).
// An integer max moves it right.
// CHECK-LABEL: func.func @max_const_left
// CHECK-SAME: (%[[F:.*]]: f32, %[[X:.*]]: i32)
func.func @max_const_left(%f: f32, %x: i32) -> (f32, i32) {
  %c1 = uop.const 1.0 : f32
  %c3 = uop.const 3 : i32
  // CHECK-DAG: %[[C1:.*]] = uop.const 1.000000e+00 : f32
  // CHECK-DAG: %[[C3:.*]] = uop.const 3 : i32
  // CHECK: %[[A:.*]] = uop.max %[[C1]], %[[F]] : f32
  // CHECK: %[[B:.*]] = uop.max %[[X]], %[[C3]] : i32
  // CHECK: return %[[A]], %[[B]]
  %0 = uop.max %c1, %f : f32
  %1 = uop.max %c3, %x : i32
  return %0, %1 : f32, i32
}

// -----

// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[X:.*]]: i32, %[[F:.*]]: f32, %[[B:.*]]: i1, %[[C:.*]]: i1)
func.func @identities(%x: i32, %f: f32, %b: i1, %c: i1) -> (i32, f32, i32, f32, i32, i1, i32, i32, i32, f32, i1) {
  %z = uop.const 0 : i32
  %one = uop.const 1 : i32
  %zf = uop.const 0.0 : f32
  %onef = uop.const 1.0 : f32
  %false = uop.const false
  // CHECK-DAG: %[[Z:.*]] = uop.const 0 : i32
  // CHECK-DAG: %[[FALSE:.*]] = uop.const false
  // CHECK: return %[[X]], %[[F]], %[[X]], %[[F]], %[[Z]], %[[FALSE]], %[[X]], %[[Z]], %[[X]], %[[F]], %[[B]]
  %0 = uop.add %x, %z : i32        // x + 0
  %1 = uop.add %zf, %f : f32       // 0.0 + x
  %2 = uop.mul %x, %one : i32      // x * 1
  %3 = uop.mul %f, %onef : f32     // x * 1.0
  %4 = uop.mul %x, %z : i32        // x * 0 (ints)
  %5 = uop.mul %b, %false : i1     // x * 0 (bool)
  %6 = uop.floordiv %x, %one : i32 // x // 1
  %7 = uop.floormod %x, %one : i32 // x % 1
  %8 = uop.max %x, %x : i32
  %9 = uop.where %c, %f, %f : f32
  %10 = uop.cmpne %b, %false : i1  // b != false
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i32, f32, i32, f32, i32, i1, i32, i32, i32, f32, i1
}

// -----

// CHECK-LABEL: func.func @identities_must_not
// CHECK-SAME: (%[[F:.*]]: f32, %[[B:.*]]: i1)
func.func @identities_must_not(%f: f32, %b: i1) -> (f32, i1, i1) {
  %zf = uop.const 0.0 : f32
  %true = uop.const true
  // CHECK: %[[A:.*]] = uop.mul %[[F]], %{{.*}} : f32
  // CHECK: %[[C:.*]] = uop.cmpne %[[B]], %{{.*}} : i1
  // CHECK: %[[D:.*]] = uop.cmplt %[[F]], %[[F]] : f32
  // CHECK: return %[[A]], %[[C]], %[[D]]
  %0 = uop.mul %f, %zf : f32       // inf * 0.0 is nan: never folded for floats
  %1 = uop.cmpne %b, %true : i1
  %2 = uop.cmplt %f, %f : f32      // nan < nan: only i32 compares fold
  return %0, %1, %2 : f32, i1, i1
}

// -----

// CHECK-LABEL: func.func @where_rules
// CHECK-SAME: (%[[C:.*]]: i1, %[[D:.*]]: i1, %[[X:.*]]: f32, %[[Y:.*]]: f32, %[[Z:.*]]: f32)
func.func @where_rules(%c: i1, %d: i1, %x: f32, %y: f32, %z: f32) -> (f32, f32, f32, f32, f32) {
  %t = uop.const true
  %f = uop.const false
  %0 = uop.where %t, %x, %y : f32
  %1 = uop.where %f, %x, %y : f32
  // where(c, where(c, x, _), y) -> where(c, x, y)
  %i = uop.where %c, %x, %z : f32
  %2 = uop.where %c, %i, %y : f32
  // where(c, x, where(c, _, y)) -> where(c, x, y)
  %j = uop.where %c, %z, %y : f32
  %3 = uop.where %c, %x, %j : f32
  // must not: a different condition
  %k = uop.where %d, %x, %z : f32
  %4 = uop.where %c, %k, %y : f32
  // CHECK: %[[W2:.*]] = uop.where %[[C]], %[[X]], %[[Y]] : f32
  // CHECK: %[[K:.*]] = uop.where %[[D]], %[[X]], %[[Z]] : f32
  // CHECK: %[[W4:.*]] = uop.where %[[C]], %[[K]], %[[Y]] : f32
  // CHECK: return %[[X]], %[[Y]], %[[W2]], %[[W2]], %[[W4]]
  return %0, %1, %2, %3, %4 : f32, f32, f32, f32, f32
}

// -----

// CHECK-LABEL: func.func @self_rules
// CHECK-SAME: (%[[X:.*]]: i32, %[[F:.*]]: f32)
func.func @self_rules(%x: i32, %f: f32) -> (i32, f32, i32, f32, i1, i1, i32) {
  %m1 = uop.const -1 : i32
  %m1f = uop.const -1.0 : f32
  // CHECK-DAG: %[[Z:.*]] = uop.const 0 : i32
  // CHECK-DAG: %[[FALSE:.*]] = uop.const false
  // CHECK-DAG: %[[TWO:.*]] = uop.const 2 : i32
  // CHECK: %[[A:.*]] = uop.mul %[[X]], %[[TWO]] : i32
  // CHECK: %[[B:.*]] = uop.add %[[F]], %[[F]] : f32
  // CHECK: %[[N:.*]] = uop.mul %[[F]], %{{.*}} : f32
  // CHECK: %[[D:.*]] = uop.add %[[F]], %[[N]] : f32
  // CHECK: return %[[A]], %[[B]], %[[Z]], %[[D]], %[[FALSE]], %[[FALSE]], %[[X]]
  %0 = uop.add %x, %x : i32        // x + x -> x * 2
  %1 = uop.add %f, %f : f32        // must not: floats
  %n = uop.mul %x, %m1 : i32
  %2 = uop.add %x, %n : i32        // x + x*-1 -> 0
  %nf = uop.mul %f, %m1f : f32
  %3 = uop.add %f, %nf : f32       // must not: floats
  %4 = uop.cmplt %x, %x : i32
  %5 = uop.cmpne %x, %x : i32
  %6 = uop.cast %x : i32 to i32
  return %0, %1, %2, %3, %4, %5, %6 : i32, f32, i32, f32, i1, i1, i32
}

// -----

// Integer-only reassociation.
// CHECK-LABEL: func.func @reassociate
// CHECK-SAME: (%[[X:.*]]: i32, %[[F:.*]]: f32)
func.func @reassociate(%x: i32, %f: f32) -> (i32, f32, i32, i32) {
  %c3 = uop.const 3 : i32
  %c4 = uop.const 4 : i32
  %c5 = uop.const 5 : i32
  %c65536 = uop.const 65536 : i32
  %f1 = uop.const 1.0 : f32
  %f2 = uop.const 2.0 : f32
  // CHECK-DAG: %[[C7:.*]] = uop.const 7 : i32
  // CHECK-DAG: %[[C20:.*]] = uop.const 20 : i32
  // CHECK-DAG: %[[Z:.*]] = uop.const 0 : i32
  // CHECK-DAG: %[[A:.*]] = uop.add %[[X]], %[[C7]] : i32
  // CHECK-DAG: %[[FA:.*]] = uop.add %[[F]], %{{.*}} : f32
  // CHECK-DAG: %[[FB:.*]] = uop.add %[[FA]], %{{.*}} : f32
  // CHECK-DAG: %[[M:.*]] = uop.mul %[[X]], %[[C20]] : i32
  // CHECK: return %[[A]], %[[FB]], %[[M]], %[[Z]]
  %a = uop.add %x, %c3 : i32
  %0 = uop.add %a, %c4 : i32       // (x + 3) + 4 -> x + 7
  %fa = uop.add %f, %f1 : f32
  %1 = uop.add %fa, %f2 : f32      // must not: (x + 1.0) + 2.0 stays
  %m = uop.mul %x, %c4 : i32
  %2 = uop.mul %m, %c5 : i32       // (x * 4) * 5 -> x * 20
  %w = uop.mul %x, %c65536 : i32
  %3 = uop.mul %w, %c65536 : i32   // 65536 * 65536 wraps to 0
  return %0, %1, %2, %3 : i32, f32, i32, i32
}

// -----

// Distribution of constants over sums; constants move outward.
// CHECK-LABEL: func.func @distribute
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32, %[[F:.*]]: f32, %[[G:.*]]: f32)
func.func @distribute(%x: i32, %y: i32, %f: f32, %g: f32) -> (i32, i32, f32, i32, i32) {
  %c1 = uop.const 1 : i32
  %c3 = uop.const 3 : i32
  %f3 = uop.const 3.0 : f32
  // CHECK-DAG: %[[C1:.*]] = uop.const 1 : i32
  // CHECK-DAG: %[[C3:.*]] = uop.const 3 : i32
  // CHECK: %[[X3:.*]] = uop.mul %[[X]], %[[C3]] : i32
  // CHECK: %[[A:.*]] = uop.add %[[X3]], %[[C3]] : i32
  // CHECK: %[[Y3:.*]] = uop.mul %[[Y]], %[[C3]] : i32
  // CHECK: %[[B:.*]] = uop.add %[[X3]], %[[Y3]] : i32
  // CHECK: %[[FS:.*]] = uop.add %[[F]], %[[G]] : f32
  // CHECK: %[[FM:.*]] = uop.mul %[[FS]], %{{.*}} : f32
  // CHECK: %[[XY:.*]] = uop.add %[[X]], %[[Y]] : i32
  // CHECK: %[[D:.*]] = uop.add %[[XY]], %[[C1]] : i32
  // CHECK: return %[[A]], %[[B]], %[[FM]], %[[D]], %[[C1]]
  %a = uop.add %x, %c1 : i32
  %0 = uop.mul %a, %c3 : i32       // (x + 1) * 3 -> x*3 + 3
  %s = uop.add %x, %y : i32
  %1 = uop.mul %s, %c3 : i32       // (x + y) * 3 -> x*3 + y*3
  %fs = uop.add %f, %g : f32
  %2 = uop.mul %fs, %f3 : f32      // must not: floats
  %3 = uop.add %a, %y : i32        // (x + 1) + y -> (x + y) + 1
  %4 = uop.add %c1, %c1 : i32
  %5 = uop.floordiv %4, %4 : i32
  return %0, %1, %2, %3, %5 : i32, i32, f32, i32, i32
}

// -----

// CHECK-LABEL: func.func @combine_terms
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32)
func.func @combine_terms(%x: i32, %y: i32) -> (i32, i32, i32) {
  %c3 = uop.const 3 : i32
  %c4 = uop.const 4 : i32
  // CHECK-DAG: %[[C7:.*]] = uop.const 7 : i32
  // CHECK-DAG: %[[C4:.*]] = uop.const 4 : i32
  // CHECK-DAG: %[[C3:.*]] = uop.const 3 : i32
  // CHECK-DAG: %[[A:.*]] = uop.mul %[[X]], %[[C7]] : i32
  // CHECK-DAG: %[[B:.*]] = uop.mul %[[X]], %[[C4]] : i32
  // CHECK-DAG: %[[X3:.*]] = uop.mul %[[X]], %[[C3]] : i32
  // CHECK-DAG: %[[Y4:.*]] = uop.mul %[[Y]], %[[C4]] : i32
  // CHECK-DAG: %[[C:.*]] = uop.add %[[X3]], %[[Y4]] : i32
  // CHECK: return %[[A]], %[[B]], %[[C]]
  %x3 = uop.mul %x, %c3 : i32
  %x4 = uop.mul %x, %c4 : i32
  %0 = uop.add %x3, %x4 : i32      // x*3 + x*4 -> x*7
  %1 = uop.add %x, %x3 : i32       // x + x*3 -> x*4
  %y4 = uop.mul %y, %c4 : i32
  %2 = uop.add %x3, %y4 : i32      // must not: different x
  return %0, %1, %2 : i32, i32, i32
}

// -----

// The div/mod family.
// CHECK-LABEL: func.func @div_mod
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32)
func.func @div_mod(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32, i32, i32) {
  %c2 = uop.const 2 : i32
  %c3 = uop.const 3 : i32
  %c6 = uop.const 6 : i32
  %c7 = uop.const 7 : i32
  %m2 = uop.const -2 : i32
  %m6 = uop.const -6 : i32
  // CHECK-DAG: %[[C2:.*]] = uop.const 2 : i32
  // CHECK-DAG: %[[C3:.*]] = uop.const 3 : i32
  // CHECK-DAG: %[[C6:.*]] = uop.const 6 : i32
  // CHECK: %[[A:.*]] = uop.floordiv %[[X]], %[[C6]] : i32
  // CHECK: %[[D2:.*]] = uop.floordiv %[[X]], %{{.*}} : i32
  // CHECK: %[[B:.*]] = uop.floordiv %[[D2]], %[[C3]] : i32
  // CHECK: %[[C:.*]] = uop.floormod %[[X]], %[[C3]] : i32
  // CHECK: %[[M7:.*]] = uop.floormod %[[X]], %{{.*}} : i32
  // CHECK: %[[D:.*]] = uop.floormod %[[M7]], %[[C3]] : i32
  // CHECK: %[[X3:.*]] = uop.floordiv %[[X]], %[[C3]] : i32
  // CHECK: %[[E:.*]] = uop.floormod %[[X3]], %[[C2]] : i32
  // CHECK: %[[MM6:.*]] = uop.floormod %[[X]], %{{.*}} : i32
  // CHECK: %[[F:.*]] = uop.floordiv %[[MM6]], %[[C3]] : i32
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[F]]
  %d2 = uop.floordiv %x, %c2 : i32
  %0 = uop.floordiv %d2, %c3 : i32   // (x // 2) // 3 -> x // 6
  %dm2 = uop.floordiv %x, %m2 : i32
  %1 = uop.floordiv %dm2, %c3 : i32  // must not: a negative divisor
  %m6v = uop.floormod %x, %c6 : i32
  %2 = uop.floormod %m6v, %c3 : i32  // (x % 6) % 3 -> x % 3
  %m7v = uop.floormod %x, %c7 : i32
  %3 = uop.floormod %m7v, %c3 : i32  // must not: 3 does not divide 7
  %4 = uop.floordiv %m6v, %c3 : i32  // (x % 6) // 3 -> (x // 3) % 2
  %mm6 = uop.floormod %x, %m6 : i32
  %5 = uop.floordiv %mm6, %c3 : i32  // must not: c1 < 0 (the seed's rule is wrong there)
  return %0, %1, %2, %3, %4, %5, %5 : i32, i32, i32, i32, i32, i32, i32
}

// -----

// _div_sum: (a*c + b) // c -> a + b // c, (a*c + b) % c -> b % c.
// CHECK-LABEL: func.func @div_sum
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32)
func.func @div_sum(%x: i32, %y: i32) -> (i32, i32, i32, i32, i32) {
  %c3 = uop.const 3 : i32
  %c4 = uop.const 4 : i32
  %c6 = uop.const 6 : i32
  %c2 = uop.const 2 : i32
  // CHECK-DAG: %[[Z:.*]] = uop.const 0 : i32
  // CHECK-DAG: %[[C4:.*]] = uop.const 4 : i32
  // CHECK: %[[YD:.*]] = uop.floordiv %[[Y]], %[[C4]] : i32
  // CHECK: %[[B:.*]] = uop.add %[[X]], %[[YD]] : i32
  // CHECK: %[[C:.*]] = uop.floormod %[[Y]], %[[C4]] : i32
  // CHECK: %[[X3:.*]] = uop.mul %[[X]], %{{.*}} : i32
  // CHECK: %[[S:.*]] = uop.add %[[X3]], %[[Y]] : i32
  // CHECK: %[[D:.*]] = uop.floordiv %[[S]], %[[C4]] : i32
  // CHECK: return %[[X]], %[[B]], %[[C]], %[[D]], %[[Z]]
  %x4 = uop.mul %x, %c4 : i32
  %0 = uop.floordiv %x4, %c4 : i32   // (x*4) // 4 -> x
  %s = uop.add %x4, %y : i32
  %1 = uop.floordiv %s, %c4 : i32    // (x*4 + y) // 4 -> x + y // 4
  %2 = uop.floormod %s, %c4 : i32    // (x*4 + y) % 4 -> y % 4
  %x3 = uop.mul %x, %c3 : i32
  %t = uop.add %x3, %y : i32
  %3 = uop.floordiv %t, %c4 : i32    // must not: no term is a multiple of 4
  %x6 = uop.mul %x, %c6 : i32
  %u = uop.add %x6, %c4 : i32
  %4 = uop.floormod %u, %c2 : i32    // (x*6 + 4) % 2 -> 0
  return %0, %1, %2, %3, %4 : i32, i32, i32, i32, i32
}

// -----

// Div/mod by bounds, comparisons against constants, bounds that pin a value
// (test_w01 test_symbolic_ranges).
// CHECK-LABEL: func.func @ranges
func.func @ranges() -> (i32, i32, i32, i32, i32, i1, i1, i1, i32, i32) {
  %c4 = uop.const 4 : i32
  %c8 = uop.const 8 : i32
  %c9 = uop.const 9 : i32
  %c0 = uop.const 0 : i32
  %c3 = uop.const 3 : i32
  // CHECK-DAG: %[[Z:.*]] = uop.const 0 : i32
  // CHECK-DAG: %[[T:.*]] = uop.const true
  // CHECK-DAG: %[[F:.*]] = uop.const false
  // CHECK-DAG: %[[C8:.*]] = uop.const 8 : i32
  // CHECK-DAG: %[[I:.*]] = uop.range %{{.*}} idx 0 <loop>
  // CHECK-DAG: %[[J:.*]] = uop.range %[[C8]] idx 1 <loop>
  // CHECK-DAG: %[[K:.*]] = uop.range %{{.*}} idx 2 <loop>
  %i = uop.range %c4 idx 0 <loop>
  %j = uop.range %c8 idx 1 <loop>
  %k = uop.range %c9 idx 2 <loop>
  // CHECK: %[[I8:.*]] = uop.mul %[[I]], %[[C8]] : i32
  // CHECK: %[[FLAT:.*]] = uop.add %[[I8]], %[[J]] : i32
  %i8 = uop.mul %i, %c8 : i32
  %flat = uop.add %i8, %j : i32
  %0 = uop.floordiv %flat, %c8 : i32  // -> i
  %1 = uop.floormod %flat, %c8 : i32  // -> j
  %q8 = uop.mul %0, %c8 : i32
  %2 = uop.add %q8, %1 : i32          // (flat // 8) * 8 + flat % 8 -> flat
  %3 = uop.floordiv %j, %c8 : i32     // j in [0, 8): 0
  // CHECK: %[[KD:.*]] = uop.floordiv %[[K]], %[[C8]] : i32
  %4 = uop.floordiv %k, %c8 : i32     // must not: k may be 8
  %5 = uop.cmplt %i, %c4 : i32        // true
  %6 = uop.cmplt %i, %c0 : i32        // false
  // CHECK: %[[LT:.*]] = uop.cmplt %[[I]], %[[C3:.*]] : i32
  %7 = uop.cmplt %i, %c3 : i32        // must not: i may be 3
  %8 = uop.floormod %k, %c9 : i32     // k in [0, 9): k
  %9 = uop.floormod %k, %c8 : i32     // must not
  // CHECK: %[[KM:.*]] = uop.floormod %[[K]], %[[C8]] : i32
  // CHECK: return %[[I]], %[[J]], %[[FLAT]], %[[Z]], %[[KD]], %[[T]], %[[F]], %[[LT]], %[[K]], %[[KM]]
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i32, i32, i32, i32, i32, i1, i1, i1, i32, i32
}

// -----

// (x//c)*c + x%c -> x, also with an extra term.
// CHECK-LABEL: func.func @recombine
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32)
func.func @recombine(%x: i32, %y: i32) -> (i32, i32, i32) {
  %c3 = uop.const 3 : i32
  %c4 = uop.const 4 : i32
  %d = uop.floordiv %x, %c4 : i32
  %q = uop.mul %d, %c4 : i32
  %m = uop.floormod %x, %c4 : i32
  %0 = uop.add %q, %m : i32           // -> x
  %e = uop.add %q, %y : i32
  %1 = uop.add %m, %e : i32           // x % 4 + ((x // 4) * 4 + y) -> x + y
  %m3 = uop.floormod %x, %c3 : i32
  %2 = uop.add %q, %m3 : i32          // must not: 3 != 4
  // CHECK-DAG: %[[XY:.*]] = uop.add %[[X]], %[[Y]] : i32
  // CHECK-DAG: %[[D:.*]] = uop.floordiv %[[X]], %{{.*}} : i32
  // CHECK-DAG: %[[Q:.*]] = uop.mul %[[D]], %{{.*}} : i32
  // CHECK-DAG: %[[M3:.*]] = uop.floormod %[[X]], %{{.*}} : i32
  // CHECK-DAG: %[[R:.*]] = uop.add %[[Q]], %[[M3]] : i32
  // CHECK: return %[[X]], %[[XY]], %[[R]]
  return %0, %1, %2 : i32, i32, i32
}

// -----

// (x//c)*(c*b) + (x%c)*b -> x*b (uop's rule, not the seed's: an axis split by
// a reshape and read at the strides of the whole one), also with an extra term
// on either side.
// CHECK-LABEL: func.func @recombine_scaled
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32)
func.func @recombine_scaled(%x: i32, %y: i32) -> (i32, i32, i32, i32) {
  %c64 = uop.const 64 : i32
  %c4096 = uop.const 4096 : i32
  %c4000 = uop.const 4000 : i32
  %d = uop.floordiv %x, %c64 : i32
  %m = uop.floormod %x, %c64 : i32
  %q = uop.mul %d, %c4096 : i32
  %r = uop.mul %m, %c64 : i32
  %0 = uop.add %q, %r : i32           // -> x * 64
  %e = uop.add %q, %y : i32
  %1 = uop.add %e, %r : i32           // ((x // 64) * 4096 + y) + (x % 64) * 64 -> x*64 + y
  %f = uop.add %y, %r : i32
  %2 = uop.add %q, %f : i32           // (x // 64) * 4096 + (y + (x % 64) * 64) -> x*64 + y
  %w = uop.mul %d, %c4000 : i32
  %3 = uop.add %w, %r : i32           // must not: 4000 != 64 * 64
  // CHECK-DAG: %[[C64:.*]] = uop.const 64 : i32
  // CHECK-DAG: %[[X64:.*]] = uop.mul %[[X]], %[[C64]] : i32
  // CHECK-DAG: %[[XY:.*]] = uop.add %[[X64]], %[[Y]] : i32
  // CHECK-DAG: %[[C4000:.*]] = uop.const 4000 : i32
  // CHECK-DAG: %[[W:.*]] = uop.mul %{{.*}}, %[[C4000]] : i32
  // CHECK-DAG: %[[R:.*]] = uop.add %[[W]], %{{.*}} : i32
  // CHECK: return %[[X64]], %[[XY]], %[[XY]], %[[R]]
  return %0, %1, %2, %3 : i32, i32, i32, i32
}

// -----

// Comparisons against constants.
// CHECK-LABEL: func.func @compares
// CHECK-SAME: (%[[X:.*]]: i32)
func.func @compares(%x: i32) -> (i1, i1, i1, i1) {
  %c3 = uop.const 3 : i32
  %c4 = uop.const 4 : i32
  %c10 = uop.const 10 : i32
  %m4 = uop.const -4 : i32
  %min = uop.const -2147483648 : i32
  %max = uop.const 2147483647 : i32
  // CHECK-DAG: %[[C7:.*]] = uop.const 7 : i32
  // CHECK-DAG: %[[C3:.*]] = uop.const 3 : i32
  // CHECK: %[[A:.*]] = uop.cmplt %[[X]], %[[C7]] : i32
  // CHECK: %[[B:.*]] = uop.cmplt %[[X]], %[[C3]] : i32
  // CHECK: %[[XM:.*]] = uop.mul %[[X]], %{{.*}} : i32
  // CHECK: %[[C:.*]] = uop.cmplt %[[XM]], %{{.*}} : i32
  // CHECK: %[[XA:.*]] = uop.add %[[X]], %{{.*}} : i32
  // CHECK: %[[D:.*]] = uop.cmplt %[[XA]], %{{.*}} : i32
  // CHECK: return %[[A]], %[[B]], %[[C]], %[[D]]
  %a = uop.add %x, %c3 : i32
  %0 = uop.cmplt %a, %c10 : i32     // (x + 3) < 10 -> x < 7
  %m = uop.mul %x, %c4 : i32
  %1 = uop.cmplt %m, %c10 : i32     // x*4 < 10 -> x < ceil(10/4) = 3
  %n = uop.mul %x, %m4 : i32
  %2 = uop.cmplt %n, %c10 : i32     // must not: c1 < 0
  %b = uop.add %x, %min : i32
  %3 = uop.cmplt %b, %max : i32     // must not: c2 - c1 overflows i32
  return %0, %1, %2, %3 : i1, i1, i1, i1
}

// -----

// More cases where a rule must not fire.
// CHECK-LABEL: func.func @must_not
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32, %[[F:.*]]: f32)
func.func @must_not(%x: i32, %y: i32, %f: f32) -> (f32, i32, i32) {
  %f2 = uop.const 2.0 : f32
  %f3 = uop.const 3.0 : f32
  %c3 = uop.const 3 : i32
  %c4 = uop.const 4 : i32
  // CHECK: %[[FM:.*]] = uop.mul %[[F]], %{{.*}} : f32
  // CHECK: %[[FMM:.*]] = uop.mul %[[FM]], %{{.*}} : f32
  %fm = uop.mul %f, %f2 : f32
  %0 = uop.mul %fm, %f3 : f32        // (x * 2.0) * 3.0 stays
  // CHECK: %[[X3:.*]] = uop.mul %[[X]], %{{.*}} : i32
  // CHECK: %[[S:.*]] = uop.add %[[X3]], %[[Y]] : i32
  // CHECK: %[[M:.*]] = uop.floormod %[[S]], %{{.*}} : i32
  %x3 = uop.mul %x, %c3 : i32
  %s = uop.add %x3, %y : i32
  %1 = uop.floormod %s, %c4 : i32    // (x*3 + y) % 4: no term is a multiple of 4
  // CHECK: %[[D:.*]] = uop.floordiv %[[X]], %{{.*}} : i32
  // CHECK: %[[Q:.*]] = uop.mul %[[D]], %{{.*}} : i32
  // CHECK: %[[QY:.*]] = uop.add %[[Q]], %[[Y]] : i32
  // CHECK: %[[M3:.*]] = uop.floormod %[[X]], %{{.*}} : i32
  // CHECK: %[[R:.*]] = uop.add %[[QY]], %[[M3]] : i32
  %d = uop.floordiv %x, %c4 : i32
  %q = uop.mul %d, %c4 : i32
  %qy = uop.add %q, %y : i32
  %m3 = uop.floormod %x, %c3 : i32
  %2 = uop.add %qy, %m3 : i32        // ((x//4)*4 + y) + x%3 stays
  // CHECK: return %[[FMM]], %[[M]], %[[R]]
  return %0, %1, %2 : f32, i32, i32
}
