2// CALL needs params 0..n-1 (test_call_type_checks: param(0) + param(1) called
// with one argument).
func.func @call_param_count() -> i32 {
  %c1 = uop.const 1 : i32
  %0 = uop.call "f"(%c1 : i32) {
  ^bb0(%p0: i32, %p1: i32):
    %1 = uop.add %p0, %p1 : i32
    uop.yield %1 : i32
  }
  return %0 : i32
}
