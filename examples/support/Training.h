//===- Training.h - where the training examples run, and their exported step -*- C++ -*-===//
//
// What mnist_mlp and gpt share about where they train (unlike Support.h,
// this uses uop): the context of --target (cpu, emulate, or cuda where the
// compiler and the GPU share a machine) and --chip, and --export-step=DIR,
// which writes the TinyJit's captured step as a step bundle for a machine
// with no compiler, with everything `uop-runner --steps` needs there and
// what to compare its run with:
//
//   DIR/step.uopx         the step (for --export-target, the CPU or CUDA)
//   DIR/x.npy, DIR/y.npy  the batches of the replay's steps (the example's
//                         steps 3.. : the capture took steps 1 and 2)
//   DIR/state0/NAME.npy   the state the bundle starts from
//   DIR/reference.csv     step,loss of the example's own steps 3.., counted
//                         from 1 as uop-runner counts them
//   DIR/reference-state/  the state after the example's last step
//
//===----------------------------------------------------------------------===//

#ifndef UOP_EXAMPLES_TRAINING_H
#define UOP_EXAMPLES_TRAINING_H

#include "Uop/Frontend/Jit.h"
#include "Uop/Frontend/Tensor.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace uop::examples {

/// The context of --target (cpu, emulate, cuda) and --chip, seeded: an
/// error names the flag, or is the device's ("no CUDA device: ...").
/// `fuseEpilogue`: CompileOptions::fuseEpilogue (--fuse-epilogue).
llvm::Expected<std::unique_ptr<TensorContext>> makeContext(const std::string &target,
                                                           const std::string &chip,
                                                           uint64_t seed,
                                                           bool fuseEpilogue = true);

/// --export-step=DIR: the files of the file comment.
class StepExport {
public:
  /// `target`: --export-target (cpu or cuda); `chip`: its --chip.
  StepExport(std::string dir, std::string target, std::string chip);
  bool enabled() const { return !dir.empty(); }
  /// After the capture: the bundle (compiled for the export target with
  /// `ctx`'s other options) and the state it starts from.
  llvm::Error write(TinyJit &jit, const TensorContext &ctx,
                    const std::vector<std::pair<std::string, Tensor>> &state);
  /// The batches of input `name` ("x", "y"): `batches` of `shape` each,
  /// their data in `data` (floats or i32), batch i of the file being
  /// batch (i + 2) % total of the example's (the replay's step 1 is its 3).
  template <typename T>
  llvm::Error writeBatches(const std::string &name, const std::vector<int64_t> &shape,
                           const std::vector<std::vector<T>> &batches, int64_t count);
  /// After the last step: the losses of steps 3.. and the final state.
  llvm::Error finish(const std::vector<double> &losses,
                     const std::vector<std::pair<std::string, Tensor>> &state);
  /// The uop-runner command that replays it (`steps` example steps).
  std::string command(int64_t steps) const;

private:
  std::string dir, target, chip;
};

} // namespace uop::examples

#endif // UOP_EXAMPLES_TRAINING_H
