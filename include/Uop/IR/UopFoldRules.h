//===- UopFoldRules.h - which rule of a uop folder applied ------*- C++ -*-===//
//
// The folders (UopFold.cpp) hold several of the seed's rules each (`x + 0`,
// `x + x*-1`, constant folding, ...). Each rule has a name, and a folder that
// applies one tells the observer installed on its thread, so that a rewrite
// driver can count how often each rule fired (uop-smt-check requires that its
// corpus fires every one). No observer: nothing is counted, at the cost of one
// thread-local load per rule applied.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_IR_UOPFOLDRULES_H
#define UOP_IR_UOPFOLDRULES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::uop {

/// Told of each folder rule that applied (on the thread that installed it).
class FoldRuleObserver {
public:
  virtual ~FoldRuleObserver();
  /// `rule` is one of getFoldRuleNames() (a string that lives forever).
  virtual void notifyFoldRule(llvm::StringRef rule) = 0;
};

/// Installs an observer on this thread for its lifetime (nesting restores the
/// previous one).
class ScopedFoldRuleObserver {
public:
  explicit ScopedFoldRuleObserver(FoldRuleObserver *observer);
  ~ScopedFoldRuleObserver();
  ScopedFoldRuleObserver(const ScopedFoldRuleObserver &) = delete;
  ScopedFoldRuleObserver &operator=(const ScopedFoldRuleObserver &) = delete;

private:
  FoldRuleObserver *previous;
};

/// Tells this thread's observer, if any, that `rule` applied.
void noteFoldRule(llvm::StringRef rule);

/// Every rule name the folders report (constant folding by ALU op, then the
/// identities), for coverage checks.
llvm::ArrayRef<llvm::StringRef> getFoldRuleNames();

} // namespace mlir::uop

#endif // UOP_IR_UOPFOLDRULES_H
