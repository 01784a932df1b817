//===- Buffer.cpp - Element types and typed host buffers ------------------===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Buffer.h"
#include "Uop/Runtime/Memory.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <unistd.h>
#include <unordered_map>

using namespace uop::rt;

const char *uop::rt::dtypeName(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return "bool";
  case DType::I32:
    return "i32";
  case DType::F16:
    return "f16";
  case DType::F32:
    return "f32";
  }
  return "?";
}

size_t uop::rt::dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return 1;
  case DType::I32:
    return 4;
  case DType::F16:
    return 2;
  case DType::F32:
    return 4;
  }
  return 0;
}

std::optional<DType> uop::rt::dtypeFromName(std::string_view name) {
  for (DType d : {DType::Bool, DType::I32, DType::F16, DType::F32})
    if (name == dtypeName(d))
      return d;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// f16 <-> f32
//===----------------------------------------------------------------------===//

float uop::rt::halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    // Zero or subnormal: mant * 2^-24, exact in float.
    float f = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -f : f;
  }
  uint32_t bits;
  if (exp == 31)
    bits = sign | 0x7f800000u | (mant << 13);
  else
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

uint16_t uop::rt::floatToHalf(float value) {
  uint32_t x;
  std::memcpy(&x, &value, sizeof(x));
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) // inf, or NaN (kept quiet, payload truncated)
    return sign | 0x7c00u | (absx > 0x7f800000u ? (0x200u | ((absx >> 13) & 0x3ffu)) : 0u);
  if (absx >= 0x477ff000u) // >= 65520 rounds to inf
    return sign | 0x7c00u;
  auto roundShift = [](uint32_t m, unsigned shift) {
    uint32_t r = m >> shift;
    uint32_t rem = m & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    if (rem > half || (rem == half && (r & 1u)))
      ++r; // a carry into the exponent is the right encoding
    return r;
  };
  if (absx < 0x38800000u) { // below 2^-14: a half subnormal or zero
    if (absx < 0x33000000u) // below 2^-25 (2^-25 itself ties to even: 0)
      return sign;
    uint32_t e = absx >> 23;
    uint32_t m = (absx & 0x7fffffu) | 0x800000u;
    return sign | static_cast<uint16_t>(roundShift(m, 126 - e));
  }
  uint32_t e = absx >> 23;
  uint32_t r = ((e - 112) << 23) | (absx & 0x7fffffu);
  return sign | static_cast<uint16_t>(roundShift(r, 13));
}

//===----------------------------------------------------------------------===//
// HostBuffer
//===----------------------------------------------------------------------===//

std::optional<int64_t> uop::rt::checkedNumel(const std::vector<int64_t> &shape, size_t elemSize) {
  // As numpy does, the product of the non-zero dimensions must fit even when
  // a zero makes the array empty, so the answer does not depend on order.
  int64_t n = 1;
  bool empty = false;
  for (int64_t d : shape) {
    if (d < 0)
      return std::nullopt;
    if (d == 0)
      empty = true;
    else if (__builtin_mul_overflow(n, d, &n))
      return std::nullopt;
  }
  int64_t bytes;
  if (elemSize > static_cast<size_t>(std::numeric_limits<int64_t>::max()) ||
      __builtin_mul_overflow(n, static_cast<int64_t>(elemSize), &bytes))
    return std::nullopt;
  // Keep room for the 64-byte round-up of the allocation.
  if (bytes > std::numeric_limits<int64_t>::max() - 64 ||
      static_cast<uint64_t>(bytes) > std::numeric_limits<size_t>::max() - 64)
    return std::nullopt;
  return empty ? 0 : n;
}

std::string uop::rt::shapeString(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}

/// `v` in decimal (std::to_string has no 128-bit overload).
static std::string u128String(unsigned __int128 v) {
  std::string s;
  do {
    s += static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v);
  return std::string(s.rbegin(), s.rend());
}

std::optional<uint64_t> uop::rt::parseByteSize(std::string_view text) {
  size_t i = 0;
  uint64_t v = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (__builtin_mul_overflow(v, 10, &v) ||
        __builtin_add_overflow(v, static_cast<uint64_t>(text[i] - '0'), &v))
      return std::nullopt;
    ++i;
  }
  if (i == 0)
    return std::nullopt;
  std::string_view unit = text.substr(i);
  int shift = 0;
  if (!unit.empty()) {
    const char units[] = "KMGTPE";
    char c = unit[0] >= 'a' && unit[0] <= 'z' ? unit[0] - 'a' + 'A' : unit[0];
    const char *u = c ? std::strchr(units, c) : nullptr;
    if (!u)
      return std::nullopt;
    shift = 10 * static_cast<int>(u - units + 1);
    unit.remove_prefix(1);
    if (unit == "iB" || unit == "B" || unit == "ib" || unit == "b")
      unit = {};
    if (!unit.empty())
      return std::nullopt;
  }
  if (shift && v > (std::numeric_limits<uint64_t>::max() >> shift))
    return std::nullopt;
  return v << shift;
}

