// RUN: uop-opt %s --uop-kernelize --uop-rangeify --uop-linearize --uop-lower-host | FileCheck %s
// RUN: uop-opt %s --uop-kernelize --uop-rangeify --uop-linearize --uop-lower-host=temps-as-args | FileCheck %s --check-prefix=ARGS
//
// test_deleted_reads_do_not_shift_kernel_arguments: t * 0 simplifies to 0, so
// the kernel no longer reads slot 0 (its uop.slots is [1]); the call binds
// exactly the output, not t. The host's arguments are the inputs (slot
// order) and the outputs (return order); temporaries are allocated in the
// host, or (temps-as-args) are its last arguments. The second value is the
// input buffer itself, aliased.

// CHECK-LABEL: func.func private @e_3(%{{.*}}: memref<3xi32>) attributes {{{.*}}uop.slots = array<i64: 1>}
// CHECK-LABEL: func.func private @r_1(
// CHECK-SAME:    uop.slots = array<i64: 0, 1>
// CHECK-LABEL: func.func private @e_1(
// CHECK-SAME:    uop.slots = array<i64: 0, 1>
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[T:[a-z0-9]+]]: memref<3xi32>, %[[OUT:[a-z0-9]+]]: memref<3xi32>, %[[OUT2:[a-z0-9]+]]: memref<1xi32>)
// CHECK-SAME:    uop.host_args = array<i64: 0, 1, 1>
// CHECK-SAME:    uop.host_results = array<i64: 1, 0, 2>
// CHECK-SAME:    uop.host_slots = array<i64: 0, -1, -1>
// CHECK-NEXT:    %[[TMP:.*]] = memref.alloc() : memref<1xi32>
// CHECK-NEXT:    call @e_3(%[[OUT]]) : (memref<3xi32>) -> ()
// CHECK-NEXT:    call @r_1(%[[T]], %[[TMP]])
// CHECK-NEXT:    call @e_1(%[[TMP]], %[[OUT2]])
// CHECK-NEXT:    memref.dealloc %[[TMP]]
// CHECK-NEXT:    return

// ARGS-LABEL: func.func @main(
// ARGS-SAME:    %[[T:[a-z0-9]+]]: memref<3xi32>, %[[OUT:[a-z0-9]+]]: memref<3xi32>, %[[OUT2:[a-z0-9]+]]: memref<1xi32>, %[[TMP:[a-z0-9]+]]: memref<1xi32>)
// ARGS-SAME:    uop.host_args = array<i64: 0, 1, 1, 2>
// ARGS-SAME:    uop.host_slots = array<i64: 0, -1, -1, -1>
// ARGS-NEXT:    call @e_3(%[[OUT]]) : (memref<3xi32>) -> ()
// ARGS-NEXT:    call @r_1(%[[T]], %[[TMP]])
// ARGS-NEXT:    call @e_1(%[[TMP]], %[[OUT2]])
// ARGS-NEXT:    return
func.func @main() -> (tensor<3xi32>, tensor<3xi32>, i32) {
  %t = uop.buffer 0 : tensor<3xi32>
  %z = uop.const 0 : i32
  %z1 = uop.reshape %z, [1] : i32
  %ze = uop.expand %z1, [3] : tensor<1xi32>
  %o = uop.mul %t, %ze : tensor<3xi32>
  %s = uop.reduce %t <add> pop 1 : tensor<3xi32>
  %one = uop.const 1 : i32
  %s1 = uop.add %s, %one : i32
  return %o, %t, %s1 : tensor<3xi32>, tensor<3xi32>, i32
}
