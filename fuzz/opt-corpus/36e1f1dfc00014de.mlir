5// A graph whose END closes a loop that is not the innermost open one can't
// be scheduled.
func.func @unschedulable() -> !uop.void {
  %c4 = uop.const 4 : i32
  %one = uop.const 1.0 : f32
  %out = uop.buffer 0 : memref<16xf32, #uop.addrspace<global>>
  %i = uop.range %c4 idx 0 <loop>
  %j = uop.range %c4 idx 1 <loop>
  %ij = uop.add %i, %j : i32
  %p = uop.index %out[%ij] : memref<16xf32, #uop.addrspace<global>>
  %s = uop.store %p, %one : !uop.ptr<f32, global>
  %e = uop.end %s, %i : !uop.void
  %e2 = uop.end %e, %j : !uop.void
  %k = uop.sink(%e2 : !uop.void)
  return %k : !uop.void
}
