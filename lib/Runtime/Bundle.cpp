//===- Bundle.cpp - a compiled program in one file (.uopx) ------*- C++ -*-===//
//
// Part of the uop project. The format is described in Bundle.h.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Bundle.h"

#include "BundleFormat.h"
#include "Uop/Runtime/Step.h"

#include "Uop/Runtime/HostCpu.h"
#include "Uop/Runtime/Cache.h"
#include "Uop/Runtime/Cuda.h"
#include "Uop/Runtime/File.h"
#include "Uop/Runtime/Loader.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

using namespace uop::rt;

namespace {
constexpr char kMagic[8] = {'\x89', 'U', 'O', 'P', 'X', '\r', '\n', '\x1a'};
constexpr size_t kHeaderSize = 24, kChecksumSize = 32;
constexpr uint32_t kMaxEntries = 64, kMaxStepEntries = 65536, kMaxNameLength = 64;

void putU32(std::string &out, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out += static_cast<char>((v >> (8 * i)) & 0xff);
}
void putU64(std::string &out, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out += static_cast<char>((v >> (8 * i)) & 0xff);
}
uint64_t getLE(std::string_view bytes, size_t off, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i)
    v |= uint64_t(static_cast<unsigned char>(bytes[off + i])) << (8 * i);
  return v;
}

std::string sysError() { return std::strerror(errno); }

/// Reads up to `n` bytes at the file's position (fewer at its end), growing
/// `out` a chunk at a time (a lying size costs no huge allocation); each
/// wait of a pipe or FIFO is bounded (readSome).
bool readUpTo(int fd, std::string &out, uint64_t n) {
  constexpr size_t kChunk = size_t(1) << 20;
  while (n > 0) {
    size_t start = out.size(), want = static_cast<size_t>(std::min<uint64_t>(n, kChunk));
    out.resize(start + want);
    int64_t r = readSome(fd, &out[start], want);
    out.resize(start + static_cast<size_t>(std::max<int64_t>(r, 0)));
    if (r < 0)
      return false;
    if (static_cast<size_t>(r) < want)
      break;
    n -= static_cast<uint64_t>(r);
  }
  return true;
}

/// The first word of an arch string ("x86-64 znver5" -> "x86-64").
std::string machineOf(const std::string &arch) { return arch.substr(0, arch.find(' ')); }
} // namespace

Bundle Bundle::cpu(HostPlan plan, std::string libraryBytes, std::string arch) {
  Bundle b;
  b.target = Backend::CPU;
  b.arch = arch.empty() ? hostMachine() : std::move(arch);
  b.plan = std::move(plan);
  b.library = std::move(libraryBytes);
  return b;
}

std::string uop::rt::ptxTarget(const std::string &ptx) {
  size_t at = 0;
  while ((at = ptx.find(".target", at)) != std::string::npos) {
    // At the start of a line (after blanks), followed by a blank.
    size_t line = ptx.find_last_not_of(" \t", at == 0 ? std::string::npos : at - 1);
    bool starts = at == 0 || line == std::string::npos || ptx[line] == '\n';
    at += 7;
    if (!starts || at >= ptx.size() || (ptx[at] != ' ' && ptx[at] != '\t'))
      continue;
    size_t begin = ptx.find_first_not_of(" \t", at);
    if (begin == std::string::npos)
      return "";
    size_t end = ptx.find_first_of(" \t\r\n,", begin);
    return ptx.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  }
  return "";
}

Bundle Bundle::cuda(HostPlan plan, std::string ptx, std::string chip, std::string cubin) {
  Bundle b;
  b.target = Backend::CUDA;
  b.arch = chip.empty() ? ptxTarget(ptx) : std::move(chip);
  b.plan = std::move(plan);
  b.ptx = std::move(ptx);
  b.cubin = std::move(cubin);
  return b;
}

std::string uop::rt::detail::quoteEntry(std::string_view text, size_t max) {
  std::string out;
  for (char c : text) {
    if (out.size() >= max)
      return out + "...";
    unsigned char u = static_cast<unsigned char>(c);
    out += (u >= 0x20 && u < 0x7f) ? c : '?';
  }
  return out;
}

std::string uop::rt::detail::encodeContainer(uint32_t version, const BundleEntries &entries) {
  uint64_t size = kHeaderSize + kChecksumSize;
  for (auto &[name, data] : entries)
    size += 4 + name.size() + 8 + data.size();
  std::string out(kMagic, sizeof(kMagic));
  out.reserve(size);
  putU32(out, version);
  putU32(out, static_cast<uint32_t>(entries.size()));
  putU64(out, size);
  for (auto &[name, data] : entries) {
    putU32(out, static_cast<uint32_t>(name.size()));
    out += name;
    putU64(out, data.size());
    out += data;
  }
  std::array<uint8_t, 32> digest = Sha256().update(out).final();
  out.append(reinterpret_cast<const char *>(digest.data()), digest.size());
  return out;
}

