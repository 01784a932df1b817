//===- SeedOrderRewrite.cpp - the seed's graph_rewrite as MLIR rewriting -*- C++ -*-===//
//
// Rewriting in program order (the seed rewrites children before parents;
// SeedOrderDriver, then a second in-order pass that must change nothing to
// certify the fixed point, or the greedy driver to reach it) alternated with
// the seed's hash consing (which the rules rely on when they ask "the same
// x"), until neither changes anything; rounds after the first revisit only
// what the sharing changed, so the whole stays linear in the graph.
//
// Why not applyPatternsGreedily followed by mlir::CSE: measured with
// uop-bench-symbolic on the 2-core dev VM (load 6-8, so CPU time and callgrind
// instruction counts rather than wall time), the upstream pair (the same
// patterns and bounds cache, no iteration limit, then the CSE pass) takes
// 181 ms CPU on the index shape at 10^5 ops where this driver takes 95 ms, and
// 2.47 s at 10^6 where it takes 1.2-1.6 s (callgrind: 1.0 G instructions in the
// rewriting against 0.52 G, 10^3..10^5 together), for the same ops; on the dag
// shape at 10^5 it takes 1.04 s against 0.23 s and keeps 65,455 ops where the
// seed (and this driver) keeps 64,849. The greedy driver visits a parent before
// its children are simplified and revisits the users and operands of every op
// it changes; CSE comes after the rewrite, where the seed hash-conses each node
// as it is built (rules that ask "the same x" miss); and MLIR's CSE merges
// `x + y` with `y + x` (mlir-opt --cse does so for arith.addi), which the seed
// keeps apart. So the driver re-implements only what this needs: the
// applicator's pattern order (by benefit, taken from the
// FrozenRewritePatternSet and run per op kind), constants shared before it
// starts (so that the worklist keeps program order) and hoisted as the greedy
// driver's folder hoists them, so that a fixed point certified by a second
// in-order pass leaves the IR as the greedy driver would (that pass instead of
// a greedy run after the seed-order one saves 4% of the driver's instructions,
// 521 M against 541 M; `certify = false` runs the greedy driver), the sharing's
// hash (hashForSharing: with OperationEquivalence::computeHash instead, the
// whole benchmark runs 0.97 G instructions against 0.80 G) and the Commutative
// trait's fold, done in place (Operation::fold's std::stable_partition
// allocates: 0.83 G against 0.80 G). OperationEquivalence decides equality for
// the sharing, and IR outside the flat form the faster table handles goes to
// eliminateCommonSubExpressions and applyPatternsGreedily themselves.
//
//===----------------------------------------------------------------------===//

#include "Uop/Transforms/SeedOrderRewrite.h"
#include "SeedOrderRewriteInternal.h"

#include "Uop/IR/UopBounds.h"
#include "Uop/IR/UopFoldRules.h"
#include "Uop/IR/UopOps.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Rewrite/PatternApplicator.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::uop;

//===----------------------------------------------------------------------===//
// The op-kind trait cache
//===----------------------------------------------------------------------===//

