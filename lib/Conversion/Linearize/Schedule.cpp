//===- Schedule.cpp - uop-linearize's list scheduler ------------*- C++ -*-===//
//
// The seed's list scheduler (uopc/linearize.py): scopes from the ranges
// each op depends on, then one op at a time, from the innermost open loop
// outward, opening a loop when pending ops need it and closing one when
// its END is ready.
//
//===----------------------------------------------------------------------===//

#include "Schedule.h"

#include "Uop/IR/UopOps.h"

#include <set>

using namespace mlir;
using namespace mlir::uop;

using Scope = Scheduler::Scope;

/// A range's idx (INT64_MAX for any other op: after every range).
static int64_t rangeIdx(Operation *op) {
  if (auto r = dyn_cast<RangeOp>(op))
    return r.getIdxAttr().getInt();
  return INT64_MAX;
}
/// A range's kind (INT64_MAX for any other op).
static int64_t rangeKind(Operation *op) {
  if (auto r = dyn_cast<RangeOp>(op))
    return static_cast<int64_t>(r.getKind());
  return INT64_MAX;
}

ArrayRef<Operation *> Scheduler::getLoops(Operation *op) const {
  auto it = target.find(op);
  if (it == target.end())
    return {};
  return it->second;
}

bool Scheduler::rangeLess(Operation *a, Operation *b) const {
  auto ka = std::make_tuple(rangeIdx(a), rangeKind(a), order.lookup(a));
  auto kb = std::make_tuple(rangeIdx(b), rangeKind(b), order.lookup(b));
  return ka < kb;
}

Scope Scheduler::sorted(const llvm::SmallPtrSetImpl<Operation *> &set) const {
  Scope s(set.begin(), set.end());
  llvm::sort(s, [&](Operation *a, Operation *b) { return rangeLess(a, b); });
  return s;
}

void Scheduler::toposort() {
  llvm::DenseSet<Operation *> seen;
  SmallVector<std::pair<Operation *, bool>> work{{root, false}};
  while (!work.empty()) {
    auto [u, done] = work.pop_back_val();
    if (done) {
      order[u] = topo.size();
      topo.push_back(u);
      continue;
    }
    if (!seen.insert(u).second)
      continue;
    work.push_back({u, true});
    auto &s = srcs[u];
    for (Value v : u->getOperands())
      s.push_back(v.getDefiningOp());
    for (Operation *x : llvm::reverse(s))
      if (!seen.contains(x))
        work.push_back({x, false});
  }
}

Scope Scheduler::close(const llvm::SmallPtrSetImpl<Operation *> &set) {
  llvm::SmallPtrSet<Operation *, 8> result(set.begin(), set.end());
  SmallVector<Operation *> todo(set.begin(), set.end());
  while (!todo.empty()) {
    Operation *r = todo.pop_back_val();
    auto it = enclosing.find(r);
    if (it == enclosing.end())
      continue;
    for (Operation *a : it->second)
      if (result.insert(a).second)
        todo.push_back(a);
  }
  return sorted(result);
}

void Scheduler::makeReady(Operation *op) {
  if (isa<RangeOp, EndOp>(op))
    ready.insert(op);
  else
    heaps[target[op]].push({order[op], op});
}

void Scheduler::emit(Operation *op) {
  out.push_back(op);
  pending.erase(op);
  ready.erase(op);
  for (Operation *x : users[op])
    if (--waiting[x] == 0)
      makeReady(x);
}

/// Python's `seq[:n]` and `seq[n:]` for a possibly negative n.
static size_t pyIndex(int64_t n, size_t len) {
  if (n < 0)
    n += len;
  return std::clamp<int64_t>(n, 0, len);
}

