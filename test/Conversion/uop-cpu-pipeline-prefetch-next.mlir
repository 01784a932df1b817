// RUN: uop-opt %s --uop-cpu-pipeline="fuse-reduce=true opt=hand target=haswell" | FileCheck %s
// RUN: uop-opt %s --uop-cpu-pipeline="fuse-reduce=true opt=none target=haswell" | FileCheck %s --check-prefix=NONE
// RUN: uop-opt %s --uop-kernelize="fuse-reduce=true" --uop-attach-target=target=haswell --uop-hand-opt --uop-rangeify --uop-linearize --uop-stash --uop-prefetch-next | FileCheck %s --check-prefix=LOOPS
//
// A fused softmax of 64 rows of 1024 through the CPU pipeline: uop-hand-opt
// asks for `prefetch_next = 256` (a vector unit, two row reductions, rows
// of 1024), and after uop-stash the second loop over each row (the sum of
// exp2) prefetches the next row, 16 lines a strip of 256 f32. Without opts
// nothing is prefetched.
// CHECK: llvm.func @r_64_1024
// CHECK-COUNT-16: llvm.intr.prefetch
// CHECK-NOT: llvm.intr.prefetch
// NONE-NOT: llvm.intr.prefetch
// LOOPS:      uop.opts = #uop.opts<thread = 0, stash, prefetch_next = 256>
// LOOPS:      scf.parallel
// LOOPS:        scf.for
// LOOPS-NOT:      memref.prefetch
// LOOPS:          arith.cmpf
// LOOPS:        }
// LOOPS:        scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c256_i32
// LOOPS-COUNT-16: memref.prefetch %arg0
// LOOPS:          scf.for %{{.*}} = %{{.*}} to %c256_i32{{.*}} step
// LOOPS:            math.exp2
// LOOPS:            memref.store
// LOOPS:        scf.for
// LOOPS-NOT:      memref.prefetch
// LOOPS:          memref.load %arg1
func.func @main() -> tensor<64x1024xf32> {
  %0 = uop.buffer 0 : tensor<65536xf32>
  %1 = uop.reshape %0, [64, 1024] : tensor<65536xf32>
  %2 = uop.reduce %1 <max> pop 1 : tensor<64x1024xf32>
  %3 = uop.reshape %2, [64, 1] : tensor<64xf32>
  %4 = uop.const -1.000000e+00 : f32
  %5 = uop.reshape %4, [1, 1] : f32
  %6 = uop.expand %5, [64, 1] : tensor<1x1xf32>
  %7 = uop.mul %3, %6 : tensor<64x1xf32>
  %8 = uop.expand %7, [64, 1024] : tensor<64x1xf32>
  %9 = uop.add %1, %8 : tensor<64x1024xf32>
  %14 = uop.exp2 %9 : tensor<64x1024xf32>
  %15 = uop.reduce %14 <add> pop 1 : tensor<64x1024xf32>
  %16 = uop.reshape %15, [64, 1] : tensor<64xf32>
  %17 = uop.recip %16 : tensor<64x1xf32>
  %18 = uop.expand %17, [64, 1024] : tensor<64x1xf32>
  %19 = uop.mul %14, %18 : tensor<64x1024xf32>
  return %19 : tensor<64x1024xf32>
}
