//===- Storage.cpp - realized data on the host and the device --*- C++ -*-===//
//
// Where a realized buffer's data lives (TensorImpl.h's Storage): host memory
// for a cpu context, and the context's device memory for a device context
// (cuda: the GPU; emulate: host memory standing in for it, so the same code
// runs without a GPU). Values a plan computes stay where it computed them;
// the copies happen only where data crosses: host data a plan reads
// (fromVector, randn, load) goes to the device once, and numpy(), item()
// and buffer() bring device data back. Both sides recycle freed buffers
// through a pool: a step's outputs have the sizes of the last step's, and a
// fresh allocation costs a page fault per page on the host and a
// synchronizing cuMemAlloc/cuMemFree on the GPU.
//
//===----------------------------------------------------------------------===//

#include "TensorImpl.h"

#include "Uop/Runtime/Memory.h"

#include <cstring>
#include <map>
#include <mutex>

namespace uop {
using namespace detail;

//===----------------------------------------------------------------------===//
// The pools
//===----------------------------------------------------------------------===//

/// Freed output buffers by (dtype, elements), for the next runs. The
/// compiled kernels write every element of an output, so a recycled buffer
/// needs no clearing. The buffers it keeps stay drawn from the memory budget
/// (rt/Memory.h); when an allocation would not fit, the pool gives them back
/// (a reclaimer, which may run on another thread: hence the lock).
struct TensorContext::Impl::BufferPool {
  std::mutex mu;
  std::map<std::pair<int, int64_t>, std::vector<std::unique_ptr<rt::HostBuffer>>> free;
  size_t bytes = 0;
  int reclaimer = -1;
  /// What the pool keeps at most.
  static constexpr size_t kMaxBytes = size_t(256) << 20;
  static constexpr size_t kMaxPerSize = 16;

  BufferPool() {
    reclaimer = rt::addMemoryReclaimer([this] {
      decltype(free) all;
      {
        std::lock_guard<std::mutex> lock(mu);
        all.swap(free);
        bytes = 0;
      }
      uint64_t before = rt::memoryInUse();
      all.clear(); // the buffers go (to the runtime's block cache or the system)
      uint64_t after = rt::memoryInUse();
      return before > after ? before - after : 0;
    });
  }
  ~BufferPool() { rt::removeMemoryReclaimer(reclaimer); }

  void release(rt::HostBuffer *b) {
    std::unique_ptr<rt::HostBuffer> owned(b);
    std::lock_guard<std::mutex> lock(mu);
    auto &list = free[{static_cast<int>(b->dtype()), b->numel()}];
    if (list.size() >= kMaxPerSize || bytes + b->bytes() > kMaxBytes)
      return;
    bytes += b->bytes();
    list.push_back(std::move(owned));
  }

  /// A kept buffer of `dtype` and `n` elements, if any.
  std::unique_ptr<rt::HostBuffer> take(DType dtype, int64_t n) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = free.find({static_cast<int>(dtype), n});
    if (it == free.end() || it->second.empty())
      return nullptr;
    std::unique_ptr<rt::HostBuffer> b = std::move(it->second.back());
    it->second.pop_back();
    bytes -= b->bytes();
    return b;
  }
};

/// Freed device arrays by size. A training step frees as many arrays of a
/// size as it takes (each state tensor's old value), so the pool keeps many
/// per size; what it drops is freed (cuMemFree waits for the device).
struct TensorContext::Impl::DevicePool {
  std::map<size_t, std::vector<std::unique_ptr<rt::DeviceArray>>> free;
  size_t bytes = 0;
  static constexpr size_t kMaxBytes = size_t(2) << 30;
  static constexpr size_t kMaxPerSize = 1024;

  void release(rt::DeviceArray *a) {
    auto &list = free[a->bytes()];
    if (list.size() >= kMaxPerSize || bytes + a->bytes() > kMaxBytes) {
      delete a;
      return;
    }
    bytes += a->bytes();
    list.emplace_back(a);
  }
};

rt::Result<std::shared_ptr<rt::HostBuffer>> detail::poolBuffer(TensorContext::Impl &c,
                                                               DType dtype, int64_t n) {
  if (!c.pool)
    c.pool = std::make_shared<TensorContext::Impl::BufferPool>();
  auto &pool = *c.pool;
  std::unique_ptr<rt::HostBuffer> b = pool.take(dtype, n);
  if (!b) {
    auto fresh = rt::HostBuffer::create(dtype, {n});
    if (!fresh.ok())
      return rt::Error{fresh.error()};
    b = std::make_unique<rt::HostBuffer>(fresh.take());
  }
  std::weak_ptr<TensorContext::Impl::BufferPool> weak = c.pool;
  return std::shared_ptr<rt::HostBuffer>(b.release(), [weak](rt::HostBuffer *p) {
    if (auto pool = weak.lock())
      pool->release(p);
    else
      delete p;
  });
}

