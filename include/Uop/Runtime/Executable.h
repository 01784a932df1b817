//===- Executable.h - a compiled program, loaded and runnable ----*- C++ -*-===//
//
// A compiled uop program as the runtime holds it: its host plan (see
// Plan.h) and the loaded code of its kernels: a CPU shared library's entry
// point, or a CUDA module (see Cuda.h). No MLIR: the execution engine makes
// one from a module (mlir::uop::compile), and a process with no compiler
// loads one from a plan and a library or PTX, or from a bundle (Bundle.h).
//
//   auto exe = uop::rt::Executable::load(plan, "/path/to/lib.so");
//   auto exe = uop::rt::Executable::loadCuda(plan, ptxText);
//   auto values = (*exe)->run({{0, &a}, {1, &b}});   // a shaped program
//
// Both backends have the same interface, with host buffers in and out, so
// callers (uop-run, uop-runner, the plan cache, the frontend) need not care
// where the program runs. A CUDA executable owns one device buffer per plan
// argument (temporaries included, kept across runs); each run copies the
// host buffers in, launches the plan's launches in order, synchronizes and
// copies back what the program writes. runOn runs either backend on
// buffers a caller keeps in the device's memory (Device.h), with no copy.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_EXECUTABLE_H
#define UOP_RUNTIME_EXECUTABLE_H

#include "Uop/Runtime/Buffer.h"
#include "Uop/Runtime/Cuda.h"
#include "Uop/Runtime/Loader.h"
#include "Uop/Runtime/Plan.h"
#include "Uop/Runtime/Result.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace uop::rt {

class CudaProgram;

/// One kernel's share of a profiled run (see Executable::profile).
struct KernelProfile {
  std::string name;
  unsigned launches = 0; ///< launches in one run
  double seconds = 0;    ///< time of all its launches in one run
  double flops = 0;      ///< of all its launches
  double bytes = 0;      ///< of all its launches
  std::string opts;      ///< the #uop.opts it was lowered with
};

/// The entry point a CPU library has for each kernel of its plan, besides
/// `uop_entry`: `void uop_kernel_NAME(void **args)`, args[i] the kernel's
/// i-th buffer (what profiling calls, one launch at a time).
std::string kernelEntryName(const std::string &kernel);

/// Whether $UOP_PROFILE asks embedders' runs to be profiled (set, not "0").
bool profileRequested();

/// The runs each profile of an embedder's run takes the best of: $UOP_PROFILE
/// when it is a number above 1 (on a loaded machine one run's times are
/// mostly other processes'), else 1.
int profileRuns();

/// The profile as lines, one per kernel in plan order: "NAME  N launch(es)
/// T ms  G GFLOP/s  B GB/s  opts OPTS", then a total line.
std::string formatProfile(const std::vector<KernelProfile> &profile);

/// Where an executable's kernels run.
enum class Backend { CPU, CUDA };

/// "cpu" / "cuda".
const char *backendName(Backend backend);

class Executable {
public:
  /// Loads the entry point (`uop_entry(void **)`) of `library` for `plan`.
  static Result<std::unique_ptr<Executable>> load(HostPlan plan, const std::string &library);

  /// Loads the kernels of `plan` (PlanKernel names = `.entry` names) from
  /// `ptx` (and/or `cubin`, tried first) on the CUDA device
  /// (CudaDevice::get()) and allocates the device buffers. Without a GPU or
  /// driver: an error starting "no CUDA device: ".
  static Result<std::unique_ptr<Executable>> loadCuda(HostPlan plan, std::string ptx,
                                                      std::string cubin = "");

  ~Executable();

  const HostPlan &plan() const { return hostPlan; }
  Backend backend() const { return cuda ? Backend::CUDA : Backend::CPU; }
  /// The CPU library's path ("" for CUDA).
  const std::string &library() const { return libraryPath; }
  /// The CUDA program's PTX and cubin ("" for CPU).
  const std::string &ptx() const { return ptxText; }
  const std::string &cubin() const { return cubinImage; }
  /// The CUDA side (device, device buffers); null for CPU.
  CudaProgram *cudaProgram() const { return cuda.get(); }

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
  /// CUDA: the pointers are host memory, copied in and back (the outputs /
  /// written slots) around the launches.
  Result<bool> runRaw(const std::vector<void *> &args);

  /// Runs the plan on buffers in the memory of the device it runs on
  /// (Device.h): one address per argument that is not the executable's own,
  /// in plan order, as runRaw's pointers. No copy: a CPU executable takes
  /// host addresses (Device::host()'s), a CUDA one device addresses
  /// (Device::cuda()'s) and enqueues its launches on the default stream,
  /// asynchronously, unless the plan has run-time checks, which it then
  /// waits for and reads. A failed check is the run's error, as runRaw's.
  Result<bool> runOn(const std::vector<DevicePtr> &args);

  /// Times `runs` runs on `args` (as runRaw) after one warm-up run; returns
  /// the per-run seconds, sorted ascending. CPU: wall-clock time of each
  /// call. CUDA: the GPU's time of each run's launches, between CUDA events
  /// (the copies in and back happen once, outside the timing). Afterwards the
  /// buffers hold what runs + 1 runs leave, on both backends.
  Result<std::vector<double>> bench(const std::vector<void *> &args, int runs);

  /// Runs the plan's launches one at a time (after one warm-up run of the
  /// whole program), timing each, `runs` times; returns each kernel's best
  /// run (the least time of its launches in one run), in plan order, with
  /// its work from the plan. `args` as for runRaw. CPU only: the library's
  /// per-kernel entry points (kernelEntryName); a CUDA executable or an old
  /// library without them is an error.
  Result<std::vector<KernelProfile>> profile(const std::vector<void *> &args, int runs = 1);

  /// profile() on buffers in the device's memory (as runOn's): on CUDA,
  /// each launch between two CUDA events on the default stream, the GPU's
  /// time. The program's inputs are only read, so a profile leaves what
  /// one run leaves.
  Result<std::vector<KernelProfile>> profileOn(const std::vector<DevicePtr> &args, int runs = 1);

  /// The values of a shaped program after a run, copied out of the argument
  /// buffers (one per non-temporary argument, in plan order) with their shapes.
  Result<std::vector<HostBuffer>> values(const std::vector<const HostBuffer *> &argBuffers) const;

private:
  Executable(HostPlan plan, std::string library, CpuKernel kernel);
  Executable(HostPlan plan, std::string ptx, std::string cubin,
             std::unique_ptr<CudaProgram> program);
  /// Checks `b` against argument `i` of the plan.
  Result<bool> check(size_t i, const HostBuffer &b) const;
  /// Fills `scratch` with every argument of the plan (temporaries the
  /// executable's own) from the non-temporary `args`.
  Result<bool> bind(const std::vector<void *> &args);
  /// runRaw without $UOP_PROFILE.
  Result<bool> runPlain(const std::vector<void *> &args);
  /// The error of a failed run-time check after a run, if any.
  Result<bool> checkFailures() const;

  HostPlan hostPlan;
  std::string libraryPath;
  std::optional<CpuKernel> kernel;   ///< CPU
  std::string ptxText, cubinImage;   ///< CUDA
  std::unique_ptr<CudaProgram> cuda; ///< CUDA
  std::vector<HostBuffer> temps;
  std::vector<void *> scratch; ///< the entry's argument array, reused
};

} // namespace uop::rt

#endif // UOP_RUNTIME_EXECUTABLE_H
