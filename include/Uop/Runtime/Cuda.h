//===- Cuda.h - The CUDA driver API, loaded at run time ----------*- C++ -*-===//
//
// Part of the uop project. No LLVM or MLIR includes, and no CUDA at build
// time: the driver (libcuda.so.1, or $UOP_LIBCUDA) is dlopen'ed on first use,
// and the few driver types and entry points uop needs are declared in
// Cuda.cpp. A machine without a GPU or driver gets an error, never a crash.
//
// Every error is one line. Driver errors name the call and the error, e.g.
//   cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed): ptxas ...
// and anything that means "no usable GPU here" (no library, a library
// without the entry points, cuInit failing, no device, a bad
// $UOP_CUDA_DEVICE) starts with `no CUDA device: `, e.g.
//   no CUDA device: libcuda.so.1 not found (libcuda.so.1: cannot open ...)
// (isNoCudaDevice() tells such errors apart, for tests that skip).
//
//   auto dev = uop::rt::CudaDevice::get();               // device 0 / $UOP_CUDA_DEVICE
//   auto mod = uop::rt::CudaModule::loadPtx(*dev, ptx);
//   auto f = (*mod)->function("vadd");
//   auto a = uop::rt::DeviceBuffer::allocate(*dev, bytes);
//   f->launch(grid, block, {a->ptr(), ...}); (*dev)->synchronize();
//
// Thread use: each call makes the device's primary context current on the
// calling thread first, so objects may be used from any thread (one at a
// time per object).
//
// Work a caller keeps on the device between runs (the Tensor frontend's
// cuda contexts, a training step replayed by uop-runner) runs on device
// buffers it owns: CudaProgram::launch takes their addresses, and a
// CudaStream orders copies and launches that a CudaGraph can capture once
// and replay with one launch:
//
//   auto stream = uop::rt::CudaStream::create(*dev);
//   auto graph = uop::rt::CudaGraph::capture(*stream, [&] {
//     return program->launch({a->ptr(), out->ptr()}, &*stream);
//   });
//   graph->launch(*stream); stream->synchronize();
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_CUDA_H
#define UOP_RUNTIME_CUDA_H

#include "Uop/Runtime/Plan.h"
#include "Uop/Runtime/Result.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <tuple>
#include <memory>
#include <string>
#include <vector>

namespace uop::rt {

/// The prefix of every error that means there is no usable CUDA device.
constexpr const char *kNoCudaDevice = "no CUDA device: ";

/// True when `error` is a "no CUDA device: ..." error.
bool isNoCudaDevice(const std::string &error);

/// A device address (CUdeviceptr).
using DevicePtr = uint64_t;

/// One CUDA device with its primary context retained (released when the last
/// reference goes). get() returns the same object while one is alive.
class CudaDevice {
public:
  /// Loads the driver ($UOP_LIBCUDA, default "libcuda.so.1"), cuInit, and
  /// retains the primary context of device $UOP_CUDA_DEVICE (default 0).
  static Result<std::shared_ptr<CudaDevice>> get();

  int ordinal() const { return dev; }
  /// cuDeviceGetName, e.g. "NVIDIA H200".
  const std::string &name() const { return deviceName; }
  /// Compute capability, e.g. 9 and 0.
  int ccMajor() const { return major; }
  int ccMinor() const { return minor; }
  /// The chip for PTX's .target, e.g. "sm_90".
  std::string chip() const;
  /// cuDriverGetVersion, e.g. 12040.
  int driverVersion() const { return version; }

  /// Makes the primary context current on this thread (every other call
  /// does it first).
  Result<bool> makeCurrent() const;
  /// cuCtxSynchronize: waits for all work; reports errors of earlier
  /// asynchronous launches.
  Result<bool> synchronize() const;

  CudaDevice(const CudaDevice &) = delete;
  CudaDevice &operator=(const CudaDevice &) = delete;
  ~CudaDevice();

