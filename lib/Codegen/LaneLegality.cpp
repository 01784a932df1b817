//===- LaneLegality.cpp - which loops may become vector lanes ---*- C++ -*-===//
//
// `#uop.opts<vector = W>`: the loop around a reduction whose iterations
// walk memory contiguously while the reduction strides it (gemm's j loop
// over B[k*N + j]) becomes W vector lanes. LLVM vectorizes no outer loops,
// and vectorizing the reduce loop instead would reorder each element's sum;
// so uop-linearize unrolls the loop by W and jams the lanes into its inner
// loops as vector<W x T> values: lane l of iteration jj is j = jj*W + l,
// each lane has its own accumulator (a lane of a vector), loads contiguous
// in the lane are vector loads, lane-invariant ones stay scalar (broadcast
// where used). With `upcast` on another output axis the upcast copies share
// those loads: a register tile. The candidates are serial loops directly
// around the innermost loop with a float load inside that has stride 1 in
// the outer loop and another stride in the inner one; how wide (and
// whether) is the opts' choice (uop-hand-opt's for the host CPU, a
// search's, a user's), not this lowering's. This file decides which
// candidates are safe to jam.
//
//===----------------------------------------------------------------------===//

#include "Uop/Codegen/LaneLegality.h"

#include "Uop/IR/UopOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <map>
#include <numeric>

using namespace mlir;
using namespace mlir::uop;

Operation *mlir::uop::rootMemory(Operation *op) {
  while (op && isa<AfterOp, IndexOp>(op))
    op = op->getOperand(0).getDefiningOp();
  return op;
}

/// A sum of constant multiples of terms: each term's coefficient (nullptr
/// holds the constant term).
using LinearForm = llvm::SmallDenseMap<Operation *, int64_t>;

/// The form of an i32 index expression as a sum of constant multiples of
/// terms (nullptr holds the constant term): adds and multiplies by a
/// constant are unfolded, every other op is `leaf`'s (a form, or nullopt
/// when the expression has none).
static std::optional<LinearForm>
affineForm(Value v, function_ref<std::optional<LinearForm>(Operation *)> leaf, int depth = 0) {
  Operation *op = v.getDefiningOp();
  if (!op || depth > 32)
    return std::nullopt;
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return LinearForm{{nullptr, c.getSExtValue()}};
  if (isa<AddOp>(op)) {
    auto a = affineForm(op->getOperand(0), leaf, depth + 1);
    auto b = affineForm(op->getOperand(1), leaf, depth + 1);
    if (!a || !b)
      return std::nullopt;
    for (auto &[k, x] : *b)
      (*a)[k] += x;
    return a;
  }
  if (isa<MulOp>(op))
    for (unsigned i = 0; i < 2; ++i)
      if (matchPattern(op->getOperand(i), m_ConstantInt(&c))) {
        auto f = affineForm(op->getOperand(1 - i), leaf, depth + 1);
        if (!f)
          return std::nullopt;
        for (auto &[k, x] : *f)
          x *= c.getSExtValue();
        return f;
      }
  return leaf(op);
}

/// The linear form of an i32 index expression over ranges: coefficient per
/// range (nullptr holds the constant term); nullopt if it is not linear.
static std::optional<LinearForm> linearForm(Value v) {
  return affineForm(v, [](Operation *op) -> std::optional<LinearForm> {
    if (isa<RangeOp>(op))
      return LinearForm{{op, 1}};
    return std::nullopt;
  });
}

/// Whether `v` changes with a range `inLanes` holds (through its operands:
/// an `after` of such a range stands for memory the loop writes).
static bool dependsOnLanes(Value v, function_ref<bool(Operation *)> inLanes) {
  llvm::SmallPtrSet<Operation *, 32> seen;
  SmallVector<Operation *> work;
  if (Operation *d = v.getDefiningOp())
    work.push_back(d);
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!seen.insert(op).second)
      continue;
    if (isa<RangeOp>(op) && inLanes(op))
      return true;
    for (Value x : op->getOperands())
      if (Operation *d = x.getDefiningOp())
        work.push_back(d);
  }
  return false;
}

