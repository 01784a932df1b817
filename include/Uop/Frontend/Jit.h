//===- Jit.h - TinyJit: capture a step's plans, then only replay them -*- C++ -*-===//
//
// tinygrad's TinyJit for uop::Tensor. A training step rebuilds the same
// graph every call: the forward pass, backward, the optimizer's updates, a
// slice of a few thousand ops to walk and key before the plan (found by
// structure) runs. TinyJit wraps the step as a function of its input
// tensors and, from the third call on, skips all of that: it runs the
// executables the second call realized, each on the buffers that now take
// the captured ones' places, and rebinds the tensors those realizes updated.
//
//   uop::TinyJit step(ctx, [&](llvm::ArrayRef<uop::Tensor> in)
//                              -> llvm::Expected<std::vector<uop::Tensor>> {
//     uop::Tensor loss = model(in[0]).crossEntropy(in[1]);
//     opt.zeroGrad();
//     if (auto e = loss.backward(opt.params()))
//       return std::move(e);
//     if (auto e = opt.step({loss}))
//       return std::move(e);
//     return std::vector<uop::Tensor>{loss};
//   });
//   auto out = step({x, y}); // realized outputs
//
// Call 1 runs the function as it is and watches which tensors its realizes
// rebind (the state: parameters, optimizer moments). Call 2 runs it again
// and records each realize: its executable, and where each buffer it read
// came from: an input of the call (by position), a value an earlier realize
// of the call produced, the state (a watched tensor, read as it is at each
// replay), or data from before the call that nothing rebinds (a constant,
// read as it was). Calls 3.. replay: no graph is built.
//
// What the function must keep: the same structure every call (the inputs'
// shapes and dtypes are checked), its state updated through realize (an
// optimizer step, assign + realize), and no data of its own: a tensor it
// makes from host data (Tensor::fromVector, randn) would be replayed with
// the second call's values, so capturing such a function is an error that
// names the tensor (arange's data, which depends on nothing else, is
// fine). Host work inside the function (item(), printing) runs in calls 1
// and 2 only; gradients (grad()) are not updated by a replay. A TinyJit
// holds tensors of its context: it must not outlive it.
//
// exportStep writes the capture as a step bundle (include/Uop/Runtime/Step.h)
// for a machine with no compiler, `uop-runner STEP.uopx --steps=N` training
// with it there (the programs compiled for the target it names: a cuda step
// from a cpu context, say):
//
//   step(...); step(...);                             // captured
//   if (auto e = step.exportStep("mlp.uopx", cudaOptions, opt.namedState(model)))
//
//
//===----------------------------------------------------------------------===//

#ifndef UOP_FRONTEND_JIT_H
#define UOP_FRONTEND_JIT_H

#include "Uop/Frontend/Tensor.h"

#include <functional>

namespace uop {

class TinyJit {
public:
  /// The step: tensors in, realizable tensors out.
  using Function = std::function<llvm::Expected<std::vector<Tensor>>(llvm::ArrayRef<Tensor>)>;

  TinyJit(TensorContext &ctx, Function fn);
  ~TinyJit();
  TinyJit(const TinyJit &) = delete;
  TinyJit &operator=(const TinyJit &) = delete;

  /// Runs the step on `inputs` (realized first) and returns its outputs,
  /// realized. An error from the function, from capturing it (data of its
  /// own; a structure that changed) or from a replay's run.
  llvm::Expected<std::vector<Tensor>> operator()(llvm::ArrayRef<Tensor> inputs);

  /// Calls so far (capture happens at the second).
  unsigned calls() const;
  /// Whether calls run as replays now.
  bool captured() const;
  /// The realizes a replay runs (0 before the capture).
  size_t numPlans() const;
  /// Forgets the capture: the next two calls run the function again.
  void reset();

  /// Writes the captured step as a step bundle (Step.h) at `path`: each
  /// realize's program compiled for `options` (the context's own options
  /// give the code the replays run), where each of its buffers comes from,
  /// the state with the values it has now (named by `names`, matched by
  /// tensor identity; others "state.K"), the fixed data ("fixed.K") and the
  /// outputs. An error before the capture, for a name that is no file name
  /// or is given twice, or where a program does not compile.
  llvm::Error exportStep(const std::string &path, const mlir::uop::CompileOptions &options,
                         llvm::ArrayRef<std::pair<std::string, Tensor>> names = {});

  struct Impl;

private:
  std::unique_ptr<Impl> p;
};

} // namespace uop

#endif // UOP_FRONTEND_JIT_H
