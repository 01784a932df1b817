5// Division by a positive constant of a provably non-negative value is plain
// C division (render_c's rule), when the bounds of the uop ops are known.
func.func @plain_div() -> !uop.void {
  %c8 = uop.const 8 : i32
  %c4 = uop.const 4 : i32
  %O = uop.buffer 0 : memref<8xi32, #uop.addrspace<global>>
  %i = uop.range %c8 idx 0 <loop>
  %d = uop.floordiv %i, %c4 : i32
  %m = uop.floormod %i, %c4 : i32
  %s = uop.add %d, %m : i32
  %p = uop.index %O[%i] : memref<8xi32, #uop.addrspace<global>>
  %st = uop.store %p, %s : !uop.ptr<i32, global>
  %e = uop.end %st, %i : !uop.void
  %k = uop.sink(%e : !uop.void)
  return %k : !uop.void
}
