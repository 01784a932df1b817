//===- Passes.td - uop transformation passes ---------------*- tablegen -*-===//
//
// The seed's week-1 rewriting (uopc/symbolic.py) as passes: simplification
// by folding and the symbolic rules, call inlining, and evaluation of closed
// programs by rewriting.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_TRANSFORMS_PASSES_TD
#define UOP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def UopSymbolicPass : Pass<"uop-symbolic"> {
  let summary = "Fold and apply the symbolic rewrite rules";
  let description = [{
    The seed's `simplify`: constant folding with `exec_alu`'s exact semantics
    (i32 wraps, floor division, f32/f16 rounding; what C leaves undefined is
    left for run time) and the rules of the seed's `symbolic` list: constants
    to the right of commutative ops, identities, integer-only reassociation
    (`(x+1.0)+2.0` stays), distribution of constants over sums, the div/mod
    family, `(x//c)*c + x%c -> x`, comparisons against constants, and
    integer expressions whose bounds pin them to one value.

    The same folders and patterns are the ops' canonicalizations; this pass
    differs from `--canonicalize` in memoizing bounds over the whole rewrite,
    so that simplification time grows linearly with the graph.

    ```mlir
    %0 = uop.add %x, %c3 : i32
    %1 = uop.add %0, %c4 : i32      // -> uop.add %x, %c7
    ```
  }];
  let options = [
    Option<"maxIterations", "max-iterations", "int64_t", /*default=*/"10",
           "Greedy driver iteration limit (per rewrite round)">];
  let statistics = [
    Statistic<"numVisits", "visits",
              "Ops simplified in program order (a rewritten op is visited again)">,
    Statistic<"numTries", "pattern-tries", "Patterns tried">,
    Statistic<"numRewrites", "rewrites", "Patterns applied">,
    Statistic<"numFolds", "folds", "Ops folded">,
    Statistic<"numMade", "ops-made", "Ops made by the rules and folds">,
    Statistic<"numErased", "ops-erased", "Ops erased">];
}

def UopInlineCallsPass : Pass<"uop-inline-calls"> {
  let summary = "Inline every uop.call (the seed's inline_call)";
  let description = [{
    Beta reduction: the body of each `uop.call` replaces the call, its block
    arguments (the parameters) replaced by the call's arguments. A nested
    call is its own scope: it is moved out with the body and inlined in turn,
    its own parameters untouched by the outer substitution. Nothing else is
    rewritten.
  }];
}

def UopEvaluatePass : Pass<"uop-evaluate"> {
  let summary = "Run a closed program by rewriting (the seed's run)";
  let description = [{
    The seed's `run`: folding and the symbolic rules, plus evaluation rules:
    ALU ops pushed through `uop.stack`, `uop.index` of stacks and of dense
    constants, movement ops and `uop.reduce` on literals, and `uop.call`
    inlined. A closed program (no parameters, no memory) becomes one
    `uop.const`. A constant index out of bounds is an error at that index.
  }];
  let options = [
    Option<"maxIterations", "max-iterations", "int64_t", /*default=*/"-1",
           "Greedy driver iteration limit (-1: until a fixed point)">];
}

