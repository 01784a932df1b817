// RUN: uop-opt %s -uop-inline-calls -split-input-file | FileCheck %s
//
// The seed's inline_call: bodies replace calls, parameters replaced by the
// arguments; nested calls are their own scope (test_w01
// test_inline_call_does_not_enter_nested_bodies). Nothing else is rewritten.

// CHECK-LABEL: func.func @nested
// CHECK-SAME: (%[[X:.*]]: i32)
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
  // CHECK: %[[C3:.*]] = uop.const 3 : i32
  // CHECK: %[[ONE:.*]] = uop.const 1 : i32
  // CHECK: %[[A:.*]] = uop.add %[[C3]], %[[ONE]] : i32
  // CHECK: %[[M:.*]] = uop.mul %[[A]], %[[A]] : i32
  // CHECK: %[[R:.*]] = uop.add %[[M]], %[[C3]] : i32
  // CHECK-NOT: uop.call
  // CHECK: return %[[R]]
  return %0 : i32
}

// -----

// A body that yields its parameter yields the argument.
// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[X:.*]]: i32)
func.func @identity(%x: i32) -> i32 {
  %0 = uop.call "id"(%x : i32) {
  ^bb0(%p: i32):
    uop.yield %p : i32
  }
  // CHECK-NEXT: return %[[X]]
  return %0 : i32
}
