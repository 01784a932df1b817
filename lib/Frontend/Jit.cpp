//===- Jit.cpp - TinyJit: capture a step's plans, then only replay them ---===//
//
// See include/Uop/Frontend/Jit.h. The capture rides on realize: while a
// TinyJit watches or captures, TensorContext::Impl::recording collects a
// RealizeRecord per realize (the executable, the buffer id of each program
// slot, the values' shapes and buffers, the holders rebound), and the replay
// runs each record through detail::runPlan, the code realize runs it with.
//
//===----------------------------------------------------------------------===//

#include "Uop/Frontend/Jit.h"

#include "TensorImpl.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

namespace uop {
using detail::RealizeRecord;
using detail::TensorHolder;

namespace {
/// Where a replay finds a buffer that the capture read.
struct Source {
  enum Kind {
    /// The call's input `index`.
    Input,
    /// Value `value` of the replay's realize `index`.
    Produced,
    /// The buffer `holder` stands for when the replay starts (the state).
    State,
    /// `data`, as it was at the capture (nothing rebinds it).
    Fixed,
  } kind = Fixed;
  size_t index = 0, value = 0;
  std::shared_ptr<TensorHolder> holder;
  std::shared_ptr<rt::HostBuffer> data;
};

/// One realize of the captured call.
struct CapturedPlan {
  rt::Executable *exe = nullptr;
  /// Per program slot.
  std::vector<Source> slots;
  std::vector<Shape> shapes;
  /// The state tensors it rebinds, with the value each then stands for.
  std::vector<std::pair<std::shared_ptr<TensorHolder>, size_t>> rebind;
};

/// Sets the context's recording for a scope.
class Recording {
public:
  Recording(TensorContext::Impl &c, std::vector<RealizeRecord> &records) : c(c) {
    c.recording = &records;
  }
  ~Recording() { c.recording = nullptr; }

private:
  TensorContext::Impl &c;
};
} // namespace

struct TinyJit::Impl {
  Impl(TensorContext &ctx, Function fn) : ctx(ctx), fn(std::move(fn)) {}

  TensorContext &ctx;
  Function fn;
  /// Calls that succeeded: the first watches, the second captures, the
  /// rest replay.
  unsigned calls = 0;
  /// The holders call 1 rebound: the state, if they stand for a buffer when
  /// call 2 starts.
  std::vector<std::weak_ptr<TensorHolder>> watched;
  /// What the capture ran, and where its outputs are (set by call 2: the
  /// capture is done once two calls have succeeded).
  std::vector<std::pair<DType, Shape>> inputTypes;
  std::vector<CapturedPlan> plans;
  std::vector<Source> outputs;
  std::vector<Shape> outputShapes;

