//===- Step.cpp - a training step, replayed without the compiler -*- C++ -*-===//
//
// Part of the uop project. The format and the replay are described in
// Step.h.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Step.h"

#include "BundleFormat.h"
#include "Uop/Runtime/Bundle.h"
#include "Uop/Runtime/Device.h"
#include "Uop/Runtime/File.h"
#include "Uop/Runtime/Npy.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <sstream>

using namespace uop::rt;

//===----------------------------------------------------------------------===//
// The step as text
//===----------------------------------------------------------------------===//

/// Bumped whenever the text form changes.
static constexpr const char *kStepHeader = "uop-step 1";

namespace {
/// "128x784", "()" for a scalar.
std::string shapeToken(const std::vector<int64_t> &shape) {
  if (shape.empty())
    return "()";
  std::string s;
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "x" : "") + std::to_string(shape[i]);
  return s;
}

std::optional<std::vector<int64_t>> parseShape(const std::string &tok) {
  if (tok == "()")
    return std::vector<int64_t>();
  std::vector<int64_t> shape;
  size_t at = 0;
  while (at <= tok.size()) {
    size_t end = tok.find('x', at);
    std::string d = tok.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (d.empty() || d.size() > 12 || d.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    shape.push_back(std::stoll(d));
    if (shape.back() < 1 || shape.size() > 64)
      return std::nullopt;
    if (end == std::string::npos)
      break;
    at = end + 1;
  }
  if (!checkedNumel(shape, 8))
    return std::nullopt;
  return shape;
}

/// "-", "in:K", "val:J:V", "t:K".
std::string sourceToken(const StepSource &s) {
  switch (s.kind) {
  case StepSource::None:
    return "-";
  case StepSource::Input:
    return "in:" + std::to_string(s.index);
  case StepSource::Produced:
    return "val:" + std::to_string(s.index) + ":" + std::to_string(s.value);
  case StepSource::Tensor:
    return "t:" + std::to_string(s.index);
  }
  return "-";
}

std::optional<size_t> parseIndex(const std::string &s) {
  if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return static_cast<size_t>(std::stoul(s));
}

std::optional<StepSource> parseSource(const std::string &tok) {
  StepSource s;
  if (tok == "-")
    return s;
  size_t colon = tok.find(':');
  if (colon == std::string::npos)
    return std::nullopt;
  std::string kind = tok.substr(0, colon), rest = tok.substr(colon + 1);
  if (kind == "val") {
    size_t c2 = rest.find(':');
    if (c2 == std::string::npos)
      return std::nullopt;
    auto j = parseIndex(rest.substr(0, c2)), v = parseIndex(rest.substr(c2 + 1));
    if (!j || !v)
      return std::nullopt;
    s.kind = StepSource::Produced;
    s.index = *j;
    s.value = *v;
    return s;
  }
  auto k = parseIndex(rest);
  if (!k || (kind != "in" && kind != "t"))
    return std::nullopt;
  s.kind = kind == "in" ? StepSource::Input : StepSource::Tensor;
  s.index = *k;
  return s;
}

bool validName(const std::string &name) {
  if (name.empty() || name.size() > 200 || name[0] == '.')
    return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'))
      return false;
  return true;
}

int64_t numelOf(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}
} // namespace

std::string StepProgram::serialize() const {
  std::ostringstream os;
  os << kStepHeader << "\n";
  os << "programs " << numPrograms << "\n";
  for (const StepInput &in : inputs)
    os << "input " << dtypeName(in.dtype) << " " << shapeToken(in.shape) << "\n";
  for (const StepTensor &t : tensors)
    os << "tensor " << (t.state ? "state" : "fixed") << " " << dtypeName(t.dtype) << " "
       << shapeToken(t.shape) << " " << t.name << "\n";
  for (const StepRealize &r : realizes) {
    os << "realize " << r.program << " slots";
    for (const StepSource &s : r.slots)
      os << " " << sourceToken(s);
    os << " values";
    for (const auto &v : r.values)
      os << " " << shapeToken(v);
    os << "\n";
  }
  for (size_t k = 0; k < tensors.size(); ++k)
    if (tensors[k].state && tensors[k].next.kind != StepSource::None)
      os << "next " << k << " " << sourceToken(tensors[k].next) << "\n";
  for (size_t k = 0; k < outputs.size(); ++k)
    os << "output " << sourceToken(outputs[k]) << " " << shapeToken(outputShapes[k]) << "\n";
  os << "end\n";
  return os.str();
}

