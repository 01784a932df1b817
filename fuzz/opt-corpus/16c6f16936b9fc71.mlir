3// Inference must not trip over memory outside the uop address spaces.
func.func @index_plain_memref(%m: memref<4xf32>, %i: i32) {
  %0 = uop.index %m[%i] : memref<4xf32>
  return
}