  /// Opaque driver state (the function table).
  struct Driver;
  const Driver &driver() const { return *drv; }
  void *context() const { return ctx; }

private:
  CudaDevice(const Driver *drv, int dev, void *ctx) : drv(drv), dev(dev), ctx(ctx) {}
  const Driver *drv;
  int dev;
  void *ctx;
  std::string deviceName;
  int major = 0, minor = 0, version = 0;
};

/// Device memory (cuMemAlloc), freed on destruction. Move-only.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  /// `bytes` of device memory (at least 1 byte is allocated), uninitialized.
  static Result<DeviceBuffer> allocate(std::shared_ptr<CudaDevice> device, size_t bytes);

  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer();

  DevicePtr ptr() const { return addr; }
  size_t size() const { return bytes; }

  /// Synchronous copies of `n` bytes (at most size()) from/to host memory.
  Result<bool> copyFromHost(const void *src, size_t n);
  Result<bool> copyToHost(void *dst, size_t n) const;
  /// Sets every byte to `value`.
  Result<bool> fill(unsigned char value = 0);

private:
  std::shared_ptr<CudaDevice> device;
  DevicePtr addr = 0;
  size_t bytes = 0;
};

class CudaStream;

/// A kernel of a loaded module (CUfunction). Valid while its module lives.
class CudaFunction {
public:
  const std::string &name() const { return fname; }
  /// cuLaunchKernel on `stream` (null: the default stream) with one device
  /// pointer per parameter (in order); asynchronous (errors of the kernel
  /// itself show at the next synchronize). Dimensions are checked to fit
  /// the driver's. More than 48 KiB of `sharedBytes` (dynamic shared
  /// memory) first raises the function's limit to it.
  Result<bool> launch(const int64_t grid[3], const int64_t block[3],
                      const std::vector<DevicePtr> &params, unsigned sharedBytes = 0,
                      const CudaStream *stream = nullptr) const;

private:
  friend class CudaModule;
  const CudaDevice *device = nullptr;
  void *fn = nullptr;
  std::string fname;
  /// The dynamic shared memory limit set on the function (0: the default).
  mutable unsigned sharedOptin = 0;
};

/// A loaded module (CUmodule), unloaded on destruction.
class CudaModule {
public:
  /// cuModuleLoadDataEx on PTX text; a JIT failure's message ends with the
  /// JIT error log.
  static Result<std::unique_ptr<CudaModule>> loadPtx(std::shared_ptr<CudaDevice> device,
                                                     const std::string &ptx);
  /// The same on a cubin (or fatbin) image.
  static Result<std::unique_ptr<CudaModule>> loadCubin(std::shared_ptr<CudaDevice> device,
                                                       const std::string &image);
  /// The kernel called `name` (the PTX `.entry` name); an error naming it
  /// when the module has none.
  Result<CudaFunction> function(const std::string &name) const;

  CudaModule(const CudaModule &) = delete;
  CudaModule &operator=(const CudaModule &) = delete;
  ~CudaModule();

private:
  CudaModule(std::shared_ptr<CudaDevice> device, void *mod) : device(std::move(device)), mod(mod) {}
  static Result<std::unique_ptr<CudaModule>> load(std::shared_ptr<CudaDevice> device,
                                                  const std::string &image, bool text);
  std::shared_ptr<CudaDevice> device;
  void *mod;
};

/// A CUDA event (cuEventCreate), for timing work on the GPU's clock.
class CudaEvent {
public:
  static Result<CudaEvent> create(std::shared_ptr<CudaDevice> device);
  CudaEvent(CudaEvent &&other) noexcept;
  CudaEvent &operator=(CudaEvent &&other) noexcept;
  CudaEvent(const CudaEvent &) = delete;
  CudaEvent &operator=(const CudaEvent &) = delete;
  ~CudaEvent();