Result<StepProgram> StepProgram::parse(const std::string &text) {
  StepProgram step;
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kStepHeader)
    return Error{"not a uop step (or another version of it)"};
  bool ended = false, programs = false;
  auto bad = [&](const std::string &why = "") {
    return Error{"bad step line: '" + detail::quoteEntry(line, 200) + "'" +
                 (why.empty() ? "" : " (" + why + ")")};
  };
  // A source read by realize `before` (or, with before = all, by an output).
  auto check = [&](const StepSource &s, size_t before) -> std::string {
    switch (s.kind) {
    case StepSource::None:
      return "";
    case StepSource::Input:
      return s.index < step.inputs.size() ? "" : "no input " + std::to_string(s.index);
    case StepSource::Tensor:
      return s.index < step.tensors.size() ? "" : "no tensor " + std::to_string(s.index);
    case StepSource::Produced:
      if (s.index >= before)
        return "no earlier realize " + std::to_string(s.index);
      if (s.value >= step.realizes[s.index].values.size())
        return "realize " + std::to_string(s.index) + " has no value " + std::to_string(s.value);
      return "";
    }
    return "";
  };
  while (std::getline(in, line)) {
    if (ended)
      return bad("after 'end'");
    std::istringstream ls(line);
    std::string word;
    ls >> word;
    std::vector<std::string> toks;
    for (std::string t; ls >> t;)
      toks.push_back(t);
    if (word == "programs") {
      auto n = toks.size() == 1 ? parseIndex(toks[0]) : std::nullopt;
      if (!n || programs || *n > 4096)
        return bad();
      step.numPrograms = *n;
      programs = true;
    } else if (word == "input") {
      auto dt = toks.size() == 2 ? dtypeFromName(toks[0]) : std::nullopt;
      auto shape = toks.size() == 2 ? parseShape(toks[1]) : std::nullopt;
      if (!dt || !shape || !step.tensors.empty() || !step.realizes.empty())
        return bad();
      step.inputs.push_back({*dt, *shape});
    } else if (word == "tensor") {
      if (toks.size() != 4 || (toks[0] != "state" && toks[0] != "fixed") ||
          !step.realizes.empty())
        return bad();
      auto dt = dtypeFromName(toks[1]);
      auto shape = parseShape(toks[2]);
      if (!dt || !shape)
        return bad();
      if (!validName(toks[3]))
        return bad("a name of letters, digits, '.', '_' and '-'");
      for (const StepTensor &t : step.tensors)
        if (t.name == toks[3])
          return bad("the name '" + toks[3] + "' twice");
      StepTensor t;
      t.name = toks[3];
      t.state = toks[0] == "state";
      t.dtype = *dt;
      t.shape = *shape;
      step.tensors.push_back(std::move(t));
    } else if (word == "realize") {
      StepRealize r;
      auto prog = toks.empty() ? std::nullopt : parseIndex(toks[0]);
      if (!prog || !programs || *prog >= step.numPrograms || toks.size() < 3 || toks[1] != "slots")
        return bad();
      r.program = *prog;
      size_t i = 2;
      for (; i < toks.size() && toks[i] != "values"; ++i) {
        auto s = parseSource(toks[i]);
        if (!s)
          return bad();
        if (std::string why = check(*s, step.realizes.size()); !why.empty())
          return bad(why);
        r.slots.push_back(*s);
      }
      if (i == toks.size())
        return bad();
      for (++i; i < toks.size(); ++i) {
        auto shape = parseShape(toks[i]);
        if (!shape)
          return bad();
        r.values.push_back(*shape);
      }
      step.realizes.push_back(std::move(r));
    } else if (word == "next") {
      auto k = toks.size() == 2 ? parseIndex(toks[0]) : std::nullopt;
      auto s = toks.size() == 2 ? parseSource(toks[1]) : std::nullopt;
      if (!k || !s || *k >= step.tensors.size() || !step.tensors[*k].state ||
          s->kind != StepSource::Produced || step.tensors[*k].next.kind != StepSource::None)
        return bad();
      if (std::string why = check(*s, step.realizes.size()); !why.empty())
        return bad(why);
      step.tensors[*k].next = *s;
    } else if (word == "output") {
      auto s = toks.size() == 2 ? parseSource(toks[0]) : std::nullopt;
      auto shape = toks.size() == 2 ? parseShape(toks[1]) : std::nullopt;
      if (!s || !shape || s->kind == StepSource::None)
        return bad();
      if (std::string why = check(*s, step.realizes.size()); !why.empty())
        return bad(why);
      step.outputs.push_back(*s);
      step.outputShapes.push_back(*shape);
    } else if (word == "end") {
      if (!toks.empty())
        return bad();
      ended = true;
    } else if (!word.empty()) {
      return bad();
    }
  }
  if (!ended)
    return Error{"the step is truncated (no 'end' line)"};
  if (!programs)
    return Error{"the step names no programs"};
  return step;
}

//===----------------------------------------------------------------------===//
// Step bundles
//===----------------------------------------------------------------------===//

static std::string programEntry(size_t j, const char *what) {
  return "program." + std::to_string(j) + "." + what;
}

