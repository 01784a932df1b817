//===- UopAttrs.cpp - uop attributes and enums -----------------*- C++ -*-===//

#include "Uop/IR/UopAttrs.h"

#include "Uop/IR/UopDialect.h"
#include "llvm/ADT/StringExtras.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/InterleavedRange.h"

using namespace mlir;
using namespace mlir::uop;

#include "Uop/IR/UopEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Uop/IR/UopAttrs.cpp.inc"

void UopDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Uop/IR/UopAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// OptsAttr: #uop.opts<upcast = {0: 4}, thread = 0, unroll = 4, tile = {..}, gpu, local = {..}>
//===----------------------------------------------------------------------===//

/// Parses `{axis: n, ...}` into flat (axis, n) pairs.
static ParseResult parseAxisMap(AsmParser &parser, SmallVectorImpl<int64_t> &pairs) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, [&]() -> ParseResult {
    int64_t axis, n;
    if (parser.parseInteger(axis) || parser.parseColon() || parser.parseInteger(n))
      return failure();
    pairs.push_back(axis);
    pairs.push_back(n);
    return success();
  });
}

static void printAxisMap(AsmPrinter &printer, ArrayRef<int64_t> pairs) {
  printer << "{";
  for (size_t i = 0; i + 1 < pairs.size(); i += 2)
    printer << (i ? ", " : "") << pairs[i] << ": " << pairs[i + 1];
  printer << "}";
}

/// The next `key` of a struct-like attribute (`key = value, ...`), refused
/// when `seen` has it already ("duplicate <what> field 'key'").
static ParseResult parseFieldKey(AsmParser &parser, llvm::SmallSet<StringRef, 16> &seen,
                                 StringRef what, StringRef &key) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&key))
    return failure();
  if (!seen.insert(key).second)
    return parser.emitError(loc, "duplicate ") << what << " field '" << key << "'";
  return success();
}

Attribute OptsAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> upcast, tile, local, merge;
  int64_t thread = -1, unroll = 1, vector = 1, prefetch = 0, prefetchNext = 0, stages = 0;
  bool gpu = false, stash = false;
  MmaAttr tc;
  llvm::SmallSet<StringRef, 16> seen;
  auto parseEntry = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parseFieldKey(parser, seen, "opts", key))
      return failure();
    if (key == "gpu" || key == "stash") {
      bool &flag = key == "gpu" ? gpu : stash;
      if (succeeded(parser.parseOptionalEqual())) {
        if (succeeded(parser.parseOptionalKeyword("true")))
          flag = true;
        else if (succeeded(parser.parseOptionalKeyword("false")))
          flag = false;
        else
          return parser.emitError(parser.getCurrentLocation(), "expected true or false");
      } else {
        flag = true;
      }
      return success();
    }
    if (parser.parseEqual())
      return failure();
    if (key == "upcast")
      return parseAxisMap(parser, upcast);
    if (key == "tile")
      return parseAxisMap(parser, tile);
    if (key == "local")
      return parseAxisMap(parser, local);
    if (key == "merge")
      return parseAxisMap(parser, merge);
    if (key == "thread")
      return parser.parseInteger(thread);
    if (key == "unroll")
      return parser.parseInteger(unroll);
    if (key == "vector")
      return parser.parseInteger(vector);
    if (key == "prefetch")
      return parser.parseInteger(prefetch);
    if (key == "prefetch_next")
      return parser.parseInteger(prefetchNext);
    if (key == "stages")
      return parser.parseInteger(stages);
    if (key == "tc") {
      SMLoc at = parser.getCurrentLocation();
      Attribute attr;
      if (parser.parseAttribute(attr))
        return failure();
      tc = dyn_cast<MmaAttr>(attr);
      if (!tc)
        return parser.emitError(at, "opts tc must be a #uop.mma, got ") << attr;
      return success();
    }
    return parser.emitError(loc, "unknown opts field '")
           << key
           << "' (expected upcast, thread, unroll, tile, gpu, local, merge, vector, prefetch, "
              "stash, prefetch_next, stages or tc)";
  };
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    if (parser.parseCommaSeparatedList(parseEntry) || parser.parseGreater())
      return {};
  }
  return parser.getChecked<OptsAttr>(parser.getContext(), upcast, thread, unroll, tile, gpu, local,
                                     vector, prefetch, stash, prefetchNext, merge, stages, tc);
}

