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
      `fastmath<reassoc, nsz, contract>` (the seed's `-fassociative-math`),
      everything else stays IEEE.

    A range that is never ended, or a graph that cannot be scheduled, is an
    error at the op at fault.

    ```mlir
    // before: C[i] = A[i] + 1.0 for i < 16
    %r = uop.range %c16 idx 0 <loop>
    ...
    %e = uop.end %st, %r : !uop.void
    // after
    scf.for %iv = %c0 to %c16 step %c1 { ... memref.store ... }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect"];
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

#endif // UOP_CONVERSION_PASSES_TD