std::string uop::rt::encodeStepBundle(const StepBundle &bundle) {
  detail::BundleEntries entries = {
      {"kind", "step"},
      {"target", backendName(bundle.target)},
      {"arch", bundle.arch},
      {"producer", bundle.producer},
      {"step", bundle.step.serialize()},
  };
  if (!bundle.machine.empty())
    entries.push_back({"machine", bundle.machine});
  if (!bundle.features.empty())
    entries.push_back({"features", bundle.features});
  for (size_t j = 0; j < bundle.programs.size(); ++j) {
    entries.push_back({programEntry(j, "plan"), bundle.programs[j].plan.serialize()});
    entries.push_back({programEntry(j, bundle.target == Backend::CPU ? "cpu.so" : "cuda.ptx"),
                       bundle.programs[j].code});
  }
  for (size_t k = 0; k < bundle.tensors.size(); ++k)
    entries.push_back({"tensor." + std::to_string(k), encodeNpy(bundle.tensors[k])});
  return detail::encodeContainer(kStepBundleVersion, entries);
}

Result<StepBundle> uop::rt::decodeStepBundle(std::string_view bytes, const std::string &name) {
  auto fail = [&](const std::string &why) { return Error{name + ": " + why}; };
  Result<detail::BundleContents> contents = detail::decodeContainer(bytes, name);
  if (!contents)
    return Error{contents.error()};
  if (contents->version != kStepBundleVersion)
    return fail("a program bundle, not a training step (uop-runner runs it without --steps)");
  auto &entries = contents->entries;
  auto get = [&](const std::string &key) -> std::optional<std::string_view> {
    auto it = entries.find(key);
    if (it == entries.end())
      return std::nullopt;
    return it->second;
  };
  auto need = [&](const std::string &key) -> Result<std::string> {
    auto e = get(key);
    if (!e)
      return fail("malformed step bundle (no '" + key + "' entry)");
    return std::string(*e);
  };
  StepBundle b;
  for (const char *key : {"kind", "target", "arch", "step"})
    if (!get(key))
      return fail(std::string("malformed step bundle (no '") + key + "' entry)");
  if (*get("kind") != "step")
    return fail("a uop bundle of kind '" + detail::quoteEntry(*get("kind")) +
                "' (this uop runs program and step bundles)");
  std::string target(*get("target"));
  if (target == "cpu")
    b.target = Backend::CPU;
  else if (target == "cuda")
    b.target = Backend::CUDA;
  else
    return fail("a uop bundle for target '" + detail::quoteEntry(target) +
                "' (this uop runs cpu and cuda)");
  b.arch = std::string(*get("arch"));
  b.producer = std::string(get("producer").value_or("uop"));
  b.machine = std::string(get("machine").value_or(""));
  b.features = std::string(get("features").value_or(""));
  Result<StepProgram> step = StepProgram::parse(std::string(*get("step")));
  if (!step)
    return fail("the bundle's step: " + step.error());
  b.step = step.take();
  for (size_t j = 0; j < b.step.numPrograms; ++j) {
    Result<std::string> planText = need(programEntry(j, "plan"));
    if (!planText)
      return Error{planText.error()};
    Result<HostPlan> plan = HostPlan::parse(*planText);
    if (!plan)
      return fail("the plan of program " + std::to_string(j) + ": " + plan.error());
    Result<std::string> code =
        need(programEntry(j, b.target == Backend::CPU ? "cpu.so" : "cuda.ptx"));
    if (!code)
      return Error{code.error()};
    b.programs.push_back({plan.take(), code.take()});
  }
  for (size_t k = 0; k < b.step.tensors.size(); ++k) {
    std::string key = "tensor." + std::to_string(k);
    auto e = get(key);
    if (!e)
      return fail("malformed step bundle (no '" + key + "' entry)");
    const StepTensor &t = b.step.tensors[k];
    Result<HostBuffer> value = readNpyFromMemory(e->data(), e->size(), name + ": " + key);
    if (!value)
      return Error{value.error()};
    if (value->dtype() != t.dtype || value->shape() != t.shape)
      return fail("tensor " + std::to_string(k) + " (" + t.name + ") is " + value->describe() +
                  ", but the step declares " + dtypeName(t.dtype) + " of shape " +
                  shapeString(t.shape));
    b.tensors.push_back(value.take());
  }
  return b;
}

Result<bool> uop::rt::writeStepBundle(const std::string &path, const StepBundle &bundle) {
  return atomicWriteFile(path, encodeStepBundle(bundle));
}

Result<StepBundle> uop::rt::readStepBundle(const std::string &path) {
  Result<std::string> bytes = detail::readContainerFile(path);
  if (!bytes)
    return Error{bytes.error()};
  return decodeStepBundle(*bytes, path);
}

//===----------------------------------------------------------------------===//
// The replay
//===----------------------------------------------------------------------===//

