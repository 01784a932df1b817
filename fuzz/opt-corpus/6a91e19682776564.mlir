3//
// test_deleted_reads_do_not_shift_kernel_arguments: t * 0 simplifies to 0, so
// the kernel no longer reads slot 0 (its uop.slots is [1]); the call binds
// exactly the output, not t. The host's arguments are the inputs (slot
// order) and the outputs (return order); temporaries are allocated in the
// host, or (temps-as-args) are its last arguments. The second value is the
// input buffer itself, aliased.


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