/// linearForm over the ranges for the vector lanes `lanes`, where an op
/// that is not linear and does not change with the lanes is a term of its
/// own (a ragged upcast's clamped row); none if a loop inside the lanes
/// (`inLanes`, but not `lanes`), or the lanes non-linearly, change `v`.
static std::optional<LinearForm> laneForm(Value v, Operation *lanes,
                                          function_ref<bool(Operation *)> inLanes) {
  return affineForm(v, [&](Operation *op) -> std::optional<LinearForm> {
    if (isa<RangeOp>(op)) {
      if (op != lanes && inLanes(op))
        return std::nullopt; // a loop inside the lanes
      return LinearForm{{op, 1}};
    }
    if (dependsOnLanes(op->getResult(0), inLanes))
      return std::nullopt;
    return LinearForm{{op, 1}};
  });
}

namespace {

/// Which loops of one scheduled kernel become vector lanes; see
/// findOuterVectorization.
class LaneLegality {
public:
  /// The analysis of `order` for `lanes` lanes.
  LaneLegality(ArrayRef<Operation *> order, LoopsOfFn loopsOf, int64_t lanes)
      : order(order), loopsOf(loopsOf), lanes(lanes) {}

  /// The loops to jam, each mapped to the lane count.
  DenseMap<Operation *, int64_t> run();

private:
  /// The single index of the `uop.index` `ptr`, or null.
  static Value indexOf(Value ptr);
  /// Whether `op` runs inside the loop `range`.
  bool inLoop(Operation *op, Operation *range) const {
    return llvm::is_contained(loopsOf(op), range);
  }
  /// Whether a jam of `range` could change what the `reads` of memory the
  /// loop also `writes` see (indices; a null one is not a single index).
  bool accessesUnsafe(const llvm::SetVector<Value> &reads, const llvm::SetVector<Value> &writes,
                      Operation *range) const;
  /// accessesUnsafe for a kernel buffer, with every read and write of the
  /// kernel (kept conservative).
  bool storeUnsafe(BufferOp buf, Operation *range);
  /// laneForm of `v` for the lanes `range` and the loops inside it.
  std::optional<LinearForm> laneFormIn(Value v, Operation *range) const;
  /// The indices at which the loop `range` loads from and stores to `mem`
  /// (a buffer by its slot). A store without one index is a null Value.
  std::pair<llvm::SetVector<Value>, llvm::SetVector<Value>> accessesIn(Operation *mem,
                                                                       Operation *range) const;
  /// Whether two lanes' stores among `writes` (indices) could land on one
  /// element in the other order.
  bool writesUnsafe(const llvm::SetVector<Value> &writes, Operation *range) const;
  /// Whether jamming `range` keeps what every iteration reads and writes.
  bool checkSafe(Operation *range);

  ArrayRef<Operation *> order;
  LoopsOfFn loopsOf;
  int64_t lanes;
  /// The indices each buffer (by slot) is loaded from and stored to.
  std::map<int64_t, llvm::SetVector<Value>> loadedAt, storedAt;
};

} // namespace

Value LaneLegality::indexOf(Value ptr) {
  auto index = ptr.getDefiningOp<IndexOp>();
  return index && index.getIndices().size() == 1 ? index.getIndices()[0] : Value();
}

// Memory a jammed loop both stores to and reads: the jam could change what a
// later iteration reads, unless each element read is the element one store
// writes (a reduce tile continuing each output element's reduction from what
// its block before stored; a loop program rescaling its accumulator row in
// place), and the elements of different stores are more than a jam of lanes
// apart: each lane then reads and writes only its own elements. For a buffer
// the reads and writes are the kernel's (kept conservative); for an alloc
// shared by the lanes, those inside the loop (the jam reorders nothing
// outside it).
bool LaneLegality::accessesUnsafe(const llvm::SetVector<Value> &reads,
                                  const llvm::SetVector<Value> &writes, Operation *range) const {
  if (reads.empty())
    return false;
  if (reads.size() != writes.size() ||
      llvm::any_of(reads, [&](Value v) { return !v || !writes.contains(v); }))
    return true;
  // Each element must move with the lanes (else every lane would read
  // and write the same one).
  SmallVector<LinearForm> forms;
  for (Value v : reads) {
    auto f = linearForm(v);
    if (!f || f->lookup(range) == 0)
      return true;
    forms.push_back(*f);
  }
  for (size_t a = 0; a < forms.size(); ++a)
    for (size_t c = a + 1; c < forms.size(); ++c) {
      auto fa = forms[a], fc = forms[c];
      int64_t da = fa.lookup(nullptr), dc = fc.lookup(nullptr);
      fa.erase(nullptr);
      fc.erase(nullptr);
      int64_t step = std::abs(fa.lookup(range));
      if (fa.size() != fc.size() ||
          llvm::any_of(fa, [&](auto &kv) { return fc.lookup(kv.first) != kv.second; }) ||
          std::abs(da - dc) < lanes * step)
        return true;
    }
  return false;
}

