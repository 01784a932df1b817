//===- CrashWatchdog.h - a crash report that hangs ends the tool --*- C++ -*-===//
//
// On a crash (SIGSEGV, SIGABRT, ...) LLVM's handler prints a stack trace from
// inside the signal handler, and that allocates. When the crash is a JIT'd
// kernel that wrote outside its buffers, the heap may be corrupt or its lock
// held: the report deadlocks in malloc and the tool hangs instead of dying.
// The watchdog is the first thing a crash runs: an alarm, so that a report
// still stuck `seconds` later ends the process (SIGALRM, exit status 142).
// Call it before llvm::InitLLVM, which registers the stack trace after it.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_SUPPORT_CRASHWATCHDOG_H
#define UOP_SUPPORT_CRASHWATCHDOG_H

#include "llvm/Support/Signals.h"

#include <unistd.h>

namespace mlir::uop {

/// The seconds a crash report may take before the process is ended.
inline constexpr unsigned kCrashReportSeconds = 10;

/// Arms an alarm of `seconds` when the process crashes, before any other
/// crash handler runs (alarm() is async-signal-safe).
inline void installCrashWatchdog(unsigned seconds = kCrashReportSeconds) {
  static unsigned armed;
  armed = seconds;
  llvm::sys::AddSignalHandler([](void *) { alarm(armed); }, nullptr);
}

} // namespace mlir::uop

#endif // UOP_SUPPORT_CRASHWATCHDOG_H