struct StepRunner::Impl {
  StepProgram step;
  Backend target = Backend::CPU;
  std::shared_ptr<Device> dev;
  StepRunOptions options;
  std::vector<std::unique_ptr<Executable>> exes;
  /// Every array the runner allocated.
  std::vector<std::unique_ptr<DeviceArray>> arrays;
  std::vector<DeviceArray *> inputs;
  struct Data {
    DeviceArray *array = nullptr;
    int64_t batches = 0;
  };
  std::vector<Data> data;
  /// Per tensor, the buffer a step of parity 0 / 1 reads it from (the other
  /// one is where it writes its next value; fixed data and state that no
  /// realize rebinds have one buffer).
  std::vector<std::array<DeviceArray *, 2>> tensors;
  /// Per realize, per plan argument: the output buffer when it is not a
  /// state's (nullptr for inputs, the program's own and state homes).
  std::vector<std::vector<DeviceArray *>> outs;
  /// Per realize, per plan argument: the state whose next value it writes.
  std::vector<std::vector<int64_t>> home;
  /// Per parity: each realize's arguments, and the copies that end a step.
  struct Copy {
    DevicePtr dst, src;
    size_t bytes;
  };
  std::vector<std::vector<DevicePtr>> args[2];
  std::vector<Copy> copies[2];
  int64_t done = 0;
  unsigned launches = 0;
  // CUDA
  std::optional<CudaStream> stream;
  std::optional<CudaGraph> graphs[2];
  DeviceArray *log = nullptr;

  const HostPlan &planOf(size_t j) const { return exes[step.realizes[j].program]->plan(); }
  Result<DeviceArray *> allocate(size_t bytes) {
    Result<std::unique_ptr<DeviceArray>> a = dev->allocate(bytes);
    if (!a)
      return Error{a.error()};
    arrays.push_back(a.take());
    return arrays.back().get();
  }
  /// The address of value `v` of realize `j` in a step of parity `p`.
  DevicePtr valueAddr(size_t j, size_t v, int p) const {
    const HostPlan &plan = planOf(j);
    unsigned a = plan.values[v].arg;
    if (plan.args[a].kind == PlanArg::Input)
      return sourceAddr(step.realizes[j].slots.at(plan.args[a].slot), p, false);
    return argAddr(j, a, p);
  }
  /// The buffer of output argument `a` of realize `j` at parity `p`.
  DevicePtr argAddr(size_t j, unsigned a, int p) const {
    if (int64_t k = home[j][a]; k >= 0)
      return tensors[k][1 - p]->ptr();
    return outs[j][a] ? outs[j][a]->ptr() : 0;
  }
  /// Where `s` is in a step of parity `p`, at its start (or, for a state
  /// tensor with `atEnd`, at its end).
  DevicePtr sourceAddr(const StepSource &s, int p, bool atEnd) const {
    switch (s.kind) {
    case StepSource::None:
      return 0;
    case StepSource::Input:
      return inputs[s.index]->ptr();
    case StepSource::Tensor:
      return tensors[s.index][atEnd ? 1 - p : p]->ptr();
    case StepSource::Produced:
      return valueAddr(s.index, s.value, p);
    }
    return 0;
  }
  /// The dtype and element count of what `s` holds.
  std::pair<DType, int64_t> sourceType(const StepSource &s) const {
    switch (s.kind) {
    case StepSource::Input:
      return {step.inputs[s.index].dtype, numelOf(step.inputs[s.index].shape)};
    case StepSource::Tensor:
      return {step.tensors[s.index].dtype, numelOf(step.tensors[s.index].shape)};
    case StepSource::Produced: {
      const HostPlan &plan = planOf(s.index);
      return {plan.args[plan.values[s.value].arg].dtype,
              numelOf(step.realizes[s.index].values[s.value])};
    }
    case StepSource::None:
      break;
    }
    return {DType::F32, 0};
  }

  Result<bool> bind(const std::string &name);
  Result<bool> capture();
  Result<bool> runStep();
};

StepRunner::StepRunner(std::unique_ptr<Impl> impl) : p(std::move(impl)) {}
StepRunner::~StepRunner() = default;
const StepProgram &StepRunner::step() const { return p->step; }
int64_t StepRunner::steps() const { return p->done; }
unsigned StepRunner::launchesPerStep() const { return p->launches; }

std::string StepRunner::description() const {
  std::string s = std::string(backendName(p->target)) + ", " + p->dev->name();
  if (p->graphs[0])
    s += ", 2 CUDA graphs of " + std::to_string(p->graphs[0]->nodes()) + " nodes";
  else if (p->target == Backend::CUDA)
    s += ", kernels launched one by one";
  return s;
}

