//===- Memory.h - The process's memory budget -------------------*- C++ -*-===//
//
// Part of the uop project. No LLVM or MLIR includes.
//
// Every allocation uop makes for data draws from one budget, in total: host
// buffers (HostBuffer, and so the frontend's buffer pool and the runtime's
// block cache, which keep freed buffers for reuse), the allocations kernels
// make on the heap (an alloc larger than the stack takes; the kernel calls
// the runtime's allocator through a hook the loader sets), and CUDA device
// memory. An allocation that would exceed the budget fails with one line
// that says how much was asked, how much is in use and what the budget is,
// before the system's allocator (or the OOM killer) is involved.
//
// The budget is, in order: what setMemoryBudget() set (the tools'
// --memory-budget=SIZE), $UOP_MEMORY_BUDGET, else the physical memory
// (capped by the cgroup's memory.max where there is one). Sizes are byte
// counts as parseByteSize reads them: 1000000, 512M, 64G.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_MEMORY_H
#define UOP_RUNTIME_MEMORY_H

#include "Uop/Runtime/Result.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace uop::rt {

/// The budget in bytes (see the file comment); an error when
/// $UOP_MEMORY_BUDGET is malformed.
Result<uint64_t> memoryBudget();

/// Sets the budget from `text` (a byte count, as parseByteSize reads it),
/// replacing the environment's and the default; `origin` names where it
/// came from in messages ("--memory-budget"). An error for a malformed or
/// zero size.
Result<bool> setMemoryBudget(std::string_view text, const std::string &origin = "--memory-budget");

/// Forgets what setMemoryBudget set: the environment's or the default
/// applies again (for tests).
void clearMemoryBudget();

/// Where the budget comes from, for messages: "--memory-budget",
/// "$UOP_MEMORY_BUDGET" or "the physical memory".
std::string memoryBudgetOrigin();

/// Bytes drawn from the budget now.
uint64_t memoryInUse();

/// Draws `bytes` from the budget for `what` ("an f32 buffer of shape (8,)").
/// When they do not fit, the reclaimers (caches of freed memory) are asked
/// to give memory back first; an error "cannot allocate N bytes for WHAT:
/// over the memory budget of B bytes (ORIGIN), of which U are in use; set
/// UOP_MEMORY_BUDGET or --memory-budget to change it" if they still do not
/// fit.
Result<bool> reserveMemory(uint64_t bytes, const std::string &what);

/// reserveMemory without a message (for hot paths and kernels): false when
/// the bytes do not fit.
bool tryReserveMemory(uint64_t bytes);

/// Draws `bytes` even past the budget (a copy of a buffer that exists:
/// its size was checked when it was made).
void forceReserveMemory(uint64_t bytes);

/// Gives back `bytes` drawn before.
void releaseMemory(uint64_t bytes);

/// A cache of freed memory that can give it back: frees what it holds and
/// returns how many budget bytes that released.
using MemoryReclaimer = std::function<uint64_t()>;

/// Registers `reclaimer` (called, without locks held, when an allocation
/// does not fit); returns an id for removeMemoryReclaimer.
int addMemoryReclaimer(MemoryReclaimer reclaimer);
void removeMemoryReclaimer(int id);

/// Asks every reclaimer to give its memory back; the bytes released.
uint64_t reclaimMemory();

/// The first failure of a kernel's heap allocation since the last call,
/// as a phrase ("128 MiB are in use of the memory budget of ..."), and
/// clears it; "" when none failed.
std::string takeKernelAllocFailure();

} // namespace uop::rt

extern "C" {
/// The allocator of compiled kernels' heap allocations (set as the kernel
/// library's uop_rt_alloc_hook by the loader): `bytes` from the budget and
/// the system, or null (the kernel reports the failure at the alloc).
void *uop_rt_kernel_alloc(uint64_t bytes);
/// Frees what uop_rt_kernel_alloc returned (null is ignored).
void uop_rt_kernel_free(void *p);
}

#endif // UOP_RUNTIME_MEMORY_H
