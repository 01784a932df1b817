//===- PlanCache.h - compile a shaped graph once per structure ---*- C++ -*-===//
//
// The seed's structural cache (`kernelize._plans` + `realize`): a shaped
// program is kernelized and compiled once per *structure*; running it again
// with other buffer contents reuses the compiled plan. In a process, plans
// are kept in memory; across processes, the compiled library and its plan
// are kept in the on-disk cache (uop::rt::cacheDir()), so a second process
// runs no pass at all.
//
//   mlir::uop::PlanCache cache;
//   auto plan = cache.get(module);          // compiles the first time only
//   auto values = (*plan)->run({{0, &a}, {1, &b}});
//
//===----------------------------------------------------------------------===//

#ifndef UOP_FRONTEND_PLANCACHE_H
#define UOP_FRONTEND_PLANCACHE_H

#include "Uop/Runtime/Buffer.h"
#include "Uop/Runtime/Loader.h"
#include "Uop/Runtime/Result.h"
#include "Uop/Target/CPU.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

namespace mlir::uop {

/// The runtime's dtype of a uop element type (i1, i32, f16, f32).
std::optional<::uop::rt::DType> toRuntimeDType(Type type);

/// What changes the compiled code of a plan (all part of its key).
struct PlanOptions {
  /// uop-kernelize's fuse-reduce: reductions fused into their consumers.
  bool fuseReduce = false;
  /// Thread ranges run with OpenMP.
  bool openmp = true;
  CpuCodegenOptions codegen;
};

/// A kernelized, compiled program: the host function of uop-lower-host in a
/// loaded library, and its calling convention.
class CompiledPlan {
public:
  /// One argument of the host: an input buffer slot, an output, or a
  /// temporary (the plan owns temporaries, allocated on the first run and
  /// reused, as the seed's Plan.temp_arrays).
  struct Arg {
    enum Kind { Input = 0, Output = 1, Temp = 2 } kind;
    int64_t slot; ///< inputs: the buffer slot; else -1
    ::uop::rt::DType dtype;
    int64_t numel;
  };
  /// One value of the program: the argument holding it (an input when the
  /// value is a contiguous input buffer, aliased) and its shape.
  struct ValueInfo {
    unsigned arg;
    std::vector<int64_t> shape;
  };

  const std::vector<Arg> &args() const { return argList; }
  const std::vector<ValueInfo> &values() const { return valueList; }
  /// Kernels launched per run.
  unsigned numLaunches() const { return launches; }
  /// The slots the program reads, in order.
  std::vector<int64_t> inputSlots() const;

  /// Runs the program on `inputs` (slot -> buffer; each checked against the
  /// slot's dtype and size) and returns its values with their shapes.
  ::uop::rt::Result<std::vector<::uop::rt::HostBuffer>>
  run(const std::map<int64_t, const ::uop::rt::HostBuffer *> &inputs);

  /// Runs the host with raw pointers for its inputs and outputs, in args()
  /// order (temporaries are filled in). For callers that manage memory.
  void runRaw(std::vector<void *> inputsAndOutputs);

  /// The plan as text, and back (the on-disk cache's .plan file).
  std::string serialize() const;
  static ::uop::rt::Result<std::unique_ptr<CompiledPlan>> load(const std::string &text);

private:
  friend class PlanCache;
  std::string library;
  std::vector<Arg> argList;
  std::vector<ValueInfo> valueList;
  unsigned launches = 0;
  std::unique_ptr<::uop::rt::CpuKernel> kernel;
  std::vector<::uop::rt::HostBuffer> temps;
};

/// Plans by structure. Not thread-safe: one cache per thread, or a lock.
class PlanCache {
public:
  explicit PlanCache(PlanOptions options = {}) : options(std::move(options)) {}

  /// The compiled plan of `program`: a module whose `@main` is a shaped
  /// program (it is not modified). Compiles only when neither this cache nor
  /// the on-disk cache has the structure; emits diagnostics and fails on a
  /// program that does not compile.
  FailureOr<CompiledPlan *> get(ModuleOp program);

  /// The structural key of `program` under these options: the program as
  /// printed, the options, the target CPU and the build of uop itself.
  std::string key(ModuleOp program) const;

  struct Stats {
    unsigned compiled = 0;   ///< plans compiled by this cache
    unsigned diskHits = 0;   ///< plans loaded from the on-disk cache
    unsigned memoryHits = 0; ///< get() answered from memory
  };
  const Stats &stats() const { return counts; }
  size_t size() const { return plans.size(); }

private:
  PlanOptions options;
  llvm::StringMap<std::unique_ptr<CompiledPlan>> plans;
  Stats counts;
};

} // namespace mlir::uop

#endif // UOP_FRONTEND_PLANCACHE_H
