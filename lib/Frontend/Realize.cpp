//===- Realize.cpp - realization: plans, the buffer pool, runs --*- C++ -*-===//
//
// The seed's engine/realize.py, apart from the tensor: a realize takes the
// backward slice of the tensors asked for, finds its plan (by the slice's
// structure, else through the plan cache, which compiles the program the
// first time), binds the plan's buffers (inputs from the graph's data,
// outputs from the context's buffer pool), runs it, and rebinds each tensor
// to a data tensor holding its value.
//
//===----------------------------------------------------------------------===//

#include "TensorImpl.h"

#include "Uop/IR/UopOps.h"
#include "Uop/Runtime/Memory.h"
#include "Uop/Runtime/Npy.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstring>
#include <map>
#include <mutex>

namespace muop = mlir::uop;

namespace uop {
using namespace mlir;
using namespace detail;

//===----------------------------------------------------------------------===//
// Plans
//===----------------------------------------------------------------------===//

namespace {
/// The backward slice of some roots, in the seed's toposort order (depth
/// first from the roots, operands in order), and its structure.
struct GraphSlice {
  SmallVector<Operation *> order;
  /// Local slot -> global buffer id (buffers renumbered 0..n-1 in order of
  /// first use).
  std::vector<int64_t> inputs;
  /// The structure as the frontend's plan key: per op its name, attributes
  /// (a buffer's by its local slot), result types and operands (by their
  /// position in `order`), then the roots. Attributes and types are uniqued
  /// by the MLIRContext, so equal keys print as the same program. Empty
  /// when some op has regions (the key does not look inside them).
  std::string key;
};

struct Program {
  OwningOpRef<ModuleOp> module;
  /// Local slot -> global buffer id.
  std::vector<int64_t> inputs;
};
} // namespace

static GraphSlice sliceOf(TensorContext::Impl &c, ArrayRef<Value> roots) {
  GraphSlice sl;
  // Post-order DFS, iterative (graphs can be deep).
  llvm::DenseMap<Operation *, unsigned> index;
  SmallVector<std::pair<Operation *, unsigned>> stack;
  for (Value r : roots) {
    Operation *op = r.getDefiningOp();
    if (index.count(op))
      continue;
    index[op] = ~0u; // on the stack
    stack.push_back({op, 0});
    while (!stack.empty()) {
      auto &[cur, i] = stack.back();
      if (i < cur->getNumOperands()) {
        Operation *def = cur->getOperand(i++).getDefiningOp();
        if (index.try_emplace(def, ~0u).second)
          stack.push_back({def, 0});
        continue;
      }
      index[cur] = sl.order.size();
      sl.order.push_back(cur);
      stack.pop_back();
    }
  }
  std::vector<uintptr_t> key;
  key.reserve(sl.order.size() * 8 + roots.size() * 2);
  auto ptr = [](const void *p) { return reinterpret_cast<uintptr_t>(p); };
  bool cacheable = true;
  for (Operation *op : sl.order) {
    cacheable &= op->getNumRegions() == 0;
    key.push_back(ptr(op->getName().getAsOpaquePointer()));
    if (auto buf = dyn_cast<muop::BufferOp>(op)) {
      key.push_back(sl.inputs.size());
      sl.inputs.push_back(static_cast<int64_t>(buf.getSlot()));
    } else {
      auto it = c.props.find(op); // ops built outside GraphBuilder are not there
      key.push_back(ptr(it != c.props.end() ? it->second
                                            : op->getPropertiesAsAttribute().getAsOpaquePointer()));
    }
    key.push_back(ptr(op->getDiscardableAttrDictionary().getAsOpaquePointer()));
    key.push_back(op->getNumResults());
    for (Type t : op->getResultTypes())
      key.push_back(ptr(t.getAsOpaquePointer()));
    key.push_back(op->getNumOperands());
    for (Value v : op->getOperands()) {
      key.push_back(index.lookup(v.getDefiningOp()));
      key.push_back(cast<OpResult>(v).getResultNumber());
    }
  }
  for (Value r : roots) {
    key.push_back(index.lookup(r.getDefiningOp()));
    key.push_back(cast<OpResult>(r).getResultNumber());
  }
  if (cacheable)
    sl.key.assign(reinterpret_cast<const char *>(key.data()), key.size() * sizeof(uintptr_t));
  return sl;
}

/// `func.func @main() -> (roots...)` over the slice of `roots`, in its order,
/// with its buffers renumbered.
static Program buildProgram(TensorContext::Impl &c, ArrayRef<Value> roots, const GraphSlice &sl) {
  Program p;
  Location loc = UnknownLoc::get(&c.mlir);
  p.module = ModuleOp::create(loc);
  OpBuilder b(&c.mlir);
  b.setInsertionPointToEnd(p.module->getBody());
  SmallVector<Type> types;
  for (Value r : roots)
    types.push_back(r.getType());
  auto fn = func::FuncOp::create(b, loc, "main", b.getFunctionType({}, types));
  b.setInsertionPointToEnd(fn.addEntryBlock());
  IRMapping map;
  for (Operation *op : sl.order) {
    if (auto buf = dyn_cast<muop::BufferOp>(op)) {
      int64_t slot = p.inputs.size();
      p.inputs.push_back(static_cast<int64_t>(buf.getSlot()));
      map.map(buf.getResult(),
              muop::BufferOp::create(b, loc, buf.getType(), static_cast<uint64_t>(slot)));
      continue;
    }
    b.clone(*op, map);
  }
  SmallVector<Value> results;
  for (Value r : roots)
    results.push_back(map.lookup(r));
  func::ReturnOp::create(b, loc, results);
  return p;
}

static Program buildProgram(TensorContext::Impl &c, ArrayRef<Value> roots) {
  return buildProgram(c, roots, sliceOf(c, roots));
}

//===----------------------------------------------------------------------===//
// Realized buffers
//===----------------------------------------------------------------------===//

/// The buffer op `v` is or reshapes, when it covers the whole buffer.
static std::optional<muop::BufferOp> wholeBuffer(Value v) {
  Value u = v;
  while (auto r = u.getDefiningOp<muop::ReshapeOp>())
    u = r.getSrc();
  auto buf = u.getDefiningOp<muop::BufferOp>();
  if (!buf || muop::getNumElements(buf.getType()) != muop::getNumElements(v.getType()))
    return std::nullopt;
  return buf;
}

bool Tensor::isRealized() const {
  // A tensor with no elements is its (empty) value already.
  return ok() && (numel() == 0 || wholeBuffer(value()).has_value());
}

int64_t detail::bufferIdOf(const Tensor &t) {
  auto buf = t.ok() ? wholeBuffer(t.value()) : std::nullopt;
  return buf ? static_cast<int64_t>(buf->getSlot()) : -1;
}

std::shared_ptr<Storage> detail::bufferData(TensorContext &ctx, int64_t id) {
  auto &c = ctx.impl();
  auto it = c.buffers.find(id);
  return it == c.buffers.end() ? nullptr : it->second.lock();
}

std::shared_ptr<Storage> detail::bufferData(const Tensor &t) {
  int64_t id = bufferIdOf(t);
  return id < 0 ? nullptr : bufferData(*t.context(), id);
}

//===----------------------------------------------------------------------===//
// Compiling and running
//===----------------------------------------------------------------------===//

/// The distinct unrealized values of `ts` (in order), or the first error.
static llvm::Expected<std::pair<TensorContext *, SmallVector<Value>>>
pendingRoots(ArrayRef<Tensor> ts, bool all) {
  TensorContext *ctx = nullptr;
  SmallVector<Value> roots;
  for (const Tensor &t : ts) {
    if (!t.ok())
      return t.takeError();
    if (ctx && t.context() != ctx)
      return llvm::createStringError("realize: tensors of different contexts");
    ctx = t.context();
    if (t.numel() == 0) // no program computes nothing
      continue;
    if ((all || !t.isRealized()) && !llvm::is_contained(roots, t.value()))
      roots.push_back(t.value());
  }
  return std::make_pair(ctx, roots);
}

llvm::Expected<std::string> TensorContext::programText(ArrayRef<Tensor> roots) {
  auto pending = pendingRoots(roots, /*all=*/true);
  if (!pending)
    return pending.takeError();
  if (pending->first && pending->first != this)
    return llvm::createStringError("programText: tensors of another context");
  Program prog = buildProgram(*p, pending->second);
  std::string s;
  llvm::raw_string_ostream os(s);
  prog.module->print(os);
  return s;
}

llvm::Expected<rt::Executable *> TensorContext::compile(ArrayRef<Tensor> roots) {
  auto pending = pendingRoots(roots, /*all=*/true);
  if (!pending)
    return pending.takeError();
  if (pending->first && pending->first != this)
    return llvm::createStringError("compile: tensors of another context");
  Program prog = buildProgram(*p, pending->second);
  p->takeDiagnostics();
  FailureOr<rt::Executable *> exe = p->cache.get(*prog.module);
  if (failed(exe)) {
    std::string d = p->takeDiagnostics();
    return llvm::createStringError("compile: the program does not compile" +
                                   (d.empty() ? std::string() : ": " + d));
  }
  return *exe;
}

/// Binds `exe`'s arguments (program slot s reads `input(s)`; outputs come
/// from the pool and become the values' data as they are, no copy), runs
/// it, and returns one data tensor per plan value, shaped `shapes`. A
/// device context binds device arrays (copying host data a plan reads to
/// the device first) and runs on them; a host context binds host buffers.
llvm::Expected<std::vector<Tensor>> detail::runPlan(TensorContext &ctx, rt::Executable *exe,
                                                    const SlotData &input, ArrayRef<Shape> shapes) {
  auto &c = ctx.impl();
  const rt::HostPlan &plan = exe->plan();
  if (plan.values.size() != shapes.size())
    return llvm::createStringError("internal error: " + std::to_string(plan.values.size()) +
                                   " values for " + std::to_string(shapes.size()) + " roots");
  rt::Device *dev = nullptr;
  if (c.deviceResident) {
    llvm::Expected<rt::Device *> got = c.getDevice();
    if (!got)
      return got.takeError();
    dev = *got;
    if (dev->backend() != exe->backend())
      return llvm::createStringError(std::string("internal error: a ") +
                                     rt::backendName(exe->backend()) + " program for the " +
                                     rt::backendName(dev->backend()) + " device");
  }
  // Per plan argument: the storage it reads (inputs) or what it writes to.
  std::vector<std::shared_ptr<Storage>> inputs(plan.args.size());
  std::vector<std::shared_ptr<rt::HostBuffer>> hostArgs(plan.args.size());
  std::vector<std::shared_ptr<rt::DeviceArray>> deviceArgs(plan.args.size());
  std::vector<void *> ptrs;
  std::vector<rt::DevicePtr> addrs;
  for (auto [i, a] : llvm::enumerate(plan.args)) {
    if (a.owned())
      continue;
    if (a.kind == rt::PlanArg::Input) {
      auto got = input(a.slot);
      if (!got)
        return got.takeError();
      inputs[i] = std::move(*got);
      if (inputs[i]->dtype != a.dtype || inputs[i]->numel != a.numel)
        return llvm::createStringError("internal error: slot " + std::to_string(a.slot) +
                                       " holds " + std::to_string(inputs[i]->numel) + " x " +
                                       rt::dtypeName(inputs[i]->dtype));
      if (dev) {
        auto arr = deviceData(ctx, *inputs[i]);
        if (!arr)
          return arr.takeError();
        deviceArgs[i] = *arr;
      } else {
        auto host = hostData(ctx, *inputs[i]);
        if (!host)
          return host.takeError();
        hostArgs[i] = *host;
      }
    } else if (dev) {
      auto arr = poolDeviceArray(c, static_cast<size_t>(a.numel) * rt::dtypeSize(a.dtype));
      if (!arr)
        return llvm::createStringError("cannot allocate an output: " +
                                       llvm::toString(arr.takeError()));
      deviceArgs[i] = std::move(*arr);
    } else {
      auto b = poolBuffer(c, a.dtype, a.numel);
      if (!b.ok())
        return llvm::createStringError("cannot allocate an output: " + b.error());
      hostArgs[i] = b.take();
    }
    if (dev)
      addrs.push_back(deviceArgs[i]->ptr());
    else
      ptrs.push_back(hostArgs[i]->data());
  }
  auto ran = dev ? exe->runOn(addrs) : exe->runRaw(ptrs);
  if (!ran.ok())
    return llvm::createStringError(ran.error());
  std::vector<Tensor> results;
  for (auto [i, shape] : llvm::enumerate(shapes)) {
    const rt::PlanValue &pv = plan.values[i];
    if (pv.arg >= plan.args.size() || (!hostArgs[pv.arg] && !deviceArgs[pv.arg]))
      return llvm::createStringError("internal error: value " + std::to_string(i) +
                                     " is in no buffer");
    const rt::PlanArg &a = plan.args[pv.arg];
    std::shared_ptr<Storage> data;
    if (inputs[pv.arg] && inputs[pv.arg]->numel == prod(shape)) {
      data = inputs[pv.arg]; // the value is an input, as it is
    } else if (dev) {
      // A value in (a part of) its buffer: the device array is shared.
      data = std::make_shared<Storage>();
      data->dtype = a.dtype;
      data->numel = prod(shape);
      data->device = deviceArgs[pv.arg];
    } else if (prod(shape) != hostArgs[pv.arg]->numel()) { // a value in a part of its buffer
      auto part = rt::HostBuffer::create(a.dtype, {prod(shape)});
      if (!part.ok())
        return llvm::createStringError(part.error());
      std::memcpy(part->data(), hostArgs[pv.arg]->data(), part->bytes());
      data = hostStorage(std::make_shared<rt::HostBuffer>(part.take()));
    } else {
      data = hostStorage(hostArgs[pv.arg]);
    }
    Tensor t = dataTensor(ctx, std::move(data), shape);
    if (!t.ok())
      return t.takeError();
    results.push_back(t);
  }
  return results;
}

llvm::Error Tensor::realizeAll(ArrayRef<Tensor> tensors) {
  auto pending = pendingRoots(tensors, /*all=*/false);
  if (!pending)
    return pending.takeError();
  TensorContext *ctx = pending->first;
  SmallVector<Value> &roots = pending->second;
  if (roots.empty())
    return llvm::Error::success();
  auto &c = ctx->impl();
  // A device context without its device (a cuda context with no GPU) says
  // so before compiling anything.
  if (c.deviceResident)
    if (llvm::Expected<rt::Device *> dev = c.getDevice(); !dev)
      return dev.takeError();
  // A safe point: the roots are nodes' values, and no op is being built.
  c.collectGarbage();
  ++c.realizations;
  using Clock = std::chrono::steady_clock;
  auto t0 = Clock::now();
  bool compiledHere = false;
  // The plan: the frontend's own structural key first (no program to build,
  // print or hash), then the plan cache (which compiles the first time).
  GraphSlice sl = sliceOf(c, roots);
  rt::Executable *exe = nullptr;
  if (!sl.key.empty())
    if (auto it = c.plans.find(sl.key); it != c.plans.end()) {
      exe = it->second;
      ++c.planHits;
    }
  if (!exe) {
    Program prog = buildProgram(c, roots, sl);
    c.takeDiagnostics();
    FailureOr<rt::Executable *> got = c.cache.get(*prog.module);
    if (failed(got)) {
      std::string d = c.takeDiagnostics();
      return llvm::createStringError("realize: the program does not compile" +
                                     (d.empty() ? std::string() : ": " + d));
    }
    exe = *got;
    compiledHere = true;
    if (c.debug >= 3)
      prog.module->print(llvm::errs() << "realize: the new program:\n");
    if (!sl.key.empty())
      c.plans[sl.key] = exe;
  }
  c.last = exe;
  auto t1 = Clock::now();
  // Inputs are the graph's data.
  auto input = [&](int64_t slot) -> llvm::Expected<std::shared_ptr<Storage>> {
    if (slot < 0 || slot >= static_cast<int64_t>(sl.inputs.size()))
      return llvm::createStringError("internal error: the plan reads slot " + std::to_string(slot));
    if (auto data = detail::bufferData(*ctx, sl.inputs[slot]))
      return data;
    return llvm::createStringError("internal error: the data of buffer " +
                                   std::to_string(sl.inputs[slot]) + " is gone");
  };
  std::vector<Shape> shapes;
  for (Value r : roots)
    shapes.push_back(shapeOfValue(r));
  auto results = detail::runPlan(*ctx, exe, input, shapes);
  if (!results)
    return llvm::createStringError("realize: " + llvm::toString(results.takeError()));
  if (c.debug >= 1) {
    const rt::HostPlan &plan = exe->plan();
    auto ms = [](Clock::time_point a, Clock::time_point b) {
      return std::chrono::duration<double, std::milli>(b - a).count();
    };
    llvm::errs() << llvm::format("realize: %zu ops, %zu kernels (%u launches), plan %.3f ms%s, "
                                 "bind and run %.3f ms\n",
                                 sl.order.size(), plan.kernels.size(), plan.numLaunches, ms(t0, t1),
                                 compiledHere ? " (new)" : "", ms(t1, Clock::now()));
    if (c.debug >= 2 && compiledHere)
      for (const rt::PlanKernel &k : plan.kernels)
        llvm::errs() << "  kernel " << k.name << ": " << k.launches << " launch(es), " << k.flops
                     << " flop, " << k.bytes << " bytes" << (k.opts.empty() ? "" : ", ") << k.opts
                     << "\n";
  }
  // One data tensor per root; every tensor standing for a root is rebound.
  detail::RealizeRecord *record = nullptr;
  if (c.recording) {
    record = &c.recording->emplace_back();
    record->exe = exe;
    record->program = std::make_shared<OwningOpRef<ModuleOp>>(
        std::move(buildProgram(c, roots, sl).module));
    record->slotIds = sl.inputs;
    record->shapes = shapes;
    for (const Tensor &t : *results)
      record->valueIds.push_back(detail::bufferIdOf(t));
  }
  for (const Tensor &t : tensors) {
    if (t.isRealized())
      continue;
    size_t i = llvm::find(roots, t.value()) - roots.begin();
    auto &h = t.holder();
    h->graph = h->node; // keep the graph: loss.item() before backward
    h->node = (*results)[i].holder()->node;
    if (record)
      record->rebound.emplace_back(h, i);
  }
  return llvm::Error::success();
}

llvm::Expected<Tensor> Tensor::realize() const {
  if (auto e = realizeAll({*this}))
    return std::move(e);
  return *this;
}

size_t TensorContext::realizations() const { return p->realizations; }
size_t TensorContext::planHits() const { return p->planHits; }
rt::Executable *TensorContext::lastExecutable() const { return p->last; }

//===----------------------------------------------------------------------===//
// Reading values
//===----------------------------------------------------------------------===//

llvm::Expected<rt::HostBuffer> Tensor::numpy() const {
  if (auto e = realizeAll({*this}))
    return std::move(e);
  if (numel() == 0) {
    auto out = rt::HostBuffer::create(dtype(), shape());
    if (!out.ok())
      return llvm::createStringError(out.error());
    return out.take();
  }
  std::shared_ptr<Storage> data = detail::bufferData(*this);
  if (!data)
    return llvm::createStringError("numpy: internal error: the data is gone");
  auto out = rt::HostBuffer::create(data->dtype, shape());
  if (!out.ok())
    return llvm::createStringError(out.error());
  if (auto e = copyToHost(*context(), *data, out->data(), out->numel()))
    return std::move(e);
  return out.take();
}

llvm::Expected<std::shared_ptr<const rt::HostBuffer>> Tensor::buffer() const {
  if (auto e = realizeAll({*this}))
    return std::move(e);
  std::shared_ptr<Storage> data = detail::bufferData(*this);
  if (!data)
    return llvm::createStringError("buffer: internal error: the data is gone");
  auto host = hostData(*context(), *data);
  if (!host)
    return host.takeError();
  return std::shared_ptr<const rt::HostBuffer>(std::move(*host));
}

llvm::Expected<std::vector<float>> Tensor::toVector() const {
  auto buf = numpy();
  if (!buf)
    return buf.takeError();
  std::vector<float> v(buf->numel());
  for (int64_t i = 0; i < buf->numel(); ++i)
    v[i] = static_cast<float>(buf->getDouble(i));
  return v;
}

llvm::Expected<double> Tensor::item() const {
  if (ok() && numel() != 1)
    return llvm::createStringError("item: the tensor has " + std::to_string(numel()) +
                                   " elements, not 1 (shape " + shapeStr(shape()) + ")");
  auto buf = numpy();
  if (!buf)
    return buf.takeError();
  return buf->getDouble(0);
}

llvm::Error Tensor::save(const std::string &path) const {
  auto buf = numpy();
  if (!buf)
    return buf.takeError();
  auto r = rt::writeNpy(path, *buf);
  if (!r.ok())
    return llvm::createStringError(r.error());
  return llvm::Error::success();
}

} // namespace uop