def UopKernelizePass : Pass<"uop-kernelize", "::mlir::ModuleOp"> {
  let summary = "Cut shaped programs into kernels and a host function (fusion and fission)";
  let description = [{
    The seed's `kernelize.make_plan`. Every shaped program (a `func.func`
    with no arguments returning values) is cut at its materialization points:
    every returned value (unless it is a contiguous input buffer, which is
    returned as it is, aliased), every `uop.stage`, and every `uop.reduce`
    unless `fuse-reduce` is set. Everything between two points is fused into
    one kernel. Before that, `uop.stage ... detach` markers are removed, and
    (without `fuse-reduce`) a computed tensor that an `expand` broadcasts 4x
    or more, and whose recomputation would cost 4096 ALU-element operations
    or more, is staged (`stage_broadcast_compute`).

    Each kernel becomes a private `func.func` with the unit attribute
    `uop.kernel`: a shaped program over local buffer slots 0..n-1, numbered in
    the order the kernel first reads them, so identical kernels are identical
    functions and are emitted once. Kernels are named as in the seed: `r_`
    when they reduce, else `e_`, then the output shape (`r_64_1`, `e_4`; a
    second, different kernel of the same name gets `__1`). The function's
    `uop.opts`, if any, is copied to each kernel.

    With `multi-output`, a root computed elementwise (no reduce in its kernel,
    no opts of its own) shares one kernel with the other such roots of its
    shape, unless a kernel outside the group lies between two of them (it
    would have to run both before and after the group): the kernel returns
    several values and its launch has several results. A member that reads
    another computes it in the kernel instead of reading it back (AdamW's
    update of a parameter reads the moments it updates: one kernel per
    parameter shape instead of three per parameter). `uop-rangeify` stores
    the values into slots n, n+1, ...; the tools and the Tensor frontend set
    the option (`--multi-output=false` gives the seed's kernels).

    With `fuse-epilogue`, a `uop.reduce` that is not a root and whose every
    reader is an elementwise op of its shape (or a chain of reshapes that
    only insert or remove axes of size 1 and come back to its shape, folded
    away), on the way to one point of its shape (a root or a stage, with no opts of its own), is not a point:
    it is computed in that point's kernel, once per output, and the kernel
    stores the epilogue's result (`x @ W + b` then ReLU: one kernel, not a
    GEMM and an elementwise kernel reading its output back). A reduce read
    through a movement op (a broadcast, a permute, a reshape that moves
    elements), read by a reduce, or on the way to two points stays a point:
    fusing it would compute it again for each. So does one whose epilogue
    (the point's kernel outside the reduce) has more than 8 ALU ops: it runs
    in the reduce's register tile, lane by lane where the tile's lanes are
    not vectors. A kernel takes one such reduce (the first in
    the order of the points). The CPU pipeline's `fuse-epilogue` sets it;
    the tools and the Tensor frontend do, for the CPU; GPU targets (cuda and
    the emulated GPU) leave it off, as `uop-lower-gemm` takes only a pure GEMM.

    The program becomes the host (unit attribute `uop.host`): its input
    buffers, then one `uop.launch` per kernel in dependency order, whose
    operands are bound to the kernel's slots. `uop-rangeify` lowers each
    kernel; `uop-lower-host` lowers the host once they are linearized.

    ```mlir
    // softmax over the last axis of a 64x64 buffer: 3 kernels
    %0 = uop.buffer 0 : tensor<4096xf32>
    %1 = uop.launch @r_64_1(%0) : (tensor<4096xf32>) -> tensor<64x1xf32>
    %2 = uop.reshape %1, [64] : tensor<64x1xf32>
    %3 = uop.launch @r_64_1__1(%0, %2) : (tensor<4096xf32>, tensor<64xf32>) -> tensor<64x1xf32>
    ...
    ```
  }];
  let options = [
    Option<"fuseReduce", "fuse-reduce", "bool", /*default=*/"false",
           "Fuse reductions into their consumers (no REDUCE materializes; "
           "reductions nest, as flash attention needs)">,
    Option<"multiOutput", "multi-output", "bool", /*default=*/"false",
           "Roots computed elementwise share one kernel with the other such roots "
           "of their shape (a multi-output kernel, one launch with several results), "
           "where no other kernel lies between them; the seed launches one kernel "
           "per root">,
    Option<"fuseEpilogue", "fuse-epilogue", "bool", /*default=*/"false",
           "A reduce read only by elementwise ops of its shape (and reshapes of unit "
           "axes back to it) that end in one point of its shape (a root or a stage), in at "
           "most 8 ALU ops, is computed in that point's kernel, its "
           "epilogue (a GEMM's bias and ReLU) applied once per output, instead of "
           "being stored and read back; one reduce a kernel (no effect with "
           "fuse-reduce)">,
    Option<"layout", "layout", "bool", /*default=*/"false",
           "Run uop-layout after detach stripping and stage_broadcast_compute, before "
           "the materialization points are chosen (the seed's HandOpt.layout; "
           "uop-cpu-pipeline sets it for opt=hand and opt=search)">,
    Option<"layoutPanel", "layout-panel", "int64_t", /*default=*/"-1",
           "With layout: pack the broadcast operand of a matmul-shaped reduce in "
           "panels this many columns wide (see uop-layout's panel); -1: the register "
           "tile's lanes of the module's CPU #uop.target (0 without vector_bits)">];
  let dependentDialects = ["::mlir::uop::UopDialect", "::mlir::func::FuncDialect"];
}

