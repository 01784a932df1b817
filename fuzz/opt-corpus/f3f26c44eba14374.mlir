1//
// The seed's inline_call: bodies replace calls, parameters replaced by the
// arguments; nested calls are their own scope (test_w01
// test_inline_call_does_not_enter_nested_bodies). Nothing else is rewritten.

func.func @nested(%x: i32) -> i32 {
  %c3 = uop.const 3 : i32
  %0 = uop.call "f"(%c3 : i32) {
  ^bb0(%p: i32):
    %one = uop.const 1 : i32
    %a = uop.add %p, %one : i32
    %s = uop.call "sq"(%a : i32) {
    ^bb0(%q: i32):
      %m = uop.mul %q, %q : i32
      uop.yield %m : i32
    }
    %r = uop.add %s, %p : i32
    uop.yield %r : i32
  }
  return %0 : i32
}
