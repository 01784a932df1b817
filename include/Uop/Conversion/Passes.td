//===- Passes.td - uop conversion passes -------------------*- tablegen -*-===//

#ifndef UOP_CONVERSION_PASSES_TD
#define UOP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def UopLinearizePass : Pass<"uop-linearize", "::mlir::func::FuncOp"> {
  let summary = "Schedule a kernel graph (L2) into scf loops over memrefs (L3)";
  let description = [{
    The seed's `linearize` + `render_c`, as an MLIR lowering. A kernel graph
    is a function whose body is a uop DAG rooted at a `uop.sink` of stores:
    `uop.buffer`s, `uop.alloc`s, `uop.range`/`uop.end` loops whose scopes are
    implied by data dependencies, and scalar ALU ops.

    Scopes are computed as in the seed (`scope(range r) = scope(end) | {r}`,
    `end` removes its ranges, loops nest in increasing `idx`, and each scope
    is closed under "encloses"), then the graph is list-scheduled: emit what
    belongs to the open loops, else open the loop that pending nodes need
    next (a sibling loop whose `end` another sibling reads goes first), else
    close the innermost loop. So code that does not depend on an inner loop
    is emitted outside it, and each `uop.alloc` is declared in the deepest
    scope shared by its users (one accumulator per thread).

    The result is a function over `scf`, `memref`, `arith` and `math`:

    * each `uop.buffer` becomes a function argument `memref<N x T>`, in slot
      order (the `uop.slots` attribute lists the slots);
    * `loop`/`reduce`/`upcast` ranges become `scf.for`, `thread` ranges
      `scf.parallel` (OpenMP later), `global`/`local` ranges `scf.for` (the
      seed's GPU emulation);
    * `floordiv`/`floormod` have floor semantics (plain division only where
      the dividend is provably non-negative and the divisor a positive
      constant), casts C semantics, `max` is C's `(a > b) ? a : b`;
    * float adds/muls/maxes that accumulate into an `alloc` get
      `fastmath<reassoc, contract>` (the seed's `-fassociative-math`: sums
      may be reordered, not factored; no `nsz`, with which LLVM would turn
      sum(c * b[j]) into c * sum(b[j]) and lose a NaN), everything else
      stays IEEE.

    A range that is never ended, or a graph that cannot be scheduled, is an
    error at the op at fault.

    With `gpu=true` (the GPU path, `uop-cuda-pipeline`) the kernel keeps its
    GPU structure for `uop-to-gpu`, with the seed's CUDA renderer's meaning:

    * each `global`/`local` range becomes a one-dimensional `scf.parallel`
      from 0 to its end (a constant `index` where the end is constant) with
      the upstream mapping attribute of `gpu-map-parallel-loops`
      (`mapping = [#gpu.loop_dim_map<processor = block_x, ...>]`) and the
      range's kind (`uop.axis = #uop.axis<global>`). Per kind, the ranges
      sorted by `idx`, highest first, get `x`, `y`, `z` (the fastest-varying
      axis is `.x`, so neighbouring threads touch neighbouring memory); a
      fourth range of a kind is mapped `sequential`, which `uop-to-gpu`
      rejects;
    * `shared` allocs become `memref.alloca`s at the function entry in
      `#gpu.address_space<workgroup>` (uop-to-gpu makes them workgroup
      attributions of the `gpu.func`);
    * `uop.barrier` becomes `gpu.barrier`;
    * `thread` ranges (CPU threads) become serial `scf.for` loops, and loops
      are not unrolled and jammed for the CPU's SLP vectorizer.

    Without it (the CPU path), `global`/`local` ranges are loops and a
    barrier is an error.

    With `checks=true` (the default) every memory index (loads, stores,
    gathers of buffers and allocs) and every i32 divisor that the bounds
    analysis cannot prove safe gets a run-time check: index in
    `[0, elements)`, divisor not 0, not `INT_MIN / -1` (or `%`). Affine
    indices over ranges, as uop-rangeify makes them, are proven and carry no
    check. A check that fails records (check id, value, bound) in the
    kernel's check record, an extra last argument `memref<4xi32>` (words:
    failures, id + 1, value, bound; the first failure wins), and the access
    is made safe (index 0, divisor 1), so that the run ends and the runtime
    reports the failure. Inside vector lanes (`#uop.opts<vector = W>`) an
    unproven index (a vector of lane indices, or affine in the lanes) and a
    vector divisor are checked in every lane: a vector compare, and
    `vector.reduction <or>` branches to the record, which names the first
    failing lane's value and bound; each failing lane gets index 0 or
    divisor 1 before the access or the division (an affine access stays one
    vector access, from 0, where the lanes' span fits the memory). Proven
    indices are proven in every lane (the analysis runs on the uop graph)
    and carry no check there either. The kernel's `uop.checks` attribute
    lists its checks by id: `{kind = "index" | "axis" | "div-zero" |
    "mod-zero" | "div-overflow" | "mod-overflow", loc = <the op's
    location>}`. A `uop.check_index` (uop-rangeify's, one per axis of a
    value-level gather that the analysis cannot prove) is an "axis" check:
    the index in `[0, size)` of its axis, 0 when it fails.

    ```mlir
    // before: C[i] = A[i] + 1.0 for i < 16
    %r = uop.range %c16 idx 0 <loop>
    ...
    %e = uop.end %st, %r : !uop.void
    // after
    scf.for %iv = %c0 to %c16 step %c1 { ... memref.store ... }
    ```
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::gpu::GPUDialect"];
  let options = [
    Option<"gpu", "gpu", "bool", /*default=*/"false",
           "Keep GLOBAL/LOCAL ranges as GPU-mapped scf.parallel loops, shared "
           "allocs as workgroup memory and barriers as gpu.barrier (for "
           "uop-to-gpu)">,
    Option<"emulateBarriers", "emulate-barriers", "bool", /*default=*/"false",
           "Linearize a kernel that has barriers as with gpu=true, for "
           "uop-emulate-gpu to run on the CPU (other kernels as on the CPU)">,
    Option<"checks", "checks", "bool", /*default=*/"true",
           "Check indices and divisors the bounds analysis cannot prove safe "
           "at run time, in every lane of a vector (an error record as the "
           "kernel's last argument)">];
}

def UopAttachNVVMTargetPass : Pass<"uop-attach-nvvm-target", "::mlir::ModuleOp"> {
  let summary = "Give each gpu.module the #nvvm.target of the module's cuda #uop.target";
  let description = [{
    Upstream's `nvvm-attach-target` takes the chip as a pass option, fixed
    when the pipeline is built; uop's pipelines decide the machine at run
    time (`uop-attach-target`). This pass reads the module's cuda
    `#uop.target` (or the default, sm_90) and attaches
    `#nvvm.target<O = opt-level, chip = ..., features = ...>` to every
    `gpu.module`, which `gpu-module-to-binary` then compiles.

    ```mlir
    module attributes {uop.target = #uop.target<cuda, chip = "sm_80", features = "+ptx70", ...>} {
      gpu.module @uop_kernels [#nvvm.target<O = 3, chip = "sm_80", features = "+ptx70">] { ... }
    }
    ```
  }];
  let options = [
    Option<"optLevel", "O", "unsigned", /*default=*/"3", "LLVM optimization level (0-3)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "PTX features instead of the target's (e.g. +ptx70)">];
  let dependentDialects = ["::mlir::uop::UopDialect", "::mlir::NVVM::NVVMDialect", "::mlir::gpu::GPUDialect"];
}

def UopDynamicSharedToNVVMPass : Pass<"uop-dynamic-shared-to-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make the dynamic shared memory of GPU kernels an extern .shared array (after convert-gpu-to-nvvm)";
  let description = [{
    `convert-gpu-to-nvvm` lowers `gpu.dynamic_shared_memory` to an internal
    zero-sized global in address space 3, which the NVPTX backend prints as
    a one-byte static shared variable: the kernel then declares one byte of
    static shared memory and addresses past it. This pass gives each such
    global (`__dynamic_shmem__*`, `!llvm.array<0 x i8>`) external linkage,
    so that it is PTX's `.extern .shared .align A .b8 name[];`, the block's
    dynamic shared memory itself, aligned to 1024 bytes (what TMA's 128-byte
    swizzle and wgmma's shared-memory descriptors need).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def UopTensorMapsToNVVMPass : Pass<"uop-tensor-maps-to-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make the tensor-map placeholders of warpgroup GEMM kernels kernel parameters (after convert-gpu-to-nvvm)";
  let description = [{
    uop-lower-gemm's warpgroup kernels (Hopper's wgmma fed by TMA) read
    their operands through tensor maps (CUtensorMap) that the runtime encodes
    on the host (cuTensorMapEncodeTiled) and passes as pointers to device
    memory, after the launch's buffers. Until the kernel is an `llvm.func`
    each map is a placeholder, a `builtin.unrealized_conversion_cast` of no
    operands to `!nvgpu.tensormap.descriptor` tagged `uop.tma = i`
    (gpu.launch_func checks a `gpu.func`'s parameters against its operands,
    which have no such values). In a `gpu.module` after
    `convert-gpu-to-nvvm` this pass appends one `!llvm.ptr` parameter per
    map to each kernel that has them, in the order of their `i`, and
    replaces each placeholder (and the casts convert-nvgpu-to-nvvm put after
    it) by its parameter: a `.param .u64` after the buffers in the PTX.
    A placeholder used otherwise is an error.

    ```mlir
    %tm = builtin.unrealized_conversion_cast to !nvgpu.tensormap.descriptor<...> {uop.tma = 0 : i64}
    %p = builtin.unrealized_conversion_cast %tm : !nvgpu.tensormap.descriptor<...> to !llvm.ptr
    // -> %p is the kernel's new last parameter
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def UopPrefetchToNVVMPass : Pass<"uop-prefetch-to-nvvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower llvm.intr.prefetch in GPU kernels to nvvm.prefetch (PTX prefetch.global.L1)";
  let description = [{
    MemRef's lowering turns `memref.prefetch` into `llvm.intr.prefetch`,
    which the NVPTX backend drops without a trace. In a `gpu.module` after
    `convert-gpu-to-nvvm`, this pass replaces each one by an address space
    cast of its pointer to global memory (kernel buffers are global) and
    `nvvm.prefetch level = L1` (write prefetches and prefetches for the
    instruction cache are dropped: PTX has no such hint).
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def UopRangeifyPass : Pass<"uop-rangeify", "::mlir::func::FuncOp"> {
  let summary = "Lower a shaped program (L1) to a kernel graph (L2) storing its value";
  let description = [{
    The seed's `rangeify.lower`: every output axis gets a `uop.range`, and
    each node is asked for its scalar value at an index, which is pushed down
    the graph: a buffer becomes a load of an index, ALU ops apply to their
    sources' values, `reshape` ravels and unravels the index, `expand` pins
    size-1 axes to 0, `permute` permutes it back, `shrink` offsets it, a
    `stack` becomes a chain of `where`s, and a `reduce` an accumulator
    (`uop.alloc`) updated in new `reduce` ranges (nested reduces too). The
    value is stored element by element into a new output buffer whose slot is
    one past the program's last buffer slot (attributes `uop.output_slot`,
    `uop.output_shape`); a multi-output kernel of `uop-kernelize` (several
    values of one shape) stores its values at each index into the slots
    after it, in order. Then the kernel is simplified (fold + symbolic rules).

    A `#uop.opts` attribute on the function (key `uop.opts`) maps the kernel
    onto the machine as the seed's `Opts` do: `upcast` unrolls output axes
    into copies (their ENDs merged over a SINK), `unroll` the innermost reduce
    axis (a balanced tree), `thread` makes an output axis the outermost,
    parallel range, `tile` blocks output axes for the cache, `gpu` and
    `local` give output axes GLOBAL and LOCAL ranges.

    Functions made by `uop-kernelize` are lowered one kernel each; its host
    function (`uop.host`) is left for `uop-lower-host`. Run on a program that
    was not kernelized, `uop.stage` is computed inline, as the seed's
    rangeify does without a kernelizer.

    ```mlir
    // before: %0 = uop.mul %a, %b : tensor<4xf32>; return %0
    // after:  %r = uop.range %c4 idx 0 <loop>, loads of %a[%r] and %b[%r],
    //         a store into uop.buffer 2, uop.end, uop.sink
    ```
  }];
  let dependentDialects = ["::mlir::uop::UopDialect"];
}

def UopLowerHostPass : Pass<"uop-lower-host", "::mlir::ModuleOp"> {
  let summary = "Lower a kernelized program's host function to calls of its linearized kernels";
  let description = [{
    After `uop-kernelize`, `uop-rangeify` and `uop-linearize`, each kernel is
    a function over memrefs whose arguments are the buffer slots its
    `uop.slots` attribute lists. Simplification can delete a read (`x * 0`),
    so a slot may be missing: each `uop.launch` becomes a `func.call` that
    binds exactly the slots that survived, so later arguments do not shift.

    The host's values become memref arguments, in this order: the input
    buffers (slot order), then one output per distinct launch the host
    returns (return order). Each other launch writes a temporary, which the
    host allocates (`memref.alloc`) before the first call and frees after
    the last; with `temps-as-args` the temporaries are instead its last
    arguments (launch order), so that a runtime allocates them once and
    reuses them across runs (the seed's `Plan.temp_arrays`). A returned
    value that is a contiguous input buffer aliases that input. Attributes
    on the host say what each argument is: `uop.host_args` (0 input, 1
    output, 2 temporary), `uop.host_slots` (the input's slot, else -1) and
    `uop.host_results` (per returned value, the buffer holding it).

    ```mlir
    // before
    %0 = uop.buffer 0 : tensor<4xf32>
    %1 = uop.launch @e_4(%0) : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
    // after
    func.func @main(%arg0: memref<4xf32>, %arg1: memref<4xf32>) {
      call @e_4(%arg0, %arg1) : (...) -> ()
      return
    }
    ```
  }];
  let options = [
    Option<"tempsAsArgs", "temps-as-args", "bool", /*default=*/"false",
           "Temporaries are arguments of the host (after the outputs) instead "
           "of being allocated in it">];
  let dependentDialects = ["::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect"];
}

def UopToGPUPass : Pass<"uop-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Turn linearized GPU kernels into gpu.func kernels and their calls into gpu.launch_func";
  let description = [{
    The seed's `CUDARenderer` and `launch_dims`, on the IR of
    `uop-linearize{gpu=true}` (and, for a kernelized program, of
    `uop-lower-host`). Every kernel function (`uop.kernel`) becomes a
    `gpu.func` kernel of the same name in one `gpu.module @uop_kernels`:

    * its parameters are exactly its buffers (the function's memref
      arguments, in slot order), so that with the bare-pointer calling
      convention (`convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv}`) the
      PTX entry takes one `.param .u64` pointer per buffer, in the order of
      the host's call operands;
    * each GPU-mapped `scf.parallel` is replaced by its body, its induction
      variable by `gpu.block_id` (a `global` range) or `gpu.thread_id` (a
      `local` range) on the dimension its mapping names (`.x` is the
      fastest-varying axis);
    * the grid and block sizes are the ranges' ends (constants), 1 on unused
      dimensions; they are the kernel's `known_grid_size` and
      `known_block_size` (which `convert-gpu-to-nvvm` turns into
      `nvvm.maxntid`, the seed's `__launch_bounds__`);
    * `memref.alloca`s in `#gpu.address_space<workgroup>` at the function
      entry become workgroup attributions (`.shared` arrays); other allocas
      (per-thread accumulators) move to the entry block;
    * per-thread memory past 16 KiB a thread is global scratch memory: its
      largest allocas, until the rest fits in 16 KiB, each become the
      thread's slice of a scratch buffer with one slice per thread of the
      launch (grid x block threads), at the thread's linear id (block id,
      then thread id, z y x) times the slice's size. The buffer is a new
      last parameter of the kernel (after its buffers, before the workgroup
      attributions). The driver reserves a kernel's local memory for every
      thread the GPU can hold at once (an H200: 132 x 2048), so much local
      memory costs GiBs whatever the launch; a scratch buffer is sized by the
      launch. More than 4 GiB of scratch memory falls back to local memory
      where the allocas fit the target's `local_memory` a thread (512 KiB
      on every chip uop knows), else it is an error at
      the largest alloca with the byte counts; an alloca that cannot be a
      slice (not a flat buffer of a runtime dtype, only loaded and stored by
      one index) stays local memory, also within `local_memory`. The launch
      limits (`max_grid`, `max_block`, `max_threads`) are the module's cuda
      #uop.target's too (sm_90's without one).

    Each `func.call` of a kernel (the host of `uop-lower-host`) becomes a
    `gpu.launch_func` with constant grid and block operands and the call's
    operands as kernel operands; a kernel nobody calls (a kernel graph
    compiled as the program itself, `@main`) is replaced by a host function
    of the same name and arguments that launches it once. The module gets
    `gpu.container_module`. A kernel's scratch buffers are passed to each of
    its launches by their host: one for all of a kernel's launches in a
    host (they run one after another), allocated by the host
    (`memref.alloc` at its start, freed at its end) or, with
    `temps-as-args` (as `uop-lower-host`'s), new last arguments of the host
    marked `uop.scratch` (the kernel's name) and listed in `uop.host_args`
    as temporaries, which the runtime allocates once as the plan's
    temporaries (the execution engine adds them to the plan).

    A kernel without GPU ranges (a CPU-mapped kernel) runs as one thread: a
    grid of 1x1x1 and a block of 1x1x1 (correct, but slow). At most 3 global
    and 3 local ranges per kernel (CUDA has 3 grid and 3 block dimensions);
    more, a range end that is not a constant, or an `scf.parallel` without a
    GPU mapping (a CPU `thread` range linearized without `gpu=true`) is an
    error at the kernel.

    ```mlir
    // before (uop-linearize{gpu=true})
    func.func @e_64(%a: memref<64xf32>, %b: memref<64xf32>) attributes {uop.kernel} {
      scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
        ...
      } {mapping = [#gpu.loop_dim_map<processor = thread_x, ...>], uop.axis = #uop.axis<local>}
      return
    }
    // after
    gpu.module @uop_kernels {
      gpu.func @e_64(%a: memref<64xf32>, %b: memref<64xf32>) kernel
          attributes {known_block_size = array<i32: 64, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
        %tid = gpu.thread_id x
        ...
        gpu.return
      }
    }
    func.func @main(...) {
      gpu.launch_func @uop_kernels::@e_64 blocks in (%c1, %c1, %c1)
          threads in (%c64, %c1, %c1) args(%arg0 : memref<64xf32>, %arg1 : memref<64xf32>)
      return
    }
    ```
  }];
  let options = [
    Option<"moduleName", "module-name", "std::string", /*default=*/"\"uop_kernels\"",
           "Name of the gpu.module that holds the kernels">,
    Option<"tempsAsArgs", "temps-as-args", "bool", /*default=*/"false",
           "Global scratch buffers are new last arguments of the host (as "
           "uop-lower-host's temps-as-args) instead of being allocated in it">];
  let dependentDialects = ["::mlir::uop::UopDialect", "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def UopToEmitCPass : Pass<"uop-to-emitc", "::mlir::ModuleOp"> {
  let summary = "Lowered kernels and host (L3) -> the EmitC dialect, for C or CUDA C";
  let description = [{
    The C path's conversion (the seed's `render_c` and `CUDARenderer`): the
    module after the host stage (`uop-lower-host`; for CUDA `uop-to-gpu`),
    its kernels scf/memref/arith/math, becomes EmitC ops that MLIR's C/C++
    emitter (`emitc::translateToCpp`) prints as one translation unit. Vector
    lanes must be loops by then (`uop-lanes-to-loops`).

    It runs upstream's conversions (`convert-arith-to-emitc`,
    `convert-math-to-emitc`, `convert-scf-to-emitc`, `convert-func-to-emitc`
    and `convert-memref-to-emitc`'s allocas) with one type converter, and
    uop's patterns for what upstream lacks (each file says which):

    * buffers are restrict pointers (`float* restrict`; CUDA
      `float* __restrict__`), indexed by the i32 the kernel computes, not a
      `size_t` cast of it; a one-element alloca (an accumulator) is a scalar
      variable, the seed's `float acc0;`;
    * constants are literals at their use, as the seed writes them
      (`0.0f`, `-INFINITY`, `(-2147483647-1)`); ordered float comparisons
      are C's (`a > b`, no NaN guards: C's operators are IEEE's ordered
      ones); floor division and modulo call the seed's `floordiv_i32` and
      `floormod_i32`; exp2, log2 and sqrt are libm's (`exp2f`), f16 math
      through float;
    * a CPU `thread` range (`scf.parallel`) is a loop under
      `#pragma omp parallel for` (`openmp`, default on); run-time check
      records are bumped with `__atomic_fetch_add` (CUDA `atomicAdd`);
      `memref.alloc`/`dealloc` are `malloc`/`free`, `memref.prefetch`
      `__builtin_prefetch` (CUDA: `prefetch.global.L1`);
    * with `cuda`: each `gpu.func` kernel is an `extern "C" __global__`
      function with `__launch_bounds__` (its block size), its workgroup
      memory `__shared__` arrays `smem0`, `smem1`, ..., block and thread ids
      `blockIdx.x`/`threadIdx.x` (the axes uop-to-gpu gave them: `.x` the
      fastest-varying), `gpu.barrier` `__syncthreads()`; the host's
      `gpu.launch_func`s are launches `r_64<<<dim3(4, 1, 1), dim3(16, 1, 1)>>>(...)`.

    The module starts with the includes and the seed's prelude (CUDA's, with
    `cuda_fp16.h` where f16 is used). A function named `main` is renamed (C
    gives `main` a meaning): a kernel `kernel` (the seed's default name), a
    host `uop_main`. Expressions are formed as `form-expressions` does, but
    an operand C would want parenthesized (a comparison inside `&`, `&&`
    inside `||`) stays its own variable, so that the output compiles with
    `-Wall -Wextra -Werror`. An op no pattern takes is an error at the op.
  }];
  let options = [
    Option<"cuda", "cuda", "bool", /*default=*/"false",
           "CUDA C: the gpu.module's kernels as __global__ functions and a host of launches">,
    Option<"openmp", "openmp", "bool", /*default=*/"true",
           "CPU thread ranges (scf.parallel) under `#pragma omp parallel for` (else plain loops)">];
  let dependentDialects = ["::mlir::emitc::EmitCDialect", "::mlir::gpu::GPUDialect"];
}

def UopLowerGemmPass : Pass<"uop-lower-gemm", "::mlir::func::FuncOp"> {
  let summary = "GEMM kernels with tensor-core or stages opts -> GPU loops of cp.async stages and nvgpu mma.sync or FMAs";
  let description = [{
    A shaped kernel (L1) whose `#uop.opts` name a tensor-core instruction
    (`tc`) and that is GEMM-shaped (`mlir::uop::matchGemm`, the seed's
    `match_gemm`: a reduce-add of the product of two views of buffers) is
    lowered directly to the loops `uop-linearize{gpu=true}` would make of
    it (L3, for `uop-to-gpu`, or `uop-emulate-mma` and `uop-emulate-gpu` on
    the CPU): the same signature (a buffer per slot, in slot order; the
    value stored into the next slot), a GLOBAL `scf.parallel` over the
    blocks and a LOCAL one over a block's threads. Kernels without `tc` are
    left to uop-rangeify.

    The opts count in instruction tiles (the instruction is m16n8k16, f16
    operands, f32 accumulators: `nvgpu.mma.sync`, any sm_80+ chip):
    `local = {0: wm, 1: wn}` warps, `upcast = {0: tm, 1: tn}` instruction
    tiles a warp, `unroll = u` instruction steps along K a stage, `stages`
    shared-memory buffers (at least 2). A block computes a (wm*tm*16) x
    (wn*tn*8) tile of C over steps of u*16 along K. Each step's tiles of A
    and B are copied to shared memory with `nvgpu.device_async_copy`
    (16 bytes a copy, one commit group a step, `stages - 1` steps in flight,
    `nvgpu.device_async_wait` for the next), each 16-byte chunk at its
    XOR-swizzled place in its row (no bank conflicts); each warp loads its
    fragments with `nvgpu.ldmatrix` (B transposed where it is stored K x N)
    and accumulates in registers. Blocks are numbered in groups of 8 block
    rows (Triton's GROUP_M) for L2 reuse.

    A `tc` on a kernel that is not a GEMM, whose operand types or layout the
    instruction does not take (f16 rows contiguous and 16-byte aligned), or
    whose tiles do not divide M, N and K is an error at the kernel.

    Opts with `stages` and no `tc` on an f32 GEMM (row-major A and B, rows
    16-byte aligned) ask for the same pipeline on CUDA cores (CUTLASS's and
    Triton's SIMT kernel): `local = {0: lm, 1: ln}` threads, `upcast = {0: tm,
    1: tn}` outputs a thread (tn a multiple of 4), `unroll = BK` elements
    along K a stage (a multiple of 4). Each step's tiles are copied as
    above (unswizzled: the reads are 16-byte loads along K of a row of A,
    broadcast across a row of threads, and along N of a row of B, threads'
    columns interleaved in chunks of 4), and each thread accumulates
    `math.fma`s in registers.

    ```mlir
    func.func private @r_256_256(...) -> tensor<256x256xf32> attributes {uop.kernel,
        uop.opts = #uop.opts<upcast = {0: 4, 1: 8}, unroll = 2, gpu, local = {0: 2, 1: 2},
                             stages = 3, tc = #uop.mma<m = 16, n = 8, k = 16, a = f16, c = f32>>}
    // ->
    %sa = memref.alloca() {alignment = 128 : i64} : memref<12288xf16, #gpu.address_space<workgroup>>
    scf.parallel (%blk) ... {   // block_x
      scf.parallel (%tid) ... { // thread_x
        nvgpu.device_async_copy %arg0[%src], %sa[%dst], 8 {bypassL1} : memref<65536xf16> to ...
        ...
        %a = nvgpu.ldmatrix %sa[%i] {numTiles = 4 : i32, transpose = false} : ... -> vector<4x2xf16>
        %d = nvgpu.mma.sync(%a, %b, %c) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
                           "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect", "::mlir::vector::VectorDialect"];
}

#endif // UOP_CONVERSION_PASSES_TD