Result<std::unique_ptr<StepRunner>> StepRunner::load(const StepBundle &bundle,
                                                     const std::string &name,
                                                     StepRunOptions options) {
  auto impl = std::make_unique<Impl>();
  Impl &r = *impl;
  r.step = bundle.step;
  r.target = bundle.target;
  r.options = options;
  if (bundle.programs.size() != bundle.step.numPrograms ||
      bundle.tensors.size() != bundle.step.tensors.size())
    return Error{name + ": the bundle has " + std::to_string(bundle.programs.size()) +
                 " programs and " + std::to_string(bundle.tensors.size()) +
                 " tensors, but its step names " + std::to_string(bundle.step.numPrograms) +
                 " and " + std::to_string(bundle.step.tensors.size())};
  if (bundle.target == Backend::CUDA) {
    Result<std::shared_ptr<Device>> dev = Device::cuda();
    if (!dev)
      return Error{dev.error()};
    r.dev = *dev;
  } else {
    r.dev = Device::host();
  }
  // Each program through a program bundle's loader: its checks (the
  // machine, the CPU's features, the chip) and its messages.
  for (size_t j = 0; j < bundle.programs.size(); ++j) {
    const StepBundle::Program &prog = bundle.programs[j];
    Bundle one = bundle.target == Backend::CPU
                     ? Bundle::cpu(prog.plan, prog.code, bundle.arch)
                     : Bundle::cuda(prog.plan, prog.code, bundle.arch);
    one.features = bundle.features;
    one.machine = bundle.machine;
    if (prog.plan.form != HostPlan::Shaped)
      return Error{name + ": program " + std::to_string(j) + " is not a shaped program"};
    Result<std::unique_ptr<Executable>> exe = loadBundle(one, name);
    if (!exe)
      return Error{exe.error()};
    r.exes.push_back(exe.take());
  }
  if (Result<bool> ok = r.bind(name); !ok)
    return Error{ok.error()};
  for (size_t k = 0; k < bundle.tensors.size(); ++k) {
    Result<bool> ok = r.dev->copyIn(*r.tensors[k][0], bundle.tensors[k].data(),
                                    bundle.tensors[k].bytes());
    if (!ok)
      return Error{name + ": " + ok.error()};
  }
  if (r.target == Backend::CUDA)
    if (Result<bool> ok = r.capture(); !ok)
      return Error{name + ": " + ok.error()};
  return std::unique_ptr<StepRunner>(new StepRunner(std::move(impl)));
}

