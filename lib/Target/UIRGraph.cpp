//===- UIRGraph.cpp - the seed's hash-consed UOp graph ----------*- C++ -*-===//

#include "UIRGraph.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"

#include <cmath>
#include <cstdio>

using namespace mlir::uop::uir;
using llvm::StringRef;

static const char *const kOpNames[] = {
    "param",   "call",     "const",    "stack",  "index",  "cast",  "recip",   "add",   "mul",
    "cmplt",   "floordiv", "floormod", "where",  "cmpne",  "max",   "exp2",    "log2",  "sqrt",
    "sin",     "buffer",   "alloc",    "load",   "store",  "after", "sink",    "range", "end",
    "reshape", "expand",   "permute",  "shrink", "reduce", "stage", "barrier", "wmma"};

StringRef mlir::uop::uir::opName(OpKind op) { return kOpNames[(unsigned)op]; }

static const char *const kDTypeNames[] = {"void", "bool", "i32", "f32", "f16"};

StringRef mlir::uop::uir::dtypeName(DType d) { return kDTypeNames[(unsigned)d]; }

static const char *const kAxisNames[] = {"loop", "reduce", "upcast", "thread", "global", "local"};

StringRef mlir::uop::uir::axisName(Axis a) { return kAxisNames[(unsigned)a]; }

//===----------------------------------------------------------------------===//
// Literals
//===----------------------------------------------------------------------===//

std::string mlir::uop::uir::formatFloat(double value, bool half) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  if (value == 0)
    return std::signbit(value) ? "-0.0" : "0.0";
  const llvm::fltSemantics &sem = half ? llvm::APFloat::IEEEhalf() : llvm::APFloat::IEEEsingle();
  llvm::APFloat target(std::fabs(value));
  bool lost = false;
  target.convert(sem, llvm::APFloat::rmNearestTiesToEven, &lost);
  auto readsBack = [&](uint64_t m, int q) {
    std::string s = std::to_string(m) + "e" + std::to_string(q);
    llvm::APFloat r(sem);
    auto status = r.convertFromString(s, llvm::APFloat::rmNearestTiesToEven);
    if (!status) {
      llvm::consumeError(status.takeError());
      return false;
    }
    return r.bitwiseIsEqual(target);
  };

  // The shortest digit string: the correctly rounded p-digit decimal, or one
  // of its neighbours when the value sits at a binade edge.
  bool neg = std::signbit(value);
  double mag = std::fabs(value);
  uint64_t m = 0;
  int q = 0;
  for (int p = 1; p <= 17; ++p) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, mag);
    StringRef s(buf);
    size_t e = s.find('e');
    std::string digits;
    for (char c : s.take_front(e))
      if (llvm::isDigit(c))
        digits += c;
    int ex = std::atoi(buf + e + 1);
    uint64_t cand = std::stoull(digits);
    int cq = ex - (p - 1);
    if (readsBack(cand, cq)) {
      m = cand, q = cq;
      break;
    }
    if (cand > 1 && readsBack(cand - 1, cq)) {
      m = cand - 1, q = cq;
      break;
    }
    if (readsBack(cand + 1, cq)) {
      m = cand + 1, q = cq;
      break;
    }
  }
  std::string ds = std::to_string(m);
  while (ds.size() > 1 && ds.back() == '0')
    ds.pop_back(), ++q;
  int e10 = q + (int)ds.size() - 1;

  std::string out = neg ? "-" : "";
  if (e10 >= -4 && e10 < 16) {
    if (e10 >= 0) {
      std::string ip = ds.substr(0, std::min<size_t>(ds.size(), e10 + 1));
      ip.append(e10 + 1 - ip.size(), '0');
      std::string fp = ds.size() > (size_t)e10 + 1 ? ds.substr(e10 + 1) : "0";
      out += ip + "." + fp;
    } else {
      out += "0." + std::string(-e10 - 1, '0') + ds;
    }
    return out;
  }
  out += ds.substr(0, 1);
  if (ds.size() > 1)
    out += "." + ds.substr(1);
  char ebuf[16];
  std::snprintf(ebuf, sizeof ebuf, "e%c%02d", e10 < 0 ? '-' : '+', std::abs(e10));
  return out + ebuf;
}

