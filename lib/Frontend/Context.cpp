//===- Context.cpp - the TensorContext and its garbage collection -*- C++ -*-===//
//
// A TensorContext owns the graph block every tensor's ops go to, the table
// of realized buffers and the plan cache. Nodes keep the graph ops they stand
// for (Impl::nodeRefs) and their buffers (Impl::buffers) alive; the garbage
// collection at a realize erases the ops that no node reaches any more.
//
//===----------------------------------------------------------------------===//

#include "TensorImpl.h"

#include "Uop/IR/UopDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>

namespace muop = mlir::uop;

namespace uop {
using namespace mlir;
using namespace detail;

//===----------------------------------------------------------------------===//
// The context
//===----------------------------------------------------------------------===//

TensorContext::Impl::Impl(TensorOptions opts)
    : options(std::move(opts)), cache(options.compile), gen(options.seed) {
  if (const char *env = std::getenv("UOP_DEBUG"))
    debug = std::atoi(env);
  // $UOP_GC_OPS: a context left at the default collects at that size (1:
  // at every realize, to stress the collector with any program).
  if (const char *env = std::getenv("UOP_GC_OPS");
      env && *env && options.collectAfterOps == TensorOptions().collectAfterOps) {
    size_t n = 0;
    const char *end = env + std::strlen(env);
    auto [ptr, ec] = std::from_chars(env, end, n);
    if (ec == std::errc() && ptr == end)
      options.collectAfterOps = n;
    else
      llvm::errs() << "uop: warning: $UOP_GC_OPS='" << env << "' is not a number of ops; ignored\n";
  }
  // cuda and emulate keep realized values on their device (Storage.cpp).
  deviceResident = options.compile.target != muop::CompileTarget::CPU;
  mlir.loadDialect<muop::UopDialect, func::FuncDialect>();
  graphModule = ModuleOp::create(UnknownLoc::get(&mlir));
  graph = graphModule->getBody();
  handler = std::make_unique<ScopedDiagnosticHandler>(&mlir, [this](Diagnostic &d) {
    if (!diagnostics.empty())
      diagnostics += "\n";
    diagnostics += d.str();
    for (Diagnostic &note : d.getNotes())
      diagnostics += "\n  note: " + note.str();
    return success();
  });
}

TensorContext::TensorContext(TensorOptions options)
    : p(std::make_unique<Impl>(std::move(options))) {}
TensorContext::~TensorContext() = default;

llvm::Expected<std::unique_ptr<TensorContext>> TensorContext::create(TensorOptions options) {
  std::string error;
  if (failed(muop::checkCompileOptions(options.compile, error)))
    return llvm::createStringError(error);
  auto ctx = std::make_unique<TensorContext>(std::move(options));
  if (ctx->p->deviceResident)
    if (llvm::Expected<rt::Device *> dev = ctx->p->getDevice(); !dev)
      return dev.takeError();
  return ctx;
}

const rt::DeviceStats *TensorContext::deviceStats() const {
  return p->device ? &p->device->stats() : nullptr;
}

std::string TensorContext::deviceName() const {
  if (!p->deviceResident)
    return "cpu";
  if (llvm::Expected<rt::Device *> dev = p->getDevice(); dev)
    return std::string(muop::stringifyCompileTarget(p->options.compile.target)) + ", " +
           (*dev)->name();
  else
    return llvm::toString(dev.takeError());
}

TensorContext &TensorContext::global() {
  static TensorContext *ctx = new TensorContext(); // never destroyed: tensors may outlive main
  return *ctx;
}

MLIRContext &TensorContext::mlirContext() { return p->mlir; }
muop::PlanCache &TensorContext::planCache() { return p->cache; }
const TensorOptions &TensorContext::options() const { return p->options; }

//===----------------------------------------------------------------------===//
// Node bookkeeping
//===----------------------------------------------------------------------===//

size_t TensorContext::graphSize() const { return p->graph->getOperations().size(); }
size_t TensorContext::liveBuffers() const {
  size_t n = 0;
  for (auto &kv : p->buffers)
    n += !kv.second.expired();
  return n;
}

detail::TensorNode::~TensorNode() {
  if (!ctx)
    return;
  if (bufferId >= 0) {
    ctx->impl().buffers.erase(bufferId);
    ctx->impl().constantBuffers.erase(bufferId);
  }
  if (value)
    ctx->impl().release(value);
}

//===----------------------------------------------------------------------===//
// Garbage collection
//===----------------------------------------------------------------------===//

void TensorContext::Impl::collectGarbage() {
  // The graph's size as the ops added since the last collection say (a
  // block's op list has no O(1) size, and this runs at every realize).
  size_t size = collectedSize + built;
  if (building || size < std::max<size_t>(options.collectAfterOps, 2 * collectedSize))
    return;
  // Mark what the nodes stand for and everything it uses.
  llvm::DenseSet<Operation *> live;
  SmallVector<Operation *> work;
  for (auto &[op, refs] : nodeRefs)
    if (live.insert(op).second)
      work.push_back(op);
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    for (Value v : op->getOperands())
      if (Operation *def = v.getDefiningOp(); def && live.insert(def).second)
        work.push_back(def);
  }
  // Sweep, users before what they use (the block is in build order).
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*graph))) {
    if (live.contains(&op))
      continue;
    if (auto it = props.find(&op); it != props.end()) {
      auto entry = consed.find(consKey(&op, it->second));
      if (entry != consed.end() && entry->second.getDefiningOp() == &op)
        consed.erase(entry);
      props.erase(it);
    }
    op.erase();
  }
  collectedSize = graph->getOperations().size();
  built = 0;
}

} // namespace uop