namespace {
template <typename T>
using FoldAdaptorFold = decltype(std::declval<T>().fold(std::declval<typename T::FoldAdaptor>()));

/// OpTrait::impl::foldCommutative for the operands' constants `constants`,
/// in place and without allocating: the constant operands after the others,
/// stably (std::stable_partition there).
LogicalResult moveConstantsRight(Operation *op, ArrayRef<Attribute> constants) {
  unsigned n = op->getNumOperands();
  if (n < 2)
    return failure();
  if (n == 2) { // a constant lhs and a non-constant rhs swap
    if (!constants[0] || constants[1])
      return failure();
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    op->setOperand(0, rhs);
    op->setOperand(1, lhs);
    return success();
  }
  SmallVector<Value, 4> others, consts;
  unsigned firstConstant = n;
  for (unsigned i = 0; i < n; ++i) {
    if (constants[i] && firstConstant == n)
      firstConstant = i;
    (constants[i] ? consts : others).push_back(op->getOperand(i));
  }
  // Already partitioned: the non-constants before the first constant are all
  // of them.
  if (firstConstant == n || firstConstant == others.size())
    return failure();
  llvm::append_range(others, consts);
  op->setOperands(others);
  return success();
}

/// Op::foldSingleResultHook of `ConcreteOp`, with its IsCommutative trait
/// folded by moveConstantsRight (its other folding traits, if any, as the
/// hook folds them, in order).
template <typename ConcreteOp, template <typename> class... Traits>
LogicalResult foldCommutativeHook(Operation *op, ArrayRef<Attribute> constants,
                                  SmallVectorImpl<OpFoldResult> &results) {
  auto concrete = cast<ConcreteOp>(op);
  OpFoldResult result = concrete.fold(typename ConcreteOp::FoldAdaptor(constants, concrete));
  if (result && dyn_cast_if_present<Value>(result) != op->getResult(0)) {
    results.push_back(result);
    return success();
  }
  auto foldTrait = [&](auto *trait) {
    using Trait = std::remove_pointer_t<decltype(trait)>;
    if constexpr (std::is_same_v<Trait, OpTrait::IsCommutative<ConcreteOp>>) {
      if (failed(moveConstantsRight(op, constants)))
        return false;
      noteFoldRule("fold: constant to the right");
      return true;
    }
    else
      return succeeded(op_definition_impl::foldTrait<Trait>(op, constants, results));
  };
  // As the hook: an in-place fold (result == op's result) is a success too.
  bool traitFolded = (foldTrait(static_cast<Traits<ConcreteOp> *>(nullptr)) || ...);
  return success(traitFolded || static_cast<bool>(result));
}

/// foldCommutativeHook for an op class, its traits deduced from its Op base.
template <typename ConcreteOp, template <typename> class... Traits>
FoldFn commutativeHookOf(Op<ConcreteOp, Traits...> *) {
  return &foldCommutativeHook<ConcreteOp, Traits...>;
}

/// The hooks of the uop ops that are Commutative (ODS) and of one result
/// with a folder, by TypeID: the dialect's op list, filtered by the trait.
template <typename... Ops> llvm::DenseMap<TypeID, FoldFn> commutativeHooks() {
  llvm::DenseMap<TypeID, FoldFn> hooks;
  auto add = [&](auto *op) {
    using OpTy = std::remove_pointer_t<decltype(op)>;
    if constexpr (OpTy::template hasTrait<OpTrait::IsCommutative>() &&
                  OpTy::template hasTrait<OpTrait::OneResult>() &&
                  llvm::is_detected<FoldAdaptorFold, OpTy>::value)
      hooks[TypeID::get<OpTy>()] = commutativeHookOf(op);
  };
  (add(static_cast<Ops *>(nullptr)), ...);
  return hooks;
}

FoldFn commutativeHook(Operation *op) {
  static const llvm::DenseMap<TypeID, FoldFn> hooks = commutativeHooks<
#define GET_OP_LIST
#include "Uop/IR/UopOps.cpp.inc"
      >();
  return hooks.lookup(op->getName().getTypeID());
}
} // namespace

OpKindTraits::Info OpKindTraits::compute(Operation *op) {
  bool commutative = op->hasTrait<OpTrait::IsCommutative>();
  return {wouldOpBeTriviallyDead(op),
          op->hasTrait<OpTrait::ConstantLike>(),
          op->hasTrait<OpTrait::IsTerminator>(),
          commutative,
          mlir::isMemoryEffectFree(op),
          commutative ? commutativeHook(op) : nullptr};
}

OpKindTraits::Info OpKindTraits::computeWithRegions(Operation *op) {
  // Only an op whose effects are its body's (RecursiveMemoryEffects, no
  // effects of its own) is answered from its body; others as MLIR asks.
  if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() || isa<MemoryEffectOpInterface>(op) ||
      op->hasTrait<OpTrait::IsTerminator>())
    return compute(op);
  bool effectFree = true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &nested : block)
        if (!(effectFree = get(&nested).effectFree))
          break;
  bool commutative = op->hasTrait<OpTrait::IsCommutative>();
  return {effectFree, op->hasTrait<OpTrait::ConstantLike>(), false, commutative, effectFree,
          commutative ? commutativeHook(op) : nullptr};
}

OpKindTraits::Info OpKindTraits::fill(Operation *op, Slot &slot) {
  Info info = compute(op);
  // A uop op kind has a fixed number of regions.
  if (!op->getNumRegions() && isa<UopDialect>(op->getDialect()))
    slot = {op->getName().getAsOpaquePointer(), info};
  return info;
}

//===----------------------------------------------------------------------===//
// Constants and sharing
//===----------------------------------------------------------------------===//

int64_t mlir::uop::shareConstants(Operation *root, RewriterBase &rewriter, BoundsCache *cache) {
  llvm::DenseMap<std::pair<Block *, Attribute>, Operation *> first;
  // The last constant moved to the start of each block.
  llvm::DenseMap<Block *, Operation *> hoisted;
  int64_t ops = 0;
  root->walk([&](Operation *op) {
    ++ops;
    auto c = dyn_cast<ConstOp>(op);
    if (!c)
      return;
    Block *block = c->getBlock();
    auto [it, inserted] = first.try_emplace({block, c.getValue()}, c);
    if (!inserted) {
      rewriter.replaceOp(c, it->second->getResults());
      return;
    }
    if (!cache)
      return;
    Operation *&last = hoisted[block];
    if (last)
      c->moveAfter(last);
    else if (&block->front() != op)
      c->moveBefore(&block->front());
    last = op;
    cache->constants[{block, c.getValue()}] = op;
  });
  return ops;
}

