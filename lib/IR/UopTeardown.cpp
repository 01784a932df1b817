//===- UopTeardown.cpp - free deeply nested IR in linear time -------------===//

#include "Uop/IR/UopTeardown.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

using namespace mlir;

void mlir::uop::eraseNestedRegions(Operation *root) {
  // The ops that hold regions, in preorder (an explicit stack: no recursion
  // per level), each before everything it holds.
  SmallVector<Operation *> holders{root};
  SmallVector<Region *> pending;
  for (Region &region : root->getRegions())
    pending.push_back(&region);
  while (!pending.empty()) {
    Region *region = pending.pop_back_val();
    for (Block &block : *region)
      for (Operation &op : block) {
        // Drop the op's operands and successors now, its nested ops' when
        // they are reached: each reference is dropped once.
        for (OpOperand &operand : op.getOpOperands())
          operand.drop();
        for (BlockOperand &successor : op.getBlockOperands())
          successor.drop();
        if (op.getNumRegions() == 0)
          continue;
        holders.push_back(&op);
        for (Region &nested : op.getRegions())
          pending.push_back(&nested);
      }
  }
  // Innermost first: when a region's blocks are freed, the ops in them hold
  // no nested ops any more, so MLIR's own teardown of each block (which
  // drops every reference under it again) walks only that block's ops.
  for (Operation *holder : llvm::reverse(holders))
    for (Region &region : holder->getRegions())
      region.getBlocks().clear();
}
