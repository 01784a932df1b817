//===- Passes.td - uop loop-level codegen passes ----------*- tablegen -*-===//
//
// Transforms of linearized kernels (L3: scf, memref, arith, math, vector):
// prefetches, stashes, exact max vectorization, the expansion of exp2/log2
// and the emulation of GPU kernels as CPU loops. They run after
// uop-linearize and read the kernel's #uop.opts and the module's #uop.target.

#ifndef UOP_CODEGEN_PASSES_TD
#define UOP_CODEGEN_PASSES_TD

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
    Option<"lanes", "lanes", "int64_t", /*default=*/"0",
           "f32 lanes of a vector; 0: those of the module's CPU #uop.target (8 for AVX2, "
           "16 for AVX-512, 4 where it names no vector unit)">];
  let statistics = [
    Statistic<"numVectorized", "loops-vectorized", "Max-reduction loops vectorized">];
  let dependentDialects = ["::mlir::uop::UopDialect", "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect", "::mlir::memref::MemRefDialect"];
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

def UopEmulateMmaPass : Pass<"uop-emulate-mma", "::mlir::func::FuncOp"> {
  let summary = "Give nvgpu's warp-level ops their lane-by-lane meaning on the CPU";
  let description = [{
    For `--target=emulate`, before `uop-emulate-gpu`: the warp-collective
    ops of `uop-lower-gemm` become per-thread code that exchanges values
    through workgroup memory between barriers, so that the emulator (which
    runs a block's threads one after another between barriers) computes
    exactly what each lane of a warp holds on the GPU. The fragment layouts
    are the PTX ISA's; a kernel that put an element in the wrong lane gets
    the wrong result here as there.

    * `nvgpu.ldmatrix` (`.x1`, `.x2`, `.x4`, with or without `.trans`, 16-bit
      elements): each thread stores the address it gives (for row `l % 8` of
      matrix `l / 8`, where `l` is its lane); after a barrier, register `i`
      of lane `l` is elements `2 (l % 4)` and `2 (l % 4) + 1` of the row
      that lane `8 i + l / 4` gave (with `.trans`: element `l / 4` of the
      rows lanes `8 i + 2 (l % 4)` and `8 i + 2 (l % 4) + 1` gave).
    * `nvgpu.mma.sync` (m16n8k16, f16 operands, f32 accumulators): each lane
      stores its A fragment (a 16x16 tile: register `r`, half `h` is row
      `l / 4 + 8 (r % 2)`, column `2 (l % 4) + h + 8 (r / 2)`) and its B
      fragment (16x8: register `r`, half `h` is row `2 (l % 4) + h + 8 r`,
      column `l / 4`) into its warp's tiles; after a barrier, its C element
      `e` (row `l / 4 + 8 (e / 2)`, column `2 (l % 4) + e % 2`) is the C
      operand's plus the dot product of that row of A and column of B, in
      f32, k in order.
    * `nvgpu.device_async_copy` is a copy where it is issued (a copy that
      lands at once is one the GPU may make); `device_async_create_group`
      and `device_async_wait` have nothing left to wait for.
    * Hopper's (sm_90a, uop-lower-gemm's warpgroup `tc`):
      `nvgpu.tma.async.load` copies the box of its tensor map (the kernel's
      `uop.tma` entry) into shared memory where it is issued, with the
      128-byte swizzle (16-byte chunk `j` of 128-byte row `r` at chunk
      `j ^ (r % 8)`; outside the tensor, zeros); `nvgpu.warpgroup.mma` adds
      to each accumulator element a thread holds (row `16 w + l / 4 + 8 i`,
      column `8 j + 2 (l % 4) + h` of each 64-row tile, `w` the warp's rank
      in its warpgroup) the dot product of A's row and B's column, read from
      shared memory through the same swizzle (A K-major; B MN-major with
      `transposeB`, else K-major); the accumulators live in workgroup memory,
      a slot a warpgroup; `nvgpu.warpgroup.mma.store` stores them where its
      lowering does (rows by the warp's index in the block); mbarriers,
      tensor-map prefetches and wgmma waits have nothing left to do.

    Adjacent ops of one kind share one pair of barriers (a warp's loads of a
    step, its tiles' instructions). The ops must be in a GPU thread loop (a
    LOCAL `scf.parallel` of a constant multiple of 32 threads), and reached
    by every thread, as on the GPU.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def UopPrefetchPass : Pass<"uop-prefetch", "::mlir::func::FuncOp"> {
  let summary = "Prefetch the strided global loads of a kernel's innermost loops (`#uop.opts<prefetch = d>`)";
  let description = [{
    Applies the `prefetch` field of a linearized kernel's `#uop.opts` (the
    strategy's choice: uop-hand-opt's for a cuda target, a search, a user's opts;
    a kernel without it is left alone). In each innermost `scf.for` of the
    kernel, the loads of a kernel buffer (a function argument) directly in
    the loop body whose index is linear in the induction variable with a
    stride of at least a cache line (the module's #uop.target's
    `cache_line`: 128 bytes on a GPU, 64 on a CPU; 64 without one) a step get a
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
  let dependentDialects = ["::mlir::uop::UopDialect", "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect"];
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
  let dependentDialects = ["::mlir::uop::UopDialect", "::mlir::arith::ArithDialect", "::mlir::memref::MemRefDialect",
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

def UopLanesToLoopsPass : Pass<"uop-lanes-to-loops", "::mlir::func::FuncOp"> {
  let summary = "Vector lanes as plain loops over the lanes (the C path)";
  let description = [{
    The C path (`--codegen=c`, `--uop-to-c`) has no vector types: C has
    none, and GCC's vector extensions differ between gcc and clang where the
    lanes need them most (a select on a vector condition is C++ only in gcc,
    there is no portable vector fma or reduction). So before the conversion
    to EmitC, this pass turns a kernel's vector lanes (`#uop.opts<vector =
    W>`, uop-linearize) back into the loop they came from: each maximal run
    of lane-wise vector ops in a block (elementwise arith and math,
    `vector.load`/`vector.store`, `vector.broadcast`, `vector.fma`,
    `vector.gather`, loads and stores of the `memref<N x vector<W x T>>`
    accumulators) becomes one `scf.for` over the W lanes whose body is the
    scalar ops, lane by lane. The lanes were the iterations of a serial loop
    (uop-linearize makes lanes only where running them side by side cannot
    change a result), so running each lane's ops in order is that loop
    again: gemm's register tile reads

    ```c
    for (int32_t k = 0; k < 16; k += 1) {        // the 16 lanes of one row tile
      float v60 = v2[v57 + k];                   // B[k0][j + lane]
      v8[k] = v8[k] + v54 * v60;                 // acc[row 0][lane] += A[0][k0] * B
      v9[k] = v9[k] + v65 * v60;                 // acc[row 1][lane] ...
    ```

    and the C compiler vectorizes it again. Scalar ops between the lane ops
    that have no effect, and scalar loads of memory the run does not write,
    stay before the loop; a scalar store, a region, a width change, or an
    access to memory the run writes at another lane offset ends a run. A
    vector value used outside its run is kept in a `memref<W x T>` (a C
    array). `vector.reduction` becomes a loop over that array in lane order
    (what LLVM's ordered reduction computes), `vector.extract` a load of one
    lane, `vector.from_elements` W stores; splat constants and broadcasts of
    a scalar are the scalar itself in every lane.

    Errors, at the op: vector values carried by loops or yielded by
    regions, multi-dimensional or scalable vectors, and vector ops with no
    lane-wise form here (shuffles, masked loads and stores).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"];
}

def UopKernelAllocatorPass : Pass<"uop-kernel-allocator", "::mlir::ModuleOp"> {
  let summary = "Kernels' heap allocations through the runtime's allocator";
  let description = [{
    A kernel's alloc larger than the stack takes is on the heap: a
    `memref.alloc` that `finalize-memref-to-llvm{use-generic-functions}`
    turns into calls of `_mlir_memref_to_llvm_alloc` and
    `_mlir_memref_to_llvm_free`. This pass defines them in the module (an
    LLVM-dialect module, after that conversion): each calls the function the
    exported global `uop_rt_alloc_hook` (`uop_rt_free_hook`) points at,
    which the runtime's loader sets to its allocator, drawing from the
    memory budget (include/Uop/Runtime/Memory.h); where nothing set it (a
    library loaded by another program) they call `malloc` and `free`. Either
    may return null: uop-linearize checks the pointer at the alloc.

    ```mlir
    llvm.mlir.global external @uop_rt_alloc_hook() : !llvm.ptr
    llvm.func @_mlir_memref_to_llvm_alloc(%n: i64) -> !llvm.ptr {
      // the hook if set, else malloc(%n)
    }
    ```

    A module that declares neither function is left as it is.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // UOP_CODEGEN_PASSES_TD