std::string uop::rt::encodeBundle(const Bundle &bundle) {
  detail::BundleEntries entries = {
      {"target", backendName(bundle.target)},
      {"arch", bundle.arch},
      {"producer", bundle.producer},
      {"plan", bundle.plan.serialize()},
  };
  if (!bundle.machine.empty())
    entries.push_back({"machine", bundle.machine});
  if (!bundle.features.empty())
    entries.push_back({"features", bundle.features});
  if (bundle.target == Backend::CPU) {
    entries.push_back({"cpu.so", bundle.library});
  } else {
    if (!bundle.ptx.empty())
      entries.push_back({"cuda.ptx", bundle.ptx});
    if (!bundle.cubin.empty())
      entries.push_back({"cuda.cubin", bundle.cubin});
  }
  return detail::encodeContainer(kBundleVersion, entries);
}

Result<detail::BundleContents> uop::rt::detail::decodeContainer(std::string_view bytes,
                                                               const std::string &name) {
  auto fail = [&](const std::string &why) { return Error{name + ": " + why}; };
  if (bytes.size() < sizeof(kMagic) || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0)
    return fail(bytes.empty() ? "not a uop bundle (an empty file)"
                              : "not a uop bundle (bad magic)");
  if (bytes.size() < kHeaderSize)
    return fail("truncated uop bundle (" + std::to_string(bytes.size()) + " bytes)");
  uint32_t version = static_cast<uint32_t>(getLE(bytes, 8, 4));
  if (version != kBundleVersion && version != kStepBundleVersion)
    return fail("a uop bundle of format version " + std::to_string(version) +
                " (this uop reads versions " + std::to_string(kBundleVersion) + " and " +
                std::to_string(kStepBundleVersion) + ")");
  uint32_t count = static_cast<uint32_t>(getLE(bytes, 12, 4));
  uint64_t size = getLE(bytes, 16, 8);
  if (bytes.size() < size || bytes.size() < kHeaderSize + kChecksumSize)
    return fail("truncated uop bundle (" + std::to_string(bytes.size()) +
                " bytes; its header says " + std::to_string(size) + ")");
  if (bytes.size() > size)
    return fail("malformed uop bundle (" + std::to_string(bytes.size()) +
                " bytes; its header says " + std::to_string(size) + ")");
  std::string_view body = bytes.substr(0, size - kChecksumSize);
  std::array<uint8_t, 32> digest = Sha256().update(body).final();
  if (std::memcmp(digest.data(), bytes.data() + body.size(), kChecksumSize) != 0)
    return fail("corrupted uop bundle (checksum mismatch)");
  if (count > (version == kBundleVersion ? kMaxEntries : kMaxStepEntries))
    return fail("malformed uop bundle (" + std::to_string(count) + " entries)");

  BundleContents contents;
  contents.version = version;
  auto &entries = contents.entries;
  size_t off = kHeaderSize;
  for (uint32_t i = 0; i < count; ++i) {
    auto bad = [&](const std::string &what) {
      return fail("malformed uop bundle (entry " + std::to_string(i) + ": " + what + ")");
    };
    if (body.size() - off < 4)
      return bad("past the end");
    uint64_t nameLen = getLE(body, off, 4);
    off += 4;
    if (nameLen == 0 || nameLen > kMaxNameLength || body.size() - off < nameLen + 8)
      return bad("bad name");
    std::string entryName(body.substr(off, nameLen));
    // Names are printable (an error names them, on one line).
    if (std::any_of(entryName.begin(), entryName.end(), [](char c) {
          return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
        }))
      return bad("a name with control characters");
    off += nameLen;
    uint64_t dataLen = getLE(body, off, 8);
    off += 8;
    if (dataLen > body.size() - off)
      return bad(entryName + " past the end");
    if (!entries.emplace(entryName, body.substr(off, dataLen)).second)
      return bad(entryName + " twice");
    off += dataLen;
  }
  if (off != body.size())
    return fail("malformed uop bundle (" + std::to_string(body.size() - off) +
                " bytes after the last entry)");
  return contents;
}

