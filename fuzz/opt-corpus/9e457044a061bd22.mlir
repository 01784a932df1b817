2//
// The seed hash-conses UOps: building the same node twice gives the same
// object. In MLIR, CSE gives that sharing (test_w01 test_hash_consing), while
// 1, 1.0, true, 0.0 and -0.0 stay distinct constants.

func.func @hash_consing() -> (i32, i32) {
  %a1 = uop.const 1 : i32
  %a2 = uop.const 2 : i32
  %a = uop.add %a1, %a2 : i32
  %b1 = uop.const 1 : i32
  %b2 = uop.const 2 : i32
  %b = uop.add %b1, %b2 : i32
  return %a, %b : i32, i32
}

func.func @distinct_constants() -> (i32, f32, i1, f32, f32, f16) {
  %0 = uop.const 1 : i32
  %1 = uop.const 1.0 : f32
  %2 = uop.const true
  %3 = uop.const 0.0 : f32
  %4 = uop.const -0.0 : f32
  %5 = uop.const 1.0 : f16
  return %0, %1, %2, %3, %4, %5 : i32, f32, i1, f32, f32, f16
}

// Structurally equal calls merge; memory effects do not (two stores stay).
func.func @calls_and_stores(%i: i32, %v: f32) -> (i32, i32, !uop.void, !uop.void) {
  %c7 = uop.const 7 : i32
  %0 = uop.call "sq"(%c7 : i32) {
  ^bb0(%x: i32):
    %1 = uop.mul %x, %x : i32
    uop.yield %1 : i32
  }
  %2 = uop.call "sq"(%c7 : i32) {
  ^bb0(%x: i32):
    %3 = uop.mul %x, %x : i32
    uop.yield %3 : i32
  }
  %b = uop.buffer 0 : memref<4xf32, #uop.addrspace<global>>
  %p = uop.index %b[%i] : memref<4xf32, #uop.addrspace<global>>
  %s0 = uop.store %p, %v : !uop.ptr<f32, global>
  %s1 = uop.store %p, %v : !uop.ptr<f32, global>
  return %0, %2, %s0, %s1 : i32, i32, !uop.void, !uop.void
}
