//===- Loader.cpp - Loading and calling compiled CPU code -----------------===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Loader.h"
#include "Uop/Runtime/Memory.h"
#include "Uop/Runtime/Cache.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

using namespace uop::rt;

namespace {
#if UINTPTR_MAX > 0xffffffffu
using Ehdr = Elf64_Ehdr;
using Phdr = Elf64_Phdr;
constexpr unsigned char kHostClass = ELFCLASS64;
#else
using Ehdr = Elf32_Ehdr;
using Phdr = Elf32_Phdr;
constexpr unsigned char kHostClass = ELFCLASS32;
#endif

#if defined(__x86_64__)
constexpr int kHostMachine = EM_X86_64;
#elif defined(__aarch64__)
constexpr int kHostMachine = EM_AARCH64;
#elif defined(__i386__)
constexpr int kHostMachine = EM_386;
#elif defined(__arm__)
constexpr int kHostMachine = EM_ARM;
#elif defined(__riscv)
constexpr int kHostMachine = EM_RISCV;
#elif defined(__powerpc64__)
constexpr int kHostMachine = EM_PPC64;
#elif defined(__s390x__)
constexpr int kHostMachine = EM_S390;
#else
constexpr int kHostMachine = -1; // unknown: the machine is not checked
#endif

const char *machineName(int m) {
  switch (m) {
  case EM_X86_64:
    return "x86-64";
  case EM_AARCH64:
    return "AArch64";
  case EM_386:
    return "i386";
  case EM_ARM:
    return "ARM";
  case EM_RISCV:
    return "RISC-V";
  case EM_PPC64:
    return "PowerPC64";
  case EM_PPC:
    return "PowerPC";
  case EM_S390:
    return "s390";
  case EM_MIPS:
    return "MIPS";
  case EM_SPARCV9:
    return "SPARC V9";
  }
  return nullptr;
}

std::string describeMachine(int m) {
  if (const char *n = machineName(m))
    return n;
  return "machine " + std::to_string(m);
}

/// Reads exactly `n` bytes at `off`.
bool readAt(int fd, void *dst, size_t n, uint64_t off) {
  auto *p = static_cast<char *>(dst);
  while (n) {
    ssize_t r = pread(fd, p, n, static_cast<off_t>(off));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return false;
    p += r;
    n -= static_cast<size_t>(r);
    off += static_cast<uint64_t>(r);
  }
  return true;
}

/// Why `file` is not a complete ELF shared object of this machine, or "".
/// dlopen maps a file without checking that its segments lie inside it, so
/// a truncated library faults (SIGBUS) at the first touch of a missing page;
/// and it is cheaper to name a foreign file than to decode dlerror().
std::string elfProblem(const std::string &file) {
  int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return ""; // dlopen reports a missing or unreadable file itself
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    return "";
  uint64_t size = static_cast<uint64_t>(st.st_size);
  unsigned char ident[EI_NIDENT] = {0};
  if (size < 4 || !readAt(fd, ident, 4, 0) || std::memcmp(ident, ELFMAG, SELFMAG) != 0)
    return "not an ELF shared object (" +
           std::string(size == 0 ? "an empty file" : "no ELF magic") + ")";
  Ehdr eh;
  if (size < sizeof(eh) || !readAt(fd, &eh, sizeof(eh), 0))
    return "truncated ELF file (" + std::to_string(size) + " bytes)";
  if (eh.e_ident[EI_CLASS] != kHostClass)
    return std::string("an ELF file of the wrong class (") +
           (eh.e_ident[EI_CLASS] == ELFCLASS32 ? "32" : "64") + "-bit; this process is " +
           (kHostClass == ELFCLASS64 ? "64" : "32") + "-bit)";
  unsigned char hostData =
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
      ELFDATA2MSB;
#else
      ELFDATA2LSB;
#endif
  if (eh.e_ident[EI_DATA] != hostData)
    return "an ELF file of the wrong byte order";
  if (kHostMachine >= 0 && eh.e_machine != kHostMachine)
    return "an ELF file for " + describeMachine(eh.e_machine) + ", not this machine (" +
           describeMachine(kHostMachine) + ")";
  if (eh.e_type != ET_DYN)
    return std::string("not a shared object (ELF type ") +
           (eh.e_type == ET_REL    ? "relocatable object"
            : eh.e_type == ET_EXEC ? "executable"
            : eh.e_type == ET_CORE ? "core dump"
                                   : std::to_string(eh.e_type).c_str()) +
           ")";
  auto truncated = [&](uint64_t need) {
    return "truncated ELF file (" + std::to_string(size) + " bytes; its headers describe " +
           std::to_string(need) + ")";
  };
  // The section headers usually end the file: any truncation shows here.
  if (eh.e_shoff && eh.e_shnum) {
    uint64_t end =
        static_cast<uint64_t>(eh.e_shoff) + static_cast<uint64_t>(eh.e_shnum) * eh.e_shentsize;
    if (end < eh.e_shoff || end > size)
      return truncated(end);
  }
  if (eh.e_phentsize != sizeof(Phdr) || eh.e_phnum == 0 || eh.e_phnum == 0xffff)
    return "a malformed ELF file (bad program headers)";
  uint64_t phEnd =
      static_cast<uint64_t>(eh.e_phoff) + static_cast<uint64_t>(eh.e_phnum) * sizeof(Phdr);
  if (phEnd < eh.e_phoff || phEnd > size)
    return truncated(phEnd);
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Phdr ph;
    if (!readAt(fd, &ph, sizeof(ph), eh.e_phoff + uint64_t(i) * sizeof(ph)))
      return "unreadable ELF program headers";
    if (ph.p_type != PT_LOAD && ph.p_type != PT_DYNAMIC)
      continue;
    uint64_t end = static_cast<uint64_t>(ph.p_offset) + ph.p_filesz;
    if (end < ph.p_offset || end > size)
      return truncated(end);
  }
  return "";
}
} // namespace

