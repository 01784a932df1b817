//===- Passes.td - passes that compile and run code ---------*- tablegen -*-===//
//
// Passes that need the execution engine: they compile and run candidate
// code while they decide. They live above the pipelines (UopExecutionEngine).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_EXECUTIONENGINE_PASSES_TD
#define UOP_EXECUTIONENGINE_PASSES_TD

include "mlir/Pass/PassBase.td"

def UopSearchPass : Pass<"uop-search", "::mlir::ModuleOp"> {
  let summary = "Choose each kernel's #uop.opts by timing candidates (the seed's search_opt, a small BEAM)";
  let description = [{
    A strategy pass, like `uop-hand-opt`, that measures instead of guessing:
    every kernel made by `uop-kernelize` that names no `uop.opts` gets the
    fastest of a set of candidates, each compiled for this CPU and run
    through the execution engine on random data, and accepted only if it
    computes what the kernel without opts computes. The candidates are the
    seed's `candidate_opts` (no opts, `hand_opt_choice`, register tiles of
    the last two output axes, unroll 4, cache tiles) widened to what this
    CPU holds (tiles up to 8x8, 4x16 and 16x4; register tiles of the hand's
    vector lanes), then the best three varied twice (unroll 1/4/8, each
    output axis or none as the thread axis, cache tiles of 32..256, row
    blocks and reduce tiles of a register tile, the next row's prefetch of a
    fused row kernel in strips of 0..512). Each candidate is timed by the
    best of a few runs; then the best four and the hand's choice run again
    in turns (the final), and the lowest median wins, the hand's within 1%:
    on a noisy machine the order of close candidates is otherwise luck. A
    kernel's search stops after `search-seconds` (the final takes at most
    about 2 s more).

    The winner is cached on disk (the uop cache directory, `KEY.search`,
    checksummed as the compiled libraries are) under the kernel's text, the
    module's CPU #uop.target (the machine the candidates ran on: a module
    without one is an error; run uop-attach-target first) and the codegen
    flags, so a second search
    of the same kernel compiles nothing. One line per kernel goes to stderr:
    `uop-search: NAME: N candidates (R rejected) in S s, winner OPTS T ms (no
    opts T0 ms), final of F by the median of K runs each` or `uop-search:
    NAME: cached OPTS`. A kernel that divides
    by data (random divisors may be 0) is left for `uop-hand-opt`.
    `uop-run --opt=search` runs it in the engine's kernelize stage, after
    `uop-kernelize{layout=true}`.

    ```mlir
    func.func private @r_64_64() -> tensor<64x64xf32> attributes {uop.kernel}
    // -> {uop.kernel, uop.opts = #uop.opts<upcast = {0: 4, 1: 8}, thread = 0>} (measured)
    ```
  }];
  let options = [
    Option<"searchSeconds", "search-seconds", "double", /*default=*/"60",
           "The time bound of one kernel's search (the reference and the hand "
           "choice are always timed)">,
    Option<"openmp", "openmp", "bool", /*default=*/"true",
           "Candidates run thread ranges with OpenMP (as the program will)">];
  let statistics = [
    Statistic<"numSearched", "kernels-searched", "Kernels given opts by the search or its cache">];
}

#endif // UOP_EXECUTIONENGINE_PASSES_TD
