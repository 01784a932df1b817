//===- UopSymbolic.h - the seed's symbolic rewrite rules --------*- C++ -*-===//
//
// The rules of the seed's `symbolic` list (uopc/symbolic.py) that build new
// operations: reassociation of integer constants, distribution of constants
// over sums, the div/mod family, recombination, comparisons against
// constants and "bounds pin this value". The rules that return an existing
// value or a constant are the ops' folders. Both are the ops'
// canonicalizations and make up `uop-symbolic`.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_IR_UOPSYMBOLIC_H
#define UOP_IR_UOPSYMBOLIC_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::uop {

class BoundsCache;

/// Adds the symbolic rules to `patterns`, in the seed's order. Rules that ask
/// for bounds memoize them in `cache` when one is given (it must then be the
/// rewrite driver's listener, see BoundsCache); without a cache each query
/// walks a bounded number of ops, as a canonicalization should.
void populateSymbolicPatterns(RewritePatternSet &patterns, BoundsCache *cache = nullptr);

} // namespace mlir::uop

#endif // UOP_IR_UOPSYMBOLIC_H