bool mlir::uop::hoistConstantsAsGreedy(Operation *root) {
  OpKindTraits traits;
  SmallVector<Operation *> constants;
  llvm::DenseSet<std::tuple<Region *, Dialect *, Attribute, Type>> seen;
  bool ok = true;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    Attribute value;
    if (!traits.isConstantLike(op) || !matchPattern(op, m_Constant(&value)))
      return WalkResult::advance();
    Region *region = op->getParentRegion();
    if (!region || !region->hasOneBlock() || !region->getParentOp() ||
        !region->getParentOp()->hasTrait<OpTrait::IsIsolatedFromAbove>() ||
        !seen.insert({region, op->getDialect(), value, op->getResult(0).getType()}).second) {
      ok = false;
      return WalkResult::interrupt();
    }
    constants.push_back(op);
    return WalkResult::skip();
  });
  if (!ok)
    return false;
  llvm::DenseSet<Operation *> owned;
  for (Operation *op : constants) {
    Block *block = op->getBlock();
    if (&block->front() != op && !owned.contains(op->getPrevNode())) {
      op->moveBefore(&block->front());
      op->setLoc(UnknownLoc::get(op->getContext()));
    }
    owned.insert(op);
  }
  return true;
}

/// A multiply-xorshift mix of the pointers (llvm::hash_combine runs its general
/// byte hashing for each one); equal hashes are compared exactly.
uint64_t mlir::uop::hashForSharing(Operation *op) {
  auto mix = [](uint64_t h, const void *p) {
    h = (h ^ reinterpret_cast<uintptr_t>(p)) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
  };
  uint64_t h = mix(0, op->getName().getAsOpaquePointer());
  h = mix(h, op->getRawDictionaryAttrs().getAsOpaquePointer());
  if (op->getPropertiesStorageSize())
    h = mix(h, reinterpret_cast<const void *>(static_cast<size_t>(op->hashProperties())));
  for (Type type : op->getResultTypes())
    h = mix(h, type.getAsOpaquePointer());
  for (Value v : op->getOperands())
    h = mix(h, v.getAsOpaquePointer());
  return h;
}

/// Without a commutative callback, OperationEquivalence compares operands
/// pairwise.
bool mlir::uop::equivalentForSharing(Operation *a, Operation *b) {
  return OperationEquivalence::isEquivalentTo(a, b, OperationEquivalence::exactValueMatch,
                                              /*markEquivalent=*/nullptr,
                                              OperationEquivalence::IgnoreLocations);
}

//===----------------------------------------------------------------------===//
// The drivers
//===----------------------------------------------------------------------===//

