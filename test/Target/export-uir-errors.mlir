// RUN: uop-translate --export-uir %s --split-input-file --verify-diagnostics
//
// What has no .uir form is an error at the op (or value) at fault.

func.func @main(%a: i32) -> i32 {
  %c = uop.const 1 : i32
  // expected-error @+1 {{cannot export 'arith.addi' to .uir: not an op of the uop dialect}}
  %0 = arith.addi %a, %c : i32
  return %0 : i32
}

// -----

// expected-error @+1 {{a .uir param is a value, not 'memref<4xf32, #uop.addrspace<global>>'}}
func.func @main(%m: memref<4xf32, #uop.addrspace<global>>) -> f32 {
  %c = uop.const 1.0 : f32
  return %c : f32
}

// -----

// expected-error @+1 {{expected one func.func (or one named @main) to export as .uir}}
module {
  func.func @a() -> i32 {
    %0 = uop.const 1 : i32
    return %0 : i32
  }
  func.func @b() -> i32 {
    %0 = uop.const 2 : i32
    return %0 : i32
  }
}

// -----

// expected-error @+1 {{the .uir program must return exactly one value}}
func.func @main() -> (i32, i32) {
  %0 = uop.const 1 : i32
  return %0, %0 : i32, i32
}

// -----

func.func @main() -> tensor<0xf32> {
  // expected-error @+1 {{cannot export this constant to .uir (the seed has no empty or rank-0 STACK)}}
  %0 = uop.const dense<> : tensor<0xf32>
  return %0 : tensor<0xf32>
}