Result<Bundle> uop::rt::decodeBundle(std::string_view bytes, const std::string &name) {
  auto fail = [&](const std::string &why) { return Error{name + ": " + why}; };
  Result<detail::BundleContents> contents = detail::decodeContainer(bytes, name);
  if (!contents)
    return Error{contents.error()};
  if (contents->version != kBundleVersion)
    return fail("a training-step bundle, not a program (uop-runner " + name +
                " --steps=N trains with it)");
  auto &entries = contents->entries;
  auto get = [&](const char *key) -> std::optional<std::string> {
    auto it = entries.find(key);
    if (it == entries.end())
      return std::nullopt;
    return std::string(it->second);
  };
  Bundle b;
  std::optional<std::string> target = get("target"), arch = get("arch"), plan = get("plan");
  if (!target || !arch || !plan)
    return fail(std::string("malformed uop bundle (no '") +
                (!target ? "target"
                 : !arch ? "arch"
                         : "plan") +
                "' entry)");
  if (*target == "cpu")
    b.target = Backend::CPU;
  else if (*target == "cuda")
    b.target = Backend::CUDA;
  else
    return fail("a uop bundle for target '" + detail::quoteEntry(*target) +
                "' (this uop runs cpu and cuda)");
  b.arch = *arch;
  if (auto p = get("producer"))
    b.producer = *p;
  b.machine = get("machine").value_or("");
  b.features = get("features").value_or("");
  Result<HostPlan> parsed = HostPlan::parse(*plan);
  if (!parsed)
    return fail("the bundle's plan: " + parsed.error());
  b.plan = parsed.take();
  if (b.target == Backend::CPU) {
    std::optional<std::string> so = get("cpu.so");
    if (!so)
      return fail("malformed uop bundle (a CPU bundle without 'cpu.so')");
    b.library = std::move(*so);
  } else {
    b.ptx = get("cuda.ptx").value_or("");
    b.cubin = get("cuda.cubin").value_or("");
    if (b.ptx.empty() && b.cubin.empty())
      return fail("malformed uop bundle (a CUDA bundle without 'cuda.ptx' or 'cuda.cubin')");
  }
  return b;
}

Result<bool> uop::rt::writeBundle(const std::string &path, const Bundle &bundle) {
  return atomicWriteFile(path, encodeBundle(bundle));
}

Result<std::string> uop::rt::detail::readContainerFile(const std::string &path) {
  int fd = openForReading(path);
  if (fd < 0)
    return Error{path + ": cannot read: " + sysError()};
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (fstat(fd, &st) != 0)
    return Error{path + ": cannot read: " + sysError()};
  if (S_ISDIR(st.st_mode))
    return Error{path + ": cannot read: Is a directory"};
  // The header first: a foreign file (however large) is refused unread.
  std::string bytes;
  if (!readUpTo(fd, bytes, kHeaderSize))
    return Error{path + ": cannot read: " + sysError()};
  if (bytes.size() >= sizeof(kMagic) && std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) == 0 &&
      bytes.size() == kHeaderSize) {
    uint64_t size = getLE(bytes, 16, 8);
    // Read what the header announces, and one byte more to notice trailing
    // data; a truncated file just ends early.
    uint64_t want = size > kHeaderSize ? size - kHeaderSize + 1 : 1;
    if (S_ISREG(st.st_mode)) {
      uint64_t fileSize = static_cast<uint64_t>(st.st_size);
      if (fileSize > size && size >= kHeaderSize + kChecksumSize)
        return Error{path + ": malformed uop bundle (" + std::to_string(fileSize) +
                     " bytes; its header says " + std::to_string(size) + ")"};
      want = std::min<uint64_t>(want, fileSize + 1);
    }
    if (!readUpTo(fd, bytes, want))
      return Error{path + ": cannot read: " + sysError()};
  }
  return bytes;
}

Result<uint32_t> uop::rt::bundleFormat(const std::string &path) {
  Result<std::string> bytes = detail::readContainerFile(path);
  if (!bytes)
    return Error{bytes.error()};
  if (bytes->size() < kHeaderSize || std::memcmp(bytes->data(), kMagic, sizeof(kMagic)) != 0)
    return Error{path + ": not a uop bundle"};
  return static_cast<uint32_t>(getLE(*bytes, 8, 4));
}

Result<Bundle> uop::rt::readBundle(const std::string &path) {
  Result<std::string> bytes = detail::readContainerFile(path);
  if (!bytes)
    return Error{bytes.error()};
  return decodeBundle(*bytes, path);
}