void OptsAttr::print(AsmPrinter &printer) const {
  printer << "<";
  llvm::ListSeparator sep;
  if (!getUpcast().empty()) {
    printer << StringRef(sep) << "upcast = ";
    printAxisMap(printer, getUpcast());
  }
  if (hasThread())
    printer << StringRef(sep) << "thread = " << getThread();
  if (getUnroll() != 1)
    printer << StringRef(sep) << "unroll = " << getUnroll();
  if (!getTile().empty()) {
    printer << StringRef(sep) << "tile = ";
    printAxisMap(printer, getTile());
  }
  if (getGpu())
    printer << StringRef(sep) << "gpu";
  if (!getLocal().empty()) {
    printer << StringRef(sep) << "local = ";
    printAxisMap(printer, getLocal());
  }
  if (!getMerge().empty()) {
    printer << StringRef(sep) << "merge = ";
    printAxisMap(printer, getMerge());
  }
  if (getVector() != 1)
    printer << StringRef(sep) << "vector = " << getVector();
  if (getPrefetch() != 0)
    printer << StringRef(sep) << "prefetch = " << getPrefetch();
  if (getStash())
    printer << StringRef(sep) << "stash";
  if (getPrefetchNext() != 0)
    printer << StringRef(sep) << "prefetch_next = " << getPrefetchNext();
  if (getStages() != 0)
    printer << StringRef(sep) << "stages = " << getStages();
  if (getTc())
    printer << StringRef(sep) << "tc = " << Attribute(getTc());
  printer << ">";
}

LogicalResult OptsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> upcast, int64_t thread, int64_t unroll,
                               ArrayRef<int64_t> tile, bool gpu, ArrayRef<int64_t> local,
                               int64_t vector, int64_t prefetch, bool, int64_t prefetchNext,
                               ArrayRef<int64_t> merge, int64_t stages, MmaAttr tc) {
  auto checkMap = [&](StringRef name, ArrayRef<int64_t> pairs) -> LogicalResult {
    if (pairs.size() % 2)
      return emitError() << "opts " << name << " must hold axis/value pairs";
    llvm::SmallSet<int64_t, 4> axes;
    for (size_t i = 0; i < pairs.size(); i += 2) {
      if (pairs[i] < 0)
        return emitError() << "opts " << name << " axis " << pairs[i] << " is negative";
      if (pairs[i + 1] < 1)
        return emitError() << "opts " << name << " factor " << pairs[i + 1] << " for axis "
                           << pairs[i] << " must be >= 1";
      if (!axes.insert(pairs[i]).second)
        return emitError() << "opts " << name << " names axis " << pairs[i] << " twice";
    }
    return success();
  };
  if (failed(checkMap("upcast", upcast)) || failed(checkMap("tile", tile)) ||
      failed(checkMap("local", local)) || failed(checkMap("merge", merge)))
    return failure();
  // Merged groups: on the GPU, two or more axes each, not overlapping.
  if (!merge.empty() && !gpu)
    return emitError() << "opts merge needs gpu (it merges grid dimensions)";
  for (size_t i = 0; i < merge.size(); i += 2) {
    if (merge[i + 1] < 2)
      return emitError() << "opts merge of axis " << merge[i] << " must group >= 2 axes, got "
                         << merge[i + 1];
    for (size_t j = 0; j < merge.size(); j += 2)
      if (j != i && merge[j] > merge[i] && merge[j] < merge[i] + merge[i + 1])
        return emitError() << "opts merge groups of axes " << merge[i] << " and " << merge[j]
                           << " overlap";
  }
  if (thread < -1)
    return emitError() << "opts thread axis " << thread << " is negative";
  if (unroll < 1)
    return emitError() << "opts unroll " << unroll << " must be >= 1";
  if (vector < 1 || vector > 1024)
    return emitError() << "opts vector " << vector << " must be in [1, 1024] lanes";
  if (prefetch < 0 || prefetch > 1024)
    return emitError() << "opts prefetch " << prefetch << " must be in [0, 1024] iterations";
  if (prefetchNext < 0 || prefetchNext > (int64_t(1) << 20))
    return emitError() << "opts prefetch_next " << prefetchNext
                       << " must be in [0, 1048576] elements";
  if (stages < 0 || stages > 8)
    return emitError() << "opts stages " << stages << " must be in [0, 8]";
  if (stages && !gpu)
    return emitError() << "opts stages needs gpu (shared-memory staging)";
  if (tc && !gpu)
    return emitError() << "opts tc needs gpu (tensor cores)";
  return success();
}

