//===- Npy.cpp - Reading and writing numpy .npy files ---------------------===//
//
// Part of the uop project.
//
// The format (numpy/lib/format.py): the magic "\x93NUMPY", a major and minor
// version byte, the header length (uint16 for 1.0, uint32 for 2.0 and 3.0),
// then a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape':
// (...)} padded with spaces and a newline, then the raw data. Every field is
// validated before anything is allocated, so a hostile file cannot crash the
// reader or make it allocate more than the file holds.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Npy.h"
#include "Uop/Runtime/File.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the uop runtime's .npy I/O assumes a little-endian host"
#endif

using namespace uop::rt;

static const char kMagic[] = "\x93NUMPY";
static constexpr size_t kMagicLen = 6;
/// numpy itself refuses headers over 10000 bytes by default; be generous.
static constexpr uint64_t kMaxHeaderLen = 1u << 20;
/// numpy's NPY_MAXDIMS (64 since numpy 2.0, 32 before): more dimensions are
/// no array numpy can make, and would make every per-dimension loop (and the
/// recursive HostBuffer::format) as deep as the header is long.
static constexpr size_t kMaxRank = 64;

namespace {

/// Exact reads from a descriptor or from memory. The total size is known up
/// front for memory and regular files, so lengths are checked before
/// allocating; a pipe, FIFO or device is read only as far as the header
/// announces (never to its end: /dev/zero has none), each wait bounded.
struct Source {
  int fd = -1;
  const uint8_t *mem = nullptr;
  bool sized = true;
  uint64_t size = 0;
  uint64_t pos = 0;
  /// Why the last read failed ("" at the end of the data).
  std::string why;

