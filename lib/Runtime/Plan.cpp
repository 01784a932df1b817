//===- Plan.cpp - a compiled program's host plan, as data -------*- C++ -*-===//

#include "Uop/Runtime/Plan.h"

#include <sstream>

using namespace uop::rt;

/// Bumped whenever the text form changes.
static constexpr const char *kPlanHeader = "uop-host-plan 4";

/// What a failed check of `kind` says.
static const char *checkWhat(const std::string &kind) {
  if (kind == "index")
    return "index out of bounds";
  if (kind == "axis")
    return "index out of bounds for its axis";
  if (kind == "div-zero")
    return "integer division by zero";
  if (kind == "mod-zero")
    return "integer modulo by zero";
  if (kind == "div-overflow")
    return "integer division overflows i32 (INT_MIN / -1)";
  if (kind == "mod-overflow")
    return "integer modulo overflows i32 (INT_MIN % -1)";
  return "run-time check failed";
}

std::string uop::rt::formatCheckFailure(const PlanCheck &check, int64_t value, int64_t bound) {
  if (check.kind == "alloc") {
    // The size: its low 31 bits in the value, the rest in the bound.
    uint64_t bytes = (static_cast<uint64_t>(static_cast<uint32_t>(bound)) << 31) |
                     static_cast<uint32_t>(value);
    return (check.loc.empty() ? std::string("<unknown>") : check.loc) +
           ": error: cannot allocate " + std::to_string(bytes) + " bytes in the kernel";
  }
  return (check.loc.empty() ? std::string("<unknown>") : check.loc) + ": error: " +
         checkWhat(check.kind) + " (value " + std::to_string(value) + ", bound " +
         std::to_string(bound) + ")";
}

std::string HostPlan::checkFailure(size_t kernel, const int32_t *r) const {
  if (!r || r[1] == 0)
    return "";
  int64_t id = static_cast<int64_t>(r[1]) - 1;
  if (kernel >= kernels.size() || id < 0 || id >= (int64_t)kernels[kernel].checks.size())
    return "error: a run-time check failed (kernel " + std::to_string(kernel) + ", check " +
           std::to_string(id) + ", value " + std::to_string(r[2]) + ", bound " +
           std::to_string(r[3]) + ")";
  return formatCheckFailure(kernels[kernel].checks[id], r[2], r[3]);
}

std::vector<int64_t> HostPlan::inputSlots() const {
  std::vector<int64_t> slots;
  for (const PlanArg &a : args)
    if (form == Shaped ? a.kind == PlanArg::Input : a.read)
      slots.push_back(a.slot);
  return slots;
}

int64_t HostPlan::argOfSlot(int64_t slot) const {
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].slot == slot && !args[i].owned() &&
        (form == InPlace || args[i].kind == PlanArg::Input))
      return static_cast<int64_t>(i);
  return -1;
}

double HostPlan::flops() const {
  double f = 0;
  for (const PlanKernel &k : kernels)
    f += k.flops * k.launches;
  return f;
}

double HostPlan::bytes() const {
  double b = 0;
  for (const PlanKernel &k : kernels)
    b += k.bytes * k.launches;
  return b;
}

std::string HostPlan::serialize() const {
  std::ostringstream os;
  os.precision(17);
  os << kPlanHeader << "\n";
  os << "form " << static_cast<int>(form) << "\n";
  os << "launches " << numLaunches << "\n";
  for (const PlanArg &a : args)
    os << "arg " << static_cast<int>(a.kind) << " " << a.slot << " " << dtypeName(a.dtype) << " "
       << a.numel << " " << a.read << " " << a.written << "\n";
  for (const PlanValue &v : values) {
    os << "value " << v.arg << " " << v.shape.size();
    for (int64_t d : v.shape)
      os << " " << d;
    os << "\n";
  }
  // The opts come last: their printed form has spaces.
  for (const PlanKernel &k : kernels)
    os << "kernel " << k.name << " " << k.launches << " " << k.flops << " " << k.bytes << " "
       << k.opts << "\n";
  // A check's location comes last: a file name may have spaces.
  for (size_t k = 0; k < kernels.size(); ++k)
    for (const PlanCheck &c : kernels[k].checks)
      os << "check " << k << " " << c.kind << " " << c.loc << "\n";
  for (const PlanLaunch &l : launches) {
    os << "launch " << l.kernel << " " << l.args.size();
    for (unsigned a : l.args)
      os << " " << a;
    os << " grid " << l.grid[0] << " " << l.grid[1] << " " << l.grid[2] << " block " << l.block[0]
       << " " << l.block[1] << " " << l.block[2];
    if (l.shared > 0)
      os << " shared " << l.shared;
    os << "\n";
  }
  os << "end\n";
  return os.str();
}