namespace {
/// Counts the folder rules the folders report.
struct FoldRuleCounter : FoldRuleObserver {
  explicit FoldRuleCounter(llvm::StringMap<int64_t> *counts) : counts(counts) {}
  void notifyFoldRule(StringRef rule) override { ++(*counts)[rule]; }
  llvm::StringMap<int64_t> *counts;
};

/// Forwards to the bounds cache and counts the patterns that the greedy
/// driver applied (when counting).
struct RuleCountingListener : RewriterBase::ForwardingListener {
  RuleCountingListener(BoundsCache &cache, llvm::StringMap<int64_t> *counts)
      : ForwardingListener(&cache), counts(counts) {}
  void notifyPatternEnd(const Pattern &pattern, LogicalResult status) override {
    if (counts && succeeded(status))
      ++(*counts)[getRuleName(pattern)];
    ForwardingListener::notifyPatternEnd(pattern, status);
  }
  llvm::StringMap<int64_t> *counts;
};

/// Forwards to the bounds cache and records the ops that the sharing
/// modified (the users of merged values): the next round revisits only those.
struct SharingListener : RewriterBase::ForwardingListener {
  explicit SharingListener(RewriterBase::Listener &next) : ForwardingListener(&next) {}
  void notifyOperationModified(Operation *op) override {
    touched.insert(op);
    ForwardingListener::notifyOperationModified(op);
  }
  void notifyOperationErased(Operation *op) override {
    touched.remove(op);
    ForwardingListener::notifyOperationErased(op);
  }
  llvm::SetVector<Operation *> touched;
};

/// The seed's graph_rewrite, in program order: each op is simplified (folded,
/// then the patterns, to a fixed point) after the ops before it, so after its
/// operands; what a rewrite makes is simplified at once, in the order it was
/// made (operands first), before the op that follows; an op left without
/// uses is erased with what dies with it. In the seed's order each op is
/// looked at about once, where the greedy driver revisits the users and
/// operands of every op it changes. applySeedOrderRewrite certifies the
/// fixed point with a second one that must change nothing (see there), and
/// runs the greedy driver otherwise.
class SeedOrderDriver : public RewriterBase::ForwardingListener {
public:
  SeedOrderDriver(MLIRContext *context, const FrozenRewritePatternSet &patterns, BoundsCache &cache,
                  int64_t maxRewrites, llvm::StringMap<int64_t> *ruleCounts)
      : ForwardingListener(&cache), cache(cache), rewriter(context, this), matcher(patterns),
        rewritesLeft(maxRewrites), ruleCounts(ruleCounts) {
    matcher.applyDefaultCostModel();
    // Each op kind's patterns in the order the applicator tries them (by
    // benefit, highest first, then as they were added): the seed's order.
    // With patterns for any op, PDL patterns or an action handler, the
    // applicator itself runs them.
    direct = patterns.getMatchAnyOpNativePatterns().empty() && !patterns.getPDLByteCode() &&
             !context->hasActionHandler();
    for (const auto &[name, list] : patterns.getOpSpecificNativePatterns()) {
      SmallVector<const RewritePattern *> &sorted = byKind[name];
      for (const RewritePattern *pattern : list)
        if (!pattern->getBenefit().isImpossibleToMatch())
          sorted.push_back(pattern);
      llvm::stable_sort(sorted, [](const RewritePattern *a, const RewritePattern *b) {
        return a->getBenefit() > b->getBenefit();
      });
    }
  }

  /// Simplifies the ops of every block under `root` (not `root` itself).
  void run(Operation *root) {
    for (Region &region : root->getRegions())
      for (Block &block : region)
        runOnBlock(block);
  }

  /// Whether the driver stopped on its rewrite budget.
  bool exhausted() const { return rewritesLeft <= 0; }
  /// The ops erased as dead plus the rewrites (folds and patterns) made.
  int64_t changes() const { return changeCount; }
  /// What it did, for statistics.
  RewriteStats stats;

  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint previous) override {
    ++stats.made;
    inserted.push_back(op);
    ForwardingListener::notifyOperationInserted(op, previous);
  }
  void notifyOperationErased(Operation *op) override {
    ++stats.erased;
    if (!settled.empty() && shareable(op)) {
      auto it = settled.find({op->getBlock(), hashForSharing(op)});
      if (it != settled.end())
        llvm::erase(it->second, op);
    }
    for (Operation *&cursor : cursors)
      if (cursor == op)
        cursor = op->getNextNode();
    if (op == current)
      current = nullptr;
    pending.erase(op);
    llvm::erase(inserted, op);
    llvm::erase(maybeDead, op);
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        maybeDead.push_back(def);
    ForwardingListener::notifyOperationErased(op);
  }

private:
  struct Rewriter : PatternRewriter {
    Rewriter(MLIRContext *context, SeedOrderDriver *driver)
        : PatternRewriter(context), driver(driver) {
      setListener(driver);
    }
    /// RewriterBase::eraseOp for an op without regions, without its
    /// std::function (allocated on every call): the same notification, then
    /// the op erased.
    void eraseOp(Operation *op) override {
      if (op->getNumRegions())
        return PatternRewriter::eraseOp(op);
      assert(op->use_empty() && "expected 'op' to have no uses");
      driver->notifyOperationErased(op);
      op->erase();
    }
    SeedOrderDriver *driver;
  };

  /// The ops in program order, nested blocks before the op that holds them.
  void runOnBlock(Block &block) {
    if (block.empty())
      return;
    // The op after the current one of each block being walked (moved on
    // when it is erased).
    size_t level = cursors.size();
    cursors.push_back(nullptr);
    for (Operation *op = &block.front(); op && rewritesLeft > 0; op = cursors[level]) {
      cursors[level] = op->getNextNode();
      for (Region &region : op->getRegions())
        for (Block &inner : region)
          runOnBlock(inner);
      simplify(op);
    }
    cursors.pop_back();
  }

