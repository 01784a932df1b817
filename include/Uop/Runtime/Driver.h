//===- Driver.h - what uop-run and uop-runner do with a program --*- C++ -*-===//
//
// The command-line half of running a compiled program, shared by uop-run
// (which compiles first) and uop-runner (which loads a bundle): bind a
// buffer to each argument of the plan (from --input files, random data, or
// zeros), run or benchmark, then save and print what the program computed.
// No MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_DRIVER_H
#define UOP_RUNTIME_DRIVER_H

#include "Uop/Runtime/Executable.h"
#include "Uop/Runtime/Plan.h"
#include "Uop/Runtime/Result.h"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace uop::rt {

/// The most runs --bench takes (more is surely a mistake).
constexpr uint64_t kMaxBenchRuns = 1000000;

/// What a command line asks of one run.
struct RunRequest {
  std::vector<std::string> inputs;  ///< SLOT=FILE.npy
  std::optional<uint64_t> seed;     ///< --random-inputs[=SEED]
  std::vector<std::string> outputs; ///< FILE.npy (the next value) or SLOT=FILE.npy
  bool print = false;               ///< print the values (or the buffers written)
  uint64_t bench = 0;               ///< time this many runs instead of one
  bool profile = false;             ///< then print one line per kernel (its best of 3 runs)
  /// Other files the run reads (the program, the bundle): no --output may
  /// name one.
  std::vector<std::string> extraInputs;
};

/// Splits "SLOT=FILE" of `--flag` (an error names the flag).
Result<std::pair<int64_t, std::string>> parseSlotArg(const std::string &flag,
                                                     const std::string &arg);

/// A non-negative decimal integer, all of `text`.
std::optional<uint64_t> parseUnsigned(const std::string &text);

/// The plan as --print-plan shows it: buffers, kernels (launches, work,
/// opts), launches.
std::string formatPlan(const HostPlan &plan);

/// Runs `exe` as `request` says, printing to `out`. Every error is one line
/// (no prefix) that names the slot or flag and what was expected.
/// The files of `request` checked before anything is compiled or run: each
/// --output is new or a regular file, no input (an --input file or one of
/// `extraInputs`) and no other output.
Result<bool> checkRequestFiles(const RunRequest &request);

/// Runs `exe` as `request` says: buffers from the inputs (random or zeroed),
/// one run (or `bench` runs), then every output written or none
/// (writeFilesAtomically, after checking each as checkRequestFiles does and
/// its slot or value), then the printing and the profile.
Result<bool> runRequest(Executable &exe, const RunRequest &request, std::FILE *out);

} // namespace uop::rt

#endif // UOP_RUNTIME_DRIVER_H
