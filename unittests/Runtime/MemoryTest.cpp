//===- MemoryTest.cpp - Tests of the process's memory budget --------------===//
//
// Part of the uop project.
//
// Issue 32, class 1: allocations were bounded one at a time, so buffers that
// each fit could together exceed the machine, and a kernel's heap alloc was
// an unchecked malloc. Every allocation now draws from one budget.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Runtime.h"

#include "gtest/gtest.h"

#include <vector>

using namespace uop::rt;

namespace {

/// Sets the budget for one test and forgets it after.
struct ScopedBudget {
  explicit ScopedBudget(const char *text) {
    Result<bool> ok = setMemoryBudget(text);
    EXPECT_TRUE(ok.ok()) << ok.error();
  }
  ~ScopedBudget() { clearMemoryBudget(); }
};

TEST(MemoryTest, BuffersDrawFromOneBudget) {
  ScopedBudget budget("8M");
  reclaimMemory(); // nothing kept from other tests
  uint64_t base = memoryInUse();
  // Each fits; together they do not.
  Result<HostBuffer> a = HostBuffer::create(DType::F32, {1 << 20}); // 4 MiB
  ASSERT_TRUE(a.ok()) << a.error();
  EXPECT_GE(memoryInUse(), base + (4u << 20));
  Result<HostBuffer> b = HostBuffer::create(DType::F32, {1 << 20});
  ASSERT_TRUE(b.ok()) << b.error();
  Result<HostBuffer> c = HostBuffer::create(DType::F32, {1 << 20});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().find("cannot allocate 4194304 bytes for an f32 buffer of shape "
                           "(1048576,): over the memory budget of 8388608 bytes "
                           "(--memory-budget), of which "),
            std::string::npos)
      << c.error();
  // Freed buffers give their bytes back (through the block cache, which
  // gives its blocks back when an allocation would not fit).
  { HostBuffer gone = a.take(); }
  Result<HostBuffer> d = HostBuffer::create(DType::F32, {1 << 20});
  ASSERT_TRUE(d.ok()) << d.error();
}

TEST(MemoryTest, FreedBlocksAreReclaimedForOtherSizes) {
  ScopedBudget budget("6M");
  reclaimMemory();
  {
    Result<HostBuffer> a = HostBuffer::create(DType::F32, {1 << 20});
    ASSERT_TRUE(a.ok()) << a.error();
  } // kept by the block cache, still drawn
  // Another size: the cache gives the kept block back.
  Result<HostBuffer> b = HostBuffer::create(DType::F32, {(1 << 20) + 4096});
  ASSERT_TRUE(b.ok()) << b.error();
}

TEST(MemoryTest, ReclaimersRunWhenAllocationsDoNotFit) {
  ScopedBudget budget("1M");
  reclaimMemory();
  uint64_t held = 0;
  ASSERT_TRUE(tryReserveMemory(512 << 10));
  held = 512 << 10;
  int id = addMemoryReclaimer([&] {
    uint64_t r = held;
    releaseMemory(held);
    held = 0;
    return r;
  });
  // 768 KiB fit only once the reclaimer gave its 512 KiB back.
  Result<bool> r = reserveMemory(768 << 10, "a test");
  EXPECT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(held, 0u);
  releaseMemory(768 << 10);
  removeMemoryReclaimer(id);
}

TEST(MemoryTest, KernelAllocatorDrawsFromTheBudget) {
  ScopedBudget budget("4M");
  reclaimMemory();
  uint64_t base = memoryInUse();
  (void)takeKernelAllocFailure();
  void *p = uop_rt_kernel_alloc(1 << 20);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  EXPECT_GT(memoryInUse(), base + (1u << 20) - 1);
  void *q = uop_rt_kernel_alloc(8 << 20);
  EXPECT_EQ(q, nullptr);
  std::string why = takeKernelAllocFailure();
  EXPECT_NE(why.find("over the memory budget of 4194304 bytes"), std::string::npos) << why;
  EXPECT_EQ(takeKernelAllocFailure(), ""); // taken once
  uop_rt_kernel_free(p);
  uop_rt_kernel_free(nullptr);
  EXPECT_EQ(memoryInUse(), base);
  // A size that overflows with the allocator's header.
  EXPECT_EQ(uop_rt_kernel_alloc(UINT64_MAX - 8), nullptr);
  EXPECT_FALSE(takeKernelAllocFailure().empty());
}

TEST(MemoryTest, MalformedBudgetsAreErrors) {
  EXPECT_FALSE(setMemoryBudget("lots").ok());
  EXPECT_FALSE(setMemoryBudget("0").ok());
  EXPECT_FALSE(setMemoryBudget("99999999999999999999").ok());
  EXPECT_FALSE(setMemoryBudget("16E").ok()); // 2^64
  EXPECT_EQ(setMemoryBudget("-1").error(),
            "--memory-budget: '-1' is not a positive byte count (such as 1000000, 512M or 64G)");
  clearMemoryBudget();
  EXPECT_EQ(memoryBudgetOrigin(), getenv("UOP_MEMORY_BUDGET") ? "$UOP_MEMORY_BUDGET"
                                                              : "the physical memory");
}

TEST(MemoryTest, ForcedDrawsAreGivenBack) {
  uint64_t base = memoryInUse();
  forceReserveMemory(10);
  releaseMemory(10);
  EXPECT_EQ(memoryInUse(), base);
}

} // namespace