llvm::Expected<std::shared_ptr<rt::DeviceArray>> detail::poolDeviceArray(TensorContext::Impl &c,
                                                                         size_t bytes) {
  llvm::Expected<rt::Device *> dev = c.getDevice();
  if (!dev)
    return dev.takeError();
  if (!c.devicePool)
    c.devicePool = std::make_shared<TensorContext::Impl::DevicePool>();
  auto &pool = *c.devicePool;
  std::unique_ptr<rt::DeviceArray> a;
  auto it = pool.free.find(bytes);
  if (it != pool.free.end() && !it->second.empty()) {
    a = std::move(it->second.back());
    it->second.pop_back();
    pool.bytes -= a->bytes();
  } else {
    rt::Result<std::unique_ptr<rt::DeviceArray>> fresh = (*dev)->allocate(bytes);
    if (!fresh && !pool.free.empty()) {
      // Out of device memory: give the pool's arrays back and try again.
      pool.free.clear();
      pool.bytes = 0;
      fresh = (*dev)->allocate(bytes);
    }
    if (!fresh)
      return llvm::createStringError(fresh.error());
    a = fresh.take();
  }
  std::weak_ptr<TensorContext::Impl::DevicePool> weak = c.devicePool;
  return std::shared_ptr<rt::DeviceArray>(a.release(), [weak](rt::DeviceArray *p) {
    if (auto pool = weak.lock())
      pool->release(p);
    else
      delete p;
  });
}

//===----------------------------------------------------------------------===//
// The device
//===----------------------------------------------------------------------===//

llvm::Expected<rt::Device *> TensorContext::Impl::getDevice() {
  if (!deviceResident)
    return llvm::createStringError("internal error: a cpu context has no device");
  if (device)
    return device.get();
  if (options.compile.target == mlir::uop::CompileTarget::CUDA) {
    rt::Result<std::shared_ptr<rt::Device>> dev = rt::Device::cuda();
    if (!dev)
      return llvm::createStringError(dev.error());
    device = *dev;
  } else {
    device = rt::Device::host();
  }
  return device.get();
}

//===----------------------------------------------------------------------===//
// Storage
//===----------------------------------------------------------------------===//

std::shared_ptr<Storage> detail::hostStorage(std::shared_ptr<rt::HostBuffer> host) {
  auto s = std::make_shared<Storage>();
  s->dtype = host->dtype();
  s->numel = host->numel();
  s->host = std::move(host);
  return s;
}

llvm::Expected<std::shared_ptr<rt::HostBuffer>> detail::hostData(TensorContext &ctx, Storage &s) {
  if (s.host)
    return s.host;
  if (!s.device)
    return llvm::createStringError("internal error: a buffer with no data");
  auto host = rt::HostBuffer::create(s.dtype, {s.numel});
  if (!host.ok())
    return llvm::createStringError(host.error());
  if (auto e = copyToHost(ctx, s, host->data(), s.numel))
    return std::move(e);
  s.host = std::make_shared<rt::HostBuffer>(host.take());
  return s.host;
}

llvm::Error detail::copyToHost(TensorContext &ctx, const Storage &s, void *dst, int64_t n) {
  size_t bytes = static_cast<size_t>(n) * rt::dtypeSize(s.dtype);
  if (n > s.numel)
    return llvm::createStringError("internal error: a copy of " + std::to_string(n) +
                                   " elements out of a buffer of " + std::to_string(s.numel));
  if (s.host) {
    std::memcpy(dst, s.host->data(), bytes);
    return llvm::Error::success();
  }
  if (!s.device)
    return llvm::createStringError("internal error: a buffer with no data");
  // Waits for the launches that compute it (they come first in the
  // device's order).
  rt::Result<bool> ok = s.device->device().copyOut(dst, *s.device, bytes);
  if (!ok)
    return llvm::createStringError(ok.error());
  (void)ctx;
  return llvm::Error::success();
}

llvm::Expected<std::shared_ptr<rt::DeviceArray>> detail::deviceData(TensorContext &ctx,
                                                                    Storage &s) {
  if (s.device)
    return s.device;
  if (!s.host)
    return llvm::createStringError("internal error: a buffer with no data");
  auto &c = ctx.impl();
  llvm::Expected<std::shared_ptr<rt::DeviceArray>> a = poolDeviceArray(c, s.bytes());
  if (!a)
    return a.takeError();
  rt::Result<bool> ok = (*a)->device().copyIn(**a, s.host->data(), s.bytes());
  if (!ok)
    return llvm::createStringError(ok.error());
  s.device = *a;
  return s.device;
}

} // namespace uop
