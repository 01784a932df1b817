//===- HostCpu.h - can this CPU run code built for a target -----*- C++ -*-===//
//
// Part of the uop project. No LLVM or MLIR includes.
//
// A CPU bundle (or a program compiled for a named CPU) records the LLVM
// features of the target it was compiled for; before its code runs, the
// runtime checks that this machine has them (an AVX-512 kernel on an AVX2
// CPU dies of SIGILL otherwise). The host's features are Linux's
// /proc/cpuinfo flags.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_HOSTCPU_H
#define UOP_RUNTIME_HOSTCPU_H

#include <string>
#include <vector>

namespace uop::rt {

/// The features of `llvmFeatures` ("+avx2,+fma,-avx512f", LLVM's x86 names)
/// that are enabled there but this CPU lacks, in their order. Features this
/// table does not map to a /proc/cpuinfo flag are not checked; without
/// /proc/cpuinfo nothing is (an empty list). The environment variable
/// UOP_CPU_FLAGS (space-separated cpuinfo flags) replaces this CPU's flags,
/// which tests use to play a smaller machine.
std::vector<std::string> missingCpuFeatures(const std::string &llvmFeatures);

} // namespace uop::rt

#endif // UOP_RUNTIME_HOSTCPU_H