std::string mlir::uop::uir::formatConst(const ConstVal &c) {
  switch (c.dtype) {
  case DType::Bool:
    return c.i ? "true" : "false";
  case DType::I32:
    return std::to_string(c.i);
  default:
    return formatFloat(c.f, c.half);
  }
}

std::string mlir::uop::uir::formatTuple(llvm::ArrayRef<int64_t> xs) {
  std::string out = "(";
  for (size_t i = 0; i < xs.size(); ++i)
    out += (i ? ", " : "") + std::to_string(xs[i]);
  if (xs.size() == 1)
    out += ",";
  return out + ")";
}

//===----------------------------------------------------------------------===//
// Graph
//===----------------------------------------------------------------------===//

/// The hash-consing key: op, sources, and the parts of the argument the op
/// uses (the seed's `_argkey`: 1, 1.0, true, 0.0 and -0.0 differ).
static std::string keyOf(const Node &n) {
  std::string k;
  llvm::raw_string_ostream os(k);
  os << (unsigned)n.op << '(';
  for (uint32_t s : n.src)
    os << s << ',';
  os << ')';
  auto shape = [&] {
    for (int64_t d : n.argShape)
      os << d << ',';
  };
  switch (n.op) {
  case OpKind::Param:
    os << n.slot << ' ' << (unsigned)n.argDType << ' ';
    shape();
    break;
  case OpKind::Buffer:
  case OpKind::Alloc:
    os << n.slot << ' ' << (unsigned)n.argDType << ' ' << (unsigned)n.space << ' ';
    shape();
    break;
  case OpKind::Const:
    os << (unsigned)n.cval.dtype << ' ' << formatConst(n.cval);
    break;
  case OpKind::Call:
  case OpKind::Stage:
    os << n.name;
    break;
  case OpKind::Cast:
    os << (unsigned)n.argDType;
    break;
  case OpKind::Range:
    os << n.slot << ' ' << (unsigned)n.axis;
    break;
  case OpKind::Reduce:
    os << n.reduceMax << ' ' << n.slot;
    break;
  case OpKind::Reshape:
  case OpKind::Expand:
  case OpKind::Permute:
  case OpKind::Shrink:
    shape();
    break;
  default:
    break;
  }
  return k;
}

uint32_t Graph::intern(Node n, bool *added) {
  std::string key = keyOf(n);
  auto [it, inserted] = table.try_emplace(key, (uint32_t)nodes.size());
  if (added)
    *added = inserted;
  if (inserted)
    nodes.push_back(std::move(n));
  return it->second;
}

std::vector<uint32_t> Graph::toposort(uint32_t root) const {
  std::vector<uint32_t> out;
  std::vector<bool> seen(nodes.size());
  std::vector<std::pair<uint32_t, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [u, done] = stack.back();
    stack.pop_back();
    if (done) {
      out.push_back(u);
      continue;
    }
    if (seen[u])
      continue;
    seen[u] = true;
    stack.push_back({u, true});
    const std::vector<uint32_t> &src = nodes[u].src;
    for (auto it = src.rbegin(); it != src.rend(); ++it)
      if (!seen[*it])
        stack.push_back({*it, false});
  }
  return out;
}

std::vector<uint32_t> Graph::callParams(uint32_t body) const {
  std::vector<uint32_t> out;
  llvm::DenseSet<uint32_t> seen;
  std::vector<uint32_t> stack{body};
  while (!stack.empty()) {
    uint32_t u = stack.back();
    stack.pop_back();
    if (!seen.insert(u).second)
      continue;
    const Node &n = nodes[u];
    if (n.op == OpKind::Param)
      out.push_back(u);
    size_t first = n.op == OpKind::Call ? 1 : 0;
    for (size_t i = first; i < n.src.size(); ++i)
      stack.push_back(n.src[i]);
  }
  return out;
}