  /// cuEventRecord on the default stream.
  Result<bool> record();
  /// cuEventSynchronize.
  Result<bool> synchronize() const;
  /// Seconds from `start` to this event (both recorded and complete).
  Result<double> secondsSince(const CudaEvent &start) const;

private:
  CudaEvent() = default;
  std::shared_ptr<CudaDevice> device;
  void *ev = nullptr;
};

/// A CUDA stream (cuStreamCreate, CU_STREAM_NON_BLOCKING): work enqueued
/// on it runs in order, and apart from the default stream's. Its copies and
/// fills are asynchronous (a copy from or to host memory is staged by the
/// driver; the host memory must stay valid until the stream gets there).
/// The stream entry points are loaded when the driver has them; without
/// them (a driver before CUDA 11.4) create() says so.
class CudaStream {
public:
  static Result<CudaStream> create(std::shared_ptr<CudaDevice> device);
  CudaStream(CudaStream &&other) noexcept;
  CudaStream &operator=(CudaStream &&other) noexcept;
  CudaStream(const CudaStream &) = delete;
  CudaStream &operator=(const CudaStream &) = delete;
  ~CudaStream();

  /// The CUstream.
  void *handle() const { return stream; }
  const std::shared_ptr<CudaDevice> &device() const { return dev; }
  /// cuStreamSynchronize: waits for the stream's work; reports errors of
  /// earlier asynchronous launches.
  Result<bool> synchronize() const;
  /// `n` bytes device to device, host to device, device to host; `n` bytes
  /// of `value` (cuMemcpy*Async, cuMemsetD8Async).
  Result<bool> copy(DevicePtr dst, DevicePtr src, size_t n) const;
  Result<bool> copyIn(DevicePtr dst, const void *src, size_t n) const;
  Result<bool> copyOut(void *dst, DevicePtr src, size_t n) const;
  Result<bool> fill(DevicePtr dst, unsigned char value, size_t n) const;

private:
  CudaStream() = default;
  std::shared_ptr<CudaDevice> dev;
  void *stream = nullptr;
};

/// A CUDA graph: the work one call issued on a stream, captured
/// (cuStreamBeginCapture/cuStreamEndCapture) and instantiated
/// (cuGraphInstantiateWithFlags), then replayed with one cuGraphLaunch, the
/// kernels' parameters as they were captured. Move-only; destroyed with the
/// object.
class CudaGraph {
public:
  /// Captures what `record` enqueues on `stream` (launches, copies, fills on
  /// that stream; a call that would synchronize fails the capture) and
  /// instantiates it. An error of `record` ends the capture and is returned.
  static Result<CudaGraph> capture(CudaStream &stream, const std::function<Result<bool>()> &record);
  CudaGraph(CudaGraph &&other) noexcept;
  CudaGraph &operator=(CudaGraph &&other) noexcept;
  CudaGraph(const CudaGraph &) = delete;
  CudaGraph &operator=(const CudaGraph &) = delete;
  ~CudaGraph();

  /// cuGraphLaunch on `stream`: asynchronous.
  Result<bool> launch(const CudaStream &stream) const;
  /// The nodes captured (kernels, copies, fills).
  size_t nodes() const { return numNodes; }

private:
  CudaGraph() = default;
  std::shared_ptr<CudaDevice> dev;
  void *graph = nullptr, *exec = nullptr;
  size_t numNodes = 0;
};

/// The CUDA side of an Executable: the module of a program's kernels, one
/// function per plan kernel, and the device buffers of the plan's own
/// arguments (temporaries and check records, zeroed once and kept across
/// runs). Two ways to run it: run() and bench() take host memory and copy
/// it through device buffers of their own (made at the first such call);
/// launch() runs on device buffers the caller keeps, with no copy. Use it
/// through Executable::loadCuda, which gives it the CPU executable's
/// interface.
class CudaProgram {
public:
  /// Loads `cubin` when given (falling back to `ptx` when the cubin is not
  /// for this GPU and there is PTX), else `ptx`; looks up every kernel of
  /// `plan` and allocates its own buffers.
  static Result<std::unique_ptr<CudaProgram>> load(const HostPlan &plan, const std::string &ptx,
                                                   const std::string &cubin = "");

