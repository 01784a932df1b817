0//
// uop-symbolic shares equal subgraphs (the seed's hash consing) and rewrites
// what sharing makes simplifiable: max(m, m2) of two equal products is one
// of them only once they are one value.

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
