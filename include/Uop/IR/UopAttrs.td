//===- UopAttrs.td - uop attributes and enums --------------*- tablegen -*-===//

#ifndef UOP_IR_UOPATTRS_TD
#define UOP_IR_UOPATTRS_TD

include "Uop/IR/UopDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

class Uop_I32Enum<string name, string desc, list<I32EnumAttrCase> cases>
    : I32EnumAttr<name, desc, cases> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::uop";
}

class Uop_EnumAttr<Uop_I32Enum info, string mnemonic>
    : EnumAttr<Uop_Dialect, info, mnemonic> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Address spaces
//===----------------------------------------------------------------------===//

def Uop_AddressSpace : Uop_I32Enum<"AddressSpace", "memory address space", [
    I32EnumAttrCase<"Global", 0, "global">,
    I32EnumAttrCase<"Local", 1, "local">,
    I32EnumAttrCase<"Shared", 2, "shared">]> {
  let description = [{
    Where memory lives: `global` is device memory passed to a kernel as an
    argument (`uop.buffer`), `local` is per-thread call-scope storage
    (`float acc[4];`), `shared` is GPU workgroup shared memory.
  }];
}

def Uop_AddressSpaceAttr : Uop_EnumAttr<Uop_AddressSpace, "addrspace"> {
  let summary = "address space of a uop memref or pointer";
  let description = [{
    The memory space of the 1-D memrefs that `uop.buffer` and `uop.alloc`
    yield, e.g. `memref<16xf32, #uop.addrspace<local>>`.
  }];
}

//===----------------------------------------------------------------------===//
// Range kinds
//===----------------------------------------------------------------------===//

def Uop_AxisKind : Uop_I32Enum<"AxisKind", "range kind", [
    I32EnumAttrCase<"Loop", 0, "loop">,
    I32EnumAttrCase<"Reduce", 1, "reduce">,
    I32EnumAttrCase<"Upcast", 2, "upcast">,
    I32EnumAttrCase<"Thread", 3, "thread">,
    I32EnumAttrCase<"Global", 4, "global">,
    I32EnumAttrCase<"Local", 5, "local">]> {
  let description = [{
    How a `uop.range` runs: `loop` a serial loop, `reduce` a loop a reduction
    accumulates over, `upcast` fully unrolled, `thread` parallel over CPU
    threads, `global` GPU blocks (blockIdx), `local` GPU threads (threadIdx).
  }];
}

def Uop_AxisKindAttr : Uop_EnumAttr<Uop_AxisKind, "axis"> {
  let summary = "the kind of a uop.range";
  let description = [{ `#uop.axis<loop|reduce|upcast|thread|global|local>`. }];
}

//===----------------------------------------------------------------------===//
// Reduce kinds
//===----------------------------------------------------------------------===//

def Uop_ReduceKind : Uop_I32Enum<"ReduceKind", "reduction operator", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Max", 1, "max">]> {
  let description = [{ The binary operator a `uop.reduce` folds with. }];
}

def Uop_ReduceKindAttr : Uop_EnumAttr<Uop_ReduceKind, "reduce"> {
  let summary = "the operator of a uop.reduce";
  let description = [{ `#uop.reduce<add|max>`. }];
}

//===----------------------------------------------------------------------===//
// Tensor-core shapes
//===----------------------------------------------------------------------===//

def Uop_MmaAttr : AttrDef<Uop_Dialect, "Mma"> {
  let mnemonic = "mma";
  let summary = "a matrix-multiply-accumulate shape a GPU's tensor cores have";
  let description = [{
    One tensor-core instruction: `m x k` times `k x n` elements of type `a`
    (both operands) accumulated into `m x n` of type `c`. `warpgroup` marks
    Hopper's warpgroup MMA (`wgmma`, four warps, operands from shared memory)
    instead of a warp's `mma.sync`.

    ```mlir
    #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>
    #uop.mma<m = 64, n = 256, k = 16, a = f16, c = f32, warpgroup = true>
    ```
  }];
  let parameters = (ins "int64_t":$m, "int64_t":$n, "int64_t":$k, "Type":$a, "Type":$c,
                        DefaultValuedParameter<"bool", "false">:$warpgroup);
  let assemblyFormat = "`<` struct(params) `>`";
}

//===----------------------------------------------------------------------===//
// Kernel optimization options
//===----------------------------------------------------------------------===//