LogicalResult Scheduler::run() {
  toposort();
  for (Operation *u : topo)
    for (Operation *s : srcs[u])
      if (!s)
        return u->emitOpError("uop-linearize: a kernel graph reads no block "
                              "arguments; use uop.buffer for inputs");

  // Scopes.
  for (Operation *u : topo) {
    llvm::SmallPtrSet<Operation *, 4> s;
    for (Operation *x : srcs[u])
      s.insert(scope[x].begin(), scope[x].end());
    if (isa<RangeOp>(u))
      s.insert(u);
    if (isa<EndOp>(u))
      for (Operation *x : ArrayRef(srcs[u]).drop_front())
        s.erase(x);
    scope[u] = std::move(s);
  }
  // Enclosing loops of each range: every smaller range it shares a scope with.
  std::set<Scope> distinct;
  for (Operation *u : topo)
    distinct.insert(sorted(scope[u]));
  for (const Scope &t : distinct)
    for (size_t j = 0; j < t.size(); ++j)
      enclosing[t[j]].insert(t.begin(), t.begin() + j);
  for (Operation *u : topo)
    target[u] = close(scope[u]);
  for (Operation *u : topo) {
    if (!isa<RangeOp>(u))
      continue;
    llvm::SmallPtrSet<Operation *, 4> s(scope[u].begin(), scope[u].end());
    s.erase(u);
    s.insert(enclosing[u].begin(), enclosing[u].end());
    target[u] = close(s);
  }

  // Users (each distinct source once).
  for (Operation *u : topo) {
    llvm::SmallPtrSet<Operation *, 4> once;
    for (Operation *s : srcs[u])
      if (once.insert(s).second)
        users[s].push_back(u);
    waiting[u] = once.size();
  }
  // ALLOCs: shared memory at the top, the rest in the deepest scope shared
  // by all their users.
  for (Operation *u : topo) {
    auto alloc = dyn_cast<AllocOp>(u);
    if (!alloc)
      continue;
    if (getAddressSpace(alloc.getType()) == AddressSpace::Shared) {
      target[u] = {};
      continue;
    }
    if (users[u].empty())
      continue;
    const Scope &first = target[users[u].front()];
    size_t n = 0;
    while (llvm::all_of(
        users[u], [&](Operation *x) { return target[x].size() > n && target[x][n] == first[n]; }))
      ++n;
    target[u] = Scope(first.begin(), first.begin() + n);
  }

  pending.insert(topo.begin(), topo.end());
  for (Operation *u : topo)
    if (waiting[u] == 0)
      makeReady(u);

  while (!pending.empty()) {
    Scope cur(stack.begin(), stack.end());
    // 1. Anything that belongs exactly here.
    auto heapIt = heaps.find(cur);
    if (heapIt != heaps.end() && !heapIt->second.empty()) {
      Operation *op = heapIt->second.top().second;
      heapIt->second.pop();
      emit(op);
      continue;
    }
    // 2. Open a loop that pending nodes need next.
    DenseMap<Operation *, Operation *> need;
    for (Operation *u : pending) {
      const Scope &t = target[u];
      if (!isa<RangeOp>(u) && t.size() > cur.size() &&
          std::equal(cur.begin(), cur.end(), t.begin()))
        need[u] = t[cur.size()];
    }
    llvm::SmallPtrSet<Operation *, 4> cands;
    for (auto &[u, r] : need)
      if (ready.contains(r) && target[r] == cur)
        cands.insert(r);
    if (!cands.empty()) {
      // If nodes needing loop A read (through an END) the results of sibling
      // loop B, open B first.
      DenseMap<Operation *, llvm::SmallPtrSet<Operation *, 2>> ended;
      llvm::SmallPtrSet<Operation *, 4> blocked;
      for (Operation *u : topo) {
        if (!pending.contains(u))
          continue;
        llvm::SmallPtrSet<Operation *, 2> e;
        if (isa<EndOp>(u))
          for (Operation *x : ArrayRef(srcs[u]).drop_front())
            if (cands.contains(x))
              e.insert(x);
        for (Operation *x : srcs[u])
          if (pending.contains(x)) {
            auto it = ended.find(x);
            if (it != ended.end())
              e.insert(it->second.begin(), it->second.end());
          }
        auto needIt = need.find(u);
        if (needIt != need.end() &&
            llvm::any_of(e, [&](Operation *x) { return x != needIt->second; }))
          blocked.insert(needIt->second);
        ended[u] = std::move(e);
      }
      SmallVector<Operation *> choice;
      for (Operation *r : cands)
        if (!blocked.contains(r))
          choice.push_back(r);
      if (choice.empty())
        choice.assign(cands.begin(), cands.end());
      Operation *r =
          *llvm::min_element(choice, [&](Operation *a, Operation *b) { return rangeLess(a, b); });
      emit(r);
      stack.push_back(r);
      continue;
    }
    // 3. Close the innermost loop(s).
    Operation *best = nullptr;
    for (Operation *u : ready) {
      if (!isa<EndOp>(u))
        continue;
      int64_t k = (int64_t)srcs[u].size() - 1;
      size_t cut = pyIndex((int64_t)cur.size() - k, cur.size());
      Scope outer(cur.begin(), cur.begin() + cut);
      llvm::SmallPtrSet<Operation *, 4> closing(cur.begin() + cut, cur.end());
      llvm::SmallPtrSet<Operation *, 4> ranges;
      for (Operation *x : ArrayRef(srcs[u]).drop_front())
        ranges.insert(x);
      if (target[u] != outer || ranges.size() != closing.size() ||
          !llvm::all_of(ranges, [&](Operation *x) { return closing.contains(x); }))
        continue;
      if (!best || order[u] < order[best])
        best = u;
    }
    if (best) {
      emit(best);
      int64_t k = (int64_t)srcs[best].size() - 1;
      stack.resize(pyIndex((int64_t)stack.size() - k, stack.size()));
      continue;
    }
    // Stuck: report at the first pending op.
    SmallVector<Operation *> stuck(pending.begin(), pending.end());
    llvm::sort(stuck, [&](Operation *a, Operation *b) { return order[a] < order[b]; });
    std::string open, at;
    llvm::raw_string_ostream os(open), as(at);
    os << "[";
    llvm::interleaveComma(cur, os, [&](Operation *r) { os << rangeIdx(r); });
    os << "]";
    for (Operation *u : ArrayRef(stuck).take_front(5)) {
      as << " " << u->getName() << " in [";
      llvm::interleaveComma(target[u], as, [&](Operation *r) { as << rangeIdx(r); });
      as << "]";
    }
    return stuck.front()->emitOpError("uop-linearize: can't schedule; open loops ")
           << open << ", stuck at" << at;
  }
  if (!stack.empty()) {
    std::string loops;
    llvm::raw_string_ostream os(loops);
    llvm::interleaveComma(stack, os, [&](Operation *r) { os << rangeIdx(r); });
    return stack.front()->emitOpError("RANGE without END: loops [")
           << loops << "] are never closed";
  }
  return success();
}
