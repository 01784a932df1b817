//===- Passes.td - uop conversion passes -------------------*- tablegen -*-===//

#ifndef UOP_CONVERSION_PASSES_TD
#define UOP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def UopExpandMathPass : Pass<"uop-expand-math"> {
  let summary = "Expand math.exp2 and math.log2 (f32, f16 via f32) into vectorizable arithmetic";
  let description = [{
    The CPU lowering (`uop-cpu-pipeline`, `--target=cpu` and `emulate`)
    turns `math.exp2`/`math.log2` into `llvm.intr.exp2`/`llvm.intr.log2`,
    which x86 has no vector form of: LLVM scalarizes a vector exp2 into one
    libm call per lane and does not vectorize a loop around a scalar one
    (softmax, attention). This pass replaces them, on f32 and f16 scalars
    and vectors, by plain arith ops that vectorize (the seed's C gets the
    same from libm, correctly rounded; these are within about 1 ulp):

    * `exp2(x)`: x is clamped to [-151, 129] (+-inf and overflow then come
      out of the arithmetic as inf and 0); n = round(x) by adding 1.5*2^23,
      whose low bits are then n as an integer; 2^(x - n), x - n in
      [-0.5, 0.5], is a degree-6 minimax polynomial (SLEEF's exp2f); the
      scale 2^n is two multiplications by 2^(n>>1) and 2^(n - (n>>1)), so
      that results below 2^-126 round once into denormals (no flush to
      zero). NaN stays NaN. Max error about 1.1 ulp.
    * `log2(x)`: denormals are scaled by 2^64; x = 2^e * m with m in
      [sqrt(1/2), sqrt(2)); log2(m) = 2/ln2 * atanh((m-1)/(m+1)) is an odd
      series evaluated in f64 (the only f64 ops: m, the series, and the sum
      with e), so that the f32 result is rounded once (<= 0.5 ulp + 2^-29).
      log2(+-0) = -inf, log2(x < 0) = NaN, log2(inf) = inf, NaN stays NaN.

    f16 is extended to f32 and the result truncated back (what the seed's
    C does). Other element types keep the math op. The CUDA pipeline keeps
    its own lowering (libdevice / ex2.approx).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect"];
}

def UopVectorizeMaxPass : Pass<"uop-vectorize-max", "::mlir::func::FuncOp"> {
  let summary = "Vectorize float max reductions exactly: speculate on lanes, check, fall back to the scalar loop";
  let description = [{
    A max reduction lowers to `acc = select(cmpf(acc, x), ...)` on a scalar
    accumulator (the seed's C `(a>b)?a:b`). LLVM does not vectorize it
    without `nnan`/`nsz`, and may not: the order matters where the row has
    a NaN (the sequential select drops or keeps it depending on where it
    is) or where the maximum is a zero (which of +0 and -0 wins is a tie).
    Everywhere else the result is the unique maximum, whatever the order.

    So this pass (after uop-linearize, CPU only) takes an innermost
    `scf.for` of step 1, constant bounds and a trip count that is a
    multiple of `lanes` (at least two vectors) whose body is only such max
    accumulations of loads contiguous in the loop (one per upcast row, each
    into its own `memref<1xf32>` accumulator) and their index arithmetic,
    and makes it: a loop of `lanes`-wide vector loads and the same
    compare-and-select per lane, noting whether any lane saw a NaN; the
    lanes folded in order with the same select; then, if no NaN was seen
    and no maximum is zero, the accumulator gets `select` of its old value
    and the maximum, exactly what the scalar loop gives; otherwise the
    original scalar loop runs, unchanged. Results are bit-identical to the
    scalar loop on every input.

    ```mlir
    scf.for %i = %c0 to %c4096 step %c1 : i32 {
      %a = memref.load %acc[%c0] : memref<1xf32>
      %x = memref.load %buf[%idx] : memref<16777216xf32>   // %idx = base + %i
      %c = arith.cmpf ogt, %a, %x : f32
      %m = arith.select %c, %a, %x : f32
      memref.store %m, %acc[%c0] : memref<1xf32>
    }
    ```
  }];
  let options = [
    Option<"lanes", "lanes", "int64_t", /*default=*/"8",
           "f32 lanes of a vector (uop-cpu-pipeline passes the host's: 8 for AVX2, 16 "
           "for AVX-512)">];
  let statistics = [
    Statistic<"numVectorized", "loops-vectorized", "Max-reduction loops vectorized">];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect"];
}

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
    lists its checks by id: `{kind = "index" | "div-zero" | "mod-zero" |
    "div-overflow" | "mod-overflow", loc = <the op's location>}`.

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

def UopEmulateGPUPass : Pass<"uop-emulate-gpu", "::mlir::func::FuncOp"> {
  let summary = "Run GPU-mapped kernels, barriers included, as serial CPU loops";
  let description = [{
    For `--target=emulate`: a kernel of `uop-linearize{gpu=true}` (or
    `{emulate-barriers=true}`) becomes ordinary CPU code. The seed's emulator
    turns block and thread ids into loops and refuses barriers; this pass
    splits the thread loops at each `gpu.barrier` instead (loop fission, as
    Polygeist's barrier elimination), so that every thread of a block
    finishes the code before a barrier before any thread runs the code after
    it:

    ```
    parallel(t) { A; barrier; B }         ->  for(t) { A }  for(t) { B }
    parallel(t) { A; for(k) { C }; B }    ->  for(t) { A }
      (C holds a barrier)                     for(k) { for(t) { C } }
                                              for(t) { B }
    ```

    Nested thread loops (`thread_y` around `thread_x`) are first fused into
    one block of threads. A value computed before a barrier and used after
    it is recomputed when it is pure arithmetic of the thread ids and outer
    values, and otherwise kept per thread in an array at the kernel's entry;
    per-thread allocas (accumulators) become such arrays, indexed by the
    thread ids first. Then every GPU-mapped `scf.parallel` becomes a serial
    `scf.for` nest and workgroup memory an ordinary alloca (blocks run one
    after another, so one copy of each array serves them all).

    Errors, at the op: a barrier under a condition (`scf.if`), in a loop
    that carries values or whose bounds depend on the thread, a block size
    that is not a constant, and thread loops with effects between them.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"];
}

def UopPrefetchPass : Pass<"uop-prefetch", "::mlir::func::FuncOp"> {
  let summary = "Prefetch the strided global loads of a kernel's innermost loops (`#uop.opts<prefetch = d>`)";
  let description = [{
    Applies the `prefetch` field of a linearized kernel's `#uop.opts` (the
    strategy's choice: `uop-hand-opt target=cuda`, a search, a user's opts;
    a kernel without it is left alone). In each innermost `scf.for` of the
    kernel, the loads of a kernel buffer (a function argument) directly in
    the loop body whose index is linear in the induction variable with a
    stride of at least a cache line (128 bytes) a step get a
    `memref.prefetch` of the element `d` iterations ahead, clamped to the
    last iteration (so the address is one the loop itself reads). Loads of
    one buffer whose indices differ only by a constant share a prefetch per
    cache line. Loads with a smaller stride (walking a line element by
    element) stay as they are: the line is already there for the next
    iteration.

    On the GPU this is gemm's B[k*N + j]: every iteration of the reduce loop
    reads a new row of B, an L2 miss that a kernel without shared-memory
    staging otherwise waits for; `uop-prefetch-to-nvvm` turns the prefetch
    into PTX's `prefetch.global.L1` (NVPTX drops `llvm.prefetch`). On the CPU
    `memref.prefetch` becomes `prefetcht0`.

    ```mlir
    scf.for %k = %c0 to %c8192 step %c1 : i32 {
      %d = arith.minsi(%c8, %c8191 - %k)
      memref.prefetch %B[%i + %d * 8192], read, locality<3>, data
      %b = memref.load %B[%i] ...        // %i = %k * 8192 + %j
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
}

def UopPrefetchNextPass : Pass<"uop-prefetch-next", "::mlir::func::FuncOp"> {
  let summary = "Fetch a row loop's next row while a later pass over this row computes (`#uop.opts<prefetch_next = S>`)";
  let description = [{
    Applies the `prefetch_next` field of a linearized kernel's `#uop.opts`
    (uop-hand-opt's choice for a fused row kernel, a search's, a user's; a
    kernel without it is left alone). A fused softmax or layernorm walks
    each row of its input in two or more loops: the first (max, mean)
    brings the row from memory, the later ones (exp2 and sum, variance,
    output) compute on it in cache while memory idles. In a loop over rows
    (an `scf.parallel` with one induction variable, or an `scf.for`) whose
    body holds two or more innermost `scf.for`s loading the same row of a
    kernel buffer (a load contiguous in the inner loop, whose index moves
    at least a cache line with the row loop), the second such loop fetches
    the next row while it runs: it is strip-mined into strips of `S`
    elements (halved until the trip count divides), and each strip first
    prefetches, line by line, the elements the same strip reads in the row
    loop's next iteration (the last iteration prefetches its own row, so
    every address is one the kernel reads). Memory then streams the next
    row while this one is computed. Hardware prefetchers do not do this:
    nothing touches the next row until its first loop starts.

    ```mlir
    scf.parallel (%i) = (%c0) to (%c4096) step (%c1) {
      scf.for %j = ... { max over x[%i * 4096 + %j] }
      // the second loop over the row, strips of S = 256:
      scf.for %j0 = %c0 to %c4096 step %c256 : i32 {
        memref.prefetch %x[next * 4096 + %j0 + 0], read, locality<3>, data
        ...                                      // one a line: 16 for f32
        memref.prefetch %x[next * 4096 + %j0 + 240], read, locality<3>, data
        scf.for %jj = %c0 to %c256 step %c1 : i32 {
          %j = arith.addi %j0, %jj                  // the loop's old body
          ... exp2 and sum over x[%i * 4096 + %j] ...
        }
      }
    }
    ```

    The strips keep the loop's iterations and their order, so results are
    unchanged; the inner loop's constant trip count still vectorizes. Runs
    after uop-stash, which matches the loops before they are strip-mined.
  }];
  let statistics = [
    Statistic<"numStripMined", "loops-strip-mined", "Loops that prefetch the next row">];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def UopStashPass : Pass<"uop-stash", "::mlir::func::FuncOp"> {
  let summary = "Store values a reduce loop computes and the store loop recomputes; read them back (`#uop.opts<stash>`)";
  let description = [{
    A fused reduction recomputes in its store loop what its reduce loop
    computed: fused softmax evaluates `exp2((x - max) * log2e)` once per
    element in the sum's loop and again in the output's loop. For a
    linearized kernel whose `#uop.opts` has `stash`, this pass finds, for
    each store of the output in an `scf.for`, the largest subexpression of
    the stored value that an earlier sibling `scf.for` with the same bounds
    computes in the same iteration (the same ops over the same induction
    variable, loads of buffers the kernel never writes, values from outside
    both loops). The earlier loop then also stores that value into the
    output element the later loop writes, and the later loop loads it from
    there instead of recomputing it.

    ```mlir
    scf.for %j = %c0 to %c4096 step %c1 : i32 {      // the sum
      %e = math.exp2 (...%x[%i]...)
      ... %acc += %e ...
      memref.store %e, %out[%i]                      // added
    }
    scf.for %j = %c0 to %c4096 step %c1 : i32 {      // the output
      %e = memref.load %out[%i]                      // was math.exp2 (...)
      %y = arith.mulf %e, %r
      memref.store %y, %out[%i]
    }
    ```

    The value read back is the one recomputed, bit for bit. It applies only
    where the output is written by the later loop's stores alone and never
    read (a kernel then writes each output element once, so no element is
    overwritten before it is read back), and the value has the output's
    element type. uop-hand-opt asks for it (CPU) where a transcendental
    feeds both a fused reduction and the stored value; a kernel without
    `stash` is left as it is.
  }];
  let statistics = [
    Statistic<"numStashed", "values-stashed", "Recomputed values read back from the output">];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
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
    `uop.output_shape`); then the kernel is simplified (fold + symbolic rules).

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
      where the allocas fit CUDA's 512 KiB a thread, else it is an error at
      the largest alloca with the byte counts; an alloca that cannot be a
      slice (not a flat buffer of a runtime dtype, only loaded and stored by
      one index) stays local memory, also within 512 KiB.

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
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

#endif // UOP_CONVERSION_PASSES_TD