/// Checks the programs against the step, allocates every buffer and
/// computes both parities' bindings.
Result<bool> StepRunner::Impl::bind(const std::string &name) {
  auto fail = [&](const std::string &why) { return Error{name + ": " + why}; };
  // Each slot a program reads holds what its plan takes.
  for (size_t j = 0; j < step.realizes.size(); ++j) {
    const StepRealize &rz = step.realizes[j];
    const HostPlan &plan = planOf(j);
    if (plan.values.size() != rz.values.size())
      return fail("realize " + std::to_string(j) + " has " + std::to_string(rz.values.size()) +
                  " values, but its program computes " + std::to_string(plan.values.size()));
    for (size_t v = 0; v < plan.values.size(); ++v)
      if (numelOf(rz.values[v]) > plan.args[plan.values[v].arg].numel)
        return fail("realize " + std::to_string(j) + ": value " + std::to_string(v) +
                    " is larger than its buffer");
    for (const PlanArg &a : plan.args) {
      if (a.kind != PlanArg::Input)
        continue;
      if (a.slot < 0 || a.slot >= (int64_t)rz.slots.size() ||
          rz.slots[a.slot].kind == StepSource::None)
        return fail("realize " + std::to_string(j) + " reads slot " + std::to_string(a.slot) +
                    ", which the step does not bind");
      auto [dt, n] = sourceType(rz.slots[a.slot]);
      if (dt != a.dtype || n != a.numel)
        return fail("realize " + std::to_string(j) + ": slot " + std::to_string(a.slot) + " is " +
                    std::to_string(a.numel) + " x " + dtypeName(a.dtype) + ", but its source (" +
                    sourceToken(rz.slots[a.slot]) + ") holds " + std::to_string(n) + " x " +
                    dtypeName(dt));
    }
    launches += static_cast<unsigned>(plan.launches.size());
  }
  for (size_t k = 0; k < step.outputs.size(); ++k) {
    auto [dt, n] = sourceType(step.outputs[k]);
    if (n != numelOf(step.outputShapes[k]))
      return fail("output " + std::to_string(k) + " holds " + std::to_string(n) + " x " +
                  dtypeName(dt) + ", not " + shapeString(step.outputShapes[k]));
  }
  // Where each state's next value is written: in place into its other
  // buffer when that value is a whole output of its realize that no other
  // state takes; else it is copied there at the end of the step.
  home.resize(step.realizes.size());
  outs.resize(step.realizes.size());
  for (size_t j = 0; j < step.realizes.size(); ++j) {
    home[j].assign(planOf(j).args.size(), -1);
    outs[j].assign(planOf(j).args.size(), nullptr);
  }
  std::vector<size_t> bufferBytes(step.tensors.size());
  std::vector<bool> copied(step.tensors.size(), false);
  for (size_t k = 0; k < step.tensors.size(); ++k) {
    const StepTensor &t = step.tensors[k];
    bufferBytes[k] = static_cast<size_t>(numelOf(t.shape)) * dtypeSize(t.dtype);
    if (!t.state || t.next.kind == StepSource::None)
      continue;
    auto [dt, n] = sourceType(t.next);
    if (dt != t.dtype || n != numelOf(t.shape))
      return fail("state " + t.name + " is " + shapeString(t.shape) + " " + dtypeName(t.dtype) +
                  ", but its next value (" + sourceToken(t.next) + ") holds " + std::to_string(n) +
                  " x " + dtypeName(dt));
    const HostPlan &plan = planOf(t.next.index);
    unsigned a = plan.values[t.next.value].arg;
    if (plan.args[a].kind == PlanArg::Output && home[t.next.index][a] < 0) {
      home[t.next.index][a] = static_cast<int64_t>(k);
      bufferBytes[k] = std::max(bufferBytes[k], static_cast<size_t>(plan.args[a].numel) *
                                                    dtypeSize(plan.args[a].dtype));
    } else {
      copied[k] = true;
    }
  }
  // The buffers.
  for (const StepInput &in : step.inputs) {
    Result<DeviceArray *> a = allocate(static_cast<size_t>(numelOf(in.shape)) * dtypeSize(in.dtype));
    if (!a)
      return fail(a.error());
    inputs.push_back(*a);
  }
  data.resize(step.inputs.size());
  for (size_t k = 0; k < step.tensors.size(); ++k) {
    const StepTensor &t = step.tensors[k];
    Result<DeviceArray *> a = allocate(bufferBytes[k]);
    if (!a)
      return fail(a.error());
    std::array<DeviceArray *, 2> pair = {*a, *a};
    if (t.state && t.next.kind != StepSource::None) {
      Result<DeviceArray *> b = allocate(bufferBytes[k]);
      if (!b)
        return fail(b.error());
      pair[1] = *b;
    }
    tensors.push_back(pair);
  }
  for (size_t j = 0; j < step.realizes.size(); ++j) {
    const HostPlan &plan = planOf(j);
    for (size_t a = 0; a < plan.args.size(); ++a) {
      if (plan.args[a].kind != PlanArg::Output || home[j][a] >= 0)
        continue;
      Result<DeviceArray *> b =
          allocate(static_cast<size_t>(plan.args[a].numel) * dtypeSize(plan.args[a].dtype));
      if (!b)
        return fail(b.error());
      outs[j][a] = *b;
    }
  }
  // Both parities' bindings.
  for (int par = 0; par < 2; ++par) {
    for (size_t j = 0; j < step.realizes.size(); ++j) {
      const HostPlan &plan = planOf(j);
      std::vector<DevicePtr> bound;
      for (size_t a = 0; a < plan.args.size(); ++a) {
        const PlanArg &arg = plan.args[a];
        if (arg.owned())
          continue;
        bound.push_back(arg.kind == PlanArg::Input
                            ? sourceAddr(step.realizes[j].slots[arg.slot], par, false)
                            : argAddr(j, static_cast<unsigned>(a), par));
      }
      args[par].push_back(std::move(bound));
    }
    for (size_t k = 0; k < step.tensors.size(); ++k)
      if (copied[k])
        copies[par].push_back({tensors[k][1 - par]->ptr(),
                               valueAddr(step.tensors[k].next.index, step.tensors[k].next.value,
                                         par),
                               static_cast<size_t>(numelOf(step.tensors[k].shape)) *
                                   dtypeSize(step.tensors[k].dtype)});
  }
  return true;
}

/// CUDA: the stream, and each parity's step as a CUDA graph.
Result<bool> StepRunner::Impl::capture() {
  Result<std::shared_ptr<CudaDevice>> cudaDev = CudaDevice::get();
  if (!cudaDev)
    return Error{cudaDev.error()};
  Result<CudaStream> s = CudaStream::create(*cudaDev);
  if (!s)
    return Error{s.error()};
  stream.emplace(s.take());
  for (const auto &exe : exes)
    if (Result<bool> ok = exe->cudaProgram()->clearChecks(); !ok)
      return ok;
  if (!options.graph)
    return true;
  // Each binding once before capturing: the tensor maps of TMA kernels are
  // encoded and copied to the device then, not while the stream captures.
  for (int par = 0; par < 2; ++par)
    for (size_t j = 0; j < step.realizes.size(); ++j)
      if (Result<bool> ok = exes[step.realizes[j].program]->cudaProgram()->bind(args[par][j]);
          !ok)
        return ok;
  for (int par = 0; par < 2; ++par) {
    Result<CudaGraph> g = CudaGraph::capture(*stream, [&]() -> Result<bool> {
      for (size_t j = 0; j < step.realizes.size(); ++j)
        if (Result<bool> ok = exes[step.realizes[j].program]->cudaProgram()->launch(
                args[par][j], &*stream, /*resetChecks=*/false);
            !ok)
          return ok;
      for (const Copy &c : copies[par])
        if (Result<bool> ok = stream->copy(c.dst, c.src, c.bytes); !ok)
          return ok;
      return true;
    });
    if (!g)
      return Error{g.error()};
    graphs[par].emplace(g.take());
  }
  return true;
}

