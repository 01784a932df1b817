//===- Step.h - a training step, replayed without the compiler ---*- C++ -*-===//
//
// Part of the uop project. No LLVM or MLIR includes.
//
// A TinyJit (include/Uop/Frontend/Jit.h) captures a training step as the
// realizes it runs: each realize's compiled program, and where each buffer
// it reads comes from: an input of the step (the batch), a value an earlier
// realize of the step produced, the state (parameters, optimizer moments:
// read at the start of a step, rebound to new values at its end) or fixed
// data (a mask, arange's values). A StepProgram is that capture as data; a
// step bundle (.uopx format 2, below) holds it with the compiled programs
// and the tensors' initial values, and StepRunner replays it: uop-runner
// --steps=N trains with it on a machine with no compiler.
//
//   auto bundle = uop::rt::readStepBundle("mlp.uopx");
//   auto runner = uop::rt::StepRunner::load(*bundle, "mlp.uopx");
//   (*runner)->setData(0, images);          // (K, 128, 784): step s reads batch s mod K
//   (*runner)->setData(1, labels);
//   (*runner)->run(200, 20, 0, [](const uop::rt::StepReport &r) { ...; return true; });
//   auto w = (*runner)->tensor(0);          // the state after the last step
//
// The replay. Each step copies its batches into the input buffers, runs the
// realizes in order on buffers fixed at load, and leaves each state tensor's
// new value where the next step reads it: state lives in two buffers, and a
// step reads one and its programs write the new value straight into the
// other (no copy), so steps alternate between two bindings; a state whose
// new value cannot be written in place (it is an input of its realize, or
// shares an output) is copied there at the end of the step. On CUDA, each
// of the two bindings is captured once as a CUDA graph (CudaGraph): a step
// is then the batches' device-to-device copies and one cuGraphLaunch, with
// no host work between the kernels; the recorded output (the loss) is
// copied to a device log, read at each report. A CPU step runs the same
// programs (the captured executables' own code), so a replay on the CPU is
// bit-identical to the TinyJit's in the process that captured it.
//
// The step bundle (format 2 of Bundle.h's container: same magic, header and
// SHA-256; a runtime that reads only format 1 refuses it as "format version
// 2"; at most 65536 entries): "kind" = "step", "target", "arch",
// "producer", "machine", "features" as a program bundle's, "step" (the
// StepProgram as text, StepProgram::serialize), "program.J.plan" (a
// HostPlan) with "program.J.cpu.so" or "program.J.cuda.ptx" for each
// program J, and "tensor.K" (a .npy) with tensor K's initial value.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_RUNTIME_STEP_H
#define UOP_RUNTIME_STEP_H

#include "Uop/Runtime/Buffer.h"
#include "Uop/Runtime/Executable.h"
#include "Uop/Runtime/Plan.h"
#include "Uop/Runtime/Result.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace uop::rt {

/// The bundle format of step bundles (Bundle.h's kBundleVersion is 1).
constexpr uint32_t kStepBundleVersion = 2;

/// Where a realize of a step reads a buffer, or where a result is.
struct StepSource {
  enum Kind {
    /// Not read (the compiled program does not use the slot).
    None,
    /// The step's input `index` (its batch).
    Input,
    /// Value `value` of the step's realize `index`.
    Produced,
    /// Tensor `index` (StepProgram::tensors): a state tensor as it is at the
    /// start of the step (as the source of an output: at its end), or fixed
    /// data.
    Tensor,
  } kind = None;
  size_t index = 0, value = 0;

  bool operator==(const StepSource &o) const {
    return kind == o.kind && index == o.index && value == o.value;
  }
};

/// An input of the step (a batch of the data).
struct StepInput {
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
};

/// A tensor of the step: state, which each step reads and rebinds, or
/// fixed data.
struct StepTensor {
  /// Its .npy file's name without the extension (uop-runner --state,
  /// --save-state): letters, digits, '.', '_', '-'; unique.
  std::string name;
  bool state = true;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  /// A state tensor's value after a step: a value of a realize (Produced),
  /// or None when no realize rebinds it.
  StepSource next;
};

/// One realize: a program run on its slots' sources.
struct StepRealize {
  size_t program = 0;
  /// Per program slot.
  std::vector<StepSource> slots;
  /// The shapes of the program's values.
  std::vector<std::vector<int64_t>> values;
};

/// A captured training step, as data.
struct StepProgram {
  size_t numPrograms = 0;
  std::vector<StepInput> inputs;
  std::vector<StepTensor> tensors;
  std::vector<StepRealize> realizes;
  /// The step's results (the loss first, as the examples return it).
  std::vector<StepSource> outputs;
  std::vector<std::vector<int64_t>> outputShapes;