/// The physical memory in bytes, or 0 when unknown.
static uint64_t physicalMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0)
    return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
}

Result<uint64_t> uop::rt::maxAllocBytes() {
  if (const char *env = std::getenv("UOP_MAX_ALLOC_BYTES"); env && *env) {
    std::optional<uint64_t> v = parseByteSize(env);
    if (!v)
      return Error(std::string("invalid UOP_MAX_ALLOC_BYTES '") + env +
                   "' (expected a byte count such as 1000000, 512M or 64G)");
    return *v;
  }
  if (uint64_t mem = physicalMemory())
    return mem;
  return uint64_t(1) << 46; // 64 TiB: more than any machine uop runs on
}

namespace {
/// Freed blocks of 64 KiB and more, kept (up to 8 per size, 256 MiB in all)
/// for the next buffer of the same size. A fresh large block is fresh pages,
/// and a page's first touch is a fault: on the dev VM, 0.3-0.45 ms for a
/// 400 KB buffer against 0.02 ms for a reused one, and a training step
/// allocates the same sizes (its batch, its outputs) every step. The blocks
/// it keeps stay drawn from the memory budget; it gives them back when an
/// allocation would not fit (a reclaimer). Never destroyed: buffers in
/// static storage may be freed after it would be.
class BlockCache {
public:
  static BlockCache &get() {
    static BlockCache *cache = [] {
      auto *c = new BlockCache;
      addMemoryReclaimer([c] { return c->flush(); });
      return c;
    }();
    return *cache;
  }
  void *take(size_t bytes) {
    if (bytes < kMinBytes)
      return nullptr;
    std::lock_guard<std::mutex> lock(mu);
    auto it = free.find(bytes);
    if (it == free.end() || it->second.empty())
      return nullptr;
    void *p = it->second.back();
    it->second.pop_back();
    held -= bytes;
    return p;
  }
  /// Keeps `p`, or frees it (and gives its bytes back to the budget) when
  /// the cache is full.
  void give(void *p, size_t bytes) {
    if (bytes >= kMinBytes) {
      std::lock_guard<std::mutex> lock(mu);
      auto &list = free[bytes];
      if (list.size() < kPerSize && held + bytes <= kMaxBytes) {
        list.push_back(p);
        held += bytes;
        return;
      }
    }
    std::free(p);
    releaseMemory(bytes);
  }
  /// Frees every block kept; the bytes given back.
  uint64_t flush() {
    std::unordered_map<size_t, std::vector<void *>> all;
    {
      std::lock_guard<std::mutex> lock(mu);
      all.swap(free);
      held = 0;
    }
    uint64_t bytes = 0;
    for (auto &[size, list] : all)
      for (void *p : list) {
        std::free(p);
        releaseMemory(size);
        bytes += size;
      }
    return bytes;
  }

private:
  static constexpr size_t kMinBytes = size_t(64) << 10, kMaxBytes = size_t(256) << 20;
  static constexpr size_t kPerSize = 8;
  std::mutex mu;
  std::unordered_map<size_t, std::vector<void *>> free;
  size_t held = 0;
};
} // namespace

void HostBuffer::FreeDeleter::operator()(void *p) const {
  if (!owner)
    BlockCache::get().give(p, bytes);
}

/// 64-byte aligned storage for `bytes` bytes (at least one cache line, so
/// data() is never null), zero-filled when `zero`, drawn from the memory
/// budget (past it when `force`); null with `*why` set when it does not fit
/// or the system has no memory.
std::unique_ptr<void, HostBuffer::FreeDeleter>
HostBuffer::allocStorage(size_t bytes, bool zero, bool force, const std::string &what,
                         std::string *why) {
  size_t alloc = (std::max<size_t>(bytes, 1) + 63) / 64 * 64;
  void *p = BlockCache::get().take(alloc); // still drawn from the budget
  if (!p) {
    if (force) {
      forceReserveMemory(alloc);
    } else if (Result<bool> r = reserveMemory(alloc, what); !r) {
      if (why)
        *why = r.error();
      return std::unique_ptr<void, FreeDeleter>(nullptr, FreeDeleter(0));
    }
    p = std::aligned_alloc(64, alloc);
    if (!p) {
      // The caches' memory may be what the system lacks.
      reclaimMemory();
      p = std::aligned_alloc(64, alloc);
    }
    if (!p) {
      releaseMemory(alloc);
      if (why)
        *why = "cannot allocate " + std::to_string(alloc) + " bytes for " + what +
               ": out of memory";
      return std::unique_ptr<void, FreeDeleter>(nullptr, FreeDeleter(0));
    }
  }
  if (zero)
    std::memset(p, 0, alloc);
  return std::unique_ptr<void, FreeDeleter>(p, FreeDeleter(alloc));
}

