//===- Memory.cpp - The process's memory budget ---------------------------===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Memory.h"
#include "Uop/Runtime/Buffer.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <vector>
#include <unistd.h>

using namespace uop::rt;

namespace {
/// The budget's state. Never destroyed: buffers in static storage may be
/// freed after it would be.
struct Budget {
  std::atomic<uint64_t> used{0};
  /// Held while reclaimers run, so that none is removed (destroyed) then.
  std::mutex reclaimMu;
  std::mutex mu; ///< guards the fields below
  std::optional<uint64_t> set;
  std::string setOrigin;
  std::map<int, MemoryReclaimer> reclaimers;
  int nextId = 0;
  std::string kernelFailure;

  static Budget &get() {
    static Budget *b = new Budget;
    return *b;
  }
};

/// The physical memory in bytes (0 when unknown), capped by the cgroup's
/// memory.max (v2) or memory.limit_in_bytes (v1) when one is set.
uint64_t physicalMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  uint64_t mem = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
  for (const char *path :
       {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    if (FILE *f = std::fopen(path, "r")) {
      char buf[64] = {0};
      size_t n = std::fread(buf, 1, sizeof(buf) - 1, f);
      std::fclose(f);
      buf[n] = 0;
      char *end = nullptr;
      unsigned long long v = std::strtoull(buf, &end, 10);
      if (end != buf && v > 0 && (mem == 0 || v < mem))
        mem = v;
      break;
    }
  }
  return mem;
}
} // namespace

Result<uint64_t> uop::rt::memoryBudget() {
  Budget &b = Budget::get();
  {
    std::lock_guard<std::mutex> lock(b.mu);
    if (b.set)
      return *b.set;
  }
  if (const char *env = std::getenv("UOP_MEMORY_BUDGET"); env && *env) {
    std::optional<uint64_t> v = parseByteSize(env);
    if (!v || *v == 0)
      return Error(std::string("invalid UOP_MEMORY_BUDGET '") + env +
                   "' (expected a positive byte count such as 1000000, 512M or 64G)");
    return *v;
  }
  if (uint64_t mem = physicalMemory())
    return mem;
  return uint64_t(1) << 46; // 64 TiB: more than any machine uop runs on
}

Result<bool> uop::rt::setMemoryBudget(std::string_view text, const std::string &origin) {
  std::optional<uint64_t> v = parseByteSize(text);
  if (!v || *v == 0)
    return Error(origin + ": '" + std::string(text) +
                 "' is not a positive byte count (such as 1000000, 512M or 64G)");
  Budget &b = Budget::get();
  std::lock_guard<std::mutex> lock(b.mu);
  b.set = *v;
  b.setOrigin = origin;
  return true;
}

void uop::rt::clearMemoryBudget() {
  Budget &b = Budget::get();
  std::lock_guard<std::mutex> lock(b.mu);
  b.set.reset();
  b.setOrigin.clear();
}

std::string uop::rt::memoryBudgetOrigin() {
  Budget &b = Budget::get();
  {
    std::lock_guard<std::mutex> lock(b.mu);
    if (b.set)
      return b.setOrigin;
  }
  if (const char *env = std::getenv("UOP_MEMORY_BUDGET"); env && *env)
    return "$UOP_MEMORY_BUDGET";
  return "the physical memory";
}

uint64_t uop::rt::memoryInUse() { return Budget::get().used.load(std::memory_order_relaxed); }

/// Adds `bytes` to the use when the sum stays within `limit`.
static bool tryDraw(uint64_t bytes, uint64_t limit) {
  std::atomic<uint64_t> &used = Budget::get().used;
  uint64_t cur = used.load(std::memory_order_relaxed);
  do {
    if (bytes > limit || cur > limit - bytes)
      return false;
  } while (!used.compare_exchange_weak(cur, cur + bytes, std::memory_order_relaxed));
  return true;
}

bool uop::rt::tryReserveMemory(uint64_t bytes) {
  Result<uint64_t> limit = memoryBudget();
  if (!limit)
    return false;
  if (tryDraw(bytes, *limit))
    return true;
  reclaimMemory();
  return tryDraw(bytes, *limit);
}