  /// The text form ("uop-step 1" ...), and back. parse() checks every line
  /// and every reference (a realize reads only inputs, tensors and values of
  /// earlier realizes; a state's next value is a value of a realize; names
  /// are unique file names); an error names the line.
  std::string serialize() const;
  static Result<StepProgram> parse(const std::string &text);
};

/// A step, compiled: what a step bundle holds.
struct StepBundle {
  Backend target = Backend::CPU;
  /// As a program bundle's (Bundle.h).
  std::string arch, machine, features, producer = "uop";
  StepProgram step;
  struct Program {
    HostPlan plan;
    /// CPU: the shared library's bytes; CUDA: the PTX.
    std::string code;
  };
  std::vector<Program> programs;
  /// The tensors' initial values, as step.tensors.
  std::vector<HostBuffer> tensors;
};

/// The bytes of the .uopx file of `bundle` (format 2).
std::string encodeStepBundle(const StepBundle &bundle);
/// The step bundle in `bytes`, checked as decodeBundle checks a program
/// bundle (magic, version, size, checksum), then every entry (the step text,
/// the plans, a program's code, each tensor's .npy against its declared
/// dtype and shape). Errors start with `name`; a program bundle (format 1)
/// is "NAME: a program bundle, not a training step (uop-runner runs it
/// without --steps)".
Result<StepBundle> decodeStepBundle(std::string_view bytes, const std::string &name);
/// Writes `bundle` to `path` atomically (as writeBundle).
Result<bool> writeStepBundle(const std::string &path, const StepBundle &bundle);
/// Reads and checks the step bundle at `path`.
Result<StepBundle> readStepBundle(const std::string &path);

/// A report of StepRunner::run: the steps done so far, the recorded
/// output's values of the steps since the last report, and the wall time
/// those steps took.
struct StepReport {
  int64_t step = 0;
  std::vector<double> values;
  double seconds = 0;
};

/// How StepRunner runs on CUDA.
struct StepRunOptions {
  /// Capture each binding as a CUDA graph (else: launch the kernels one by
  /// one on the stream).
  bool graph = true;
};

/// Replays a step bundle's step (see the file comment).
class StepRunner {
public:
  /// Loads the programs (CPU: refused for another machine or a CPU without
  /// the code's features, as loadBundle; CUDA: on the device, "no CUDA
  /// device: ..." without one), checks them against the step (every slot's
  /// source of the dtype and size its plan takes), allocates every buffer
  /// and sets the tensors to the bundle's values. Errors start with `name`.
  static Result<std::unique_ptr<StepRunner>> load(const StepBundle &bundle,
                                                  const std::string &name,
                                                  StepRunOptions options = {});
  ~StepRunner();

  const StepProgram &step() const;
  /// "cuda, NVIDIA H200 (sm_90), 2 CUDA graphs of 31 nodes" / "cpu, host".
  std::string description() const;
  /// Kernel launches in one step.
  unsigned launchesPerStep() const;

  /// Sets tensor `k` (its dtype and element count must match).
  Result<bool> setTensor(size_t k, const HostBuffer &value);
  /// The batches of input `k`: `data` holds B of them (its dtype the
  /// input's, its element count B times the input's, its shape (B, ...) or
  /// (B * shape[0], ...) of the input's trailing shape); step s (counted
  /// from 0 over every run) reads batch s mod B. An input without data
  /// keeps zeros.
  Result<bool> setData(size_t k, const HostBuffer &data);

  /// Runs `steps` steps. Output `record` (one element; -1: none) is read
  /// back after every step, and after every `every` steps (0: only at the
  /// end) and at the last, the runner waits for the device, checks the
  /// programs' run-time checks (a failed one is the error) and calls
  /// `report`, whose error stops the run.
  Result<bool> run(int64_t steps, int64_t every, int64_t record,
                   const std::function<Result<bool>(const StepReport &)> &report);
  /// Steps run so far.
  int64_t steps() const;

  /// Times each kernel of a step (Executable::profileOn: on CUDA, the GPU's
  /// time of each launch alone), the realizes run `runs` times each, best
  /// run per kernel, one list per realize. The state does not move: a
  /// realize reads one buffer of a state and writes the other.
  Result<std::vector<std::vector<KernelProfile>>> profile(int runs = 3);

  /// The current value of tensor `k` (the state after the last step), with
  /// its shape.
  Result<HostBuffer> tensor(size_t k);
  /// Output `k` of the last step, with its shape.
  Result<HostBuffer> output(size_t k);

  struct Impl;

private:
  explicit StepRunner(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> p;
};

} // namespace uop::rt

#endif // UOP_RUNTIME_STEP_H
