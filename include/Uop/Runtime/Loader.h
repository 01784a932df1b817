//===- Loader.h - Loading and calling compiled CPU code ---------*- C++ -*-===//
//
// Part of the uop project. No LLVM or MLIR includes.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_LOADER_H
#define UOP_RUNTIME_LOADER_H

#include "Uop/Runtime/Buffer.h"
#include "Uop/Runtime/Result.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace uop::rt {

/// A shared library loaded with dlopen(RTLD_NOW | RTLD_LOCAL); dlclose'd on
/// destruction.
class SharedLibrary {
public:
  /// Loads `path`. A path without '/' means a file in the current directory
  /// (not a search of the library path). Before dlopen, the file must be a
  /// complete ELF shared object of this machine's class, byte order and
  /// architecture (dlopen of a truncated file would fault later, SIGBUS), and
  /// a cache entry (a file with a cacheChecksumPath() beside it) must pass
  /// cacheVerify(). Errors are "PATH: cannot load: WHY", e.g. "not an ELF
  /// shared object (no ELF magic)", "an ELF file for AArch64, not this
  /// machine (x86-64)", "truncated ELF file (4096 bytes; its headers describe
  /// 16384)", "the cache entry is corrupted (checksum mismatch)", or
  /// dlerror()'s text.
  static Result<std::unique_ptr<SharedLibrary>> open(const std::string &path);

  /// The address of `name`, or nullptr if the library has no such symbol.
  void *symbol(const std::string &name) const;

  const std::string &path() const { return libPath; }

  SharedLibrary(const SharedLibrary &) = delete;
  SharedLibrary &operator=(const SharedLibrary &) = delete;
  ~SharedLibrary();

private:
  SharedLibrary(void *handle, std::string path) : handle(handle), libPath(std::move(path)) {}
  void *handle;
  std::string libPath;
};

/// A compiled CPU kernel, `void entry(void **args)`, where args[i] is the data
/// pointer of buffer slot i. Copies share the loaded library, which stays
/// loaded while any copy lives.
class CpuKernel {
public:
  using EntryFn = void (*)(void **);
  /// Loads `soPath` (checked as SharedLibrary::open does) and looks up
  /// `entry`.
  static Result<CpuKernel> load(const std::string &soPath, const std::string &entry = "uop_entry");

  /// Calls the kernel with one data pointer per slot. A library that runs
  /// its kernels on OpenMP threads (it links libomp) is called with
  /// OpenMP's dynamic adjustment of the team on (omp_set_dynamic(1), put
  /// back after the call), unless $OMP_DYNAMIC was set when it was loaded:
  /// libomp then gives a parallel region only the threads the machine has
  /// free (its load balance, re-measured at most once a second), instead
  /// of a fork/join that waits for a thread other processes hold. Measured
  /// (issue 34): the MLP step on 2 cores at load 5, 1.39 ms/step with 2
  /// threads, 0.72 with 1, 0.72 dynamic; a quiet machine keeps both threads.
  void operator()(void **args) const { call(fn, args); }
  /// Calls `entry` (the library's entry point or one of its kernels' own)
  /// as operator() calls the entry point.
  void call(EntryFn entry, void **args) const;
  /// Whether calls turn OpenMP's dynamic adjustment on.
  bool adjustsThreads() const { return setDynamic != nullptr; }
  /// Calls the kernel with the data pointers of `buffers` (slot i = index i).
  void operator()(std::vector<HostBuffer *> &buffers) const;

  /// The raw entry point.
  EntryFn entry() const { return fn; }
  const SharedLibrary &library() const { return *lib; }

private:
  CpuKernel(std::shared_ptr<SharedLibrary> lib, EntryFn fn) : lib(std::move(lib)), fn(fn) {}
  std::shared_ptr<SharedLibrary> lib;
  EntryFn fn;
  /// libomp's omp_set_dynamic / omp_get_dynamic, where the library links
  /// it and $OMP_DYNAMIC was unset at load.
  void (*setDynamic)(int) = nullptr;
  int (*getDynamic)() = nullptr;
};

/// The name of this machine's architecture as the loader's messages spell
/// it: "x86-64", "AArch64", ... ("unknown" where the loader does not check).
std::string hostMachine();

/// Why `file` is not a complete ELF shared object for this machine (its
/// class, byte order, machine and type; segments within the file), or "".
std::string sharedLibraryProblem(const std::string &file);

/// cacheLookup(key, ".so", warning) for a library this process can load: an
/// entry that verifies but is not one (another machine's library with its
/// own checksum would fail at dlopen on every run) is removed and reported
/// the same way ("the cache entry PATH is not a library for this machine:
/// ...; rebuilding it"), and the lookup is a miss.
std::string cacheLookupLibrary(const std::string &key, std::string *warning);

/// Runs `fn` once to warm up, then `reps` timed times; returns the per-run
/// wall-clock seconds, sorted ascending. Nothing runs when reps <= 0.
std::vector<double> timeRuns(const std::function<void()> &fn, int reps);

/// The median of `v` (mean of the middle two for even sizes); NaN if empty.
double median(std::vector<double> v);

} // namespace uop::rt

#endif // UOP_RUNTIME_LOADER_H