def Uop_OptsAttr : AttrDef<Uop_Dialect, "Opts"> {
  let mnemonic = "opts";
  let summary = "how a kernel is mapped onto the machine (the seed's Opts)";
  let description = [{
    Chosen by `uop-hand-opt` or the search, applied by `uop-rangeify`. Every
    field is optional; an empty `#uop.opts<>` is the default mapping.

    * `upcast = {axis: factor, ...}`: output axes unrolled into registers.
      On the CPU a factor that does not divide its axis (or the axis's
      `tile`) is ragged: ceil(size / factor) iterations, the copies of the
      last one clamped to the last index, where they recompute its value and
      store it again (the seed drops such a factor). Not in a kernel that
      reads back its output (`stash`, a reduce tile): there the axis is not
      upcast, as in the seed. On the GPU the factor must divide.
    * `thread = axis`: the output axis run in parallel (OpenMP).
    * `unroll = n`: unroll factor of the innermost reduce axis (default 1).
    * `tile = {axis: size, ...}`: cache blocking of output axes. On the
      axis after the output's (a kernel whose value is one reduction of
      one axis, as a gemm), the reduction runs in blocks of `size` terms:
      the block loop is outermost, and each block continues every output
      element's reduction from what the block before stored in the output
      (the terms of an element are combined in the same order).
    * `gpu`: output axes become GLOBAL (blockIdx) ranges.
    * `local = {axis: threads, ...}`: threads per block on an axis (LOCAL).
    * `merge = {axis: count, ...}`: with `gpu`, the blocks of `count`
      adjacent output axes from `axis` on are one GLOBAL range (one grid
      dimension) over the product of their block counts; each axis's block
      index is recovered from it by floordiv and floormod (simplified by the
      symbolic rules). The strategy merges axes when a kernel has more
      non-trivial axes than the grid has dimensions (3), or when an axis
      other than the last group has more blocks than a grid's y and z take
      (the target's max_grid). Every other axis is a grid dimension of its
      own, as in the seed.
    * `vector = lanes`: on the CPU, the serial loop directly around a
      kernel's innermost loop that walks some float load contiguously while
      the inner loop strides it (gemm's output column loop around its reduce
      loop) becomes `lanes` vector lanes (uop-linearize: unrolled and jammed
      into `vector<lanes x T>` values, each lane its own accumulator, so the
      reduce order of every element is unchanged). With `upcast` on another
      axis this is a register tile: upcast rows x `lanes` columns of vector
      accumulators, the loads of both operands shared across the tile.
      A loop stays serial where the lanes could change a result: a store
      that does not move with the lanes (or moves with a loop inside them),
      two stores whose elements two lanes could share, a read of memory the
      loop stores to at another element than it stores. A loop program's
      per-thread arrays may take the lanes' stores under the same rules.
      Default 1: no vector lanes.
    * `prefetch = d`: in the innermost sequential (reduce) loop of a GPU
      kernel, each global load that touches a new cache line every iteration
      (a stride of at least 128 bytes: gemm's B[k*N + j]) is prefetched `d`
      iterations ahead into L1 (`nvvm.prefetch`; `uop-prefetch` applies it
      after uop-linearize). It hides the latency of the L2 miss that each
      such load has, which a kernel without shared-memory staging otherwise
      waits for. Default 0: none.
    * `stash`: on the CPU, a value that a kernel's reduce loop computes and
      its store loop computes again (fused softmax's `exp2(x - max)`, in
      the sum and in the output) is stored into the output by the reduce
      loop and read back by the store loop instead of recomputed
      (`uop-stash` applies it after uop-linearize). It is the same value,
      so results are unchanged. uop-hand-opt sets it where a
      transcendental feeds both a fused reduction and the stored value.
    * `tc = #uop.mma<...>`: with `gpu`, a GEMM-shaped kernel (a reduce-add
      of the product of two loads: `mlir::uop::matchGemm`) runs on the
      tensor cores with this instruction shape (one of the cuda target's
      `mma`; the model is tinygrad's `TC` opt). The other fields then count
      in units of that instruction: `local = {0: wm, 1: wn}` the warps of a
      block along M and N, `upcast = {0: tm, 1: tn}` the instruction tiles
      each warp computes along M and N (registers), `unroll = u` the
      instruction steps along K of one shared-memory stage: a block computes
      a (wm*tm*m) x (wn*tn*n) tile of the output, reading K in steps of
      u*k. `uop-lower-gemm` applies it (`nvgpu.ldmatrix` and
      `nvgpu.mma.sync`, the operand tiles staged through shared memory).
    * `stages = s`: with `gpu`, a GEMM-shaped kernel's operand tiles are
      staged through shared memory in `s` buffers (2 to 4) filled by
      asynchronous copies (`nvgpu.device_async_copy`): while the block
      computes on one stage, the copies of the next s-1 are in flight. With
      `tc` the tiles are the tensor cores'; without, the fp32 register tile
      of `upcast` and `local` (threads) reads its operands from the staged
      tiles. Default 0: no staging.
    * `prefetch_next = S`: on the CPU, in a loop over rows that reads each
      row of a buffer in two or more loops (fused softmax and layernorm:
      the first brings the row from memory, the later ones compute on it in
      cache), the second of them prefetches the next row, S elements at a
      time, while it computes (`uop-prefetch-next` applies it after
      uop-linearize and uop-stash). uop-hand-opt sets it for a fused
      kernel with two or more long row reductions. Default 0: none.

    ```mlir
    #uop.opts<upcast = {0: 4, 1: 4}, unroll = 4, thread = 0>
    #uop.opts<upcast = {0: 4}, thread = 0, vector = 16>
    #uop.opts<gpu, local = {0: 16, 1: 16}>
    #uop.opts<upcast = {0: 16, 1: 8}, gpu, local = {0: 8, 1: 16}, prefetch = 8>
    #uop.opts<gpu, local = {5: 16}, merge = {0: 2, 2: 3}>
    #uop.opts<upcast = {0: 4}, thread = 0, stash>
    #uop.opts<thread = 0, stash, prefetch_next = 256>
    #uop.opts<upcast = {0: 4, 1: 8}, unroll = 2, gpu, local = {0: 2, 1: 2}, stages = 3,
              tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>
    ```
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t", "axis/factor pairs">:$upcast,
    "int64_t":$thread,
    "int64_t":$unroll,
    ArrayRefParameter<"int64_t", "axis/size pairs">:$tile,
    "bool":$gpu,
    ArrayRefParameter<"int64_t", "axis/threads pairs">:$local,
    DefaultValuedParameter<"int64_t", "1">:$vector,
    DefaultValuedParameter<"int64_t", "0">:$prefetch,
    DefaultValuedParameter<"bool", "false">:$stash,
    DefaultValuedParameter<"int64_t", "0">:$prefetchNext,
    OptionalArrayRefParameter<"int64_t", "axis/count pairs">:$merge,
    DefaultValuedParameter<"int64_t", "0">:$stages,
    OptionalParameter<"MmaAttr">:$tc);
  let builders = [
    // The seed's fields, no vector lanes.
    AttrBuilder<(ins "ArrayRef<int64_t>":$upcast, "int64_t":$thread, "int64_t":$unroll,
                     "ArrayRef<int64_t>":$tile, "bool":$gpu, "ArrayRef<int64_t>":$local), [{
      return $_get($_ctxt, upcast, thread, unroll, tile, gpu, local, int64_t(1), int64_t(0), false,
                  int64_t(0), ArrayRef<int64_t>(), int64_t(0), MmaAttr());
    }]>,
    // The seed's fields and vector lanes, no prefetch.
    AttrBuilder<(ins "ArrayRef<int64_t>":$upcast, "int64_t":$thread, "int64_t":$unroll,
                     "ArrayRef<int64_t>":$tile, "bool":$gpu, "ArrayRef<int64_t>":$local,
                     "int64_t":$vector), [{
      return $_get($_ctxt, upcast, thread, unroll, tile, gpu, local, vector, int64_t(0), false,
                  int64_t(0), ArrayRef<int64_t>(), int64_t(0), MmaAttr());
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether an output axis is run in parallel (thread is -1 when none).
    bool hasThread() const { return getThread() >= 0; }
  }];
}

//===----------------------------------------------------------------------===//
// Target description
//===----------------------------------------------------------------------===//

def Uop_TargetKind : Uop_I32Enum<"TargetKind", "the kind of machine a target describes", [
    I32EnumAttrCase<"CPU", 0, "cpu">,
    I32EnumAttrCase<"CUDA", 1, "cuda">]> {
  let description = [{ `cpu`: native code through LLVM; `cuda`: PTX for an NVIDIA GPU. }];
}

def Uop_TargetAttr : AttrDef<Uop_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "the machine a module is compiled for";
  let description = [{
    One description of the machine, attached to the module as `uop.target`
    (by `uop-attach-target`, the pipelines' `target=` option, or the
    execution engine). Every strategy pass (uop-hand-opt, the search,
    uop-kernelize's panel width) and every lowering that depends on the
    machine (cache lines, GPU limits, LLVM's CPU and features) reads it and
    nothing else, so a module pinned to a target compiles the same on any
    host. Only the drivers detect the host, and only when the user names no
    target (`mlir::uop::detectHostTarget`).

    A `cpu` target has the LLVM `triple`, the `cpu` name LLVM knows
    (`znver5`, `skylake-avx512`, `x86-64-v3`), its `features` (LLVM's,
    `+avx2,+fma,...`), the `vector_bits` of its widest vector registers the
    code may use (0: no register tiles) and how many there are
    (`vector_registers`), the `cache_line` and cache sizes `l1`, `l2`, `l3`
    in bytes (0: unknown) and the hardware `threads` (0: unknown).

    A `cuda` target has the `chip` (`sm_90`), its PTX `features`
    (`+ptx80`), the `warp` size, `max_threads` per block, the per-dimension
    limits `max_block` and `max_grid`, `shared_memory` a block may declare
    statically and `shared_memory_optin` it may use with the opt-in, the
    32-bit `registers` of a block, `multiprocessors`, the `cache_line` of
    L1/L2, `local_memory` a thread may use, and the tensor-core shapes `mma`.

    Fields at their default (empty, 0) are not printed; the parser takes
    them in any order. Spelled by name where a tool takes a target: `host`,
    a CPU name, or a chip (`mlir::uop::parseTarget`).

    ```mlir
    module attributes {uop.target = #uop.target<cpu, triple = "x86_64-unknown-linux-gnu",
        cpu = "znver5", features = "+avx2,+avx512f,+fma", vector_bits = 512,
        vector_registers = 32, cache_line = 64, l1 = 49152, l2 = 1048576, threads = 2>} {}
    #uop.target<cuda, chip = "sm_90", features = "+ptx80", warp = 32, max_threads = 1024,
        max_block = [1024, 1024, 64], max_grid = [2147483647, 65535, 65535],
        shared_memory = 49152, shared_memory_optin = 232448, registers = 65536,
        multiprocessors = 132, cache_line = 128, local_memory = 524288,
        mma = [#uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>]>
    ```
  }];
  let parameters = (ins
    EnumParameter<Uop_TargetKind>:$kind,
    // cpu
    StringRefParameter<"LLVM target triple", "\"\"">:$triple,
    StringRefParameter<"LLVM CPU name", "\"\"">:$cpu,
    // cpu and cuda (LLVM's CPU features; the PTX version)
    StringRefParameter<"LLVM target features", "\"\"">:$features,
    DefaultValuedParameter<"int64_t", "0">:$vectorBits,
    DefaultValuedParameter<"int64_t", "0">:$vectorRegisters,
    DefaultValuedParameter<"int64_t", "0">:$cacheLine,
    DefaultValuedParameter<"int64_t", "0">:$l1,
    DefaultValuedParameter<"int64_t", "0">:$l2,
    DefaultValuedParameter<"int64_t", "0">:$l3,
    DefaultValuedParameter<"int64_t", "0">:$threads,
    // cuda
    StringRefParameter<"GPU architecture", "\"\"">:$chip,
    DefaultValuedParameter<"int64_t", "0">:$warp,
    DefaultValuedParameter<"int64_t", "0">:$maxThreads,
    OptionalArrayRefParameter<"int64_t">:$maxBlock,
    OptionalArrayRefParameter<"int64_t">:$maxGrid,
    DefaultValuedParameter<"int64_t", "0">:$sharedMemory,
    DefaultValuedParameter<"int64_t", "0">:$sharedMemoryOptin,
    DefaultValuedParameter<"int64_t", "0">:$registers,
    DefaultValuedParameter<"int64_t", "0">:$multiprocessors,
    DefaultValuedParameter<"int64_t", "0">:$localMemory,
    OptionalArrayRefParameter<"MmaAttr">:$mma);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isCPU() const { return getKind() == TargetKind::CPU; }
    bool isCUDA() const { return getKind() == TargetKind::CUDA; }
    /// f32 lanes of a register tile's row on a CPU: two vectors (0: none).
    int64_t getTileLanes() const { return 2 * getVectorBits() / 32; }
    /// The features, without their `+` (LLVM's names).
    SmallVector<StringRef> getFeatureList() const;
    /// Whether the target has the feature `name` (LLVM's name, no `+`).
    bool hasFeature(StringRef name) const;
  }];
}

#endif // UOP_IR_UOPATTRS_TD