def UopSplitReducePass : Pass<"uop-split-reduce", "::mlir::ModuleOp"> {
  let summary = "Split GPU reductions with few outputs into partial sums and their sum (tinygrad's split_reduceop)";
  let description = [{
    For a cuda `#uop.target` (else nothing): a `uop.reduce` of a program
    (not of a kernel) with fewer outputs than a quarter of the threads the
    chip holds (`multiprocessors` x `max_threads`) and at least `min-reduce`
    reduced elements gives the GPU few threads, each walking the whole
    reduce axis. It becomes G partial reductions per output, then a
    reduction over G (uop-kernelize makes each its own kernel: a reduce that
    feeds a reduce is materialized, unless `fuse-reduce`): its outermost reduced axis of
    size F is split into (G, F/G), G the largest power of two from 4 to 256
    that divides F, keeps outputs x G within the chip's threads and leaves
    each part `min-part` elements or more. The sum is reassociated (G
    partial sums, then their sum); a max is unchanged.

    The pipelines run it for cuda targets (and `--target=emulate`) in the
    Kernelize stage, before uop-kernelize. Measured on an H200 in the GPT
    example's training step (bench/gpu/train.py).

    ```mlir
    %r = uop.reduce %x <add> pop 1 : tensor<64x1024xf32>
    // -> (H200: 132 x 1024 threads; G = 64)
    %v = uop.reshape %x, [64, 64, 16] : tensor<64x1024xf32>
    %p = uop.reduce %v <add> pop 1 : tensor<64x64x16xf32>
    %r = uop.reduce %p <add> pop 1 : tensor<64x64xf32>
    ```
  }];
  let options = [
    Option<"minReduce", "min-reduce", "int64_t", /*default=*/"256",
           "Reductions of fewer elements per output are left alone">,
    Option<"minPart", "min-part", "int64_t", /*default=*/"16",
           "The fewest elements a partial sum reduces">];
  let statistics = [Statistic<"numSplit", "split", "Reductions split in two">];
}