//===----------------------------------------------------------------------===//
// OptsBuilder
//===----------------------------------------------------------------------===//

static SmallVector<int64_t> flatAxisMap(const std::map<int64_t, int64_t> &m) {
  SmallVector<int64_t> v;
  for (auto [axis, f] : m)
    v.append({axis, f});
  return v;
}

static std::map<int64_t, int64_t> axisMapOf(ArrayRef<int64_t> pairs) {
  std::map<int64_t, int64_t> m;
  for (size_t i = 0; i + 1 < pairs.size(); i += 2)
    m[pairs[i]] = pairs[i + 1];
  return m;
}

OptsAttr OptsBuilder::get(MLIRContext *ctx) const {
  return OptsAttr::get(ctx, flatAxisMap(upcast), thread, unroll, flatAxisMap(tile), gpu,
                       flatAxisMap(local), vector, prefetch, stash, prefetchNext, flatAxisMap(merge),
                       stages, tc);
}

OptsBuilder OptsBuilder::from(OptsAttr attr) {
  OptsBuilder o;
  o.upcast = axisMapOf(attr.getUpcast());
  o.tile = axisMapOf(attr.getTile());
  o.local = axisMapOf(attr.getLocal());
  o.merge = axisMapOf(attr.getMerge());
  o.thread = attr.getThread();
  o.unroll = attr.getUnroll();
  o.vector = attr.getVector();
  o.prefetch = attr.getPrefetch();
  o.gpu = attr.getGpu();
  o.stash = attr.getStash();
  o.prefetchNext = attr.getPrefetchNext();
  o.stages = attr.getStages();
  o.tc = attr.getTc();
  return o;
}

//===----------------------------------------------------------------------===//
// TargetAttr: #uop.target<cpu, triple = "...", cpu = "znver5", ...>
//===----------------------------------------------------------------------===//

namespace {
/// The fields of a #uop.target while it is parsed (every one optional).
struct TargetFields {
  TargetKind kind = TargetKind::CPU;
  std::string triple, cpu, features, chip;
  int64_t vectorBits = 0, vectorRegisters = 0, cacheLine = 0, l1 = 0, l2 = 0, l3 = 0, threads = 0;
  int64_t warp = 0, maxThreads = 0, sharedMemory = 0, sharedMemoryOptin = 0, registers = 0,
          multiprocessors = 0, localMemory = 0;
  SmallVector<int64_t> maxBlock, maxGrid;
  SmallVector<MmaAttr> mma;
};
} // namespace

/// The integer fields of a target by their printed name, in printing order
/// (after the strings, before the lists).
static SmallVector<std::pair<StringRef, int64_t *>> integerFields(TargetFields &f) {
  return {{"vector_bits", &f.vectorBits},
          {"vector_registers", &f.vectorRegisters},
          {"cache_line", &f.cacheLine},
          {"l1", &f.l1},
          {"l2", &f.l2},
          {"l3", &f.l3},
          {"threads", &f.threads},
          {"warp", &f.warp},
          {"max_threads", &f.maxThreads},
          {"shared_memory", &f.sharedMemory},
          {"shared_memory_optin", &f.sharedMemoryOptin},
          {"registers", &f.registers},
          {"multiprocessors", &f.multiprocessors},
          {"local_memory", &f.localMemory}};
}

