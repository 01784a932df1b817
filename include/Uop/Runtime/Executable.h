//===- Executable.h - a compiled program, loaded and runnable ----*- C++ -*-===//
//
// A compiled uop program as the runtime holds it: its host plan (see
// Plan.h) and the loaded code of its entry point. No MLIR: the execution
// engine makes one from a module (mlir::uop::compile), and a process with no
// compiler loads one from a plan and a library.
//
//   auto exe = uop::rt::Executable::load(plan, "/path/to/lib.so");
//   auto values = (*exe)->run({{0, &a}, {1, &b}});   // a shaped program
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_EXECUTABLE_H
#define UOP_RUNTIME_EXECUTABLE_H

#include "Uop/Runtime/Buffer.h"
#include "Uop/Runtime/Loader.h"
#include "Uop/Runtime/Plan.h"
#include "Uop/Runtime/Result.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace uop::rt {

class Executable {
public:
  /// Loads the entry point (`uop_entry(void **)`) of `library` for `plan`.
  static Result<std::unique_ptr<Executable>> load(HostPlan plan, const std::string &library);

  const HostPlan &plan() const { return hostPlan; }
  const std::string &library() const { return libraryPath; }

  /// A shaped program: runs on `inputs` (slot -> buffer, each checked
  /// against the slot's dtype and size) and returns its values with their
  /// shapes.
  Result<std::vector<HostBuffer>> run(const std::map<int64_t, const HostBuffer *> &inputs);

  /// An in-place program: runs on `buffers` (slot -> buffer, one for every
  /// slot of the plan, each checked), reading and writing them in place.
  Result<bool> runInPlace(const std::map<int64_t, HostBuffer *> &buffers);

  /// Runs the entry with one pointer per argument of the plan that is not a
  /// temporary, in plan order (temporaries are the executable's own,
  /// allocated on the first run and reused, as the seed's Plan.temp_arrays).
  /// Unchecked: for callers that bind memory themselves (benchmarks).
  Result<bool> runRaw(const std::vector<void *> &args);

  /// The values of a shaped program after a run, copied out of the argument
  /// buffers (one per non-temporary argument, in plan order) with their shapes.
  std::vector<HostBuffer> values(const std::vector<const HostBuffer *> &argBuffers) const;

private:
  Executable(HostPlan plan, std::string library, CpuKernel kernel)
      : hostPlan(std::move(plan)), libraryPath(std::move(library)), kernel(std::move(kernel)) {}
  /// Checks `b` against argument `i` of the plan.
  Result<bool> check(size_t i, const HostBuffer &b) const;

  HostPlan hostPlan;
  std::string libraryPath;
  CpuKernel kernel;
  std::vector<HostBuffer> temps;
  std::vector<void *> scratch; ///< the entry's argument array, reused
};

} // namespace uop::rt

#endif // UOP_RUNTIME_EXECUTABLE_H