def UopLayoutPass : Pass<"uop-layout", "::mlir::ModuleOp"> {
  let summary = "Make the innermost reduce axis contiguous: stage strided operands (the seed's layout_pass)";
  let description = [{
    The seed's `layout_pass` (uopc/opt.py), on every shaped program (and
    kernel) of the module. Movement ops commute with elementwise ops, so
    they are first pushed through them to the leaves
    (`permute(a * b) -> permute(a) * permute(b)`): every view chain then ends
    at real data (a `uop.buffer`, `uop.reduce` or `uop.stage`). Every view
    feeding a `uop.reduce` is probed for the distance in memory between
    consecutive elements of its last axis (the reduce axis). A view with a
    stride other than 0 or 1 whose value is broadcast into the reduce (its
    chain below the `expand`s has no more elements than its base and fewer
    than the reduce's source) is wrapped in a `uop.stage` below the
    broadcast, when the staged copy makes the stride 1: the copy costs the
    operand's size, the reduce it feeds is usually much bigger. This turns
    `A @ B` (B read down its columns) into a dot product of rows; an operand
    already contiguous along the reduce axis (`A @ B^T` stored transposed)
    is left alone.

    `uop-kernelize{layout=true}` runs it where the seed does: after detach
    stripping and `stage_broadcast_compute`, before the materialization
    points; `uop-cpu-pipeline` asks for that with `opt=hand` and
    `opt=search` (the seed's `HandOpt` and `SearchOpt`).

    With `panel = W` (uop-kernelize passes the register-tile lanes of the
    module's CPU #uop.target, 16 on AVX2), the operand of a matmul-shaped reduce (one reduce
    axis, last) that is broadcast along the rows and spans the columns (B of
    `A @ B`, a multiple of W columns) is staged as panels instead: the
    columns are split into blocks of W, and each block is stored as one
    contiguous `K x W` panel (`[J/W][K][W]`, then viewed back as `J x K`).
    The register tile's W vector lanes read one contiguous W-wide row of a
    panel per step of the reduction, and a panel is one block of memory:
    walking B's columns instead hits the same few cache sets every row
    (rows 4 KiB apart at N = 1024). Values are unchanged; only where the
    copy puts them. An operand already in that form is left alone, and so
    is one whose columns are contiguous with rows a multiple of W and at
    most `unpacked-rows` (256) elements apart (B stored `K x N` with
    N <= 256): its rows already fall in distinct L1 sets, and the copy costs
    more than it saves. Measured on Zen 3 with the MLP's 784 x 128 weights:
    the forward gemm 0.19-0.30 ms unpacked, 0.18-0.32 ms plus a 0.03-0.15 ms
    copy packed; a 512^3 gemm still gains from packing (2.6-3.0 vs 2.8-3.5 ms).

    ```mlir
    %bt = uop.permute %b, [1, 0] : tensor<64x64xf32>
    %b3 = uop.reshape %bt, [1, 64, 64] : tensor<64x64xf32>
    // -> %s = uop.stage %b3 : tensor<1x64x64xf32>, then the expand of %s
    ```
  }];
  let options = [
    Option<"panel", "panel", "int64_t", /*default=*/"0",
           "Stage B of a matmul-shaped reduce as panels this many columns wide "
           "(0: the seed's transposing stage)">,
    Option<"unpackedRows", "unpacked-rows", "int64_t",
           /*default=*/"::mlir::uop::kDefaultUnpackedRows",
           "With panel: leave B alone when its columns are contiguous and its rows "
           "a multiple of panel and at most this many elements apart (0: pack "
           "every such B)">];
  let statistics = [
    Statistic<"numStaged", "values-staged", "Strided operands staged">];
}

def UopAttachTargetPass : Pass<"uop-attach-target", "::mlir::ModuleOp"> {
  let summary = "Attach the #uop.target the module is compiled for";
  let description = [{
    Sets the module's `uop.target` (see `#uop.target`), which every strategy
    pass and target-dependent lowering reads. `target` names it: a CPU LLVM
    knows (`znver5`, `skylake-avx512`, `x86-64-v3`), a CUDA chip (`sm_90`),
    `host`, or a printed `#uop.target<...>`. Without `target`, a module
    that already has a target (of `kind`, if given) keeps it, and one
    without gets the host's CPU (kind cpu, the default) or sm_90 (kind
    cuda); a named target of another kind than `kind` is an error: the pipelines run this first,
    so a lit test pins its target with `target=` or in the module and passes
    on any machine.

    ```mlir
    // uop-opt --uop-attach-target=target=skylake-avx512 m.mlir
    module attributes {uop.target = #uop.target<cpu, triple = "x86_64-unknown-linux-gnu",
        cpu = "skylake-avx512", features = "+adx,+aes,...", vector_bits = 512, ...>} { ... }
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "The target: host, a CPU name, a CUDA chip (sm_*) or #uop.target<...> "
           "(default: the module's own, else the host's CPU or sm_90 by kind)">,
    Option<"kind", "kind", "std::string", /*default=*/"\"\"",
           "The kind of target the module needs: cpu or cuda (a named target of the other "
           "kind is an error); default: the named target's, else cpu">];
  let dependentDialects = ["::mlir::uop::UopDialect"];
}

def UopHandOptPass : Pass<"uop-hand-opt", "::mlir::ModuleOp"> {
  let summary = "Choose each kernel's #uop.opts by the seed's hand rules (CPU or GPU)";
  let description = [{
    A strategy pass: it decides how each kernel made by `uop-kernelize` is
    mapped onto the machine and writes the decision as the kernel's
    `uop.opts`; `uop-rangeify` applies it. A kernel that already has
    `uop.opts` (a function-level `#uop.opts` that uop-kernelize copied, for
    hand experiments) keeps it.

    The machine is the module's `#uop.target` (`uop.target`, attached by
    `uop-attach-target` or the pipelines' `target=` option; with none, the
    default CPU target, which sizes no register tiles).

    A `cpu` target gets the seed's `hand_opt_choice`: with a reduction, a 4x4
    register tile (upcast) on the last two output axes (4, else 2, within a
    budget of 16), else `unroll = 4` for short reductions (a multiple of 4,
    under 64); the first output axis with at least 2 iterations left runs in
    parallel (`thread`) when the kernel does 2^16 or more element-steps.

    On a CPU target with `vector_bits` (every named CPU and the host; not
    the default target), a reducing kernel whose last output axis is a
    multiple of two vectors of f32 gets a register tile sized for that
    machine instead of the seed's 4x4 (with two output axes): `vector` = two
    vectors of lanes on the last axis (uop-linearize's vector lanes) and
    `upcast` of the axis before it by 2, 4, 8 or the most rows whose
    accumulators, two vectors a row, leave 4 of the target's
    `vector_registers` for the
    loaded operands (at most 12): the count that loads B the fewest times
    per useful FMA (each k step loads B's vectors once for all the rows),
    up to 12 accumulators (on Zen 3 the 2048^3 gemm on 2 threads went from
    130-133 to 136-142 GFLOP/s with 6 rows instead of 4), less the rows that
    a ragged last tile (a count that does not divide the rows or their block:
    uop-rangeify clamps it) computes twice. AVX2 (256 bits, 16 registers)
    `upcast = {0: 6}, vector = 16`; AVX-512 (32 registers) `upcast = {0: 8},
    vector = 32` where 8 divides. A kernel that stashes gets no ragged tile.
    Each element's reduction keeps its order.
    Past one tile of columns the last axis is tiled by the lanes (each
    column block reads one panel of uop-layout's packed B), and 1024 or
    more rows (a multiple of 256) are tiled by 256, so one block of A's rows
    sweeps every panel while the panel stays in L2.

    Row reductions are the exception (with `vector_bits`, not gemm-shaped,
    each reduction of its source's last axis reading every buffer along it
    one element apart or not at all, rows at least a tile's lanes long):
    LLVM vectorizes their loops along the row, and upcast rows share no
    loads, they only multiply the live values (spills: on Zen 5, 4096 x
    4096 f32, the sum of exp2 took 1.5 ms without an upcast and 2.5 with 2
    or 4 rows; fused softmax 2.9 ms against 4.1 with the 8x32 tile). They
    get the seed's thread axis alone. A fused one (two or more reductions,
    rows of 1024 or more: softmax, layernorm with `--fuse-reduce`) also gets
    `prefetch_next = 256` (uop-prefetch-next: its second loop over each row
    fetches the next row while it computes; softmax 2.9 -> 2.5 ms).

    A `cuda` target gets the seed's `gpu_opt_choice`: the output axes become
    the grid (`gpu`; at most 3 non-trivial axes, else an error), threads on
    the last axes by powers of two within a block of `max-threads` (at most
    the target's `max_threads`; 16 per axis when there are several), and a
    2x upcast of axes of 32 or more (even) when the kernel reduces; except a
    two-axis reduce of at least 1024x1024 outputs (multiples of 128) and 256
    terms, which gets a 16x8 register tile in 8x16-thread blocks with
    `prefetch = 8` (measured on an H200); and a reduce with fewer outputs
    than the threads the target runs at once (`multiprocessors` x
    `max_threads`; a target that does not give `multiprocessors` keeps the
    seed's rule), whose innermost reduce loop is unrolled by 8, 4 or 2 (the
    largest that divides it and leaves a loop: a thread then has that many
    loads in flight instead of one), and below an eighth of that gets no
    upcast (a thread an output). GPT's step on an H200: 3.13 ms with the
    seed's rule, 1.37 with both.

    Before those, a GEMM-shaped kernel (`uop-match-gemm`) that one of the
    target's `mma` shapes computes (m16n8k16 f16 into f32: f16 operands
    with contiguous, 16-byte aligned rows, M, N, K multiples of 16, 8, 16)
    gets the tensor-core opt (`tc`, applied by `uop-lower-gemm`): the
    first block tile of 128x128x32 (2x2 warps of 4x8 instructions, 2
    steps a stage), 64x128, 128x64, 64x64, 32x32 (32x32x32 in 2x2 warps),
    32x16 and 16x16 (x16, one warp) that divides M, N and K, with 3 stages
    (2 when K has only 2 steps, or where 3 do not fit the 48 KiB of static
    shared memory a block has).

    On a chip whose `mma` list has Hopper's warpgroup MMA (sm_90a; the
    `warpgroup` option, on by default; off for CUDA C, which has no
    lowering of TMA and wgmma) an f16 GEMM with f32 sums and an f32 result, A row-major and B stored
    K x N or N x K, whose M, N and K are multiples of 128 gets the
    warpgroup `tc` instead (`#uop.mma<m = 64, n = 256 or 128, k = 16, a =
    f16, c = f32, warpgroup = true>`): 2 warpgroups (`local = {0: 2}`) of
    64 x n each, `unroll = 4` (64 of K a stage), up to 4 stages of TMA
    loads: the 128x256 tile where N is a multiple of 256, else 128x128.

    ```mlir
    func.func private @r_64_64() -> tensor<64x64xf32> attributes {uop.kernel}
    // default target -> {uop.kernel, uop.opts = #uop.opts<upcast = {0: 4, 1: 4}, thread = 0>}
    ```
  }];
  let options = [
    Option<"maxThreads", "max-threads", "int64_t", /*default=*/"256",
           "cuda targets: the threads per block gpu_opt_choice fills (the seed's 256; "
           "at most the target's max_threads)">,
    Option<"warpgroup", "warpgroup", "bool", /*default=*/"true",
           "cuda targets: give f16 GEMMs Hopper's warpgroup MMA (wgmma fed by TMA) where "
           "the target lists it (sm_90a); off, mma.sync (CUDA C, which has no TMA "
           "or wgmma)">];
  let statistics = [
    Statistic<"numChosen", "kernels-chosen", "Kernels given opts by this pass">];
  let dependentDialects = ["::mlir::uop::UopDialect"];
}