  /// Simplifies `op` and everything its rewrites make.
  void simplify(Operation *root) {
    SmallVector<Operation *> stack{root};
    pending.insert(root);
    while (!stack.empty() && rewritesLeft > 0) {
      Operation *op = stack.pop_back_val();
      if (!pending.erase(op))
        continue; // erased meanwhile
      inserted.clear();
      maybeDead.clear();
      current = op;
      bool again = step(op);
      eraseDead();
      if (!again) {
        if (current)
          share(current);
        continue;
      }
      // Simplify the new ops first, in the order they were made, then `op`
      // again if it is still there.
      if (current && pending.insert(current).second)
        stack.push_back(current);
      for (Operation *made : llvm::reverse(inserted))
        if (made->getBlock() && pending.insert(made).second)
          stack.push_back(made);
    }
    for (Operation *op : stack)
      pending.erase(op);
  }

  /// One rewrite of `op`: dead, folded or a pattern. Returns whether
  /// something changed.
  bool step(Operation *op) {
    ++stats.visits;
    ++changeCount;
    if (traits.isOpTriviallyDead(op) && !isCachedConstant(op)) {
      rewriter.eraseOp(op);
      return false;
    }
    --rewritesLeft;
    if (!traits.isConstantLike(op)) {
      SmallVector<OpFoldResult> results;
      if (succeeded(fold(op, results))) {
        ++stats.folds;
        if (results.empty()) { // in place
          notifyOperationModified(op);
          return true;
        }
        SmallVector<Value> values;
        for (auto [result, type] : llvm::zip_equal(results, op->getResultTypes())) {
          if (auto value = dyn_cast<Value>(result)) {
            values.push_back(value);
            continue;
          }
          Value c = constant(op, cast<Attribute>(result), type);
          if (!c)
            break;
          values.push_back(c);
        }
        if (values.size() == op->getNumResults()) {
          rewriter.replaceOp(op, values);
          return true;
        }
      }
    }
    if (!direct) {
      rewriter.setInsertionPoint(op);
      ++stats.tries;
      auto counted = [&](const Pattern &pattern) {
        countRule(pattern);
        return success();
      };
      if (succeeded(matcher.matchAndRewrite(op, rewriter, {}, {}, counted))) {
        ++stats.rewrites;
        return true;
      }
    } else if (auto it = byKind.find(op->getName()); it != byKind.end()) {
      // As the applicator: each pattern from the op, the first that applies.
      for (const RewritePattern *pattern : it->second) {
        rewriter.setInsertionPoint(op);
        ++stats.tries;
        if (succeeded(pattern->matchAndRewrite(op, rewriter))) {
          ++stats.rewrites;
          countRule(*pattern);
          return true;
        }
      }
    }
    ++rewritesLeft;
    --changeCount;
    return false;
  }

  /// Counts one firing of `pattern` (when counting).
  void countRule(const Pattern &pattern) {
    if (ruleCounts)
      ++(*ruleCounts)[getRuleName(pattern)];
  }

