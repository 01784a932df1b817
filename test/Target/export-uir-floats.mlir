// RUN: uop-translate --export-uir %s --split-input-file | FileCheck %s
//
// Floats print as the shortest decimal that reads back to the same value of
// the constant's type, in Python's repr style (fixed notation for decimal
// exponents in [-4, 16), `.0` on integral values, else 1e-05 / 1e+16).
// (Checked against numpy's shortest float32/float16 repr on 6000 random bit
// patterns while writing this test.)

// CHECK: sink 0.1, 0.3, 2.0, -0.0, 0.0, 1e-05, 0.0001, 0.00011, 1e+16, 1000000000000000.0, 123456.7, 16777216.0, 3.4028235e+38, 1e-45, 1.1754944e-38, inf, -inf, nan, 1234567.0, -2.5, 3.1415927
func.func @main() -> !uop.void {
  %0 = uop.const 0.1 : f32
  %1 = uop.const 0.3 : f32
  %2 = uop.const 2.0 : f32
  %3 = uop.const -0.0 : f32
  %4 = uop.const 0.0 : f32
  %5 = uop.const 1.0e-05 : f32
  %6 = uop.const 1.0e-04 : f32
  %7 = uop.const 1.1e-04 : f32
  %8 = uop.const 1.0e16 : f32
  %9 = uop.const 1.0e15 : f32
  %10 = uop.const 123456.7 : f32
  %11 = uop.const 16777216.0 : f32
  %12 = uop.const 0x7F7FFFFF : f32
  %13 = uop.const 0x00000001 : f32
  %14 = uop.const 0x00800000 : f32
  %15 = uop.const 0x7F800000 : f32
  %16 = uop.const 0xFF800000 : f32
  %17 = uop.const 0x7FC00000 : f32
  %18 = uop.const 1234567.0 : f32
  %19 = uop.const -2.5 : f32
  %20 = uop.const 3.14159265 : f32
  %s = uop.sink(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20 : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
  return %s : !uop.void
}

// -----

// f16 constants (the seed's CAST of an f32 CONST) print at f16 precision.
// CHECK: %0 = cast 0.1 : dtype=f16
// CHECK-NEXT: %1 = cast 65500.0 : dtype=f16
// CHECK-NEXT: %2 = cast 6e-08 : dtype=f16
// CHECK-NEXT: %3 = cast 0.333 : dtype=f16
// CHECK-NEXT: %4 = cast 0.0001 : dtype=f16
// CHECK-NEXT: %5 = sink %0, %1, %2, %3, %4
func.func @main() -> !uop.void {
  %0 = uop.const 0.1 : f16
  %1 = uop.const 65504.0 : f16
  %2 = uop.const 0x0001 : f16
  %3 = uop.const 0.333 : f16
  %4 = uop.const 1.0e-04 : f16
  %s = uop.sink(%0, %1, %2, %3, %4 : f16, f16, f16, f16, f16)
  return %s : !uop.void
}
