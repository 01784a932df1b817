0//
// Constant folding with exec_alu's exact semantics (test_w01
// test_const_fold_semantics, test_folding_matches_c_semantics,
// test_cast_inf_to_int_is_not_folded): i32 wraps, floor division and
// modulo, f32/f16 results rounded to their type, what C leaves undefined is
// left for run time, and exec_alu's special cases.

func.func @i32_wraps() -> (i32, i32, i32) {
  %max = uop.const 2147483647 : i32
  %one = uop.const 1 : i32
  %big = uop.const 65536 : i32
  %m1 = uop.const -1 : i32
  %min = uop.const -2147483648 : i32
  %0 = uop.add %max, %one : i32
  %1 = uop.mul %big, %big : i32
  %2 = uop.mul %min, %m1 : i32
  return %0, %1, %2 : i32, i32, i32
}