  llvm::Expected<std::vector<Tensor>> run(llvm::ArrayRef<Tensor> inputs);
  llvm::Expected<std::vector<Tensor>> capture(llvm::ArrayRef<Tensor> inputs);
  llvm::Expected<std::vector<Tensor>> replay(llvm::ArrayRef<Tensor> inputs);
};

static llvm::Error jitError(const llvm::Twine &message) {
  return llvm::createStringError("TinyJit: " + message);
}

/// Runs the step, realizes its outputs.
llvm::Expected<std::vector<Tensor>> TinyJit::Impl::run(llvm::ArrayRef<Tensor> inputs) {
  auto out = fn(inputs);
  if (!out)
    return out.takeError();
  for (const Tensor &t : *out)
    if (t.ok() && t.context() != &ctx)
      return jitError("an output of the function is another context's tensor");
  if (auto e = Tensor::realizeAll(*out))
    return std::move(e);
  return out;
}

llvm::Expected<std::vector<Tensor>> TinyJit::Impl::capture(llvm::ArrayRef<Tensor> inputs) {
  auto &c = ctx.impl();
  // The state: what call 1 rebound, by the buffer it stands for now.
  llvm::DenseMap<int64_t, std::shared_ptr<TensorHolder>> state;
  llvm::DenseSet<TensorHolder *> stateHolders;
  for (auto &w : watched)
    if (auto h = w.lock()) {
      int64_t id = detail::bufferIdOf(Tensor(h));
      if (id >= 0 && state.try_emplace(id, h).second)
        stateHolders.insert(h.get());
    }
  watched.clear();
  llvm::DenseMap<int64_t, size_t> inputIds;
  for (auto [k, t] : llvm::enumerate(inputs))
    inputIds.try_emplace(detail::bufferIdOf(t), k);
  int64_t firstNew = c.nextBufferId;

  std::vector<RealizeRecord> records;
  llvm::Expected<std::vector<Tensor>> out = [&] {
    Recording rec(c, records);
    return run(inputs);
  }();
  if (!out)
    return out.takeError();

  // Where each buffer the call read comes from at a replay.
  llvm::DenseMap<int64_t, std::pair<size_t, size_t>> produced;
  auto source = [&](int64_t id, const Shape &shape, DType dtype) -> llvm::Expected<Source> {
    Source s;
    if (auto it = inputIds.find(id); it != inputIds.end()) {
      s.kind = Source::Input;
      s.index = it->second;
    } else if (auto it = produced.find(id); it != produced.end()) {
      s.kind = Source::Produced;
      s.index = it->second.first;
      s.value = it->second.second;
    } else if (auto it = state.find(id); it != state.end()) {
      s.kind = Source::State;
      s.holder = it->second;
    } else if ((id < firstNew || c.constantBuffers.contains(id)) &&
               (s.data = detail::bufferData(ctx, id))) {
      s.kind = Source::Fixed;
    } else {
      return jitError("the function reads data it made itself (a " +
                      llvm::Twine(rt::dtypeName(dtype)) + " buffer of shape " +
                      rt::shapeString(shape) +
                      ", e.g. from Tensor::fromVector or randn): a replay would reuse the values "
                      "of the capture; make it outside the function and pass it as an input");
    }
    return s;
  };

  std::vector<CapturedPlan> captured;
  for (auto [j, r] : llvm::enumerate(records)) {
    CapturedPlan p;
    p.exe = r.exe;
    p.shapes = r.shapes;
    const rt::HostPlan &plan = r.exe->plan();
    p.slots.resize(r.slotIds.size());
    std::vector<bool> read(r.slotIds.size());
    for (const rt::PlanArg &a : plan.args)
      if (a.kind == rt::PlanArg::Input && a.slot >= 0 && a.slot < (int64_t)read.size())
        read[a.slot] = true;
    for (auto [slot, id] : llvm::enumerate(r.slotIds)) {
      if (!read[slot]) // the compiled program does not read it
        continue;
      auto data = detail::bufferData(ctx, id);
      auto s = source(id, data ? data->shape() : Shape{}, data ? data->dtype() : DType::F32);
      if (!s)
        return s.takeError();
      p.slots[slot] = std::move(*s);
    }
    for (auto &[h, i] : r.rebound)
      if (stateHolders.contains(h.get()))
        p.rebind.emplace_back(h, i);
    for (auto [i, id] : llvm::enumerate(r.valueIds))
      produced[id] = {j, i};
    captured.push_back(std::move(p));
  }
  std::vector<Source> outs;
  std::vector<Shape> outShapes;
  for (const Tensor &t : *out) {
    auto s = source(detail::bufferIdOf(t), t.shape(), t.dtype());
    if (!s)
      return s.takeError();
    outs.push_back(std::move(*s));
    outShapes.push_back(t.shape());
  }
  plans = std::move(captured);
  outputs = std::move(outs);
  outputShapes = std::move(outShapes);
  inputTypes.clear();
  for (const Tensor &t : inputs)
    inputTypes.emplace_back(t.dtype(), t.shape());
  return out;
}

llvm::Expected<std::vector<Tensor>> TinyJit::Impl::replay(llvm::ArrayRef<Tensor> inputs) {
  if (inputs.size() != inputTypes.size())
    return jitError("called with " + llvm::Twine(inputs.size()) + " inputs, captured with " +
                    llvm::Twine(inputTypes.size()));
  for (auto [k, t] : llvm::enumerate(inputs))
    if (t.dtype() != inputTypes[k].first || t.shape() != inputTypes[k].second) {
      Tensor like = Tensor::zeros(inputTypes[k].second, inputTypes[k].first, ctx);
      return jitError("input " + llvm::Twine(k) + " is " + t.str() + ", captured as " + like.str());
    }
  // State the caller assigned to since the last call: its value now.
  std::vector<Tensor> pending;
  for (const CapturedPlan &p : plans)
    for (const Source &s : p.slots)
      if (s.kind == Source::State && !Tensor(s.holder).isRealized())
        pending.push_back(Tensor(s.holder));
  if (auto e = Tensor::realizeAll(pending))
    return std::move(e);
  auto &c = ctx.impl();
  c.collectGarbage();
  std::vector<std::vector<Tensor>> values(plans.size());
  auto lookup = [&](const Source &s) -> std::shared_ptr<rt::HostBuffer> {
    switch (s.kind) {
    case Source::Input:
      return detail::bufferData(inputs[s.index]);
    case Source::Produced:
      return s.index < values.size() && s.value < values[s.index].size()
                 ? detail::bufferData(values[s.index][s.value])
                 : nullptr;
    case Source::State:
      return detail::bufferData(Tensor(s.holder));
    case Source::Fixed:
      return s.data;
    }
    return nullptr;
  };
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  for (size_t j = 0; j < plans.size(); ++j) {
    const CapturedPlan &p = plans[j];
    auto input = [&](int64_t slot) -> llvm::Expected<std::shared_ptr<rt::HostBuffer>> {
      if (slot < 0 || slot >= static_cast<int64_t>(p.slots.size()))
        return jitError("internal error: the plan reads slot " + llvm::Twine(slot));
      if (auto data = lookup(p.slots[slot]))
        return data;
      return jitError("internal error: slot " + llvm::Twine(slot) + " of realize " +
                      llvm::Twine(j) + " has no data");
    };
    ++c.realizations;
    c.last = p.exe;
    auto got = detail::runPlan(ctx, p.exe, input, p.shapes);
    if (!got)
      return jitError("replay: " + llvm::toString(got.takeError()));
    values[j] = std::move(*got);
  }
  // Only now the state moves on: a failed replay changes nothing.
  for (auto [j, p] : llvm::enumerate(plans))
    for (auto &[h, i] : p.rebind) {
      h->graph = nullptr;
      h->node = values[j][i].holder()->node;
    }
  std::vector<Tensor> out;
  for (auto [k, s] : llvm::enumerate(outputs)) {
    switch (s.kind) {
    case Source::Input:
      out.push_back(inputs[s.index]);
      break;
    case Source::Produced:
      out.push_back(values[s.index][s.value]);
      break;
    case Source::State:
      out.push_back(Tensor(s.holder));
      break;
    case Source::Fixed:
      out.push_back(detail::dataTensor(ctx, s.data, outputShapes[k]));
      break;
    }
  }
  if (c.debug >= 1)
    llvm::errs() << llvm::format(
        "TinyJit: replayed %zu realize(s) in %.3f ms\n", plans.size(),
        std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  return out;
}

TinyJit::TinyJit(TensorContext &ctx, Function fn) : p(std::make_unique<Impl>(ctx, std::move(fn))) {}
TinyJit::~TinyJit() = default;

llvm::Expected<std::vector<Tensor>> TinyJit::operator()(llvm::ArrayRef<Tensor> inputs) {
  auto &c = p->ctx.impl();
  for (auto [k, t] : llvm::enumerate(inputs)) {
    if (!t.ok())
      return jitError("input " + llvm::Twine(k) + ": " + t.error());
    if (t.context() != &p->ctx)
      return jitError("input " + llvm::Twine(k) + " is another context's tensor");
  }
  if (c.recording)
    return jitError("a TinyJit's function calls a TinyJit (nested capture)");
  if (auto e = Tensor::realizeAll(inputs))
    return std::move(e);
  llvm::Expected<std::vector<Tensor>> out = std::vector<Tensor>();
  if (p->calls >= 2) {
    out = p->replay(inputs);
  } else if (p->calls == 0) {
    std::vector<RealizeRecord> records;
    {
      Recording rec(c, records);
      out = p->run(inputs);
    }
    if (out)
      for (const RealizeRecord &r : records)
        for (auto &[h, i] : r.rebound)
          p->watched.push_back(h);
  } else {
    out = p->capture(inputs);
  }
  if (out)
    ++p->calls;
  return out;
}

unsigned TinyJit::calls() const { return p->calls; }
bool TinyJit::captured() const { return p->calls >= 2; }
size_t TinyJit::numPlans() const { return p->plans.size(); }

void TinyJit::reset() {
  p->calls = 0;
  p->watched.clear();
  p->plans.clear();
  p->outputs.clear();
  p->outputShapes.clear();
  p->inputTypes.clear();
}

} // namespace uop
