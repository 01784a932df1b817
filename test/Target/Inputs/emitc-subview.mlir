// A memref view: uop's kernels index flat buffers; C path has no form of it.
func.func @main(%a: memref<16xf32>) attributes {uop.kernel} {
  %c0 = arith.constant 0 : index
  // (line 5)
  %v = memref.subview %a[4] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 4>>
  %x = memref.load %v[%c0] : memref<8xf32, strided<[1], offset: 4>>
  memref.store %x, %a[%c0] : memref<16xf32>
  return
}