std::string uop::rt::sharedLibraryProblem(const std::string &file) { return elfProblem(file); }

std::string uop::rt::cacheLookupLibrary(const std::string &key, std::string *warning) {
  std::string path = cacheLookup(key, ".so", warning);
  if (path.empty())
    return path;
  std::string problem = elfProblem(path);
  if (problem.empty())
    return path;
  std::string msg = "the cache entry " + path + " is not a library for this machine: " + problem +
                    "; rebuilding it";
  if (!cacheRemove(key, ".so"))
    msg += " (cannot remove it: " + std::string(std::strerror(errno)) + ")";
  if (warning)
    *warning = msg;
  return "";
}

std::string uop::rt::hostMachine() {
  return kHostMachine >= 0 ? describeMachine(kHostMachine) : "unknown";
}

Result<std::unique_ptr<SharedLibrary>> SharedLibrary::open(const std::string &path) {
  // dlopen searches the library path for a name without '/'; a compiled
  // artifact is a file, so make such a name relative to the current directory.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  // Check before dlopen, which would crash on a truncated file.
  if (std::string problem = elfProblem(file); !problem.empty())
    return Error(path + ": cannot load: " + problem);
  // A cache entry (one with a checksum file) must verify: a flipped byte in
  // code is no ELF error, but it would run.
  if (access(cacheChecksumPath(file).c_str(), F_OK) == 0) {
    Result<bool> verified = cacheVerify(file);
    if (!verified) {
      std::string prefix = "the cache entry " + file + " ";
      std::string msg = verified.error();
      if (msg.rfind(prefix, 0) == 0)
        msg = "the cache entry " + msg.substr(prefix.size());
      return Error(path + ": cannot load: " + msg);
    }
  }
  dlerror();
  void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *msg = dlerror();
    return Error(path + ": cannot load: " + (msg ? msg : "dlopen failed"));
  }
  // A kernel library's heap allocations go through the runtime's allocator,
  // which draws from the memory budget (Memory.h); a library compiled
  // before the hooks existed, or not by uop, keeps malloc.
  if (auto *hook = static_cast<void **>(dlsym(handle, "uop_rt_alloc_hook")))
    *hook = reinterpret_cast<void *>(&uop_rt_kernel_alloc);
  if (auto *hook = static_cast<void **>(dlsym(handle, "uop_rt_free_hook")))
    *hook = reinterpret_cast<void *>(&uop_rt_kernel_free);
  return std::unique_ptr<SharedLibrary>(new SharedLibrary(handle, path));
}

void *SharedLibrary::symbol(const std::string &name) const { return dlsym(handle, name.c_str()); }

SharedLibrary::~SharedLibrary() {
  if (handle)
    dlclose(handle);
}

Result<CpuKernel> CpuKernel::load(const std::string &soPath, const std::string &entry) {
  Result<std::unique_ptr<SharedLibrary>> lib = SharedLibrary::open(soPath);
  if (!lib)
    return Error(lib.error());
  void *sym = (*lib)->symbol(entry);
  if (!sym)
    return Error(soPath + ": no symbol '" + entry + "'");
  CpuKernel k(std::shared_ptr<SharedLibrary>(lib.take()), reinterpret_cast<EntryFn>(sym));
  // The library's own libomp (dlsym on its handle searches it and what it
  // links, not the process), unless the user chose OMP_DYNAMIC.
  if (!std::getenv("OMP_DYNAMIC")) {
    auto set = reinterpret_cast<void (*)(int)>(k.lib->symbol("omp_set_dynamic"));
    auto get = reinterpret_cast<int (*)()>(k.lib->symbol("omp_get_dynamic"));
    if (set && get) {
      k.setDynamic = set;
      k.getDynamic = get;
    }
  }
  return k;
}

void CpuKernel::call(EntryFn entry, void **args) const {
  // dyn-var is the calling thread's: set for the call, put back after it.
  if (!setDynamic || getDynamic()) {
    entry(args);
    return;
  }
  setDynamic(1);
  entry(args);
  setDynamic(0);
}

void CpuKernel::operator()(std::vector<HostBuffer *> &buffers) const {
  std::vector<void *> args;
  args.reserve(buffers.size());
  for (HostBuffer *b : buffers)
    args.push_back(b ? b->data() : nullptr);
  call(fn, args.data());
}

std::vector<double> uop::rt::timeRuns(const std::function<void()> &fn, int reps) {
  std::vector<double> times;
  if (reps <= 0)
    return times;
  fn(); // warm-up: page faults, caches, lazy binding
  times.reserve(reps);
  for (int i = 0; i < reps; ++i) {
    auto start = std::chrono::steady_clock::now();
    fn();
    auto end = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double>(end - start).count());
  }
  std::sort(times.begin(), times.end());
  return times;
}

double uop::rt::median(std::vector<double> v) {
  if (v.empty())
    return std::numeric_limits<double>::quiet_NaN();
  size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  double hi = v[mid];
  if (v.size() % 2)
    return hi;
  double lo = *std::max_element(v.begin(), v.begin() + mid);
  return (lo + hi) / 2;
}
