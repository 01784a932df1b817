//===- Plan.cpp - a compiled program's host plan, as data -------*- C++ -*-===//

#include "Uop/Runtime/Plan.h"
#include "BundleFormat.h"

#include <sstream>
#include <vector>

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
  for (size_t k = 0; k < kernels.size(); ++k)
    for (const PlanTensorMap &t : kernels[k].tensorMaps)
      os << "tma " << k << " " << t.param << " " << dtypeName(t.dtype) << " " << t.offset << " "
         << t.dims[0] << " " << t.dims[1] << " " << t.stride << " " << t.box[0] << " " << t.box[1]
         << " " << t.swizzle << "\n";
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
  auto bad = [&]() { return Error{"bad host plan line: '" + detail::quoteEntry(line, 200) + "'"}; };
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
        // A shape whose elements overflow an int64 is no shape (it wrapped
        // to a small count that passed the comparison below).
        if (!ls || d < 0 || __builtin_mul_overflow(numel, d, &numel))
          return bad();
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
    } else if (word == "tma") {
      size_t k = 0;
      PlanTensorMap t;
      std::string dtype;
      ls >> k >> t.param >> dtype >> t.offset >> t.dims[0] >> t.dims[1] >> t.stride >> t.box[0] >>
          t.box[1] >> t.swizzle;
      auto dt = dtypeFromName(dtype);
      std::string rest;
      // What cuTensorMapEncodeTiled takes: dims up to 2^32, boxes of 1 to
      // 256, a 16-byte multiple of stride.
      if (!ls || (ls >> rest) || k >= plan.kernels.size() || !dt || t.offset < 0 ||
          t.dims[0] < 1 || t.dims[1] < 1 || t.dims[0] > (int64_t(1) << 32) ||
          t.dims[1] > (int64_t(1) << 32) || t.stride < 16 || t.stride % 16 ||
          t.stride >= (int64_t(1) << 40) || t.box[0] < 1 || t.box[0] > 256 || t.box[1] < 1 ||
          t.box[1] > 256 || (t.swizzle != 0 && t.swizzle != 32 && t.swizzle != 64 && t.swizzle != 128))
        return bad();
      t.dtype = *dt;
      plan.kernels[k].tensorMaps.push_back(t);
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

//===----------------------------------------------------------------------===//
// The plan's signature in its code
//===----------------------------------------------------------------------===//

/// Bumped whenever the signature's form changes.
static constexpr const char *kSignatureHeader = "uop-plan-1";

static const char *kindLetter(PlanArg::Kind kind) {
  switch (kind) {
  case PlanArg::Input:
    return "I";
  case PlanArg::Output:
    return "O";
  case PlanArg::Temp:
    return "T";
  case PlanArg::Check:
    return "C";
  }
  return "?";
}

std::string HostPlan::codeSignature() const {
  std::ostringstream os;
  os << kSignatureHeader << " form=" << static_cast<int>(form);
  for (const PlanArg &a : args)
    os << " arg=" << kindLetter(a.kind) << ":" << dtypeName(a.dtype) << ":" << a.numel;
  for (const PlanLaunch &l : launches) {
    os << " launch=" << l.kernel << ":";
    for (size_t i = 0; i < l.args.size(); ++i)
      os << (i ? "," : "") << l.args[i];
    os << ":" << l.grid[0] << "," << l.grid[1] << "," << l.grid[2] << ":" << l.block[0] << ","
       << l.block[1] << "," << l.block[2] << ":" << l.shared;
  }
  // The tensor maps: what TMA reads of each buffer.
  for (size_t k = 0; k < kernels.size(); ++k)
    for (const PlanTensorMap &t : kernels[k].tensorMaps)
      os << " tma=" << k << ":" << t.param << ":" << dtypeName(t.dtype) << ":" << t.offset << ":"
         << t.dims[0] << "," << t.dims[1] << ":" << t.stride << ":" << t.box[0] << "," << t.box[1]
         << ":" << t.swizzle;
  return os.str();
}

static std::vector<std::string> words(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;)
    out.push_back(w);
  return out;
}

Result<bool> HostPlan::checkCodeSignature(const std::string &code) const {
  std::string mine = codeSignature();
  if (code.empty() || code == mine)
    return true;
  auto fail = [](const std::string &why) {
    return Error{"the plan does not match its code: " + why +
                 " (a bundle or plan edited after it was compiled)"};
  };
  std::vector<std::string> a = words(mine), b = words(code);
  if (b.empty() || b[0] != kSignatureHeader)
    return fail("the code's plan signature is of another uop ('" + code.substr(0, 40) + "')");
  auto count = [](const std::vector<std::string> &w, const char *prefix) {
    size_t n = 0;
    for (const std::string &x : w)
      n += x.rfind(prefix, 0) == 0;
    return n;
  };
  size_t planArgs = count(a, "arg="), codeArgs = count(b, "arg=");
  if (planArgs != codeArgs)
    return fail("the plan has " + std::to_string(planArgs) + " buffer(s), its code takes " +
                std::to_string(codeArgs));
  size_t planLaunches = count(a, "launch="), codeLaunches = count(b, "launch=");
  if (planLaunches != codeLaunches)
    return fail("the plan has " + std::to_string(planLaunches) + " launch(es), its code " +
                std::to_string(codeLaunches));
  if (a.size() != b.size())
    return fail("its code's signature has " + std::to_string(b.size()) + " words, the plan's " +
                std::to_string(a.size()));
  for (size_t i = 1; i < a.size(); ++i) {
    if (a[i] == b[i])
      continue;
    if (a[i].rfind("arg=", 0) == 0) {
      size_t k = i - 2; // after the header and the form
      const PlanArg &arg = args[k];
      std::string what = arg.kind == PlanArg::Input    ? "reads"
                         : arg.kind == PlanArg::Output ? "writes"
                                                       : "uses";
      std::string theirs = b[i].substr(4);
      size_t c1 = theirs.find(':'), c2 = theirs.rfind(':');
      std::string codeSays = c1 == std::string::npos || c2 == c1
                                 ? theirs
                                 : theirs.substr(c2 + 1) + " x " + theirs.substr(c1 + 1, c2 - c1 - 1);
      return fail("buffer " + std::to_string(k) + " holds " + std::to_string(arg.numel) + " x " +
                  dtypeName(arg.dtype) + " in the plan, but its code " + what + " " + codeSays +
                  (theirs.substr(0, 1) != kindLetter(arg.kind) ? " (another kind of buffer)" : ""));
    }
    if (a[i].rfind("launch=", 0) == 0)
      return fail("launch " + std::to_string(i - 2 - planArgs) + " is " + a[i].substr(7) +
                  " (kernel:args:grid:block:shared) in the plan, " + b[i].substr(7) +
                  " in its code");
    return fail("'" + a[i] + "' in the plan, '" + b[i] + "' in its code");
  }
  return fail("its code's signature differs");
}

std::string uop::rt::ptxPlanSignature(const std::string &ptx) {
  size_t at = 0;
  std::string marker = kPlanSignatureComment;
  while ((at = ptx.find(marker, at)) != std::string::npos) {
    if (at == 0 || ptx[at - 1] == '\n') {
      size_t begin = at + marker.size();
      size_t end = ptx.find_first_of("\r\n", begin);
      return ptx.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    }
    at += marker.size();
  }
  return "";
}
