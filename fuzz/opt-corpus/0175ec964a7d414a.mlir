3//
// One case per rule of the seed's `_infer` (uopc/uop.py), plus the checks the
// MLIR encoding adds (address spaces, slots, parameters as block arguments).

// BUFFER is flat.
func.func @buffer_not_flat() {
  %0 = uop.buffer 0 : tensor<2x3xf32>
  return
}
