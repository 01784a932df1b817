//===- UopAttrs.cpp - uop attributes and enums -----------------*- C++ -*-===//

#include "Uop/IR/UopAttrs.h"

#include "Uop/IR/UopDialect.h"
#include "llvm/ADT/StringExtras.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/TypeSwitch.h"

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

Attribute OptsAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> upcast, tile, local;
  int64_t thread = -1, unroll = 1, vector = 1, prefetch = 0, prefetchNext = 0;
  bool gpu = false, stash = false;
  llvm::SmallSet<StringRef, 8> seen;
  auto parseEntry = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return failure();
    if (!seen.insert(key).second)
      return parser.emitError(loc, "duplicate opts field '") << key << "'";
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
    return parser.emitError(loc, "unknown opts field '")
           << key
           << "' (expected upcast, thread, unroll, tile, gpu, local, vector, prefetch, stash or "
              "prefetch_next)";
  };
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    if (parser.parseCommaSeparatedList(parseEntry) || parser.parseGreater())
      return {};
  }
  return parser.getChecked<OptsAttr>(parser.getContext(), upcast, thread, unroll, tile, gpu, local,
                                     vector, prefetch, stash, prefetchNext);
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
  if (getVector() != 1)
    printer << StringRef(sep) << "vector = " << getVector();
  if (getPrefetch() != 0)
    printer << StringRef(sep) << "prefetch = " << getPrefetch();
  if (getStash())
    printer << StringRef(sep) << "stash";
  if (getPrefetchNext() != 0)
    printer << StringRef(sep) << "prefetch_next = " << getPrefetchNext();
  printer << ">";
}

LogicalResult OptsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> upcast, int64_t thread, int64_t unroll,
                               ArrayRef<int64_t> tile, bool gpu, ArrayRef<int64_t> local,
                               int64_t vector, int64_t prefetch, bool, int64_t prefetchNext) {
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
      failed(checkMap("local", local)))
    return failure();
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
                       flatAxisMap(local), vector, prefetch, stash, prefetchNext);
}

OptsBuilder OptsBuilder::from(OptsAttr attr) {
  OptsBuilder o;
  o.upcast = axisMapOf(attr.getUpcast());
  o.tile = axisMapOf(attr.getTile());
  o.local = axisMapOf(attr.getLocal());
  o.thread = attr.getThread();
  o.unroll = attr.getUnroll();
  o.vector = attr.getVector();
  o.prefetch = attr.getPrefetch();
  o.gpu = attr.getGpu();
  o.stash = attr.getStash();
  o.prefetchNext = attr.getPrefetchNext();
  return o;
}