  /// op->fold(results), with the operands' constants read off `uop.const`
  /// directly (m_Constant folds the constant op to get its value), and for
  /// the commutative uop ops (ODS's `Commutative`) the fold hook of the
  /// trait cache, which moves a constant lhs to the right without
  /// allocating.
  LogicalResult fold(Operation *op, SmallVectorImpl<OpFoldResult> &results) {
    SmallVector<Attribute, 4> constants(op->getNumOperands());
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      Operation *def = operand.getDefiningOp();
      if (!def)
        continue;
      // uop.const is the dialect's only constant-like op.
      if (auto c = dyn_cast<ConstOp>(def))
        constants[i] = c.getProperties().value;
      else if (!isa<UopDialect>(def->getDialect()))
        matchPattern(operand, m_Constant(&constants[i]));
    }
    if (FoldFn hook = traits.commutativeFolder(op))
      return hook(op, constants, results);
    return op->fold(constants, results);
  }

  /// A constant for a folded result: as the dialect materializes it, but a
  /// `uop.const` (whose conditions are UopDialect::materializeConstant's) is
  /// made at the start of the block, or the one there reused.
  Value constant(Operation *op, Attribute value, Type type) {
    auto typed = dyn_cast<TypedAttr>(value);
    Block *block = op->getBlock();
    if (isa<UopDialect>(op->getDialect()) && typed && typed.getType() == type &&
        isa<IntegerAttr, FloatAttr, DenseIntOrFPElementsAttr>(value)) {
      auto it = cache.constants.find({block, value});
      if (it != cache.constants.end() && it->second->getBlock() == block)
        return it->second->getResult(0);
      rewriter.setInsertionPointToStart(block);
      Operation *c = ConstOp::create(rewriter, op->getLoc(), typed);
      cache.constants[{block, value}] = c;
      return c->getResult(0);
    }
    rewriter.setInsertionPoint(op);
    Operation *c = op->getDialect()->materializeConstant(rewriter, value, type, op->getLoc());
    return c ? c->getResult(0) : Value();
  }

  /// Whether `op` takes part in the sharing as the driver goes: a pure uop
  /// op of one result and no regions (constants are shared apart).
  bool shareable(Operation *op) {
    return op->getNumResults() == 1 && !op->getNumRegions() && isa<UopDialect>(op->getDialect()) &&
           !isa<ConstOp>(op) && traits.deadIfUnused(op);
  }

  /// The seed's hash consing, as the driver goes: `op` has reached its fixed
  /// point; if an op before it in its block is the same (name, attributes,
  /// types, operands in order), that one replaces it, else it is remembered.
  /// The seed builds every node hash consed, so a parent sees two equal
  /// subgraphs as one value when it is simplified (`(a + b) // 2` with
  /// `b` equal to `a` divides `a * 2`); sharing only after the pass would be
  /// too late for it. Ops after `op` are not simplified yet, so no op is
  /// replaced by one that follows it.
  void share(Operation *op) {
    if (!shareable(op))
      return;
    SmallVector<Operation *, 1> &same = settled[{op->getBlock(), hashForSharing(op)}];
    for (Operation *candidate : same) {
      if (candidate == op)
        return;
      if (equivalentForSharing(candidate, op)) {
        // A change like a rewrite: a pass that shares changes something.
        ++changeCount;
        rewriter.replaceOp(op, candidate->getResults());
        return;
      }
    }
    same.push_back(op);
  }

  /// Erases the ops that the last step left without uses, and what dies with
  /// them.
  void eraseDead() {
    while (!maybeDead.empty()) {
      Operation *op = maybeDead.pop_back_val();
      if (op != current && traits.isOpTriviallyDead(op) && !isCachedConstant(op))
        rewriter.eraseOp(op);
    }
  }

  /// Whether `op` is a constant at the start of its block that the rules
  /// may reuse (cache.constants). Such a constant is kept while the driver
  /// runs even when nothing uses it: the rules ask for the same few
  /// constants over and over (a comparison pinned to `true` in each chunk of
  /// an index expression), and each would otherwise be made and erased
  /// again. eraseDeadConstants erases them at the end.
  bool isCachedConstant(Operation *op) {
    auto c = dyn_cast<ConstOp>(op);
    if (!c)
      return false;
    auto it = cache.constants.find({op->getBlock(), Attribute(c.getProperties().value)});
    return it != cache.constants.end() && it->second == op;
  }

public:
  /// Erases the constants that isCachedConstant kept and nothing uses.
  void eraseDeadConstants() {
    SmallVector<Operation *> dead;
    for (auto &entry : cache.constants)
      if (OpKindTraits::hasNoUses(entry.second))
        dead.push_back(entry.second);
    for (Operation *op : dead)
      rewriter.eraseOp(op);
  }

private:
  BoundsCache &cache;
  OpKindTraits traits;
  Rewriter rewriter;
  PatternApplicator matcher;
  bool direct = false;
  llvm::DenseMap<OperationName, SmallVector<const RewritePattern *>> byKind;
  int64_t rewritesLeft;
  llvm::StringMap<int64_t> *ruleCounts;
  int64_t changeCount = 0;
  SmallVector<Operation *> cursors;
  Operation *current = nullptr;
  /// The ops on the stack of `simplify` (a few: the op and what its last
  /// rewrite made).
  llvm::SmallPtrSet<Operation *, 8> pending;
  /// The ops at their fixed point, by block and hashForSharing (see share).
  llvm::DenseMap<std::pair<Block *, uint64_t>, SmallVector<Operation *, 1>> settled;
  SmallVector<Operation *> inserted, maybeDead;
};

