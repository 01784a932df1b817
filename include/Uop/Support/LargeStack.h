//===- LargeStack.h - run a tool's work on a thread with a big stack -*- C++ -*-===//
//
// MLIR's parser, verifier and printer recurse once per nested region (a
// `uop.call` body is one), and LLVM's passes recurse on some use-def chains:
// past a few thousand levels the 8 MiB main-thread stack overflows and the
// tool dies of SIGSEGV. The tools run their work on a thread whose stack is
// large (1 GiB by default). That is virtual memory: pages are committed only
// when the recursion touches them, so a shallow program costs nothing more.
//
// Header-only and free of MLIR and LLVM (POSIX threads), so every tool and
// embedder can use it. In namespace mlir::uop with the rest of the compiler
// (a namespace ::uop next to mlir::uop would make `uop::` ambiguous in the
// tools, which say `using namespace mlir`).
//
//===----------------------------------------------------------------------===//

#ifndef UOP_SUPPORT_LARGESTACK_H
#define UOP_SUPPORT_LARGESTACK_H

#include <cstddef>
#include <functional>
#include <pthread.h>

namespace mlir::uop {

/// The stack the tools run on: 1 GiB of address space.
inline constexpr size_t kLargeStackBytes = size_t(1) << 30;

/// Runs `fn` on a new thread with a `bytes`-byte stack and returns what it
/// returns. If no such thread can be made (address space limited by ulimit
/// -v, say), `fn` runs on the calling thread instead: the same result, with
/// the stack the caller has.
inline int runWithLargeStack(const std::function<int()> &fn, size_t bytes = kLargeStackBytes) {
  struct Call {
    const std::function<int()> *fn;
    int result;
  } call{&fn, 0};
  auto body = [](void *arg) -> void * {
    auto *c = static_cast<Call *>(arg);
    c->result = (*c->fn)();
    return nullptr;
  };
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0)
    return fn();
  pthread_t thread;
  bool started = pthread_attr_setstacksize(&attr, bytes) == 0 &&
                 pthread_create(&thread, &attr, body, &call) == 0;
  pthread_attr_destroy(&attr);
  if (!started)
    return fn();
  pthread_join(thread, nullptr);
  return call.result;
}

} // namespace mlir::uop

#endif // UOP_SUPPORT_LARGESTACK_H