Attribute TargetAttr::parse(AsmParser &parser, Type) {
  TargetFields f;
  SmallVector<std::pair<StringRef, std::string *>> strings = {
      {"triple", &f.triple}, {"cpu", &f.cpu}, {"chip", &f.chip}, {"features", &f.features}};
  SmallVector<std::pair<StringRef, int64_t *>> ints = integerFields(f);
  llvm::SmallSet<StringRef, 16> seen;
  auto parseEntry = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parseFieldKey(parser, seen, "target", key) || parser.parseEqual())
      return failure();
    for (auto &[name, field] : strings)
      if (key == name)
        return parser.parseString(field);
    for (auto &[name, field] : ints)
      if (key == name)
        return parser.parseInteger(*field);
    if (key == "max_block" || key == "max_grid") {
      SmallVector<int64_t> &list = key == "max_block" ? f.maxBlock : f.maxGrid;
      return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
        return parser.parseInteger(list.emplace_back());
      });
    }
    if (key == "mma")
      return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
        SMLoc at = parser.getCurrentLocation();
        Attribute a;
        if (parser.parseAttribute(a))
          return failure();
        auto mma = dyn_cast<MmaAttr>(a);
        if (!mma)
          return parser.emitError(at, "expected a #uop.mma<...>");
        f.mma.push_back(mma);
        return success();
      });
    return parser.emitError(loc, "unknown target field '") << key << "'";
  };
  SMLoc kindLoc = parser.getCurrentLocation();
  StringRef kind;
  if (parser.parseLess() || parser.parseKeyword(&kind))
    return {};
  std::optional<TargetKind> k = symbolizeTargetKind(kind);
  if (!k) {
    parser.emitError(kindLoc, "unknown target kind '") << kind << "' (expected cpu or cuda)";
    return {};
  }
  f.kind = *k;
  while (succeeded(parser.parseOptionalComma()))
    if (parseEntry())
      return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<TargetAttr>(
      parser.getContext(), f.kind, f.triple, f.cpu, f.features, f.vectorBits, f.vectorRegisters,
      f.cacheLine, f.l1, f.l2, f.l3, f.threads, f.chip, f.warp, f.maxThreads, f.maxBlock, f.maxGrid,
      f.sharedMemory, f.sharedMemoryOptin, f.registers, f.multiprocessors, f.localMemory, f.mma);
}

void TargetAttr::print(AsmPrinter &printer) const {
  printer << "<" << stringifyTargetKind(getKind());
  auto str = [&](StringRef name, StringRef v) {
    if (!v.empty()) {
      printer << ", " << name << " = ";
      printer.printString(v);
    }
  };
  auto list = [&](StringRef name, ArrayRef<int64_t> v) {
    if (!v.empty())
      printer << ", " << name << " = [" << llvm::interleaved(v) << "]";
  };
  str("triple", getTriple());
  str("cpu", getCpu());
  str("chip", getChip());
  str("features", getFeatures());
  TargetFields f;
  f.vectorBits = getVectorBits(), f.vectorRegisters = getVectorRegisters(), f.l1 = getL1(),
  f.l2 = getL2(), f.l3 = getL3(), f.threads = getThreads(), f.warp = getWarp(),
  f.maxThreads = getMaxThreads(), f.sharedMemory = getSharedMemory(),
  f.sharedMemoryOptin = getSharedMemoryOptin(), f.registers = getRegisters(),
  f.multiprocessors = getMultiprocessors(), f.cacheLine = getCacheLine(),
  f.localMemory = getLocalMemory();
  for (auto &[name, v] : integerFields(f)) {
    if (*v != 0)
      printer << ", " << name << " = " << *v;
    if (name == "max_threads") { // the block and grid limits beside it
      list("max_block", getMaxBlock());
      list("max_grid", getMaxGrid());
    }
  }
  if (!getMma().empty()) {
    printer << ", mma = [";
    llvm::interleaveComma(getMma(), printer, [&](MmaAttr m) { printer.printAttribute(m); });
    printer << "]";
  }
  printer << ">";
}