Result<bool> StepRunner::setTensor(size_t k, const HostBuffer &value) {
  if (k >= p->step.tensors.size())
    return Error{"the step has no tensor " + std::to_string(k)};
  const StepTensor &t = p->step.tensors[k];
  if (value.dtype() != t.dtype || value.numel() != numelOf(t.shape))
    return Error{"tensor " + t.name + " is " + dtypeName(t.dtype) + " of shape " +
                 shapeString(t.shape) + ", not " + value.describe()};
  if (p->stream)
    if (Result<bool> ok = p->stream->synchronize(); !ok)
      return ok;
  return p->dev->copyIn(*p->tensors[k][p->done % 2], value.data(), value.bytes());
}

Result<bool> StepRunner::setData(size_t k, const HostBuffer &value) {
  if (k >= p->step.inputs.size())
    return Error{"the step has " + std::to_string(p->step.inputs.size()) + " input(s), not " +
                 std::to_string(k + 1)};
  const StepInput &in = p->step.inputs[k];
  int64_t n = numelOf(in.shape);
  const std::vector<int64_t> &s = value.shape();
  bool stacked = s.size() == in.shape.size() + 1 &&
                 std::equal(in.shape.begin(), in.shape.end(), s.begin() + 1);
  bool flat = !in.shape.empty() && s.size() == in.shape.size() && s[0] % in.shape[0] == 0 &&
              std::equal(in.shape.begin() + 1, in.shape.end(), s.begin() + 1);
  if (value.dtype() != in.dtype || value.numel() == 0 || value.numel() % n != 0 ||
      !(stacked || flat))
    return Error{"input " + std::to_string(k) + " is " + dtypeName(in.dtype) + " of shape " +
                 shapeString(in.shape) + ": data of " + value.describe() +
                 " does not hold whole batches of it"};
  Result<std::unique_ptr<DeviceArray>> a = p->dev->allocate(value.bytes());
  if (!a)
    return Error{a.error()};
  if (Result<bool> ok = p->dev->copyIn(**a, value.data(), value.bytes()); !ok)
    return ok;
  p->arrays.push_back(a.take());
  p->data[k] = {p->arrays.back().get(), value.numel() / n};
  return true;
}

/// One step, enqueued (CUDA) or run (CPU).
Result<bool> StepRunner::Impl::runStep() {
  int par = static_cast<int>(done % 2);
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (!data[k].array)
      continue;
    size_t bytes = inputs[k]->bytes();
    DevicePtr src = data[k].array->ptr() + static_cast<DevicePtr>(done % data[k].batches) * bytes;
    if (stream) {
      if (Result<bool> ok = stream->copy(inputs[k]->ptr(), src, bytes); !ok)
        return ok;
    } else {
      std::memcpy(reinterpret_cast<void *>(uintptr_t(inputs[k]->ptr())),
                  reinterpret_cast<const void *>(uintptr_t(src)), bytes);
    }
  }
  if (graphs[par])
    return graphs[par]->launch(*stream);
  for (size_t j = 0; j < step.realizes.size(); ++j) {
    Executable &exe = *exes[step.realizes[j].program];
    Result<bool> ok = stream ? exe.cudaProgram()->launch(args[par][j], &*stream, false)
                             : exe.runOn(args[par][j]);
    if (!ok)
      return ok;
  }
  for (const Copy &c : copies[par]) {
    if (stream) {
      if (Result<bool> ok = stream->copy(c.dst, c.src, c.bytes); !ok)
        return ok;
    } else {
      std::memmove(reinterpret_cast<void *>(uintptr_t(c.dst)),
                   reinterpret_cast<const void *>(uintptr_t(c.src)), c.bytes);
    }
  }
  return true;
}