Result<HostBuffer> HostBuffer::create(DType dtype, std::vector<int64_t> shape) {
  return create(dtype, std::move(shape), /*zero=*/true);
}

Result<HostBuffer> HostBuffer::createUninitialized(DType dtype, std::vector<int64_t> shape) {
  return create(dtype, std::move(shape), /*zero=*/false);
}

Result<HostBuffer> HostBuffer::create(DType dtype, std::vector<int64_t> shape, bool zero) {
  // "a bool buffer", "an f32 buffer"; built only for an error (a training
  // step creates buffers every step).
  auto kind = [&] {
    return std::string(dtype == DType::Bool ? "a " : "an ") + dtypeName(dtype) + " buffer";
  };
  auto what = [&] { return "for " + kind() + " of shape " + shapeString(shape); };
  // The size in 128 bits (saturating), for the message when 64 overflow.
  unsigned __int128 bytes128 = dtypeSize(dtype);
  bool saturated = false, empty = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0)
      return Error("invalid shape " + shapeString(shape) + " for " + kind() + ": dimension " +
                   std::to_string(i) + " is negative");
    if (shape[i] == 0) {
      empty = true;
      continue;
    }
    if (!saturated &&
        bytes128 > (~static_cast<unsigned __int128>(0)) / static_cast<uint64_t>(shape[i]))
      saturated = true;
    else if (!saturated)
      bytes128 *= static_cast<uint64_t>(shape[i]);
  }
  std::optional<int64_t> n = checkedNumel(shape, dtypeSize(dtype));
  if (!n) {
    if (empty)
      return Error("invalid shape " + shapeString(shape) + " for " + kind() +
                   ": the product of its non-zero dimensions overflows 64 "
                   "bits");
    return Error("cannot allocate " + (saturated ? "more than 2^128" : u128String(bytes128)) +
                 " bytes " + what() + ": the size overflows 64 bits");
  }
  size_t bytes = static_cast<size_t>(*n) * dtypeSize(dtype);
  Result<uint64_t> limit = maxAllocBytes();
  if (!limit)
    return Error("cannot allocate " + std::to_string(bytes) + " bytes " + what() + ": " +
                 limit.error());
  if (bytes > *limit) {
    const char *env = std::getenv("UOP_MAX_ALLOC_BYTES");
    return Error("cannot allocate " + std::to_string(bytes) + " bytes " + what() +
                 ": more than the limit of " + std::to_string(*limit) + " bytes (" +
                 (env && *env ? "$UOP_MAX_ALLOC_BYTES"
                              : "the physical memory; set "
                                "UOP_MAX_ALLOC_BYTES to change it") +
                 ")");
  }
  std::string why;
  auto p = allocStorage(bytes, zero, /*force=*/false, kind() + " of shape " + shapeString(shape), &why);
  if (!p)
    return Error(why);
  HostBuffer b;
  b.dt = dtype;
  b.dims = std::move(shape);
  b.count = *n;
  b.storage = std::move(p);
  return b;
}

Result<HostBuffer> HostBuffer::borrow(DType dtype, std::vector<int64_t> shape, void *data,
                                      std::shared_ptr<void> owner) {
  std::optional<int64_t> n = checkedNumel(shape, dtypeSize(dtype));
  if (!n)
    return Error("invalid shape " + shapeString(shape) + " for a borrowed " +
                 dtypeName(dtype) + " buffer");
  if (!data)
    return Error("a borrowed buffer needs data");
  // The deleter tells borrowed storage by a non-null owner: an owner that
  // holds a null pointer (a deleter alone) or nothing is aliased to a tag,
  // keeping whatever it owns.
  static int borrowTag;
  if (!owner)
    owner = std::shared_ptr<void>(std::shared_ptr<void>(owner), &borrowTag);
  HostBuffer b;
  b.dt = dtype;
  b.dims = std::move(shape);
  b.count = *n;
  b.storage = std::unique_ptr<void, FreeDeleter>(
      data, FreeDeleter(static_cast<size_t>(*n) * dtypeSize(dtype), std::move(owner)));
  return b;
}

