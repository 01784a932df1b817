//===- ExecutionEngine.h - from a module to something that runs --*- C++ -*-===//
//
// The one path from a uop program to code that runs: uop-run, the plan
// cache and the frontend all compile through `compile`. It composes the
// pipeline stages (kernelize, opts, rangeify, linearize, lower to LLVM),
// reads what the runtime needs off the IR between them (the host plan, each
// kernel's opts and work), and hands the LLVM dialect to the CPU target,
// which only translates.
//
//   mlir::uop::CompileOptions options;           // target, opts, fuse-reduce, codegen
//   auto exe = mlir::uop::compile(module, options);
//   auto values = (*exe)->run({{0, &a}, {1, &b}});
//
//===----------------------------------------------------------------------===//

#ifndef UOP_EXECUTIONENGINE_EXECUTIONENGINE_H
#define UOP_EXECUTIONENGINE_EXECUTIONENGINE_H

#include "Uop/ExecutionEngine/CompileOptions.h"
#include "Uop/Runtime/Executable.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir::uop {

/// A compiled program before it is loaded: its plan and its code (the
/// shared library of a CPU program, or the PTX of a CUDA program's kernels).
/// Producing one needs no GPU, so a bundle can be written anywhere.
struct CompiledProgram {
  CompileTarget target;
  /// The machine the code is for, printed (#uop.target): the CPU's (cpu and
  /// emulate) or the GPU's (cuda). Bundles record it.
  std::string machine;
  /// CPU and emulate: the CPU target's LLVM features (load checks that this
  /// CPU has them).
  std::string features;
  ::uop::rt::HostPlan plan;
  std::string library; ///< CPU and emulate: the shared library's path (in the cache)
  std::string ptx;     ///< CUDA: every kernel's `.entry`, named as plan.kernels
  std::string cubin;   ///< CUDA C (`--codegen=cuda-c`): nvcc's PTX assembled by ptxas
  /// The C (CUDA C) of the program: what the C path compiled, or, with
  /// `CompileOptions::printC`, what it would compile. "" otherwise.
  std::string source;
};

/// uop-search (the seed's search_opt, a small BEAM) on a kernelized module:
/// every kernel that names no `#uop.opts` gets the fastest of a set of
/// candidates (the seed's candidate_opts, wider register tiles, unroll 4
/// and 8, cache tiles, each output axis as the thread axis; the best three
/// varied twice), each compiled with `options` and timed on random data,
/// and accepted only if it computes what the kernel without opts computes.
/// A kernel's search stops after `options.searchSeconds`. The winner is
/// cached on disk (uop::rt::cacheDir(), "<key>.search", checksummed) under
/// the kernel's structure and the module's CPU #uop.target (the machine the
/// search runs on; a module without one is an error), so a second search of
/// the same kernel compiles nothing. Writes one line per kernel to
/// `log`: "uop-search: NAME: N candidates (R rejected) in S s, winner OPTS T
/// ms (no opts T0 ms)", or "uop-search: NAME: cached OPTS". A kernel that
/// divides by data is left for uop-hand-opt (random divisors may be 0).
LogicalResult searchOpts(ModuleOp module, const CompileOptions &options, llvm::raw_ostream &log);

/// opt=search on a kernelized module for a cuda #uop.target (GpuSearch.cpp):
/// with `options.searchResults`, caches that file's winners first; then
/// every kernel without opts whose winner is cached (by its structure, the
/// target and the codegen) takes it, and with `options.searchExport` every
/// other one's candidates are written there as bundles (and a manifest)
/// for tools/uop-gpu-search.py to time on a GPU. Kernels left get the
/// hand's opts afterwards. One log line per kernel.
LogicalResult gpuSearchOpts(ModuleOp module, const CompileOptions &options,
                            llvm::raw_ostream &log);

/// Compiles `program` as `compile` does, without loading it. With
/// `UOP_DEBUG=4` in the environment (the seed's DEBUG=4), prints the
/// program's C (CUDA C for cuda) to stderr as it compiles, whatever the
/// codegen path.
FailureOr<CompiledProgram> compileProgram(ModuleOp program, const CompileOptions &options);

/// The C of `program` (CUDA C for the cuda target) as the C path
/// (`--codegen=c`, `cuda-c`) compiles it, the plan a comment at its top:
/// the same stages as compileProgram, then the EmitC module printed
/// (uop-translate --uop-to-c, --uop-to-cuda). Compiles nothing.
FailureOr<std::string> translateProgramToC(ModuleOp program, CompileOptions options);

/// Loads a compiled program into the runtime (CUDA: on the current device;
/// CPU: refused where this CPU lacks a feature the code was compiled for).
::uop::rt::Result<std::unique_ptr<::uop::rt::Executable>> load(CompiledProgram compiled);

/// Compiles the program in `program` (a module whose `@main` is a shaped
/// program, returning values, or a kernel graph, returning the `uop.sink` of
/// its stores; `program` itself is not modified). Emits diagnostics at the
/// program's locations and fails on a program that does not compile.
FailureOr<std::unique_ptr<::uop::rt::Executable>> compile(ModuleOp program,
                                                          const CompileOptions &options);

} // namespace mlir::uop

#endif // UOP_EXECUTIONENGINE_EXECUTIONENGINE_H