Result<bool> StepRunner::run(int64_t steps, int64_t every, int64_t record,
                             const std::function<Result<bool>(const StepReport &)> &report) {
  Impl &r = *p;
  if (record >= static_cast<int64_t>(r.step.outputs.size()))
    return Error{"the step has " + std::to_string(r.step.outputs.size()) + " output(s), not " +
                 std::to_string(record + 1)};
  DType recordType = DType::F32;
  size_t recordBytes = 0;
  if (record >= 0) {
    auto [dt, n] = r.sourceType(r.step.outputs[record]);
    if (n != 1)
      return Error{"output " + std::to_string(record) + " has " + std::to_string(n) +
                   " elements: the recorded output (the loss) must have one"};
    recordType = dt;
    recordBytes = dtypeSize(dt);
  }
  if (every <= 0 || every > steps)
    every = std::max<int64_t>(steps, 1);
  // CUDA: the recorded output of each step goes to a device log, read at
  // each report.
  if (r.stream && recordBytes && (!r.log || r.log->bytes() < every * recordBytes)) {
    Result<DeviceArray *> log = r.allocate(static_cast<size_t>(every) * recordBytes);
    if (!log)
      return Error{log.error()};
    r.log = *log;
  }
  // The uploads (the tensors, the data) went through the default stream;
  // a copy from pageable memory may still be in flight when it returns, and
  // the runner's stream does not wait for the default one.
  if (r.stream)
    if (Result<bool> ok = r.dev->synchronize(); !ok)
      return ok;
  using Clock = std::chrono::steady_clock;
  auto last = Clock::now();
  StepReport rep;
  HostBuffer one(recordType, {1});
  for (int64_t s = 0; s < steps; ++s) {
    int par = static_cast<int>(r.done % 2);
    if (Result<bool> ok = r.runStep(); !ok)
      return Error{"step " + std::to_string(r.done + 1) + ": " + ok.error()};
    if (recordBytes) {
      DevicePtr src = r.sourceAddr(r.step.outputs[record], par, true);
      if (r.stream) {
        if (Result<bool> ok = r.stream->copy(r.log->ptr() + rep.values.size() * recordBytes, src,
                                             recordBytes);
            !ok)
          return ok;
        rep.values.push_back(0);
      } else {
        std::memcpy(one.data(), reinterpret_cast<const void *>(uintptr_t(src)), recordBytes);
        rep.values.push_back(one.getDouble(0));
      }
    }
    ++r.done;
    if ((s + 1) % every != 0 && s + 1 != steps)
      continue;
    if (r.stream) {
      if (Result<bool> ok = r.stream->synchronize(); !ok)
        return Error{"step " + std::to_string(r.done) + ": " + ok.error()};
      for (const auto &exe : r.exes)
        if (Result<bool> ok = exe->cudaProgram()->readChecks(); !ok)
          return ok;
      if (recordBytes) {
        HostBuffer got(recordType, {static_cast<int64_t>(rep.values.size())});
        if (Result<bool> ok = r.dev->copyOut(got.data(), *r.log, got.bytes()); !ok)
          return ok;
        for (size_t i = 0; i < rep.values.size(); ++i)
          rep.values[i] = got.getDouble(static_cast<int64_t>(i));
      }
    }
    auto now = Clock::now();
    rep.step = r.done;
    rep.seconds = std::chrono::duration<double>(now - last).count();
    if (Result<bool> ok = report(rep); !ok)
      return ok;
    rep.values.clear();
    last = Clock::now();
  }
  return true;
}

Result<std::vector<std::vector<KernelProfile>>> StepRunner::profile(int runs) {
  Impl &r = *p;
  if (r.stream)
    if (Result<bool> ok = r.stream->synchronize(); !ok)
      return Error{ok.error()};
  int par = static_cast<int>(r.done % 2);
  std::vector<std::vector<KernelProfile>> out;
  for (size_t j = 0; j < r.step.realizes.size(); ++j) {
    Result<std::vector<KernelProfile>> prof =
        r.exes[r.step.realizes[j].program]->profileOn(r.args[par][j], runs);
    if (!prof)
      return Error{prof.error()};
    out.push_back(prof.take());
  }
  return out;
}

Result<HostBuffer> StepRunner::tensor(size_t k) {
  if (k >= p->step.tensors.size())
    return Error{"the step has no tensor " + std::to_string(k)};
  if (p->stream)
    if (Result<bool> ok = p->stream->synchronize(); !ok)
      return Error{ok.error()};
  const StepTensor &t = p->step.tensors[k];
  Result<HostBuffer> out = HostBuffer::create(t.dtype, t.shape);
  if (!out)
    return out;
  if (Result<bool> ok = p->dev->copyOut(out->data(), *p->tensors[k][p->done % 2], out->bytes());
      !ok)
    return Error{ok.error()};
  return out;
}

Result<HostBuffer> StepRunner::output(size_t k) {
  if (k >= p->step.outputs.size())
    return Error{"the step has no output " + std::to_string(k)};
  if (p->done == 0)
    return Error{"no step has run"};
  if (p->stream)
    if (Result<bool> ok = p->stream->synchronize(); !ok)
      return Error{ok.error()};
  // The last step's parity: its outputs are where that step left them.
  int par = static_cast<int>((p->done - 1) % 2);
  DevicePtr src = p->sourceAddr(p->step.outputs[k], par, true);
  auto [dt, n] = p->sourceType(p->step.outputs[k]);
  Result<HostBuffer> out = HostBuffer::create(dt, p->step.outputShapes[k]);
  if (!out)
    return out;
  // An address inside one of the runner's arrays: copy through a view.
  for (const auto &a : p->arrays)
    if (src >= a->ptr() && src + out->bytes() <= a->ptr() + a->bytes()) {
      if (src == a->ptr()) {
        if (Result<bool> ok = p->dev->copyOut(out->data(), *a, out->bytes()); !ok)
          return Error{ok.error()};
        return out;
      }
    }
  return Error{"internal error: output " + std::to_string(k) + " is in no buffer"};
}
