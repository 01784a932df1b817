//===- ToyStep.h - a two-realize training step for the runtime's tests -*- C++ -*-===//
//
// Part of the uop project. A step small enough to check by hand, with every
// kind of source a captured TinyJit step has:
//   realize 0 (program "sgd"):   loss = sum((w - x)^2), w' = w - 0.2 (w - x)
//   realize 1 (program "scale"): scaled = loss * scale, count' = count + 1,
//                                and count itself as a value (an input alias)
//   state w (next: w', in place), count (next: count + 1, in place), prev
//   (next: the old count, an input's alias: copied at the end of a step);
//   fixed data `scale`; input x (a batch of 4); outputs loss, scaled, w.
// StepTest.cpp runs it on the CPU (C libraries), CudaTest.cpp on the fake
// CUDA driver (kernels "sgd" and "scale").
//
//===----------------------------------------------------------------------===//

#ifndef UOP_UNITTESTS_RUNTIME_TOYSTEP_H
#define UOP_UNITTESTS_RUNTIME_TOYSTEP_H

#include "Uop/Runtime/Step.h"

#include <vector>

namespace uop::rt::test {

inline HostPlan toySgdPlan() {
  HostPlan p;
  p.args = {{PlanArg::Input, 0, DType::F32, 4},
            {PlanArg::Input, 1, DType::F32, 4},
            {PlanArg::Output, -1, DType::F32, 1},
            {PlanArg::Output, -1, DType::F32, 4}};
  p.values = {{2, {}}, {3, {4}}};
  p.kernels = {{"sgd", 1, 16, 52, ""}};
  PlanLaunch l;
  l.kernel = 0;
  l.args = {0, 1, 2, 3};
  p.launches = {l};
  p.numLaunches = 1;
  return p;
}

inline HostPlan toyScalePlan() {
  HostPlan p;
  p.args = {{PlanArg::Input, 0, DType::F32, 1},
            {PlanArg::Input, 1, DType::F32, 1},
            {PlanArg::Input, 2, DType::F32, 1},
            {PlanArg::Output, -1, DType::F32, 1},
            {PlanArg::Output, -1, DType::F32, 1}};
  p.values = {{3, {}}, {4, {1}}, {2, {1}}};
  p.kernels = {{"scale", 1, 2, 20, ""}};
  PlanLaunch l;
  l.kernel = 0;
  l.args = {0, 1, 2, 3, 4};
  p.launches = {l};
  p.numLaunches = 1;
  return p;
}

inline const char *kToyStepText = R"(uop-step 1
programs 2
input f32 4
tensor state f32 4 w
tensor fixed f32 1 scale
tensor state f32 1 count
tensor state f32 1 prev
realize 0 slots t:0 in:0 values () 4
realize 1 slots val:0:0 t:1 t:2 values () 1 1
next 0 val:0:1
next 2 val:1:1
next 3 val:1:2
output val:0:0 ()
output val:1:0 ()
output t:0 4
end
)";

/// The step bundle, with `sgd` and `scale` as the programs' code (a CPU
/// library's bytes, or PTX naming the kernels).
inline StepBundle toyStepBundle(Backend target, std::string sgd, std::string scale,
                                std::string arch) {
  StepBundle b;
  b.target = target;
  b.arch = std::move(arch);
  b.step = *StepProgram::parse(kToyStepText);
  b.programs = {{toySgdPlan(), std::move(sgd)}, {toyScalePlan(), std::move(scale)}};
  HostBuffer w(DType::F32, {4}), scale1(DType::F32, {1}), count(DType::F32, {1}),
      prev(DType::F32, {1});
  for (int i = 0; i < 4; ++i)
    w.as<float>()[i] = 1.0f + i;
  scale1.as<float>()[0] = 0.5f;
  count.as<float>()[0] = 10;
  prev.as<float>()[0] = -1;
  b.tensors = {w, scale1, count, prev};
  return b;
}

/// Batches of x: (3, 4), step s reads batch s mod 3.
inline HostBuffer toyBatches() {
  HostBuffer x(DType::F32, {3, 4});
  for (int i = 0; i < 12; ++i)
    x.as<float>()[i] = 0.25f * float(i % 5) - 0.5f;
  return x;
}

/// What `steps` steps from the bundle's tensors compute, in float as the
/// kernels do: the losses and scaled losses of every step, and the final w,
/// count and prev.
struct ToyResult {
  std::vector<float> losses, scaled, w;
  float count, prev;
};
inline ToyResult toyReference(int steps) {
  ToyResult r;
  float w[4] = {1, 2, 3, 4}, count = 10, prev = -1;
  HostBuffer x = toyBatches();
  for (int s = 0; s < steps; ++s) {
    const float *b = x.as<float>() + (s % 3) * 4;
    float l = 0;
    for (int i = 0; i < 4; ++i) {
      float d = w[i] - b[i];
      l += d * d;
      w[i] = w[i] - 0.2f * d;
    }
    r.losses.push_back(l);
    r.scaled.push_back(l * 0.5f);
    prev = count;
    count = count + 1;
  }
  r.w.assign(w, w + 4);
  r.count = count;
  r.prev = prev;
  return r;
}

} // namespace uop::rt::test

#endif // UOP_UNITTESTS_RUNTIME_TOYSTEP_H