bool LaneLegality::storeUnsafe(BufferOp buf, Operation *range) {
  int64_t slot = buf.getSlotAttr().getInt();
  auto it = loadedAt.find(slot);
  if (it == loadedAt.end())
    return false;
  return accessesUnsafe(it->second, storedAt[slot], range);
}

std::optional<LinearForm> LaneLegality::laneFormIn(Value v, Operation *range) const {
  return laneForm(v, range, [&](Operation *r) { return r == range || inLoop(r, range); });
}

std::pair<llvm::SetVector<Value>, llvm::SetVector<Value>>
LaneLegality::accessesIn(Operation *mem, Operation *range) const {
  auto slotOf = [](Operation *m) -> std::optional<int64_t> {
    if (auto buf = dyn_cast_or_null<BufferOp>(m))
      return buf.getSlotAttr().getInt();
    return std::nullopt;
  };
  std::optional<int64_t> slot = slotOf(mem);
  llvm::SetVector<Value> reads, writes;
  for (Operation *op : order) {
    if (!isa<LoadOp, StoreOp>(op) || !inLoop(op, range))
      continue;
    Value ptr = op->getOperand(0);
    Operation *m = rootMemory(ptr.getDefiningOp());
    if (m == mem || (slot && slotOf(m) == slot))
      (isa<LoadOp>(op) ? reads : writes).insert(indexOf(ptr));
  }
  return std::make_pair(std::move(reads), std::move(writes));
}

// The jam runs lane l's iterations of the loop's body beside lane l+1's, so
// two lanes' stores to one element could land in the other order. Each store
// in the loop must therefore move with the lanes, a step of a elements a
// lane, by an index whose other terms neither the lanes nor the loops inside
// them change (terms that are not linear, such as a ragged upcast's clamped
// row, are kept as terms of their own), and two stores to one memory must be
// apart by a multiple of at least W*a elements, or the same element in the
// same lane.
bool LaneLegality::writesUnsafe(const llvm::SetVector<Value> &writes, Operation *range) const {
  SmallVector<LinearForm> forms;
  for (Value idx : writes) {
    auto f = idx ? laneFormIn(idx, range) : std::nullopt;
    if (!f || f->lookup(range) == 0)
      return true;
    forms.push_back(std::move(*f));
  }
  for (size_t a = 0; a < forms.size(); ++a)
    for (size_t c = a + 1; c < forms.size(); ++c) {
      int64_t step = std::abs(forms[a].lookup(range));
      if (std::abs(forms[c].lookup(range)) != step)
        return true;
      uint64_t g = 0;
      auto gcdWith = [&](int64_t x) { g = std::gcd(g, uint64_t(std::abs(x))); };
      for (auto &[k, x] : forms[a])
        gcdWith(x - forms[c].lookup(k));
      for (auto &[k, x] : forms[c])
        if (!forms[a].count(k))
          gcdWith(x);
      if (g != 0 && g < uint64_t(lanes * step))
        return true;
    }
  return false;
}

