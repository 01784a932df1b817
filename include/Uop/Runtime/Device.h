//===- Device.h - memory that executables run on, kept between runs -*- C++ -*-===//
//
// Part of the uop project. No LLVM or MLIR includes.
//
// Executable::run and runRaw take host memory: a CUDA run copies its inputs
// in and its outputs back. A caller that keeps its data where the code runs
// (the Tensor frontend's device contexts: realized values stay on the GPU
// between realizes) holds it in a Device's memory instead, and runs
// executables on it with Executable::runOn, with no copy:
//
//   auto dev = uop::rt::Device::cuda();             // or Device::host()
//   auto a = (*dev)->allocate(bytes);               // freed with its last reference
//   (*dev)->copyIn(**a, hostData, bytes);           // the only copies are the caller's
//   exe->runOn({(*a)->ptr(), (*out)->ptr()});
//   (*dev)->copyOut(hostResult, **out, bytes);
//
// Two devices:
//   - Device::cuda(): the CUDA device's memory (cuMemAlloc; copies through
//     the driver), for CUDA executables. Without a GPU: "no CUDA device: ...".
//   - Device::host(): host memory standing in for a device's, for CPU
//     executables (the emulate target's among them): the same calls and the
//     same copies as on the GPU, so the code that keeps data on a device
//     runs, and is tested, on a machine with no GPU.
//
// A device counts what callers asked of it (stats()), so tests can check
// where copies happen. Not thread-safe: one caller at a time.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_DEVICE_H
#define UOP_RUNTIME_DEVICE_H

#include "Uop/Runtime/Cuda.h"
#include "Uop/Runtime/Executable.h"
#include "Uop/Runtime/Result.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace uop::rt {

class Device;

/// An allocation of a device's memory, freed (returned to its device) when
/// destroyed. Its address is a DevicePtr: a device address on the GPU, a
/// host address on the host device.
class DeviceArray {
public:
  DeviceArray(const DeviceArray &) = delete;
  DeviceArray &operator=(const DeviceArray &) = delete;
  ~DeviceArray();

  DevicePtr ptr() const { return addr; }
  size_t bytes() const { return size; }
  Device &device() const { return *dev; }

private:
  friend class Device;
  DeviceArray(std::shared_ptr<Device> dev, DevicePtr addr, size_t size)
      : dev(std::move(dev)), addr(addr), size(size) {}
  std::shared_ptr<Device> dev;
  DevicePtr addr;
  size_t size;
};

/// What callers asked of a device (for tests and UOP_DEBUG).
struct DeviceStats {
  uint64_t allocations = 0, bytesAllocated = 0;
  uint64_t copiesIn = 0, bytesIn = 0;   ///< host to device
  uint64_t copiesOut = 0, bytesOut = 0; ///< device to host
  uint64_t copies = 0, bytesCopied = 0; ///< device to device
};

/// The memory of the processor executables of one backend run on.
class Device : public std::enable_shared_from_this<Device> {
public:
  virtual ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  /// The CUDA device (CudaDevice::get(): device 0 or $UOP_CUDA_DEVICE), one
  /// object per process while it is alive; CudaDevice::get()'s error ("no
  /// CUDA device: ...") without one.
  static Result<std::shared_ptr<Device>> cuda();
  /// Host memory (64-byte aligned), for CPU executables.
  static std::shared_ptr<Device> host();

  /// The executables that run on this memory: Backend::CUDA or Backend::CPU.
  virtual Backend backend() const = 0;
  /// "NVIDIA H200 (sm_90)", "host".
  virtual std::string name() const = 0;

  /// `bytes` of memory (at least 1 byte is allocated), uninitialized.
  Result<std::unique_ptr<DeviceArray>> allocate(size_t bytes);
  /// Copies `n` bytes (at most the array's) in from host memory, out to
  /// host memory, or between two arrays of this device. They return when
  /// the copy is done (CUDA: in the order of the work before them).
  Result<bool> copyIn(const DeviceArray &dst, const void *src, size_t n);
  Result<bool> copyOut(void *dst, const DeviceArray &src, size_t n);
  Result<bool> copy(const DeviceArray &dst, const DeviceArray &src, size_t n);
  /// Waits for every launch and copy issued so far (and reports their errors).
  virtual Result<bool> synchronize() = 0;

  const DeviceStats &stats() const { return counts; }

protected:
  Device() = default;
  virtual Result<DevicePtr> alloc(size_t bytes) = 0;
  virtual void release(DevicePtr p) = 0;
  virtual Result<bool> doCopyIn(DevicePtr dst, const void *src, size_t n) = 0;
  virtual Result<bool> doCopyOut(void *dst, DevicePtr src, size_t n) = 0;
  virtual Result<bool> doCopy(DevicePtr dst, DevicePtr src, size_t n) = 0;

private:
  friend class DeviceArray;
  DeviceStats counts;
};

} // namespace uop::rt

#endif // UOP_RUNTIME_DEVICE_H