def UopMatchGemmPass : Pass<"uop-match-gemm", "::mlir::ModuleOp"> {
  let summary = "Mark the GEMM-shaped kernels (the seed's match_gemm)";
  let description = [{
    An analysis made visible: each shaped kernel (`uop.kernel`, L1) that
    `mlir::uop::matchGemm` recognizes as C[m, n] = sum_k A(m, k) * B(k, n)
    gets `uop.gemm`, a dictionary of M, N, K, each operand's buffer slot,
    offset and strides (A over (m, k), B over (k, n)), the operand, sum and
    result types and whether each product is exact (its operands cast up
    before the multiply). A GEMM is a reduce-add of one axis (optionally cast
    to another float) of a product of shape [M, N, K], optionally cast to a
    wider float, whose operands are views of buffers (movement ops and
    widening float casts) affine in (m, n, k), one broadcast along N (A),
    the other along M (B): x * x summed over its last axis is not one. With
    `explain`, every other kernel gets a remark saying why it is not.
    uop-hand-opt asks the same question before choosing the tensor cores.

    ```mlir
    // uop.gemm = {a = {offset = 0, slot = 0, strides = [32, 1]}, acc = f32,
    //             b = {offset = 0, slot = 1, strides = [32, 1]}, exact = true,
    //             in = f16, k = 32, m = 32, n = 32, out = f32}
    ```
  }];
  let options = [
    Option<"explain", "explain", "bool", /*default=*/"false",
           "A remark on every kernel that is not a GEMM, saying why">];
  let dependentDialects = ["::mlir::uop::UopDialect"];
}

