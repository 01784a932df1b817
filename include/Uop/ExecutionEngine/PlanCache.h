//===- PlanCache.h - compile a program once per structure --------*- C++ -*-===//
//
// The seed's structural cache (`kernelize._plans` + `realize`), as the
// execution engine's cache: a program is compiled (mlir::uop::compile) once
// per *structure*; running it again with other buffer contents reuses the
// executable. In a process, executables are kept in memory; across
// processes, the compiled library and its host plan are kept in the on-disk
// cache (uop::rt::cacheDir()), so a second process runs no pass at all.
//
//   mlir::uop::PlanCache cache;                 // CompileOptions: target, opts, ...
//   auto exe = cache.get(module);               // compiles the first time only
//   auto values = (*exe)->run({{0, &a}, {1, &b}});
//
//===----------------------------------------------------------------------===//

#ifndef UOP_EXECUTIONENGINE_PLANCACHE_H
#define UOP_EXECUTIONENGINE_PLANCACHE_H

#include "Uop/ExecutionEngine/ExecutionEngine.h"
#include "Uop/Runtime/Executable.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>

namespace mlir::uop {

/// Executables by structure. Not thread-safe: one cache per thread, or a lock.
class PlanCache {
public:
  explicit PlanCache(CompileOptions options = {}) : options(std::move(options)) {}

  /// The executable of `program` (it is not modified). Compiles only when
  /// neither this cache nor the on-disk cache has the structure; emits
  /// diagnostics and fails on a program that does not compile.
  FailureOr<::uop::rt::Executable *> get(ModuleOp program);

  /// The structural key of `program` under these options: the program as
  /// printed, the options, the target CPU and the build of uop itself.
  std::string key(ModuleOp program) const;

  const CompileOptions &compileOptions() const { return options; }

  struct Stats {
    unsigned compiled = 0;   ///< programs compiled by this cache
    unsigned diskHits = 0;   ///< executables loaded from the on-disk cache
    unsigned memoryHits = 0; ///< get() answered from memory
  };
  const Stats &stats() const { return counts; }
  size_t size() const { return plans.size(); }

private:
  CompileOptions options;
  llvm::StringMap<std::unique_ptr<::uop::rt::Executable>> plans;
  Stats counts;
};

} // namespace mlir::uop

#endif // UOP_EXECUTIONENGINE_PLANCACHE_H
