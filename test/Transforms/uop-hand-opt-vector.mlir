// RUN: uop-opt %s --split-input-file --uop-attach-target=target=haswell --uop-hand-opt | FileCheck %s --check-prefix=AVX2
// RUN: uop-opt %s --split-input-file --uop-attach-target=target=skylake-avx512 --uop-hand-opt | FileCheck %s --check-prefix=AVX512
// RUN: uop-opt %s --split-input-file --uop-attach-target='target={#uop.target<cpu, triple = "x86_64-unknown-linux-gnu", cpu = "haswell", vector_bits = 256, vector_registers = 32>}' --uop-hand-opt | FileCheck %s --check-prefix=REGS32
// RUN: not uop-opt %s --split-input-file --uop-attach-target='target={#uop.target<cpu, triple = "x86_64-unknown-linux-gnu", cpu = "haswell", vector_bits = 100>}' --uop-hand-opt 2>&1 | FileCheck %s --check-prefix=BAD
//
// uop-hand-opt sized for a vector unit: a reducing kernel whose last output
// axis is a multiple of two vectors of f32 gets a register tile of `vector`
// lanes on that axis and upcast rows on the one before: of 2, 4, 8 and the
// most that leave 4 registers for the operands (6 on AVX2), the count that
// loads B the fewest times per FMA up to 12 accumulators, less what a
// ragged last tile (the
// count does not divide the rows or their block) computes twice; a tie goes
// to a count that divides, a stashing kernel gets none that does not.
// Otherwise (one output axis, no lanes that
// divide the last one) the seed's own choice. A gemm-shaped kernel (each
// output element its own reduction) has its columns tiled by the lanes
// (one panel of uop-layout's packed B per block) and its rows in blocks: the
// largest power of two from 16 to 256 that divides them at least twice; a
// row reduction broadcast back over the row is not tiled. Row reductions
// (each reduction of the last axis, reading rows contiguously) at least a
// tile's lanes long get no upcast at all (LLVM vectorizes their loops along
// the row), and a fused one (two or more reductions) with rows of 1024 or
// more prefetches the next row (`prefetch_next = 256`). A threaded copy
// is threaded over the axis that walks its source's rows.
// BAD: target vector_bits 100 must be 0, 128, 256 or 512

// A 64^3 gemm.
// AVX2-LABEL: func.func private @r_64_64
// AVX2-SAME:    uop.opts = #uop.opts<upcast = {0: 6}, thread = 0, tile = {0: 32, 1: 16}, vector = 16>
// AVX512-LABEL: func.func private @r_64_64
// AVX512-SAME:    uop.opts = #uop.opts<upcast = {0: 8}, thread = 0, tile = {0: 32, 1: 32}, vector = 32>
// REGS32-LABEL: func.func private @r_64_64
// REGS32-SAME:    uop.opts = #uop.opts<upcast = {0: 8}, thread = 0, tile = {0: 32, 1: 16}, vector = 16>
func.func private @r_64_64() -> tensor<64x64xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<4096xf32>
  %b = uop.buffer 1 : tensor<4096xf32>
  %a2 = uop.reshape %a, [64, 1, 64] : tensor<4096xf32>
  %ae = uop.expand %a2, [64, 64, 64] : tensor<64x1x64xf32>
  %b2 = uop.reshape %b, [64, 64] : tensor<4096xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<64x64xf32>
  %b3 = uop.reshape %bt, [1, 64, 64] : tensor<64x64xf32>
  %be = uop.expand %b3, [64, 64, 64] : tensor<1x64x64xf32>
  %m = uop.mul %ae, %be : tensor<64x64x64xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<64x64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

