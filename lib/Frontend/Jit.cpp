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

#include "Uop/ExecutionEngine/ExecutionEngine.h"
#include "Uop/IR/UopAttrs.h"
#include "Uop/Runtime/Bundle.h"
#include "Uop/Runtime/Step.h"

#include "mlir/AsmParser/AsmParser.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>

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
  std::shared_ptr<detail::Storage> data;
};

/// One realize of the captured call.
struct CapturedPlan {
  rt::Executable *exe = nullptr;
  /// The program it runs (exportStep compiles it for its target).
  std::shared_ptr<mlir::OwningOpRef<mlir::ModuleOp>> program;
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
    p.program = r.program;
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
      auto s = source(id, data ? Shape{data->numel} : Shape{}, data ? data->dtype : DType::F32);
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
  auto lookup = [&](const Source &s) -> std::shared_ptr<detail::Storage> {
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
    auto input = [&](int64_t slot) -> llvm::Expected<std::shared_ptr<detail::Storage>> {
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

llvm::Error TinyJit::exportStep(const std::string &path, const mlir::uop::CompileOptions &options,
                                llvm::ArrayRef<std::pair<std::string, Tensor>> names) {
  Impl &j = *p;
  auto &c = j.ctx.impl();
  if (!captured())
    return jitError("exportStep: nothing is captured yet (a TinyJit captures at its second "
                    "call)");
  rt::StepBundle b;
  b.target = options.target == mlir::uop::CompileTarget::CUDA ? rt::Backend::CUDA
                                                              : rt::Backend::CPU;
  b.producer = "uop TinyJit";
  rt::StepProgram &step = b.step;
  for (auto &[dtype, shape] : j.inputTypes)
    step.inputs.push_back({dtype, shape});

  // The programs, each compiled once for `options`.
  std::map<rt::Executable *, size_t> programOf;
  for (auto [k, plan] : llvm::enumerate(j.plans)) {
    if (programOf.count(plan.exe))
      continue;
    if (!plan.program || !*plan.program)
      return jitError("exportStep: internal error: realize " + llvm::Twine(k) +
                      " kept no program");
    c.takeDiagnostics();
    mlir::FailureOr<mlir::uop::CompiledProgram> compiled =
        mlir::uop::compileProgram(**plan.program, options);
    if (mlir::failed(compiled))
      return jitError("exportStep: realize " + llvm::Twine(k) + " does not compile for " +
                      mlir::uop::stringifyCompileTarget(options.target) + ": " +
                      c.takeDiagnostics());
    // The compiled program reads no slot the captured one does not.
    for (const rt::PlanArg &a : compiled->plan.args)
      if (a.kind == rt::PlanArg::Input &&
          (a.slot < 0 || a.slot >= (int64_t)plan.slots.size() ||
           (plan.slots[a.slot].kind == Source::Fixed && !plan.slots[a.slot].data)))
        return jitError("exportStep: realize " + llvm::Twine(k) + " compiled for " +
                        mlir::uop::stringifyCompileTarget(options.target) + " reads slot " +
                        llvm::Twine(a.slot) + ", which the captured program does not");
    std::string code;
    if (b.target == rt::Backend::CUDA) {
      code = std::move(compiled->ptx);
      if (b.arch.empty())
        b.arch = rt::ptxTarget(code);
    } else {
      auto lib = llvm::MemoryBuffer::getFile(compiled->library, /*IsText=*/false);
      if (!lib)
        return jitError("exportStep: " + compiled->library +
                        ": cannot read: " + lib.getError().message());
      code = (*lib)->getBuffer().str();
      if (b.arch.empty()) {
        auto cpu = llvm::dyn_cast_or_null<mlir::uop::TargetAttr>(
            mlir::parseAttribute(compiled->machine, &c.mlir));
        b.arch = rt::hostMachine() + " " + (cpu ? cpu.getCpu().str() : "?");
      }
    }
    b.machine = compiled->machine;
    b.features = compiled->features;
    programOf[plan.exe] = b.programs.size();
    b.programs.push_back({std::move(compiled->plan), std::move(code)});
  }
  step.numPrograms = b.programs.size();

  // The tensors: the state (by holder) and the fixed data (by storage).
  std::map<TensorHolder *, size_t> stateOf;
  std::map<detail::Storage *, size_t> fixedOf;
  std::map<TensorHolder *, std::string> nameOf;
  for (auto &[name, t] : names)
    if (t.holder())
      nameOf.emplace(t.holder().get(), name);
  std::vector<Tensor> stateTensors;
  auto stateIndex = [&](const std::shared_ptr<TensorHolder> &h) {
    auto [it, fresh] = stateOf.try_emplace(h.get(), step.tensors.size());
    if (fresh) {
      Tensor t(h);
      rt::StepTensor st;
      st.state = true;
      st.dtype = t.dtype();
      st.shape = t.shape();
      auto named = nameOf.find(h.get());
      st.name = named != nameOf.end() ? named->second : "state." + std::to_string(it->second);
      step.tensors.push_back(std::move(st));
      stateTensors.push_back(t);
      b.tensors.emplace_back(); // its value, below
    }
    return it->second;
  };
  auto fixedIndex = [&](const std::shared_ptr<detail::Storage> &data,
                        const Shape &shape) -> llvm::Expected<size_t> {
    auto [it, fresh] = fixedOf.try_emplace(data.get(), step.tensors.size());
    if (fresh) {
      rt::StepTensor st;
      st.state = false;
      st.dtype = data->dtype;
      st.shape = shape;
      st.name = "fixed." + std::to_string(it->second);
      step.tensors.push_back(std::move(st));
      auto host = rt::HostBuffer::create(data->dtype, shape);
      if (!host.ok())
        return llvm::createStringError(host.error());
      if (auto e = detail::copyToHost(j.ctx, *data, host->data(), data->numel))
        return std::move(e);
      b.tensors.push_back(host.take());
    }
    return it->second;
  };
  auto sourceOf = [&](const Source &s, const Shape &shape) -> llvm::Expected<rt::StepSource> {
    rt::StepSource out;
    switch (s.kind) {
    case Source::Input:
      out.kind = rt::StepSource::Input;
      out.index = s.index;
      break;
    case Source::Produced:
      out.kind = rt::StepSource::Produced;
      out.index = s.index;
      out.value = s.value;
      break;
    case Source::State:
      out.kind = rt::StepSource::Tensor;
      out.index = stateIndex(s.holder);
      break;
    case Source::Fixed: {
      if (!s.data) // a slot the program does not read
        break;
      llvm::Expected<size_t> k = fixedIndex(s.data, shape);
      if (!k)
        return k.takeError();
      out.kind = rt::StepSource::Tensor;
      out.index = *k;
      break;
    }
    }
    return out;
  };
  for (const CapturedPlan &plan : j.plans) {
    rt::StepRealize r;
    r.program = programOf[plan.exe];
    for (const Source &s : plan.slots) {
      llvm::Expected<rt::StepSource> src =
          sourceOf(s, s.data ? Shape{s.data->numel} : Shape{});
      if (!src)
        return src.takeError();
      r.slots.push_back(*src);
    }
    r.values = plan.shapes;
    step.realizes.push_back(std::move(r));
  }
  for (auto [k, plan] : llvm::enumerate(j.plans))
    for (auto &[h, i] : plan.rebind)
      step.tensors[stateIndex(h)].next = {rt::StepSource::Produced, k, i};
  for (auto [k, s] : llvm::enumerate(j.outputs)) {
    llvm::Expected<rt::StepSource> src = sourceOf(s, j.outputShapes[k]);
    if (!src)
      return src.takeError();
    step.outputs.push_back(*src);
    step.outputShapes.push_back(j.outputShapes[k]);
  }
  // The state's values now.
  if (auto e = Tensor::realizeAll(stateTensors))
    return e;
  for (auto [k, t] : llvm::enumerate(stateTensors)) {
    size_t index = stateOf[t.holder().get()];
    llvm::Expected<rt::HostBuffer> v = t.numpy();
    if (!v)
      return v.takeError();
    b.tensors[index] = std::move(*v);
  }
  // The text form checks the names and every reference.
  rt::Result<rt::StepProgram> checked = rt::StepProgram::parse(step.serialize());
  if (!checked)
    return jitError("exportStep: " + checked.error());
  rt::Result<bool> ok = rt::writeStepBundle(path, b);
  if (!ok)
    return jitError("exportStep: " + ok.error());
  return llvm::Error::success();
}

void TinyJit::reset() {
  p->calls = 0;
  p->watched.clear();
  p->plans.clear();
  p->outputs.clear();
  p->outputShapes.clear();
  p->inputTypes.clear();
}

} // namespace uop