LogicalResult
TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError, TargetKind kind, StringRef triple,
                   StringRef cpu, StringRef features, int64_t vectorBits, int64_t vectorRegisters,
                   int64_t cacheLine, int64_t l1, int64_t l2, int64_t l3, int64_t threads,
                   StringRef chip, int64_t warp, int64_t maxThreads, ArrayRef<int64_t> maxBlock,
                   ArrayRef<int64_t> maxGrid, int64_t sharedMemory, int64_t sharedMemoryOptin,
                   int64_t registers, int64_t multiprocessors, int64_t localMemory,
                   ArrayRef<MmaAttr> mma) {
  auto nonNegative = [&](StringRef name, int64_t v) -> LogicalResult {
    if (v < 0)
      return emitError() << "target " << name << " " << v << " must be >= 0";
    return success();
  };
  for (auto [name, v] : {std::pair<StringRef, int64_t>{"vector_registers", vectorRegisters},
                         {"l1", l1},
                         {"l2", l2},
                         {"l3", l3},
                         {"threads", threads},
                         {"warp", warp},
                         {"max_threads", maxThreads},
                         {"shared_memory", sharedMemory},
                         {"shared_memory_optin", sharedMemoryOptin},
                         {"registers", registers},
                         {"multiprocessors", multiprocessors},
                         {"local_memory", localMemory}})
    if (failed(nonNegative(name, v)))
      return failure();
  if (cacheLine != 0 && (cacheLine < 16 || cacheLine > 1024 || !llvm::isPowerOf2_64(cacheLine)))
    return emitError() << "target cache_line " << cacheLine
                       << " must be a power of two in [16, 1024] bytes";
  for (StringRef feature : llvm::split(features, ','))
    if (!feature.empty() && !feature.starts_with("+") && !feature.starts_with("-"))
      return emitError() << "target feature '" << feature << "' must start with + or -";
  // Fields of the other kind of machine.
  auto unset = [&](StringRef name, bool set) -> LogicalResult {
    if (set)
      return emitError() << "a " << stringifyTargetKind(kind) << " target has no '" << name
                         << "'";
    return success();
  };
  if (kind == TargetKind::CPU) {
    if (triple.empty() || cpu.empty())
      return emitError() << "a cpu target needs a triple and a cpu";
    if (vectorBits != 0 && vectorBits != 128 && vectorBits != 256 && vectorBits != 512)
      return emitError() << "target vector_bits " << vectorBits << " must be 0, 128, 256 or 512";
    if (failed(unset("chip", !chip.empty())) || failed(unset("warp", warp)) ||
        failed(unset("max_threads", maxThreads)) || failed(unset("max_block", !maxBlock.empty())) ||
        failed(unset("max_grid", !maxGrid.empty())) ||
        failed(unset("shared_memory", sharedMemory)) ||
        failed(unset("shared_memory_optin", sharedMemoryOptin)) ||
        failed(unset("registers", registers)) ||
        failed(unset("multiprocessors", multiprocessors)) ||
        failed(unset("local_memory", localMemory)) || failed(unset("mma", !mma.empty())))
      return failure();
    return success();
  }
  if (!chip.starts_with("sm_") || chip.size() < 5 ||
      !llvm::all_of(chip.drop_front(3).rtrim('a'), llvm::isDigit))
    return emitError() << "a cuda target needs a chip sm_NN (e.g. sm_90), got '" << chip << "'";
  if (failed(unset("triple", !triple.empty())) || failed(unset("cpu", !cpu.empty())) ||
      failed(unset("vector_bits", vectorBits)) ||
      failed(unset("vector_registers", vectorRegisters)) || failed(unset("l1", l1)) ||
      failed(unset("l2", l2)) || failed(unset("l3", l3)) || failed(unset("threads", threads)))
    return failure();
  if (warp < 1 || maxThreads < 1)
    return emitError() << "a cuda target needs warp and max_threads >= 1";
  for (auto [name, dims] : {std::pair<StringRef, ArrayRef<int64_t>>{"max_block", maxBlock},
                            {"max_grid", maxGrid}})
    if (dims.size() != 3 || llvm::any_of(dims, [](int64_t d) { return d < 1; }))
      return emitError() << "target " << name << " must be three sizes >= 1";
  return success();
}

SmallVector<StringRef> TargetAttr::getFeatureList() const {
  SmallVector<StringRef> list;
  for (StringRef f : llvm::split(getFeatures(), ','))
    if (f.consume_front("+"))
      list.push_back(f);
  return list;
}

bool TargetAttr::hasFeature(StringRef name) const {
  return llvm::is_contained(getFeatureList(), name);
}