// 784 rows (16 x 49) of one panel's width: row blocks of 16, the largest
// power of two that divides them; no column tile (one block).
// AVX2-LABEL: func.func private @r_784_16
// AVX2-SAME:    uop.opts = #uop.opts<upcast = {0: 6}, thread = 0, tile = {0: 16}, vector = 16>
func.func private @r_784_16() -> tensor<784x16xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<6272xf32>
  %b = uop.buffer 1 : tensor<128xf32>
  %a2 = uop.reshape %a, [784, 1, 8] : tensor<6272xf32>
  %ae = uop.expand %a2, [784, 16, 8] : tensor<784x1x8xf32>
  %b2 = uop.reshape %b, [8, 16] : tensor<128xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<8x16xf32>
  %b3 = uop.reshape %bt, [1, 16, 8] : tensor<16x8xf32>
  %be = uop.expand %b3, [784, 16, 8] : tensor<1x16x8xf32>
  %m = uop.mul %ae, %be : tensor<784x16x8xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<784x16x8xf32>
  return %c : tensor<784x16xf32>
}

// -----

// uop-layout's pack of B's panels (a copy through a view): threaded over
// the axis that walks B's rows (K, stride 128), four rows an iteration,
// not over the panels (the seed's first axis of two or more).
// AVX2-LABEL: func.func private @e_1_8_1024_16
// AVX2-SAME:    uop.opts = #uop.opts<upcast = {2: 4}, thread = 2>
// AVX512-LABEL: func.func private @e_1_8_1024_16
// AVX512-SAME:    uop.opts = #uop.opts<upcast = {2: 4}, thread = 2>
func.func private @e_1_8_1024_16() -> tensor<1x8x1024x16xf32> attributes {uop.kernel} {
  %b = uop.buffer 0 : tensor<131072xf32>
  %b2 = uop.reshape %b, [1024, 128] : tensor<131072xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<1024x128xf32>
  %b3 = uop.reshape %bt, [1, 8, 16, 1024] : tensor<128x1024xf32>
  %p = uop.permute %b3, [0, 1, 3, 2] : tensor<1x8x16x1024xf32>
  return %p : tensor<1x8x1024x16xf32>
}

// -----

// A last axis of 48 (no multiple of 32 lanes): the seed's 4x4 for AVX-512
// (the rows by 2, within its budget of 16); AVX2's 6 rows, as many as the axis.
// AVX2-LABEL: func.func private @r_6_48
// AVX2-SAME:    uop.opts = #uop.opts<upcast = {0: 6}, tile = {1: 16}, vector = 16>
// AVX512-LABEL: func.func private @r_6_48
// AVX512-SAME:    uop.opts = #uop.opts<upcast = {0: 2, 1: 4}>
func.func private @r_6_48() -> tensor<6x48xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<2304xf32>
  %r = uop.reshape %a, [6, 48, 8] : tensor<2304xf32>
  %c = uop.reduce %r <add> pop 1 : tensor<6x48x8xf32>
  return %c : tensor<6x48xf32>
}

// -----

// 100 rows of a gemm (no block: 100 is no multiple of 16 twice): ragged
// tiles, 6 rows on AVX2 (17 tiles, 102 rows), 8 on AVX-512 (13 tiles; 12
// rows would compute 108).
// AVX2-LABEL: func.func private @r_100_32
// AVX2-SAME:    uop.opts = #uop.opts<upcast = {0: 6}, thread = 0, tile = {1: 16}, vector = 16>
// AVX512-LABEL: func.func private @r_100_32
// AVX512-SAME:    uop.opts = #uop.opts<upcast = {0: 8}, thread = 0, vector = 32>
func.func private @r_100_32() -> tensor<100x32xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<6400xf32>
  %b = uop.buffer 1 : tensor<2048xf32>
  %a2 = uop.reshape %a, [100, 1, 64] : tensor<6400xf32>
  %ae = uop.expand %a2, [100, 32, 64] : tensor<100x1x64xf32>
  %b2 = uop.reshape %b, [64, 32] : tensor<2048xf32>
  %bt = uop.permute %b2, [1, 0] : tensor<64x32xf32>
  %b3 = uop.reshape %bt, [1, 32, 64] : tensor<32x64xf32>
  %be = uop.expand %b3, [100, 32, 64] : tensor<1x32x64xf32>
  %m = uop.mul %ae, %be : tensor<100x32x64xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<100x32x64xf32>
  return %c : tensor<100x32xf32>
}

