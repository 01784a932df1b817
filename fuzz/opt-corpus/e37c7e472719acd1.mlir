2func.func @calls() -> (i32, i32) {
  %c7 = uop.const 7 : i32
  %c3 = uop.const 3 : i32
  %0 = uop.call "sq"(%c7 : i32) {
  ^bb0(%p: i32):
    %m = uop.mul %p, %p : i32
    uop.yield %m : i32
  }
  // f(x) = sq(x + 1) + x: the inner parameter is its own scope
  %1 = uop.call "f"(%c3 : i32) {
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
  return %0, %1 : i32, i32
}