/// Which sources of `n` print inline. The seed prints every constant inline,
/// but its parser types a bare literal like the first named operand (`add
/// %f32, 2` means 2.0), so a constant of another dtype (an i32 in a sink of
/// f32 values, an f32 call argument of an i32 body) would read back as a
/// different constant. Those are printed as their own `const` statement, so
/// that the text always reads back to the same graph.
static std::vector<bool> inlineSources(const std::vector<Node> &nodes, const Node &n) {
  std::vector<bool> inl(n.src.size());
  for (size_t k = 0; k < n.src.size(); ++k)
    inl[k] = nodes[n.src[k]].op == OpKind::Const;
  if (n.op == OpKind::Index || n.op == OpKind::Range)
    return inl; // the parser reads their literals as plain constants
  for (bool changed = true; changed;) {
    changed = false;
    std::optional<DType> like;
    for (size_t k = n.op == OpKind::Where ? 1 : 0; k < n.src.size() && !like; ++k)
      if (!inl[k])
        like = nodes[n.src[k]].dtype;
    if (!like)
      break;
    for (size_t k = 0; k < n.src.size(); ++k) {
      const ConstVal &c = nodes[n.src[k]].cval;
      if (inl[k] && c.dtype != DType::Bool && c.dtype != *like) {
        inl[k] = false;
        changed = true;
      }
    }
  }
  return inl;
}

void Graph::print(uint32_t root, llvm::raw_ostream &os) const {
  std::vector<uint32_t> order = toposort(root);
  // Constants that some user cannot print inline get a statement of their own.
  llvm::DenseSet<uint32_t> namedConsts;
  for (uint32_t u : order) {
    std::vector<bool> inl = inlineSources(nodes, nodes[u]);
    for (size_t k = 0; k < inl.size(); ++k)
      if (!inl[k] && nodes[nodes[u].src[k]].op == OpKind::Const)
        namedConsts.insert(nodes[u].src[k]);
  }
  llvm::DenseMap<uint32_t, unsigned> names;
  for (uint32_t u : order) {
    const Node &n = nodes[u];
    if (n.op == OpKind::Const && u != root && !namedConsts.count(u))
      continue; // constants are printed inline
    unsigned name = names.size();
    names[u] = name;
    std::vector<std::string> ops, attrs;
    std::vector<bool> inl = inlineSources(nodes, n);
    for (size_t k = 0; k < n.src.size(); ++k)
      ops.push_back(inl[k] ? formatConst(nodes[n.src[k]].cval)
                           : "%" + std::to_string(names.lookup(n.src[k])));
    switch (n.op) {
    case OpKind::Buffer:
    case OpKind::Alloc:
      ops = {std::to_string(n.argShape.empty() ? 0 : n.argShape[0])};
      attrs = {"dtype=" + dtypeName(n.argDType).str(), "slot=" + std::to_string(n.slot)};
      if (n.space == Space::Shared)
        attrs.push_back("space=shared");
      else if (n.space == Space::Global && n.op == OpKind::Alloc)
        attrs.push_back("space=global");
      break;
    case OpKind::Param:
      attrs = {"slot=" + std::to_string(n.slot), "dtype=" + dtypeName(n.argDType).str()};
      if (!n.argShape.empty())
        attrs.push_back("shape=" + formatTuple(n.argShape));
      break;
    case OpKind::Const:
      ops = {formatConst(n.cval)};
      break;
    case OpKind::Call:
      attrs = {"name=" + n.name};
      break;
    case OpKind::Stage:
      if (n.name == "detach")
        attrs = {"detach=true"};
      break;
    case OpKind::Cast:
      attrs = {"dtype=" + dtypeName(n.argDType).str()};
      break;
    case OpKind::Range:
      attrs = {"idx=" + std::to_string(n.slot), "kind=" + axisName(n.axis).str()};
      break;
    case OpKind::Reduce:
      attrs = {std::string("op=") + (n.reduceMax ? "max" : "add"), "pop=" + std::to_string(n.slot)};
      break;
    case OpKind::Reshape:
    case OpKind::Expand:
    case OpKind::Permute:
      ops.push_back(formatTuple(n.argShape));
      break;
    case OpKind::Shrink: {
      std::string t = "(";
      size_t pairs = n.argShape.size() / 2;
      for (size_t i = 0; i < pairs; ++i)
        t += (i ? ", " : "") + formatTuple({n.argShape[2 * i], n.argShape[2 * i + 1]});
      if (pairs == 1)
        t += ",";
      ops.push_back(t + ")");
      break;
    }
    default:
      break;
    }
    os << '%' << name << " = " << opName(n.op);
    if (!ops.empty())
      os << ' ' << llvm::join(ops, ", ");
    if (!attrs.empty())
      os << " : " << llvm::join(attrs, " ");
    os << '\n';
  }
}