// -----

// Nothing reduces: no register tile.
// AVX2-LABEL: func.func private @e_256_256
// AVX2-SAME:    uop.opts = #uop.opts<thread = 0>
func.func private @e_256_256() -> tensor<256x256xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<65536xf32>
  %r = uop.reshape %a, [256, 256] : tensor<65536xf32>
  %e = uop.exp2 %r : tensor<256x256xf32>
  return %e : tensor<256x256xf32>
}

// -----

// Row sums of rows shorter than the lanes (one output axis): the seed's
// upcast, no lanes.
// AVX2-LABEL: func.func private @r_512
// AVX2-SAME:    uop.opts = #uop.opts<upcast = {0: 4}>
func.func private @r_512() -> tensor<512xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<2048xf32>
  %r = uop.reshape %a, [512, 4] : tensor<2048xf32>
  %c = uop.reduce %r <add> pop 1 : tensor<512x4xf32>
  return %c : tensor<512xf32>
}

// -----

// A 1024^2-output gemm (B already in panels): rows in blocks of 256 too.
// AVX2-LABEL: func.func private @r_1024_1024
// AVX2-SAME:    uop.opts = #uop.opts<upcast = {0: 6}, thread = 0, tile = {0: 256, 1: 16}, vector = 16>
func.func private @r_1024_1024() -> tensor<1024x1024xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<1048576xf32>
  %b = uop.buffer 1 : tensor<1048576xf32>
  %a2 = uop.reshape %a, [1024, 1, 1024] : tensor<1048576xf32>
  %ae = uop.expand %a2, [1024, 1024, 1024] : tensor<1024x1x1024xf32>
  %b2 = uop.reshape %b, [1, 1024, 1024] : tensor<1048576xf32>
  %be = uop.expand %b2, [1024, 1024, 1024] : tensor<1x1024x1024xf32>
  %m = uop.mul %ae, %be : tensor<1024x1024x1024xf32>
  %c = uop.reduce %m <add> pop 1 : tensor<1024x1024x1024xf32>
  return %c : tensor<1024x1024xf32>
}

// -----

// Softmax's numerator in one kernel (--fuse-reduce): a row reduction (the
// row max, broadcast back over the row): threads over the rows, no upcast,
// no lanes, no tiles (each column block would redo the row's max).
// AVX2-LABEL: func.func private @r_64_256
// AVX2-SAME:    uop.opts = #uop.opts<thread = 0>
// AVX512-LABEL: func.func private @r_64_256
// AVX512-SAME:    uop.opts = #uop.opts<thread = 0>
func.func private @r_64_256() -> tensor<64x256xf32> attributes {uop.kernel} {
  %a = uop.buffer 0 : tensor<16384xf32>
  %x = uop.reshape %a, [64, 256] : tensor<16384xf32>
  %m = uop.reduce %x <max> pop 1 : tensor<64x256xf32>
  %m2 = uop.reshape %m, [64, 1] : tensor<64xf32>
  %me = uop.expand %m2, [64, 256] : tensor<64x1xf32>
  %d = uop.add %x, %me : tensor<64x256xf32>
  %e = uop.exp2 %d : tensor<64x256xf32>
  return %e : tensor<64x256xf32>
}

// -----