/// One block of eliminateCommonSubExpressions, for a block of ops that MLIR's
/// CSE handles without memory effects or regions (see shareSubgraphs):
/// program order; terminators and (checked by the caller) region holders
/// kept; trivially dead ops erased; an op equivalent (OperationEquivalence,
/// locations ignored) to an earlier one replaced by it, with the same
/// notifications. Unlike MLIR's CSE, the operands of a commutative op are
/// compared in order, as the seed's hash consing does: `x + y` and `y + x`
/// are two nodes there, and merging them would let rules fire that the seed
/// never sees (`a + a -> a * 2`). Candidates are found by a 64-bit hash kept in the table,
/// so that a probe does not read the ops it passes over: with hundreds of
/// thousands of ops, MLIR's table compares every op it probes, and each is a
/// cache miss. The ops to erase are appended to `toErase`.
void shareBlock(Block &block, RewriterBase &rewriter, SmallVector<Operation *> &toErase,
                OpKindTraits &traits) {

  llvm::DenseMap<uint64_t, SmallVector<Operation *, 1>> known;
  for (Operation &op : block) {
    if (op.getNumRegions() || traits.isTerminator(&op))
      continue;
    if (traits.isOpTriviallyDead(&op)) {
      toErase.push_back(&op);
      continue;
    }
    SmallVector<Operation *, 1> &same = known[hashForSharing(&op)];
    Operation *existing = nullptr;
    for (Operation *candidate : same)
      if (equivalentForSharing(candidate, &op)) {
        existing = candidate;
        break;
      }
    if (!existing) {
      same.push_back(&op);
      continue;
    }
    if (auto *listener = dyn_cast_if_present<RewriterBase::Listener>(rewriter.getListener()))
      listener->notifyOperationReplaced(&op, existing);
    rewriter.replaceAllUsesWith(op.getResults(), existing->getResults());
    toErase.push_back(&op);
    if (isa<UnknownLoc>(existing->getLoc()) && !isa<UnknownLoc>(op.getLoc()))
      existing->setLoc(op.getLoc());
  }
}
} // namespace

/// eliminateCommonSubExpressions(root), with the blocks done by shareBlock
/// when the IR is a module of functions of pure flat ops (or one such
/// function): the root's regions and those of the isolated ops in them are
/// single blocks; in the root's blocks every op is a terminator, such an
/// isolated op that has effects (MLIR's CSE leaves it alone and visits its
/// regions with a table of their own), or (in a region with SSA dominance)
/// pure; in theirs, which have SSA dominance, every op is pure and
/// region-free, or a terminator. Anything else goes to
/// eliminateCommonSubExpressions. Returns whether anything changed.
bool mlir::uop::shareSubgraphs(Operation *root, RewriterBase &rewriter) {
  SmallVector<Block *> blocks;
  SmallVector<bool> dominance;
  auto addBlocks = [&](Operation *holder) {
    for (Region &region : holder->getRegions()) {
      if (region.empty())
        continue;
      if (!region.hasOneBlock())
        return false;
      blocks.push_back(&region.front());
      dominance.push_back(mayHaveSSADominance(region));
    }
    return true;
  };
  OpKindTraits traits;
  auto isPure = [&](Operation &op) {
    return traits.isTerminator(&op) || traits.isMemoryEffectFree(&op);
  };
  bool flat = addBlocks(root);
  size_t outer = blocks.size();
  // A graph region (a module's body) may hold only the isolated ops and
  // terminators: MLIR's CSE replaces uses differently there.
  for (size_t i = 0; flat && i < outer; ++i)
    for (Operation &op : *blocks[i]) {
      bool ok = op.getNumRegions() == 0
                    ? traits.isTerminator(&op) || (dominance[i] && isPure(op))
                    : op.hasTrait<OpTrait::IsIsolatedFromAbove>() && !traits.isMemoryEffectFree(&op) &&
                          !traits.deadIfUnused(&op) && addBlocks(&op);
      if (!ok) {
        flat = false;
        break;
      }
    }
  for (size_t i = outer; flat && i < blocks.size(); ++i)
    flat = dominance[i] && llvm::all_of(*blocks[i], [&](Operation &op) {
             return !op.getNumRegions() && isPure(op);
           });
  if (!flat) {
    DominanceInfo domInfo(root);
    bool changed = false;
    eliminateCommonSubExpressions(rewriter, domInfo, root, &changed);
    return changed;
  }
  // As MLIR's CSE: everything erased at the end.
  SmallVector<Operation *> toErase;
  for (Block *block : blocks)
    shareBlock(*block, rewriter, toErase, traits);
  for (Operation *op : toErase)
    rewriter.eraseOp(op);
  return !toErase.empty();
}

//===----------------------------------------------------------------------===//
// applySeedOrderRewrite
//===----------------------------------------------------------------------===//

std::string mlir::uop::getRuleName(const Pattern &pattern) {
  // "(anonymous namespace)::DivSum<mlir::uop::FloorDivOp>" -> "DivSum<FloorDivOp>":
  // each qualified name keeps its last component.
  std::string full = pattern.getDebugName().str();
  for (size_t at; (at = full.find("(anonymous namespace)::")) != std::string::npos;)
    full.erase(at, strlen("(anonymous namespace)::"));
  StringRef name = full;
  std::string out;
  size_t start = 0;
  for (size_t i = 0; i <= name.size(); ++i) {
    if (i < name.size() && name[i] == ':' && i + 1 < name.size() && name[i + 1] == ':') {
      start = i + 2;
      ++i;
      continue;
    }
    if (i == name.size() || name[i] == '<' || name[i] == '>' || name[i] == ',' || name[i] == ' ') {
      out += name.slice(start, i).str();
      if (i < name.size())
        out += name[i];
      start = i + 1;
    }
  }
  return out.empty() ? "<unnamed pattern>" : out;
}

