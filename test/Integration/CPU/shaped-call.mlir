// A shaped program with a uop.call runs: the pipeline inlines calls before kernelizing.
// RUN: uop-run %s --print | FileCheck %s
// CHECK: 49.0
func.func @main() -> f32 {
  %c7 = uop.const 7.0 : f32
  %y = uop.call "sq"(%c7 : f32) {
  ^bb0(%x: f32):
    %m = uop.mul %x, %x : f32
    uop.yield %m : f32
  }
  return %y : f32
}
