//===- CrashWatchdogTest.cpp - a stuck crash report ends the tool ----------===//

#include "Uop/Support/CrashWatchdog.h"

#include "llvm/Support/Signals.h"

#include "gtest/gtest.h"

#include <csignal>

namespace {

// A crash whose report never finishes (a handler stuck as LLVM's stack trace
// is when malloc's lock is held by the crashed kernel) still ends the
// process, by the watchdog's alarm.
TEST(CrashWatchdogDeathTest, AStuckCrashReportEndsTheProcess) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        mlir::uop::installCrashWatchdog(1);
        llvm::sys::AddSignalHandler(
            [](void *) {
              for (;;)
                pause();
            },
            nullptr);
        std::raise(SIGSEGV);
      },
      testing::KilledBySignal(SIGALRM), "");
}

// Without a stuck handler a crash is a crash: the signal, not the alarm.
TEST(CrashWatchdogDeathTest, ACrashStaysACrash) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        mlir::uop::installCrashWatchdog(1);
        std::raise(SIGSEGV);
      },
      testing::KilledBySignal(SIGSEGV), "");
}

} // namespace