  uint64_t remaining() const { return sized ? size - pos : UINT64_MAX - pos; }
  bool read(void *dst, uint64_t n) {
    if (n > remaining())
      return false;
    if (fd >= 0) {
      int64_t got = n ? readSome(fd, dst, n) : 0;
      if (got < 0) {
        why = errno == ETIMEDOUT ? "no data for 10 s (is anything writing to it?)"
                                 : std::strerror(errno);
        return false;
      }
      if (static_cast<uint64_t>(got) != n)
        return false;
    } else if (n) {
      std::memcpy(dst, mem + pos, n);
    }
    pos += n;
    return true;
  }
};

/// A parsed header.
struct Header {
  std::string descr;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
};

/// The header text, printable and short, for error messages.
std::string quoteHeader(const std::string &text) {
  std::string out;
  for (char c : text) {
    if (out.size() >= 120) {
      out += "...";
      break;
    }
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\n')
      continue;
    out += (u >= 0x20 && u < 0x7f) ? c : '?';
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

/// A recursive-descent parser for the small subset of Python literals that
/// .npy headers use.
class HeaderParser {
public:
  HeaderParser(const std::string &text) : s(text) {}

  /// Parses the whole header; on failure returns false with `err` set.
  bool parse(Header &h, std::string &err) {
    bool haveDescr = false, haveFortran = false, haveShape = false;
    skipWs();
    if (!eat('{'))
      return fail(err, "expected '{'");
    while (true) {
      skipWs();
      if (eat('}'))
        break;
      std::string key;
      if (!parseString(key))
        return fail(err, "expected a quoted key");
      skipWs();
      if (!eat(':'))
        return fail(err, "expected ':' after '" + quoteHeader(key) + "'");
      skipWs();
      if ((key == "descr" && haveDescr) || (key == "fortran_order" && haveFortran) ||
          (key == "shape" && haveShape))
        return fail(err, "the key '" + key + "' appears twice");
      if (key == "descr") {
        if (peek() == '[' || peek() == '{')
          return fail(err, "structured dtypes are not supported", true);
        if (!parseString(h.descr))
          return fail(err, "'descr' must be a quoted dtype string");
        haveDescr = true;
      } else if (key == "fortran_order") {
        if (eatWord("True"))
          h.fortranOrder = true;
        else if (eatWord("False"))
          h.fortranOrder = false;
        else
          return fail(err, "'fortran_order' must be True or False");
        haveFortran = true;
      } else if (key == "shape") {
        std::string shapeErr;
        if (!parseShape(h.shape, shapeErr))
          return fail(err, shapeErr);
        haveShape = true;
      } else {
        return fail(err, "unexpected key '" + quoteHeader(key) + "'");
      }
      skipWs();
      if (eat(','))
        continue;
      skipWs();
      if (eat('}'))
        break;
      return fail(err, "expected ',' or '}'");
    }
    skipWs();
    if (pos != s.size())
      return fail(err, "unexpected text after the dict");
    if (!haveDescr || !haveFortran || !haveShape)
      return fail(err, std::string("missing key '") +
                           (!haveDescr     ? "descr"
                            : !haveFortran ? "fortran_order"
                                           : "shape") +
                           "'");
    return true;
  }

  /// True when the failure was a well-formed but unsupported header.
  bool unsupported = false;

private:
  const std::string &s;
  size_t pos = 0;

  char peek() const { return pos < s.size() ? s[pos] : '\0'; }
  bool eat(char c) {
    if (pos < s.size() && s[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool eatWord(const char *w) {
    size_t n = std::strlen(w);
    if (s.compare(pos, n, w) != 0)
      return false;
    pos += n;
    return true;
  }
  void skipWs() {
    while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\n' || s[pos] == '\r'))
      ++pos;
  }
  bool fail(std::string &err, std::string msg, bool isUnsupported = false) {
    err = std::move(msg);
    unsupported = isUnsupported;
    return false;
  }
  bool parseString(std::string &out) {
    char q = peek();
    if (q != '\'' && q != '"')
      return false;
    size_t end = s.find(q, pos + 1);
    if (end == std::string::npos)
      return false;
    out = s.substr(pos + 1, end - pos - 1);
    if (out.find('\\') != std::string::npos)
      return false; // no escapes in any header numpy writes
    pos = end + 1;
    return true;
  }
  bool parseShape(std::vector<int64_t> &shape, std::string &err) {
    if (!eat('(')) {
      err = "'shape' must be a tuple of integers";
      return false;
    }
    while (true) {
      skipWs();
      if (eat(')'))
        return true;
      if (peek() == '-') {
        err = "'shape' has a negative dimension";
        return false;
      }
      if (peek() < '0' || peek() > '9') {
        err = "'shape' must be a tuple of integers";
        return false;
      }
      int64_t v = 0;
      while (peek() >= '0' && peek() <= '9') {
        if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, peek() - '0', &v)) {
          err = "'shape' has a dimension too large";
          return false;
        }
        ++pos;
      }
      eat('L'); // Python 2 longs, in files written long ago
      if (shape.size() == kMaxRank) {
        err = "'shape' has more than " + std::to_string(kMaxRank) + " dimensions";
        return false;
      }
      shape.push_back(v);
      skipWs();
      if (eat(','))
        continue;
      skipWs();
      if (eat(')'))
        return true;
      err = "'shape' must be a tuple of integers";
      return false;
    }
  }
};

Result<DType> dtypeFromDescr(const std::string &descr, const std::string &name) {
  const char *supported = " (uop reads bool, i32, f16, f32)";
  if (descr.size() == 3) {
    char order = descr[0];
    std::string code = descr.substr(1);
    std::optional<DType> dt;
    if (code == "b1")
      dt = DType::Bool;
    else if (code == "i4")
      dt = DType::I32;
    else if (code == "f2")
      dt = DType::F16;
    else if (code == "f4")
      dt = DType::F32;
    if (dt) {
      bool oneByte = dtypeSize(*dt) == 1;
      if (order == '<' || order == '=' || (oneByte && order == '|'))
        return *dt;
      if (order == '>' && oneByte)
        return *dt; // byte order means nothing for one byte
      if (order == '>')
        return Error(name + ": big-endian dtype '" + descr +
                     "' is not supported (uop reads little-endian data)");
    }
  }
  return Error(name + ": unsupported dtype '" + quoteHeader(descr) + "'" + supported);
}

uint64_t readLE(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

Result<HostBuffer> readFrom(Source &src, const std::string &name) {
  if (src.sized && src.size == 0)
    return Error(name + ": not a .npy file (empty)");
  uint8_t pre[12];
  uint64_t have = std::min<uint64_t>(src.remaining(), kMagicLen);
  if (!src.sized) {
    // A stream: the magic byte by byte, so a short one is told apart.
    have = 0;
    while (have < kMagicLen && src.read(pre + have, 1))
      ++have;
    if (!src.why.empty())
      return Error(name + ": cannot read: " + src.why);
    if (have == 0)
      return Error(name + ": not a .npy file (empty)");
  } else if (!src.read(pre, have)) {
    return Error(name + ": read error");
  }
  if (std::memcmp(pre, kMagic, have) != 0)
    return Error(name + ": not a .npy file (bad magic)");
  if (have < kMagicLen || !src.read(pre + kMagicLen, 2))
    return Error(name + (src.why.empty() ? ": truncated header" : ": cannot read: " + src.why));
  int major = pre[6], minor = pre[7];
  if ((major < 1 || major > 3) || minor != 0)
    return Error(name + ": unsupported .npy format version " + std::to_string(major) + "." +
                 std::to_string(minor) + " (uop reads 1.0, 2.0 and 3.0)");
  int lenBytes = major == 1 ? 2 : 4;
  if (!src.read(pre + 8, lenBytes))
    return Error(name + (src.why.empty() ? ": truncated header" : ": cannot read: " + src.why));
  uint64_t headerLen = readLE(pre + 8, lenBytes);
  if (headerLen > src.remaining())
    return Error(name + ": truncated header: expected " + std::to_string(headerLen) +
                 " header bytes, found " + std::to_string(src.remaining()));
  if (headerLen > kMaxHeaderLen)
    return Error(name + ": header too long (" + std::to_string(headerLen) + " bytes)");
  std::string text(headerLen, '\0');
  if (!src.read(text.data(), headerLen))
    return Error(name + (src.why.empty() ? ": truncated header: expected " +
                                               std::to_string(headerLen) + " header bytes"
                                         : ": cannot read the header: " + src.why));

  Header h;
  std::string err;
  HeaderParser parser(text);
  if (!parser.parse(h, err)) {
    if (parser.unsupported)
      return Error(name + ": " + err);
    return Error(name + ": bad header: " + err + " (header: " + quoteHeader(text) + ")");
  }
  Result<DType> dt = dtypeFromDescr(h.descr, name);
  if (!dt)
    return Error(dt.error());
  if (h.fortranOrder)
    return Error(name + ": fortran_order arrays are not supported");
  std::optional<int64_t> n = checkedNumel(h.shape, dtypeSize(*dt));
  if (!n)
    return Error(name + ": shape " + shapeString(h.shape) + " is too large");
  uint64_t dataBytes = static_cast<uint64_t>(*n) * dtypeSize(*dt);
  // Check before allocating: a small file cannot claim a huge array.
  if (dataBytes > src.remaining())
    return Error(name + ": truncated data: expected " + std::to_string(dataBytes) +
                 " bytes, found " + std::to_string(src.remaining()));
  // A stream (a pipe, FIFO or device) has no size to check the header
  // against: its data is read a chunk at a time first, so a header that
  // claims gigabytes costs what the stream really holds, not what it claims.
  std::string staged;
  if (!src.sized) {
    constexpr uint64_t kChunk = uint64_t(1) << 20;
    while (staged.size() < dataBytes) {
      size_t at = staged.size();
      uint64_t want = std::min<uint64_t>(kChunk, dataBytes - at);
      staged.resize(at + want);
      if (!src.read(&staged[at], want))
        return Error(name + ": truncated data: expected " + std::to_string(dataBytes) + " bytes, " +
                     (src.why.empty() ? std::string("the data ended early")
                                      : "the read failed: " + src.why));
    }
  }
  Result<HostBuffer> buf = HostBuffer::create(*dt, h.shape);
  if (!buf)
    return Error(name + ": " + buf.error());
  if (!src.sized) {
    if (dataBytes)
      std::memcpy(buf->data(), staged.data(), dataBytes);
  } else if (!src.read(buf->data(), dataBytes))
    return Error(name + ": truncated data: expected " + std::to_string(dataBytes) + " bytes, " +
                 (src.why.empty() ? std::string("the data ended early") : "the read failed: " + src.why));
  if (*dt == DType::Bool) {
    // Kernels read _Bool: any other byte than 0/1 would be undefined.
    uint8_t *p = buf->as<uint8_t>();
    for (int64_t i = 0; i < *n; ++i)
      p[i] = p[i] != 0;
  }
  return buf;
}

} // namespace

Result<HostBuffer> uop::rt::readNpyFromMemory(const void *data, size_t size,
                                              const std::string &name) {
  Source src;
  src.mem = static_cast<const uint8_t *>(data);
  src.size = data ? size : 0;
  return readFrom(src, name);
}

Result<HostBuffer> uop::rt::readNpy(const std::string &path) {
  int fd = openForReading(path);
  if (fd < 0)
    return Error(path + ": cannot open: " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (fstat(fd, &st) != 0)
    return Error(path + ": cannot stat: " + std::strerror(errno));
  if (S_ISDIR(st.st_mode))
    return Error(path + ": is a directory");
  Source src;
  src.fd = fd;
  // A regular file's size bounds what its header may claim; a pipe, FIFO
  // or device is read only as far as its header announces.
  src.sized = S_ISREG(st.st_mode);
  src.size = src.sized ? static_cast<uint64_t>(st.st_size) : 0;
  return readFrom(src, path);
}

/// The magic, version, length and padded header dict for `buf`.
static std::string npyHeader(const HostBuffer &buf) {
  const char *descr = "<f4";
  switch (buf.dtype()) {
  case DType::Bool:
    descr = "|b1";
    break;
  case DType::I32:
    descr = "<i4";
    break;
  case DType::F16:
    descr = "<f2";
    break;
  case DType::F32:
    descr = "<f4";
    break;
  }
  std::string dict = std::string("{'descr': '") + descr +
                     "', 'fortran_order': False, 'shape': " + shapeString(buf.shape()) + ", }";
  // Pad with spaces and a final newline so the data starts 64-byte aligned,
  // as numpy does; version 2.0 only when the length needs 32 bits.
  auto padded = [&](size_t pre) { return (pre + dict.size() + 1 + 63) / 64 * 64 - pre; };
  bool v1 = padded(10) <= 0xffff;
  size_t len = padded(v1 ? 10 : 12);
  dict.append(len - dict.size() - 1, ' ');
  dict += '\n';
  std::string out(kMagic, kMagicLen);
  out += static_cast<char>(v1 ? 1 : 2);
  out += '\0';
  for (size_t i = 0; i < (v1 ? 2u : 4u); ++i)
    out += static_cast<char>((len >> (8 * i)) & 0xff);
  return out + dict;
}

std::string uop::rt::encodeNpyHeader(const HostBuffer &buf) { return npyHeader(buf); }

std::string uop::rt::encodeNpy(const HostBuffer &buf) {
  std::string out = npyHeader(buf);
  if (buf.data())
    out.append(static_cast<const char *>(buf.data()), buf.bytes());
  return out;
}

Result<bool> uop::rt::writeNpy(const std::string &path, const HostBuffer &buf) {
  std::string header = npyHeader(buf);
  std::vector<std::string_view> pieces = {header};
  if (buf.data() && buf.bytes())
    pieces.emplace_back(static_cast<const char *>(buf.data()), buf.bytes());
  Result<bool> ok = writeFilesAtomically({FileContents{path, pieces}});
  if (!ok)
    return Error(ok.error());
  return true;
}
