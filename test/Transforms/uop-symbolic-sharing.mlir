// RUN: uop-opt %s -uop-symbolic -split-input-file | FileCheck %s
//
// uop-symbolic shares equal subgraphs (the seed's hash consing) and rewrites
// what sharing makes simplifiable: max(m, m2) of two equal products is one
// of them only once they are one value.

// CHECK-LABEL: func.func @share_then_rewrite
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32)
// CHECK-DAG: %[[C1:.*]] = uop.const 1 : i32
// CHECK-DAG: %[[C2:.*]] = uop.const 2 : i32
// CHECK-DAG: %[[XM:.*]] = uop.mul %[[X]], %[[C2]] : i32
// CHECK-DAG: %[[YM:.*]] = uop.mul %[[Y]], %[[C2]] : i32
// CHECK: %[[M:.*]] = uop.add %[[XM]], %[[YM]] : i32
// CHECK: %[[S:.*]] = uop.add %[[X]], %[[M]] : i32
// CHECK: %[[T:.*]] = uop.add %[[S]], %[[C1]] : i32
// CHECK-NOT: uop.max
// CHECK: return %[[T]], %[[M]], %[[M]]
func.func @share_then_rewrite(%x: i32, %y: i32) -> (i32, i32, i32) {
  %c4 = uop.const 4 : i32
  %c2 = uop.const 2 : i32
  %a = uop.mul %x, %c4 : i32
  %b = uop.add %a, %c4 : i32
  %q = uop.floordiv %b, %c4 : i32   // x + 1
  %p = uop.add %x, %y : i32
  %p2 = uop.add %x, %y : i32
  %m = uop.mul %p, %c2 : i32        // x*2 + y*2
  %m2 = uop.mul %p2, %c2 : i32      // the same, once shared
  %s = uop.max %m, %m2 : i32
  %t = uop.add %q, %s : i32
  return %t, %m, %m2 : i32, i32, i32
}

// -----

// Equal constants are one constant; dead ops go.
// CHECK-LABEL: func.func @constants_and_dead
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK: %[[C3:.*]] = uop.const 3 : i32
// CHECK-NOT: uop.const
// CHECK: %[[A:.*]] = uop.mul %[[X]], %[[C3]] : i32
// CHECK-NEXT: return %[[A]], %[[A]]
func.func @constants_and_dead(%x: i32) -> (i32, i32) {
  %c3 = uop.const 3 : i32
  %d3 = uop.const 3 : i32
  %dead = uop.add %x, %d3 : i32
  %a = uop.mul %x, %c3 : i32
  %b = uop.mul %x, %d3 : i32
  return %a, %b : i32, i32
}

// -----

// The seed hash-conses `x + y` and `y + x` as two nodes (its rules move only
// constants in commutative ops), so they stay two values and `a + b` is not
// `a + a -> a * 2`; equal operands in the same order are shared.
// CHECK-LABEL: func.func @commutative_in_order
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32)
// CHECK: %[[A:.*]] = uop.add %[[X]], %[[Y]] : i32
// CHECK: %[[B:.*]] = uop.add %[[Y]], %[[X]] : i32
// CHECK: %[[S:.*]] = uop.add %[[A]], %[[B]] : i32
// CHECK: %[[M:.*]] = uop.mul %[[X]], %[[Y]] : i32
// CHECK: %[[T:.*]] = uop.mul %[[M]], %[[M]] : i32
// CHECK: return %[[S]], %[[T]]
func.func @commutative_in_order(%x: i32, %y: i32) -> (i32, i32) {
  %a = uop.add %x, %y : i32
  %b = uop.add %y, %x : i32
  %s = uop.add %a, %b : i32
  %m = uop.mul %x, %y : i32
  %m2 = uop.mul %x, %y : i32
  %t = uop.mul %m, %m2 : i32
  return %s, %t : i32, i32
}

// -----

// Sharing as the driver goes (the seed builds every node hash consed): %v24
// and %v25 both become (s + p4) + 16, one value before %v28 is simplified,
// so %v26 is that value times 2 and the division by 2 goes (the seed's
// result: no floordiv, each of p4..p8 once).
// CHECK-LABEL: func.func @share_before_parent
// CHECK-NOT: uop.floordiv
// CHECK-COUNT-1: %arg4
// CHECK: return
func.func @share_before_parent(%p2: i32, %p3: i32, %p4: i32, %p5: i32, %p6: i32, %p7: i32, %p8: i32, %p9: i32, %p10: i32, %p11: i32, %p12: i32, %p13: i32) -> i32 {
  %c1 = uop.const 1 : i32
  %v9 = uop.add %p13, %c1 : i32
  %v11 = uop.add %v9, %p12 : i32
  %v12 = uop.add %p11, %v11 : i32
  %c8 = uop.const 8 : i32
  %v14 = uop.mul %v12, %c8 : i32
  %v15 = uop.add %p10, %v14 : i32
  %v17 = uop.add %v15, %p9 : i32
  %v18 = uop.add %v17, %v17 : i32
  %v19 = uop.add %p8, %v18 : i32
  %v21 = uop.add %v19, %p7 : i32
  %v22 = uop.add %p6, %v21 : i32
  %v23 = uop.add %p5, %v22 : i32
  %v24 = uop.add %p4, %v23 : i32
  %v25 = uop.add %v23, %p4 : i32
  %v26 = uop.add %v24, %v25 : i32
  %c2 = uop.const 2 : i32
  %v28 = uop.floordiv %v26, %c2 : i32
  %v30 = uop.add %v28, %p3 : i32
  %v31 = uop.mul %p2, %v30 : i32
  return %v31 : i32
}