  /// Enqueues the plan's launches on `stream` (null: the default stream),
  /// on device buffers: `args[i]` the address of the i-th argument that is
  /// not the program's own (in plan order, as runRaw's host pointers), at
  /// least as large as the plan says. With `resetChecks`, the check records
  /// are zeroed first (on the stream). Asynchronous; readChecks() reads what
  /// the checks found once the stream is done.
  Result<bool> launch(const std::vector<DevicePtr> &args, const CudaStream *stream = nullptr,
                      bool resetChecks = true);
  /// Binds `args` as launch() does, now: the tensor maps of the kernels
  /// that read through TMA are encoded and copied to the device here, which
  /// a launch being captured into a graph must not do.
  Result<bool> bind(const std::vector<DevicePtr> &args) { return bindArgs(args); }
  /// Enqueues launch `i` of the plan alone, bound as launch() binds `args`.
  Result<bool> launchOne(size_t i, const std::vector<DevicePtr> &args,
                         const CudaStream *stream = nullptr);
  /// Whether the plan has run-time checks.
  bool hasChecks() const;
  /// Zeroes the check records, on `stream` (null: the default stream, and
  /// synchronously).
  Result<bool> clearChecks(const CudaStream *stream = nullptr);
  /// Synchronizes, then reads the check records: the first failed check is
  /// the error ("LOC: error: ...").
  Result<bool> readChecks();

  /// Copies the non-temporary arguments in (`hostArgs[i]`: the host data of
  /// the i-th non-temporary argument, in plan order), runs `repeat` times,
  /// synchronizes, and copies what the program writes back (a shaped
  /// program's outputs, an in-place program's written slots). A run-time
  /// check that failed on the device is an error ("LOC: error: ...").
  Result<bool> run(const std::vector<void *> &hostArgs, int repeat = 1);

  /// Copies in as run() does, launches once to warm up, then `runs` times,
  /// each between two CUDA events; copies back after. Returns the per-run
  /// seconds of the GPU's clock, sorted ascending.
  Result<std::vector<double>> bench(const std::vector<void *> &hostArgs, int runs);

  const std::shared_ptr<CudaDevice> &device() const { return dev; }

private:
  CudaProgram() = default;
  /// Allocates the device buffers of the arguments that run() copies (once).
  Result<bool> stage();
  Result<bool> copyIn(const std::vector<void *> &hostArgs);
  Result<bool> copyOut(const std::vector<void *> &hostArgs);
  /// The staged buffers' addresses, in launch() order.
  std::vector<DevicePtr> stagedArgs() const;
  /// Binds `args` (the parameters of every launch), unless they are the
  /// last ones bound.
  Result<bool> bindArgs(const std::vector<DevicePtr> &args);
  /// Device memory holding tensor map `index` of kernel `kernel` for the
  /// buffer at `buffer` (cuTensorMapEncodeTiled), encoded once and kept.
  Result<DevicePtr> tensorMap(size_t kernel, size_t index, DevicePtr buffer);

  HostPlan plan;
  std::shared_ptr<CudaDevice> dev;
  std::unique_ptr<CudaModule> module;
  std::vector<CudaFunction> functions; ///< one per plan kernel
  /// One per plan argument: the program's own (temporaries, check records)
  /// from the load; the others, run()'s staging buffers, once staged.
  std::vector<DeviceBuffer> buffers;
  bool staged = false;
  /// The launches' parameters for the last `args` given to launch().
  std::vector<DevicePtr> lastArgs;
  std::vector<std::vector<DevicePtr>> params;
  /// The tensor maps encoded so far, by (kernel, map, buffer address).
  std::map<std::tuple<size_t, size_t, DevicePtr>, DeviceBuffer> tensorMaps;
};

} // namespace uop::rt

#endif // UOP_RUNTIME_CUDA_H
