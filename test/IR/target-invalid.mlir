// RUN: uop-opt %s -split-input-file -verify-diagnostics
//
// What #uop.target's parser and verifier reject, one case each.

// expected-error @+1 {{unknown target kind 'tpu' (expected cpu or cuda)}}
module attributes {uop.target = #uop.target<tpu>} {}

// -----

// expected-error @+1 {{a cpu target needs a triple and a cpu}}
module attributes {uop.target = #uop.target<cpu, cpu = "znver5">} {}

// -----

// expected-error @+1 {{target vector_bits 100 must be 0, 128, 256 or 512}}
module attributes {uop.target = #uop.target<cpu, triple = "x86_64-unknown-linux-gnu", cpu = "znver5", vector_bits = 100>} {}

// -----

// expected-error @+1 {{target cache_line 48 must be a power of two in [16, 1024] bytes}}
module attributes {uop.target = #uop.target<cpu, triple = "x86_64-unknown-linux-gnu", cpu = "znver5", cache_line = 48>} {}

// -----

// expected-error @+1 {{target feature 'avx2' must start with + or -}}
module attributes {uop.target = #uop.target<cpu, triple = "x86_64-unknown-linux-gnu", cpu = "znver5", features = "avx2">} {}

// -----

// expected-error @+1 {{a cpu target has no 'warp'}}
module attributes {uop.target = #uop.target<cpu, triple = "x86_64-unknown-linux-gnu", cpu = "znver5", warp = 32>} {}

// -----

// expected-error @+1 {{target threads -1 must be >= 0}}
module attributes {uop.target = #uop.target<cpu, triple = "x86_64-unknown-linux-gnu", cpu = "znver5", threads = -1>} {}

// -----

// expected-error @+1 {{a cuda target needs a chip sm_NN (e.g. sm_90), got 'gfx90a'}}
module attributes {uop.target = #uop.target<cuda, chip = "gfx90a", warp = 32, max_threads = 1024>} {}

// -----

// expected-error @+1 {{a cuda target has no 'vector_bits'}}
module attributes {uop.target = #uop.target<cuda, chip = "sm_90", warp = 32, max_threads = 1024, max_block = [1, 1, 1], max_grid = [1, 1, 1], vector_bits = 256>} {}

// -----

// expected-error @+1 {{target max_grid must be three sizes >= 1}}
module attributes {uop.target = #uop.target<cuda, chip = "sm_90", warp = 32, max_threads = 1024, max_block = [1024, 1024, 64], max_grid = [65535, 65535]>} {}

// -----

// expected-error @+1 {{duplicate target field 'cpu'}}
module attributes {uop.target = #uop.target<cpu, cpu = "a", cpu = "b">} {}

// -----

// expected-error @+1 {{unknown target field 'vector'}}
module attributes {uop.target = #uop.target<cpu, vector = 8>} {}

// -----

// expected-error @+1 {{expected a #uop.mma<...>}}
module attributes {uop.target = #uop.target<cuda, chip = "sm_90", mma = [1 : i64]>} {}

// -----

// expected-error @+1 {{'uop.target' must be a #uop.target<...>, got "znver5"}}
module attributes {uop.target = "znver5"} {}

// -----

// expected-error @+1 {{a cpu target has no 'mma'}}
module attributes {uop.target = #uop.target<cpu, triple = "x86_64-unknown-linux-gnu", cpu = "znver5", mma = [#uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>]>} {}

// -----

module {
  // expected-error @+1 {{'uop.target' belongs on a builtin.module (the machine it is compiled for)}}
  func.func @f() attributes {uop.target = #uop.target<cpu, triple = "x86_64-unknown-linux-gnu", cpu = "znver5">} {
    return
  }
}