/// One greedy rewrite of everything (with `seedOrder`, after a
/// SeedOrderDriver did the work in the seed's order, and only if its fixed
/// point is not certified), then sharing; while the sharing merges values,
/// the ops whose operands it changed (and what their rewrites touch) are
/// rewritten again, then shared again. Bounds are memoized in the cache (the
/// drivers' listener).
LogicalResult mlir::uop::applySeedOrderRewrite(Operation *root,
                                               const FrozenRewritePatternSet &patterns,
                                               const SeedOrderRewriteConfig &options) {
  BoundsCache ownCache;
  BoundsCache &cache = options.cache ? *options.cache : ownCache;
  // Folder rules are counted through the folders' observer (all drivers),
  // patterns by the drivers.
  FoldRuleCounter foldCounter(options.ruleCounts);
  ScopedFoldRuleObserver observe(options.ruleCounts ? &foldCounter : nullptr);
  RuleCountingListener counting(cache, options.ruleCounts);
  int64_t maxIterations = options.maxIterations;
  // The driver erases ops as they die, so the region simplification sweep
  // (dead code, block merging) after each iteration is not needed.
  int64_t ops;
  {
    IRRewriter rewriter(root->getContext(), &cache);
    ops = shareConstants(root, rewriter, options.seedOrder ? &cache : nullptr);
  }
  // At most as many rewrites as maxIterations sweeps of a few rewrites per
  // op, for each driver run: a rule that loops within one sweep (one that
  // applies to what it makes) stops there, and is reported.
  int64_t budget = maxIterations < 0 ? INT64_MAX / 4 : (maxIterations + 1) * (4 * ops + 64);
  GreedyRewriteConfig config;
  config.setUseTopDownTraversal(true)
      .setMaxIterations(maxIterations < 0 ? GreedyRewriteConfig::kNoLimit : maxIterations)
      .setMaxNumRewrites(maxIterations < 0 ? GreedyRewriteConfig::kNoLimit : budget)
      .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
      .setListener(&counting);
  auto greedyLimit = [&](StringRef when) {
    // At the location, not on the op: no "see current operation" dump of the
    // whole program under the one line.
    return emitError(root->getLoc()) << options.name << " did not converge: the greedy driver"
                                     << when << " reached its limit of " << maxIterations
                                     << " iterations or " << budget << " rewrites";
  };
  bool certified = false;
  if (options.seedOrder) {
    // With the same budget (the greedy driver then reports it).
    SeedOrderDriver first(root->getContext(), patterns, cache, budget, options.ruleCounts);
    first.run(root);
    first.eraseDeadConstants();
    if (options.stats)
      options.stats->add(first.stats);
    // The fixed point is certified by a second pass in the same order that
    // changes nothing (no op dead, none folds, no pattern applies): the
    // greedy driver would then change nothing but the place of constants,
    // which hoistConstantsAsGreedy does as it would. Anything else (the
    // budget spent, a change, equal constants, constants in nested regions)
    // goes to the greedy driver, which finds the fixed point or reports
    // non-convergence.
    if (options.certify && !first.exhausted()) {
      SeedOrderDriver check(root->getContext(), patterns, cache, budget, options.ruleCounts);
      check.run(root);
      if (options.stats)
        options.stats->add(check.stats);
      certified = check.changes() == 0 && hoistConstantsAsGreedy(root);
    }
  }
  if (!certified && failed(applyPatternsGreedily(root, patterns, config)))
    return greedyLimit("");
  SharingListener listener(counting);
  for (int64_t round = 0;; ++round) {
    listener.touched.clear();
    IRRewriter rewriter(root->getContext(), &listener);
    bool shared = shareSubgraphs(root, rewriter);
    if (!shared || listener.touched.empty())
      return success();
    // The sharing changed operands, which may enable rewrites: one round
    // more, if the limit allows.
    if (options.maxSharingRounds >= 0 && round >= options.maxSharingRounds)
      return emitError(root->getLoc())
             << options.name << " did not converge: values were still shared after "
             << options.maxSharingRounds << " rounds of sharing and rewriting";
    SmallVector<Operation *> touched(listener.touched.begin(), listener.touched.end());
    bool changed = false;
    if (failed(applyOpPatternsGreedily(touched, patterns, config, &changed)))
      return greedyLimit(" (rewriting after sharing)");
    if (!changed)
      return success();
  }
}