Result<bool> uop::rt::reserveMemory(uint64_t bytes, const std::string &what) {
  Result<uint64_t> limit = memoryBudget();
  if (!limit)
    return Error("cannot allocate " + std::to_string(bytes) + " bytes for " + what + ": " +
                 limit.error());
  if (tryReserveMemory(bytes))
    return true;
  return Error("cannot allocate " + std::to_string(bytes) + " bytes for " + what +
               ": over the memory budget of " + std::to_string(*limit) + " bytes (" +
               memoryBudgetOrigin() + "), of which " + std::to_string(memoryInUse()) +
               " are in use; set UOP_MEMORY_BUDGET or --memory-budget to change it");
}

void uop::rt::forceReserveMemory(uint64_t bytes) {
  Budget::get().used.fetch_add(bytes, std::memory_order_relaxed);
}

void uop::rt::releaseMemory(uint64_t bytes) {
  std::atomic<uint64_t> &used = Budget::get().used;
  uint64_t cur = used.load(std::memory_order_relaxed);
  // Never below zero, whatever a caller does.
  while (!used.compare_exchange_weak(cur, cur >= bytes ? cur - bytes : 0,
                                     std::memory_order_relaxed)) {
  }
}

int uop::rt::addMemoryReclaimer(MemoryReclaimer reclaimer) {
  Budget &b = Budget::get();
  std::lock_guard<std::mutex> lock(b.mu);
  int id = b.nextId++;
  b.reclaimers[id] = std::move(reclaimer);
  return id;
}

void uop::rt::removeMemoryReclaimer(int id) {
  Budget &b = Budget::get();
  std::lock_guard<std::mutex> running(b.reclaimMu);
  std::lock_guard<std::mutex> lock(b.mu);
  b.reclaimers.erase(id);
}

uint64_t uop::rt::reclaimMemory() {
  Budget &b = Budget::get();
  // One reclaim at a time; an allocation that comes while one runs simply
  // retries (try_lock: a reclaimer's own frees never wait here).
  std::unique_lock<std::mutex> running(b.reclaimMu, std::try_to_lock);
  if (!running.owns_lock())
    return 0;
  std::vector<MemoryReclaimer> all;
  {
    std::lock_guard<std::mutex> lock(b.mu);
    for (auto &[id, r] : b.reclaimers)
      all.push_back(r);
  }
  uint64_t freed = 0;
  for (MemoryReclaimer &r : all)
    freed += r();
  return freed;
}

std::string uop::rt::takeKernelAllocFailure() {
  Budget &b = Budget::get();
  std::lock_guard<std::mutex> lock(b.mu);
  std::string s = std::move(b.kernelFailure);
  b.kernelFailure.clear();
  return s;
}

/// The header before each kernel allocation: its size, keeping the data
/// 64-byte aligned.
static constexpr uint64_t kKernelHeader = 64;

extern "C" void *uop_rt_kernel_alloc(uint64_t bytes) {
  auto fail = [&](const std::string &why) -> void * {
    Budget &b = Budget::get();
    std::lock_guard<std::mutex> lock(b.mu);
    if (b.kernelFailure.empty())
      b.kernelFailure = why;
    return nullptr;
  };
  Result<uint64_t> perAlloc = maxAllocBytes();
  if (perAlloc && bytes > *perAlloc)
    return fail("more than the limit of " + std::to_string(*perAlloc) +
                " bytes for one allocation ($UOP_MAX_ALLOC_BYTES or the physical memory)");
  if (bytes > UINT64_MAX - kKernelHeader)
    return fail("the size overflows 64 bits");
  uint64_t total = bytes + kKernelHeader;
  Result<bool> reserved = reserveMemory(total, "a kernel's alloc");
  if (!reserved) {
    std::string msg = reserved.error();
    size_t colon = msg.find(": ");
    return fail(colon == std::string::npos ? msg : msg.substr(colon + 2));
  }
  void *p = std::aligned_alloc(64, (total + 63) / 64 * 64);
  if (!p) {
    releaseMemory(total);
    return fail("out of memory");
  }
  std::memcpy(p, &total, sizeof(total));
  return static_cast<char *>(p) + kKernelHeader;
}

extern "C" void uop_rt_kernel_free(void *p) {
  if (!p)
    return;
  char *base = static_cast<char *>(p) - kKernelHeader;
  uint64_t total;
  std::memcpy(&total, base, sizeof(total));
  releaseMemory(total);
  std::free(base);
}
