0// Sharing as the driver goes (the seed builds every node hash consed): %v24
// and %v25 both become (s + p4) + 16, one value before %v28 is simplified,
// so %v26 is that value times 2 and the division by 2 goes (the seed's
// result: no floordiv, each of p4..p8 once).
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