Result<HostPlan> HostPlan::parse(const std::string &text) {
  HostPlan plan;
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kPlanHeader)
    return Error{"not a uop host plan (or another version of it)"};
  bool ended = false;
  auto bad = [&]() { return Error{"bad host plan line: '" + line + "'"}; };
  while (std::getline(in, line)) {
    if (ended)
      return bad();
    std::istringstream ls(line);
    std::string word;
    ls >> word;
    if (word == "form") {
      int form = -1;
      ls >> form;
      if (!ls || (form != Shaped && form != InPlace))
        return bad();
      plan.form = static_cast<Form>(form);
    } else if (word == "launches") {
      ls >> plan.numLaunches;
      if (!ls)
        return bad();
    } else if (word == "arg") {
      int kind = -1;
      std::string dtype;
      PlanArg a{};
      ls >> kind >> a.slot >> dtype >> a.numel >> a.read >> a.written;
      auto dt = dtypeFromName(dtype);
      if (!ls || !dt || kind < PlanArg::Input || kind > PlanArg::Check || a.numel < 1)
        return bad();
      if (kind == PlanArg::Check &&
          (*dt != DType::I32 || a.numel != kCheckRecordSize || a.slot < 0))
        return bad();
      a.kind = static_cast<PlanArg::Kind>(kind);
      a.dtype = *dt;
      plan.args.push_back(a);
    } else if (word == "value") {
      PlanValue v{};
      size_t rank = 0;
      ls >> v.arg >> rank;
      if (!ls || v.arg >= plan.args.size() || rank > 64)
        return bad();
      v.shape.resize(rank);
      int64_t numel = 1;
      for (int64_t &d : v.shape) {
        ls >> d;
        if (!ls || d < 0)
          return bad();
        numel *= d;
      }
      if (std::max<int64_t>(numel, 1) > plan.args[v.arg].numel)
        return bad();
      plan.values.push_back(std::move(v));
    } else if (word == "kernel") {
      PlanKernel k;
      ls >> k.name >> k.launches >> k.flops >> k.bytes;
      if (!ls)
        return bad();
      ls >> std::ws;
      std::getline(ls, k.opts);
      plan.kernels.push_back(std::move(k));
    } else if (word == "check") {
      size_t k = 0;
      PlanCheck c;
      ls >> k >> c.kind;
      if (!ls || k >= plan.kernels.size())
        return bad();
      ls >> std::ws;
      std::getline(ls, c.loc);
      plan.kernels[k].checks.push_back(std::move(c));
    } else if (word == "launch") {
      PlanLaunch l{};
      size_t nargs = 0;
      ls >> l.kernel >> nargs;
      if (!ls || l.kernel >= plan.kernels.size() || nargs > plan.args.size() * 4 + 64)
        return bad();
      l.args.resize(nargs);
      for (unsigned &a : l.args) {
        ls >> a;
        if (!ls || a >= plan.args.size())
          return bad();
      }
      std::string g, b;
      ls >> g >> l.grid[0] >> l.grid[1] >> l.grid[2] >> b >> l.block[0] >> l.block[1] >> l.block[2];
      if (!ls || g != "grid" || b != "block")
        return bad();
      std::string sh;
      if (ls >> sh) {
        ls >> l.shared;
        if (!ls || sh != "shared" || l.shared < 1 || l.shared > (int64_t(1) << 31))
          return bad();
      }
      for (int i = 0; i < 3; ++i)
        if (l.grid[i] < 1 || l.block[i] < 1)
          return bad();
      plan.launches.push_back(std::move(l));
    } else if (word == "end") {
      ended = true;
    } else if (!word.empty()) {
      return bad();
    }
  }
  if (!ended)
    return Error{"the host plan is truncated (no 'end' line)"};
  for (const PlanArg &a : plan.args)
    if (a.kind == PlanArg::Check && a.slot >= (int64_t)plan.kernels.size())
      return Error{"bad host plan: a check record of kernel " + std::to_string(a.slot) +
                   ", but the plan has " + std::to_string(plan.kernels.size())};
  return plan;
}
