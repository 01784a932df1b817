// RUN: not uop-opt %s -uop-to-emitc=cuda=true 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR --implicit-check-not=error:

// An op with no CUDA C form is an error at the op.
module attributes {gpu.container_module} {
  gpu.module @uop_kernels {
    gpu.func @tf32(%a: vector<4x1xf32>, %b: vector<2x1xf32>, %c: vector<2x2xf32>, %out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      // ERR: uop-to-emitc-nvgpu-errors.mlir:[[@LINE+1]]:12: error: failed to legalize operation 'nvgpu.mma.sync'
      %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
      %e = vector.extract %d[0, 0] : f32 from vector<2x2xf32>
      memref.store %e, %out[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