def UopGradientPass : Pass<"uop-gradient", "::mlir::ModuleOp"> {
  let summary = "Add a function returning a scalar loss and its gradients (reverse-mode autodiff)";
  let description = [{
    The seed's `autodiff.gradient` as a pass. For the shaped function `func`
    (default `@main`) returning one scalar loss, adds `grad-name` (default
    `@<func>_grad`), which returns the loss followed by d(loss)/d(input) for
    each input in `wrt` (default: every float input, in order). The inputs
    are the function's arguments, or, for a program without arguments (what
    uop-run runs), the `uop.buffer` slots it reads: `wrt=0,2` means slots 0
    and 2. The original function is kept, unless `grad-name` is its own name:
    then the gradient function replaces it (`grad-name=main`, for uop-run).

    The copy is hash-consed first as the seed's UOps are (structurally equal
    ops are one value; unlike MLIR's CSE, `x + y` and `y + x` stay two),
    then each op on a path from an input to the loss gets
    the seed's rule, in the reverse of the seed's toposort, so the gradients
    are the seed's graph and its float sums; the new ops are shared the same way. Run
    it on L1 programs, before uop-kernelize (after uop-inline-calls when the
    program has calls).

    ```mlir
    func.func @main() -> f32 {             // loss = sum(x * x)
      %x = uop.buffer 0 : tensor<4xf32>
      %0 = uop.mul %x, %x : tensor<4xf32>
      %1 = uop.reduce %0 <add> pop 1 : tensor<4xf32>
      return %1 : f32
    }
    // -> func.func @main_grad() -> (f32, tensor<4xf32>): the loss and 2x
    ```

    Errors (diagnostics, exit 1): no such function, a result that is not
    one float scalar, an input index the function does not have (or a slot
    it does not read, or one of an integer dtype), an op with no gradient
    rule on the path (memory ops, calls) and a uop.index with data-dependent
    indices.
  }];
  let options = [
    Option<"funcName", "func", "std::string", /*default=*/"\"main\"",
           "The function returning the loss">,
    Option<"gradName", "grad-name", "std::string", /*default=*/"\"\"",
           "The name of the new function (default: <func>_grad)">,
    ListOption<"wrt", "wrt", "int64_t",
               "The inputs (argument indices, or buffer slots of a function without "
               "arguments) to differentiate by (default: every float input)">];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // UOP_TRANSFORMS_PASSES_TD
