//===- Device.cpp - memory that executables run on -------------*- C++ -*-===//
//
// Part of the uop project. The base class and the host device; the CUDA
// device (Device::cuda) is in Cuda.cpp, beside the driver table.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Device.h"

#include <cstdlib>
#include <cstring>

using namespace uop::rt;

DeviceArray::~DeviceArray() {
  if (dev)
    dev->release(addr);
}

Device::~Device() = default;

Result<std::unique_ptr<DeviceArray>> Device::allocate(size_t bytes) {
  Result<DevicePtr> p = alloc(std::max<size_t>(bytes, 1));
  if (!p)
    return Error{p.error()};
  ++counts.allocations;
  counts.bytesAllocated += bytes;
  return std::unique_ptr<DeviceArray>(new DeviceArray(shared_from_this(), *p, bytes));
}

Result<bool> Device::copyIn(const DeviceArray &dst, const void *src, size_t n) {
  if (n > dst.bytes())
    return Error{"copy of " + std::to_string(n) + " bytes into a device array of " +
                 std::to_string(dst.bytes())};
  ++counts.copiesIn;
  counts.bytesIn += n;
  return n ? doCopyIn(dst.ptr(), src, n) : Result<bool>(true);
}

Result<bool> Device::copyOut(void *dst, const DeviceArray &src, size_t n) {
  if (n > src.bytes())
    return Error{"copy of " + std::to_string(n) + " bytes out of a device array of " +
                 std::to_string(src.bytes())};
  ++counts.copiesOut;
  counts.bytesOut += n;
  return n ? doCopyOut(dst, src.ptr(), n) : Result<bool>(true);
}

Result<bool> Device::copy(const DeviceArray &dst, const DeviceArray &src, size_t n) {
  if (n > dst.bytes() || n > src.bytes())
    return Error{"copy of " + std::to_string(n) + " bytes between device arrays of " +
                 std::to_string(src.bytes()) + " and " + std::to_string(dst.bytes())};
  ++counts.copies;
  counts.bytesCopied += n;
  return n ? doCopy(dst.ptr(), src.ptr(), n) : Result<bool>(true);
}

namespace {
/// Host memory as a device's: what CPU executables run on.
class HostDevice final : public Device {
public:
  Backend backend() const override { return Backend::CPU; }
  std::string name() const override { return "host"; }
  Result<bool> synchronize() override { return true; }

protected:
  Result<DevicePtr> alloc(size_t bytes) override {
    size_t rounded = (bytes + 63) / 64 * 64;
    void *p = std::aligned_alloc(64, rounded);
    if (!p)
      return Error{"cannot allocate " + std::to_string(bytes) + " bytes of host memory"};
    return static_cast<DevicePtr>(reinterpret_cast<uintptr_t>(p));
  }
  void release(DevicePtr p) override { std::free(reinterpret_cast<void *>(uintptr_t(p))); }
  Result<bool> doCopyIn(DevicePtr dst, const void *src, size_t n) override {
    std::memcpy(reinterpret_cast<void *>(uintptr_t(dst)), src, n);
    return true;
  }
  Result<bool> doCopyOut(void *dst, DevicePtr src, size_t n) override {
    std::memcpy(dst, reinterpret_cast<const void *>(uintptr_t(src)), n);
    return true;
  }
  Result<bool> doCopy(DevicePtr dst, DevicePtr src, size_t n) override {
    std::memmove(reinterpret_cast<void *>(uintptr_t(dst)),
                 reinterpret_cast<const void *>(uintptr_t(src)), n);
    return true;
  }
};
} // namespace

std::shared_ptr<Device> Device::host() { return std::make_shared<HostDevice>(); }