namespace {
/// The path of a loadable copy of `library`: its cache entry (installed now
/// if missing), or "" with `*why` set when the cache cannot take it.
std::string cachedLibrary(const std::string &library, std::string *why) {
  std::string key = hashKey(std::string("uop-bundle-so\0", 14) + library);
  std::string warning;
  std::string path = cacheLookupLibrary(key, &warning);
  if (!warning.empty())
    std::fprintf(stderr, "uop: warning: %s\n", warning.c_str());
  if (!path.empty())
    return path;
  Result<std::string> dir = cacheDirChecked();
  if (!dir) {
    *why = dir.error();
    return "";
  }
  // Not synced here: cacheInstall makes it durable before publishing it.
  std::string tmp = cacheTempPath(".so");
  if (Result<bool> written = writeNewFile(tmp, library, 0755, /*durable=*/false); !written) {
    *why = written.error();
    return "";
  }
  Result<std::string> installed = cacheInstall(tmp, key, ".so");
  if (!installed) {
    *why = installed.error();
    return "";
  }
  return *installed;
}
} // namespace

Result<std::unique_ptr<Executable>> uop::rt::loadBundle(const Bundle &bundle,
                                                        const std::string &name) {
  if (bundle.target == Backend::CUDA) {
    Result<std::unique_ptr<Executable>> exe =
        Executable::loadCuda(bundle.plan, bundle.ptx, bundle.cubin);
    if (exe || isNoCudaDevice(exe.error()))
      return exe;
    std::string msg = name + ": " + exe.error();
    // Code for another chip is the likely cause of a load failure: say so.
    Result<std::shared_ptr<CudaDevice>> dev = CudaDevice::get();
    if (dev && !bundle.arch.empty() && bundle.arch != (*dev)->chip())
      msg += " (the bundle is for " + bundle.arch + "; this device, " + (*dev)->name() + ", is " +
             (*dev)->chip() + ")";
    return Error{msg};
  }
  std::string machine = machineOf(bundle.arch), host = hostMachine();
  if (host != "unknown" && machine != host)
    return Error{name + ": a CPU bundle for " + (machine.empty() ? "no machine" : machine) +
                 ", not this machine (" + host + ")"};
  if (std::vector<std::string> missing = missingCpuFeatures(bundle.features); !missing.empty()) {
    std::string list;
    for (const std::string &f : missing)
      list += (list.empty() ? "" : ", ") + f;
    std::string cpu = bundle.arch.find(' ') == std::string::npos
                          ? "another CPU"
                          : bundle.arch.substr(bundle.arch.find(' ') + 1);
    return Error{name + ": a CPU bundle for " + cpu + ", which needs " + list +
                 ": this CPU lacks " + (missing.size() == 1 ? "it" : "them")};
  }
  std::string why;
  std::string path = cachedLibrary(bundle.library, &why);
  if (!path.empty()) {
    Result<std::unique_ptr<Executable>> exe = Executable::load(bundle.plan, path);
    if (!exe)
      return Error{name + ": " + exe.error()};
    return exe;
  }
  // No usable cache: a private temporary file, removed once loaded (the
  // mapping stays).
  const char *tmpdir = std::getenv("TMPDIR");
  std::string tmpl = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/uop-bundle-XXXXXX.so";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  int fd = mkstemps(buf.data(), 3);
  if (fd < 0)
    return Error{name + ": cannot write its library (" + why + "; " + tmpl + ": " + sysError() +
                 ")"};
  std::string tmp = buf.data();
  bool ok = writeAll(fd, bundle.library);
  ::close(fd);
  if (!ok) {
    ::unlink(tmp.c_str());
    return Error{name + ": cannot write its library to " + tmp + ": " + sysError()};
  }
  Result<std::unique_ptr<Executable>> exe = Executable::load(bundle.plan, tmp);
  ::unlink(tmp.c_str());
  if (!exe)
    return Error{name + ": " + exe.error()};
  return exe;
}

Result<std::unique_ptr<Executable>> uop::rt::loadBundle(const std::string &path) {
  Result<Bundle> b = readBundle(path);
  if (!b)
    return Error{b.error()};
  return loadBundle(*b, path);
}

Result<Bundle> uop::rt::bundleOf(const Executable &exe, std::string arch) {
  if (exe.backend() == Backend::CUDA) {
    if (arch.empty())
      arch = ptxTarget(exe.ptx());
    if (arch.empty() && exe.cudaProgram())
      arch = exe.cudaProgram()->device()->chip();
    return Bundle::cuda(exe.plan(), exe.ptx(), arch, exe.cubin());
  }
  int fd = ::open(exe.library().c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Error{exe.library() + ": cannot read: " + sysError()};
  std::string bytes;
  struct stat st;
  bool ok = fstat(fd, &st) == 0 && readUpTo(fd, bytes, static_cast<size_t>(st.st_size));
  std::string why = ok ? "" : sysError();
  ::close(fd);
  if (!ok)
    return Error{exe.library() + ": cannot read: " + why};
  return Bundle::cpu(exe.plan(), std::move(bytes), std::move(arch));
}