HostBuffer::HostBuffer(DType dtype, std::vector<int64_t> shape) {
  Result<HostBuffer> r = create(dtype, std::move(shape));
  if (!r.ok()) {
    // No exceptions: a shape that create() rejects is a precondition
    // violation here; fail loudly and cleanly rather than with UB.
    std::fprintf(stderr, "uop::rt::HostBuffer: %s\n", r.error().c_str());
    std::abort();
  }
  *this = r.take();
}

HostBuffer::HostBuffer(const HostBuffer &other)
    : dt(other.dt), dims(other.dims), count(other.count) {
  if (!other.storage)
    return;
  // The shape was valid when `other` was made; no limit applies to a copy
  // (it still counts in the memory budget).
  auto p = allocStorage(other.bytes(), /*zero=*/false, /*force=*/true, other.describe(), nullptr);
  if (!p) {
    std::fprintf(stderr,
                 "uop::rt::HostBuffer: cannot allocate %zu bytes to copy "
                 "a %s: out of memory\n",
                 other.bytes(), other.describe().c_str());
    std::abort();
  }
  std::memcpy(p.get(), other.data(), other.bytes());
  storage = std::move(p);
}

HostBuffer &HostBuffer::operator=(const HostBuffer &other) {
  if (this != &other)
    *this = HostBuffer(other);
  return *this;
}

HostBuffer::HostBuffer(HostBuffer &&other) noexcept
    : dt(other.dt), dims(std::move(other.dims)), count(other.count),
      storage(std::move(other.storage)) {
  other.dt = DType::F32;
  other.dims = {0};
  other.count = 0;
}

HostBuffer &HostBuffer::operator=(HostBuffer &&other) noexcept {
  if (this == &other)
    return *this;
  dt = other.dt;
  dims = std::move(other.dims);
  count = other.count;
  storage = std::move(other.storage);
  other.dt = DType::F32;
  other.dims = {0};
  other.count = 0;
  return *this;
}

double HostBuffer::getDouble(int64_t i) const {
  switch (dt) {
  case DType::Bool:
    return as<uint8_t>()[i] ? 1.0 : 0.0;
  case DType::I32:
    return as<int32_t>()[i];
  case DType::F16:
    return halfToFloat(as<uint16_t>()[i]);
  case DType::F32:
    return as<float>()[i];
  }
  return 0;
}

void HostBuffer::setDouble(int64_t i, double value) {
  switch (dt) {
  case DType::Bool:
    as<uint8_t>()[i] = value != 0.0;
    return;
  case DType::I32: {
    // Saturate instead of the undefined behavior of an out-of-range cast.
    int32_t v = 0;
    if (std::isnan(value))
      v = 0;
    else if (value >= 2147483647.0)
      v = std::numeric_limits<int32_t>::max();
    else if (value <= -2147483648.0)
      v = std::numeric_limits<int32_t>::min();
    else
      v = static_cast<int32_t>(value);
    as<int32_t>()[i] = v;
    return;
  }
  case DType::F16:
    // Through float first, as a C cast double -> _Float16 need not be.
    as<uint16_t>()[i] = floatToHalf(static_cast<float>(value));
    return;
  case DType::F32:
    as<float>()[i] = static_cast<float>(value);
    return;
  }
}

namespace {
/// splitmix64: tiny, fast, and good enough for test inputs.
struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};
} // namespace

void HostBuffer::fillRandom(uint64_t seed) {
  SplitMix64 rng{seed};
  for (int64_t i = 0; i < count; ++i) {
    uint64_t x = rng.next();
    switch (dt) {
    case DType::Bool:
      as<uint8_t>()[i] = static_cast<uint8_t>(x >> 63);
      break;
    case DType::I32:
      as<int32_t>()[i] = static_cast<int32_t>(x >> 60) - 8;
      break;
    case DType::F16:
      // k/1024 - 1 for k in [0, 2048): exact in f16.
      as<uint16_t>()[i] =
          floatToHalf(static_cast<float>(static_cast<int>(x >> 53)) / 1024.0f - 1.0f);
      break;
    case DType::F32:
      // k/2^23 - 1 for k in [0, 2^24): exact in f32.
      as<float>()[i] = static_cast<float>(static_cast<int64_t>(x >> 40)) / 8388608.0f - 1.0f;
      break;
    }
  }
}

//===----------------------------------------------------------------------===//
// Formatting
//===----------------------------------------------------------------------===//