// Fused softmax: the exp2 feeds the row sum and, not through it, the stored
// value, so uop-linearize's two loops would each compute it: `stash`.
// AVX2-LABEL: func.func private @softmax_8_64
// AVX2-SAME:    uop.opts = #uop.opts<stash>
func.func private @softmax_8_64() -> tensor<8x64xf32> attributes {uop.kernel} {
  %0 = uop.buffer 0 : tensor<512xf32>
  %1 = uop.reshape %0, [8, 64] : tensor<512xf32>
  %2 = uop.reduce %1 <max> pop 1 : tensor<8x64xf32>
  %3 = uop.reshape %2, [8, 1] : tensor<8xf32>
  %4 = uop.expand %3, [8, 64] : tensor<8x1xf32>
  %5 = uop.const -1.000000e+00 : f32
  %6 = uop.reshape %5, [1, 1] : f32
  %8 = uop.expand %6, [8, 64] : tensor<1x1xf32>
  %9 = uop.mul %4, %8 : tensor<8x64xf32>
  %10 = uop.add %1, %9 : tensor<8x64xf32>
  %15 = uop.exp2 %10 : tensor<8x64xf32>
  %16 = uop.reduce %15 <add> pop 1 : tensor<8x64xf32>
  %17 = uop.reshape %16, [8, 1] : tensor<8xf32>
  %18 = uop.expand %17, [8, 64] : tensor<8x1xf32>
  %19 = uop.recip %18 : tensor<8x64xf32>
  %20 = uop.mul %15, %19 : tensor<8x64xf32>
  return %20 : tensor<8x64xf32>
}

// -----

// Fused layernorm's sqrt comes after its reductions (and the centred row is
// no transcendental); a row sum of exp2 stores only the sum; log-softmax's
// exp2 feeds only the sum: no `stash`.
// AVX2-LABEL: func.func private @layernorm_8_64
// AVX2-SAME:    uop.opts = #uop.opts<>
// AVX2-LABEL: func.func private @sumexp_8
// AVX2-SAME:    uop.opts = #uop.opts<>
// AVX2-LABEL: func.func private @logsoftmax_8_64
// AVX2-SAME:    uop.opts = #uop.opts<>
func.func private @layernorm_8_64() -> tensor<8x64xf32> attributes {uop.kernel} {
  %0 = uop.buffer 0 : tensor<512xf32>
  %1 = uop.reshape %0, [8, 64] : tensor<512xf32>
  %2 = uop.reduce %1 <add> pop 1 : tensor<8x64xf32>
  %3 = uop.reshape %2, [8, 1] : tensor<8xf32>
  %4 = uop.expand %3, [8, 64] : tensor<8x1xf32>
  %5 = uop.add %1, %4 : tensor<8x64xf32>
  %6 = uop.mul %5, %5 : tensor<8x64xf32>
  %7 = uop.reduce %6 <add> pop 1 : tensor<8x64xf32>
  %8 = uop.reshape %7, [8, 1] : tensor<8xf32>
  %9 = uop.expand %8, [8, 64] : tensor<8x1xf32>
  %10 = uop.sqrt %9 : tensor<8x64xf32>
  %11 = uop.mul %5, %10 : tensor<8x64xf32>
  return %11 : tensor<8x64xf32>
}
func.func private @sumexp_8() -> tensor<8xf32> attributes {uop.kernel} {
  %0 = uop.buffer 0 : tensor<512xf32>
  %1 = uop.reshape %0, [8, 64] : tensor<512xf32>
  %2 = uop.exp2 %1 : tensor<8x64xf32>
  %3 = uop.reduce %2 <add> pop 1 : tensor<8x64xf32>
  return %3 : tensor<8xf32>
}
func.func private @logsoftmax_8_64() -> tensor<8x64xf32> attributes {uop.kernel} {
  %0 = uop.buffer 0 : tensor<512xf32>
  %1 = uop.reshape %0, [8, 64] : tensor<512xf32>
  %2 = uop.exp2 %1 : tensor<8x64xf32>
  %3 = uop.reduce %2 <add> pop 1 : tensor<8x64xf32>
  %4 = uop.log2 %3 : tensor<8xf32>
  %5 = uop.reshape %4, [8, 1] : tensor<8xf32>
  %6 = uop.expand %5, [8, 64] : tensor<8x1xf32>
  %7 = uop.add %1, %6 : tensor<8x64xf32>
  return %7 : tensor<8x64xf32>
}

