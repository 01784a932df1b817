//===- Bundle.h - a compiled program in one file (.uopx) ---------*- C++ -*-===//
//
// Part of the uop project. No LLVM or MLIR includes.
//
// A bundle is everything a process with no compiler needs to run a compiled
// program: the target, a description of the machine it was compiled for, the
// host plan (Plan.h) and the code (a CPU shared library, or the PTX and/or a
// cubin of the CUDA kernels). uop-runner runs one; the execution engine
// writes one.
//
// The file (.uopx; every integer little-endian):
//
//   offset  size  contents
//   0       8     magic "\x89UOPX\r\n\x1a" (a text-mode transfer breaks it)
//   8       4     format version: 1 (kBundleVersion) for a program, 2
//                 (kStepBundleVersion, Step.h) for a training step
//   12      4     number of entries N (at most 64; 65536 in format 2)
//   16      8     size of the whole file in bytes, the checksum included
//   24      ...   N entries, each: u32 name length (1 to 64), the name,
//                 u64 data length, the data
//   size-32 32    SHA-256 of every byte before it
//
// Entries: "target" ("cpu" or "cuda"), "arch" (CPU: the machine as
// hostMachine() names it, then optionally a space and the CPU the code was
// tuned for, e.g. "x86-64 znver5"; CUDA: the chip, e.g. "sm_90"), "plan"
// (HostPlan::serialize()), "producer" (e.g. "uop 0.1.0"), optionally
// "machine" (the #uop.target the code was compiled for, as printed) and
// "features" (CPU: its LLVM features, "+avx2,+fma,..."; a CPU that lacks
// one is refused), and the code:
// "cpu.so" for CPU, "cuda.ptx" and/or "cuda.cubin" for CUDA. A reader
// ignores entries it does not know (so version 1 can grow), and checks the
// magic, version, size and checksum before looking at any entry. A step
// bundle (format 2) holds a training step's programs, its state and how
// they connect (Step.h): this reader refuses it with a message that says
// so, and an older runtime with "format version 2".
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_BUNDLE_H
#define UOP_RUNTIME_BUNDLE_H

#include "Uop/Runtime/Executable.h"
#include "Uop/Runtime/Plan.h"
#include "Uop/Runtime/Result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace uop::rt {

/// The bundle format version this runtime writes and reads.
constexpr uint32_t kBundleVersion = 1;

/// A compiled program, as a bundle holds it.
struct Bundle {
  Backend target = Backend::CPU;
  /// What the code was compiled for: "x86-64 znver5", "sm_90" (see above).
  std::string arch;
  HostPlan plan;
  /// CPU: the bytes of the shared library (exporting `uop_entry`).
  std::string library;
  /// CUDA: the PTX text of every kernel (`.entry` names = plan kernel
  /// names), and/or a cubin of them (tried first when loading).
  std::string ptx, cubin;
  /// Who wrote it (informational).
  std::string producer = "uop";
  /// The #uop.target it was compiled for, as printed (informational; ""
  /// in bundles written before targets were recorded).
  std::string machine;
  /// CPU: the target's LLVM features; loadBundle refuses a bundle whose
  /// enabled features this CPU lacks (missingCpuFeatures).
  std::string features;

  /// A CPU bundle; `arch` defaults to hostMachine().
  static Bundle cpu(HostPlan plan, std::string libraryBytes, std::string arch = "");
  /// A CUDA bundle for `chip` (e.g. "sm_90"; by default the PTX's
  /// `.target`). Needs no GPU.
  static Bundle cuda(HostPlan plan, std::string ptx, std::string chip = "", std::string cubin = "");
};

/// The chip of a PTX text's `.target` directive ("sm_90"), or "".
std::string ptxTarget(const std::string &ptx);

/// The bytes of the .uopx file of `bundle`.
std::string encodeBundle(const Bundle &bundle);

/// The bundle in `bytes`; errors start with `name` (the file's path), e.g.
/// "P.uopx: not a uop bundle (bad magic)", "P.uopx: truncated uop bundle (100
/// bytes; its header says 4096)", "P.uopx: corrupted uop bundle (checksum
/// mismatch)", "P.uopx: a uop bundle of format version 7 (this uop reads
/// versions 1 and 2)", "P.uopx: the bundle's plan: ...", "P.uopx: a
/// training-step bundle, not a program (uop-runner P.uopx --steps=N trains
/// with it)".
Result<Bundle> decodeBundle(std::string_view bytes, const std::string &name);

/// Writes `bundle` to `path` atomically (a temporary file beside it, then
/// rename(2)): readers see the old file or the new one, never a partial one.
Result<bool> writeBundle(const std::string &path, const Bundle &bundle);

/// Reads and checks the bundle at `path` (as decodeBundle, naming `path`).
Result<Bundle> readBundle(const std::string &path);

/// A runnable executable of `bundle` (`name` prefixes errors). CPU: refuses
/// a bundle for another machine ("P.uopx: a CPU bundle for AArch64, not this
/// machine (x86-64)") or for a CPU with features this one lacks ("P.uopx: a
/// CPU bundle for znver5, which needs avx512f, avx512bw: this CPU lacks
/// them"); puts the library in the cache (cacheDir(), keyed by
/// its hash, checksummed) or, when the cache cannot take it, a private
/// temporary file; and loads it with the loader's checks. CUDA: loads the
/// kernels on the device (Executable::loadCuda); with no GPU the error is
/// CudaDevice::get()'s, starting "no CUDA device: " (not prefixed); a load
/// failure on a device other than the bundle's arch says so.
Result<std::unique_ptr<Executable>> loadBundle(const Bundle &bundle, const std::string &name);

/// The format version in the header of the bundle at `path` (1: a program,
/// 2: a training step, Step.h), read without checking the rest; errors as
/// readBundle's.
Result<uint32_t> bundleFormat(const std::string &path);

/// readBundle then loadBundle.
Result<std::unique_ptr<Executable>> loadBundle(const std::string &path);

/// The bundle of a loaded executable: CPU reads its library file (`arch`
/// defaults to hostMachine()); CUDA takes its PTX/cubin (`arch` defaults to
/// the PTX's `.target`, else the device's chip).
Result<Bundle> bundleOf(const Executable &exe, std::string arch = "");

} // namespace uop::rt

#endif // UOP_RUNTIME_BUNDLE_H