/// Rewrites a scientific "d.ddde±X" rendering in Python's repr style: fixed
/// notation for exponents in [-4, 16), else "d.ddde±XX".
static std::string pythonRepr(const char *sci) {
  std::string s(sci);
  std::string sign;
  if (!s.empty() && s[0] == '-') {
    sign = "-";
    s.erase(0, 1);
  }
  size_t e = s.find('e');
  std::string mant = s.substr(0, e);
  int exp = e == std::string::npos ? 0 : std::atoi(s.c_str() + e + 1);
  std::string digits;
  for (char c : mant)
    if (c != '.')
      digits += c;
  while (digits.size() > 1 && digits.back() == '0')
    digits.pop_back();
  if (exp < -4 || exp >= 16) {
    std::string out = sign + digits.substr(0, 1);
    if (digits.size() > 1)
      out += "." + digits.substr(1);
    char buf[16];
    std::snprintf(buf, sizeof(buf), "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    return out + buf;
  }
  if (exp < 0)
    return sign + "0." + std::string(-exp - 1, '0') + digits;
  size_t intLen = static_cast<size_t>(exp) + 1;
  if (digits.size() <= intLen)
    return sign + digits + std::string(intLen - digits.size(), '0') + ".0";
  return sign + digits.substr(0, intLen) + "." + digits.substr(intLen);
}

/// The shortest decimal that reads back as the same f32 (or f16) value.
static std::string formatFloat(float v, bool isHalf) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  char buf[64];
  if (isHalf) {
    uint16_t bits = floatToHalf(v);
    for (int p = 0; p < 9; ++p) {
      std::snprintf(buf, sizeof(buf), "%.*e", p, static_cast<double>(v));
      if (floatToHalf(std::strtof(buf, nullptr)) == bits)
        break;
    }
  } else {
    auto res = std::to_chars(buf, buf + sizeof(buf) - 1, v, std::chars_format::scientific);
    *res.ptr = '\0';
  }
  return pythonRepr(buf);
}

static std::string formatElem(const HostBuffer &b, int64_t i) {
  switch (b.dtype()) {
  case DType::Bool:
    return b.as<uint8_t>()[i] ? "True" : "False";
  case DType::I32:
    return std::to_string(b.as<int32_t>()[i]);
  case DType::F16:
    return formatFloat(halfToFloat(b.as<uint16_t>()[i]), true);
  case DType::F32:
    return formatFloat(b.as<float>()[i], false);
  }
  return "?";
}

static constexpr size_t kMaxFormatRank = 64;

namespace {
struct Formatter {
  const HostBuffer &buf;
  // Unsigned: an empty array may have dimensions whose product overflows;
  // its strides are then meaningless but never used to read an element.
  std::vector<uint64_t> strides;
  bool summarize;
  static constexpr int64_t kEdge = 3;
  std::string out;

  void emit(size_t dim, uint64_t offset) {
    const std::vector<int64_t> &shape = buf.shape();
    if (dim == shape.size()) {
      out += formatElem(buf, static_cast<int64_t>(offset));
      return;
    }
    out += '[';
    int64_t n = shape[dim];
    bool cut = summarize && n > 2 * kEdge;
    for (int64_t i = 0; i < n; ++i) {
      if (i)
        out += ", ";
      if (cut && i == kEdge) {
        out += "..., ";
        i = n - kEdge;
      }
      emit(dim + 1, offset + static_cast<uint64_t>(i) * strides[dim]);
    }
    out += ']';
  }
};
} // namespace

std::string HostBuffer::format(size_t maxElems) const {
  if (!storage)
    return "[]";
  // The rendering recurses once per dimension; numpy allows 64 of them.
  if (dims.size() > kMaxFormatRank)
    return "[<" + describe() + ": more than " + std::to_string(kMaxFormatRank) + " dimensions>]";
  // Summarize when the elements, or the (possibly empty) sub-lists of an
  // empty array such as shape (10^12, 0), are too many to print.
  bool summarize = static_cast<uint64_t>(count) > maxElems;
  uint64_t lists = 1;
  for (int64_t d : dims) {
    if (__builtin_mul_overflow(lists, static_cast<uint64_t>(d), &lists) || lists > maxElems) {
      summarize = true;
      break;
    }
  }
  Formatter f{*this, std::vector<uint64_t>(dims.size(), 1), summarize, {}};
  for (size_t i = dims.size(); i-- > 1;)
    f.strides[i - 1] = f.strides[i] * static_cast<uint64_t>(dims[i]);
  f.emit(0, 0);
  return f.out;
}

std::string HostBuffer::describe() const {
  return std::string(dtypeName(dt)) + " of shape " + shapeString(dims);
}