bool LaneLegality::checkSafe(Operation *range) {
  llvm::SmallPtrSet<Operation *, 8> checkedMemory;
  for (Operation *op : order) {
    if (!inLoop(op, range))
      continue;
    if (auto r = dyn_cast<RangeOp>(op))
      if (r.getKind() == AxisKind::Thread || !getConstantIntValue(r.getEnd()))
        return false;
    if (isa<BarrierOp, WmmaOp>(op))
      return false;
    if (auto st = dyn_cast<StoreOp>(op)) {
      Operation *mem = rootMemory(st.getPtr().getDefiningOp());
      auto alloc = dyn_cast_or_null<AllocOp>(mem);
      auto buf = dyn_cast_or_null<BufferOp>(mem);
      if (!alloc && !buf)
        return false;
      // Lane-private allocs are checked below; each other memory once.
      if ((alloc && inLoop(alloc, range)) || !checkedMemory.insert(mem).second)
        continue;
      auto [reads, writes] = accessesIn(mem, range);
      if (writesUnsafe(writes, range))
        return false;
      // A buffer's reads are the kernel's; a shared alloc's, the loop's.
      if (buf ? storeUnsafe(buf, range) : accessesUnsafe(reads, writes, range))
        return false;
    }
  }
  // Lane-private allocs (declared inside the lanes) hold one vector per
  // element: their indices must be the same in every lane.
  llvm::SmallPtrSet<Operation *, 16> variant{range};
  for (Operation *op : order) {
    if (!inLoop(op, range))
      continue;
    bool v = llvm::any_of(op->getOperands(),
                          [&](Value x) { return variant.contains(x.getDefiningOp()); });
    if (auto load = dyn_cast<LoadOp>(op))
      if (auto alloc = dyn_cast_or_null<AllocOp>(rootMemory(load.getPtr().getDefiningOp())))
        v |= inLoop(alloc, range);
    if (auto index = dyn_cast<IndexOp>(op)) {
      auto alloc = dyn_cast_or_null<AllocOp>(rootMemory(index.getSrc().getDefiningOp()));
      if (v && alloc && inLoop(alloc, range))
        return false;
      v = false; // a pointer; the lanes of its index are the access's
    }
    // An after of memory orders it (its dependencies do not make the memory
    // lane-variant); an after of a value (a gather after its checks) is
    // that value.
    bool valueAfter = isa<AfterOp>(op) && !isMemory(op->getResult(0).getType()) &&
                      !isa<VoidType>(op->getResult(0).getType());
    if (valueAfter)
      v = variant.contains(op->getOperand(0).getDefiningOp());
    if (v && !isa<StoreOp, SinkOp>(op) && (valueAfter || !isa<AfterOp>(op)))
      variant.insert(op);
  }
  return true;
}

DenseMap<Operation *, int64_t> LaneLegality::run() {
  DenseMap<Operation *, int64_t> outerVectorize;
  if (lanes <= 1)
    return outerVectorize;
  for (Operation *op : order) {
    if (!isa<LoadOp, StoreOp>(op))
      continue;
    Value ptr = op->getOperand(0);
    if (auto buf = dyn_cast_or_null<BufferOp>(rootMemory(ptr.getDefiningOp())))
      (isa<LoadOp>(op) ? loadedAt : storedAt)[buf.getSlotAttr().getInt()].insert(indexOf(ptr));
  }
  // Safety depends only on the loop: decide it once per loop, not per load.
  DenseMap<Operation *, bool> safeLoops;
  for (Operation *op : order) {
    auto load = dyn_cast<LoadOp>(op);
    if (!load)
      continue;
    ArrayRef<Operation *> t = loopsOf(op);
    if (t.size() < 2)
      continue;
    Operation *inner = t.back(), *outer = t[t.size() - 2];
    auto outerRange = cast<RangeOp>(outer);
    if (outerVectorize.count(outer) || outerRange.getKind() != AxisKind::Loop ||
        !isFloatDType(load.getType()))
      continue;
    auto index = load.getPtr().getDefiningOp<IndexOp>();
    if (!index || index.getIndices().size() != 1)
      continue;
    auto form = linearForm(index.getIndices()[0]);
    if (!form)
      continue;
    int64_t cOuter = form->lookup(outer), cInner = form->lookup(inner);
    std::optional<int64_t> trip = getConstantIntValue(outerRange.getEnd());
    if (cOuter != 1 || cInner == 0 || cInner == 1 || !trip || *trip < lanes || *trip % lanes != 0)
      continue;
    auto [it, fresh] = safeLoops.try_emplace(outer, false);
    if (fresh)
      it->second = checkSafe(outer);
    if (it->second)
      outerVectorize[outer] = lanes;
  }
  return outerVectorize;
}

DenseMap<Operation *, int64_t> mlir::uop::findOuterVectorization(ArrayRef<Operation *> order,
                                                                 LoopsOfFn loopsOf, int64_t width) {
  return LaneLegality(order, loopsOf, width).run();
}