// -----

// Fused softmax with rows of 1024: each row is walked by the max's loop
// (from memory) and again by the sum's (in cache), so the second fetches
// the next row (`prefetch_next`); threads over the rows, no upcast.
// AVX2-LABEL: func.func private @softmax_64_1024
// AVX2-SAME:    uop.opts = #uop.opts<thread = 0, stash, prefetch_next = 256>
// AVX512-LABEL: func.func private @softmax_64_1024
// AVX512-SAME:    uop.opts = #uop.opts<thread = 0, stash, prefetch_next = 256>
func.func private @softmax_64_1024() -> tensor<64x1024xf32> attributes {uop.kernel} {
  %0 = uop.buffer 0 : tensor<65536xf32>
  %1 = uop.reshape %0, [64, 1024] : tensor<65536xf32>
  %2 = uop.reduce %1 <max> pop 1 : tensor<64x1024xf32>
  %3 = uop.reshape %2, [64, 1] : tensor<64xf32>
  %4 = uop.expand %3, [64, 1024] : tensor<64x1xf32>
  %5 = uop.const -1.000000e+00 : f32
  %6 = uop.reshape %5, [1, 1] : f32
  %8 = uop.expand %6, [64, 1024] : tensor<1x1xf32>
  %9 = uop.mul %4, %8 : tensor<64x1024xf32>
  %10 = uop.add %1, %9 : tensor<64x1024xf32>
  %15 = uop.exp2 %10 : tensor<64x1024xf32>
  %16 = uop.reduce %15 <add> pop 1 : tensor<64x1024xf32>
  %17 = uop.reshape %16, [64, 1] : tensor<64xf32>
  %18 = uop.expand %17, [64, 1024] : tensor<64x1xf32>
  %19 = uop.recip %18 : tensor<64x1024xf32>
  %20 = uop.mul %15, %19 : tensor<64x1024xf32>
  return %20 : tensor<64x1024xf32>
}

// -----

// The same softmax down the columns (x read through a permute: the
// reduced axis is 1024 elements apart in memory) is no row reduction: it
// keeps the register tile, whose vector lanes walk the rows contiguously.
// AVX2-LABEL: func.func private @softmax_cols
// AVX2-SAME:    uop.opts = #uop.opts<upcast = {0: 4}, thread = 0, vector = 16, stash>
func.func private @softmax_cols() -> tensor<1024x64xf32> attributes {uop.kernel} {
  %0 = uop.buffer 0 : tensor<65536xf32>
  %r = uop.reshape %0, [64, 1024] : tensor<65536xf32>
  %1 = uop.permute %r, [1, 0] : tensor<64x1024xf32>
  %2 = uop.reduce %1 <max> pop 1 : tensor<1024x64xf32>
  %3 = uop.reshape %2, [1024, 1] : tensor<1024xf32>
  %4 = uop.expand %3, [1024, 64] : tensor<1024x1xf32>
  %5 = uop.const -1.000000e+00 : f32
  %6 = uop.reshape %5, [1, 1] : f32
  %8 = uop.expand %6, [1024, 64] : tensor<1x1xf32>
  %9 = uop.mul %4, %8 : tensor<1024x64xf32>
  %10 = uop.add %1, %9 : tensor<1024x64xf32>
  %15 = uop.exp2 %10 : tensor<1024x64xf32>
  %16 = uop.reduce %15 <add> pop 1 : tensor<1024x64xf32>
  %17 = uop.reshape %16, [1024, 1] : tensor<1024xf32>
  %18 = uop.expand %17, [1024, 64] : tensor<1024x1xf32>
  %19 = uop.recip %18 : tensor<1024x64xf32>
  %20 = uop.mul %15, %19 : tensor<1024x64xf32>
  return %20 : tensor<1024x64xf32>
}
