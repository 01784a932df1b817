//===- Cache.cpp - The on-disk cache of compiled code ---------------------===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Cache.h"
#include "Uop/Runtime/File.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <unistd.h>
#include <vector>
#if __has_include(<sys/random.h>)
#include <sys/random.h>
#define UOP_HAVE_GETRANDOM 1
#endif

using namespace uop::rt;

/// mkdir -p; true if `dir` exists as a directory afterwards.
static bool makeDirs(const std::string &dir) {
  struct stat st;
  if (stat(dir.c_str(), &st) == 0)
    return S_ISDIR(st.st_mode);
  size_t slash = dir.find_last_of('/');
  if (slash != std::string::npos && slash > 0 && !makeDirs(dir.substr(0, slash)))
    return false;
  // Another process may create it between the stat and the mkdir.
  return (mkdir(dir.c_str(), 0755) == 0 || errno == EEXIST) && stat(dir.c_str(), &st) == 0 &&
         S_ISDIR(st.st_mode);
}

/// Removes `path` whatever it is (a file, a link, a directory with its
/// contents); true when nothing is left there. errno is set on failure.
static bool removeTree(const std::string &path) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0)
    return errno == ENOENT;
  if (!S_ISDIR(st.st_mode))
    return unlink(path.c_str()) == 0 || errno == ENOENT;
  auto rm = [](const char *p, const struct stat *, int, struct FTW *) -> int {
    return remove(p) == 0 || errno == ENOENT ? 0 : -1;
  };
  return nftw(path.c_str(), rm, 16, FTW_DEPTH | FTW_PHYS) == 0;
}

/// `dir` as a directory: something else there (a file, a link, a FIFO:
/// damage, since only uop writes in the cache) is removed first. True when
/// `dir` is a directory afterwards.
static bool healDir(const std::string &dir) {
  struct stat st;
  if (lstat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode) && !removeTree(dir))
    return false;
  return makeDirs(dir);
}

/// Adds the leading dot if `ext` lacks it.
static std::string normalizeExt(const std::string &ext) {
  if (ext.empty() || ext[0] == '.')
    return ext;
  return "." + ext;
}

/// Keys and extensions become file names: keep them to a safe alphabet.
static bool isSafeName(const std::string &s) {
  if (s.empty() || s == "." || s == "..")
    return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
          c == '-' || c == '.'))
      return false;
  return true;
}

/// The cache directory before creating it, and where it came from.
static std::string cacheDirPath(const char **origin = nullptr) {
  std::string dir;
  const char *from;
  if (const char *env = std::getenv("UOP_CACHE"); env && *env) {
    dir = env;
    from = "$UOP_CACHE";
  } else if (const char *home = std::getenv("HOME"); home && *home) {
    dir = std::string(home) + "/.cache/uop";
    from = "$HOME/.cache/uop";
  } else {
    dir = "/tmp/uop-cache-" + std::to_string(getuid());
    from = "no $UOP_CACHE or $HOME";
  }
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
  if (origin)
    *origin = from;
  return dir;
}

std::string uop::rt::cacheDir() {
  std::string dir = cacheDirPath();
  makeDirs(dir);
  return dir;
}

/// Bytes free for unprivileged writers, or nullopt when unknown.
static std::optional<uint64_t> freeBytes(const std::string &dir) {
  struct statvfs vfs;
  if (statvfs(dir.c_str(), &vfs) != 0)
    return std::nullopt;
  return static_cast<uint64_t>(vfs.f_bavail) * vfs.f_frsize;
}

/// A compiled kernel needs some room; below this the cache counts as full.
static constexpr uint64_t kMinFreeBytes = 1u << 20;

Result<std::string> uop::rt::cacheDirChecked() {
  const char *origin;
  std::string dir = cacheDirPath(&origin);
  std::string where = "the cache directory " + dir + " (" + origin + ")";
  const char *fix = "; set UOP_CACHE to a writable directory";
  struct stat st;
  if (stat(dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
    return Error(where + " is not a directory" + fix);
  if (!makeDirs(dir)) {
    std::string why = std::strerror(errno);
    return Error("cannot create " + where + ": " + why + fix);
  }
  // The cache's own tmp/ replaced by something else is healed.
  std::string tmp = dir + "/tmp";
  if (!healDir(tmp)) {
    std::string why = std::strerror(errno);
    return Error(where + " is not writable: cannot create " + tmp + ": " + why + fix);
  }
  // Creating a file is the only reliable test (read-only mounts, ACLs,
  // quotas; access(2) says yes to root on a read-only directory).
  for (const std::string &d : {dir, tmp}) {
    std::string probe = d + "/.probe-" + std::to_string(getpid());
    int fd = open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno != EEXIST) {
      std::string why = std::strerror(errno);
      return Error(where + " is not writable: " + why + fix);
    }
    if (fd >= 0)
      close(fd);
    unlink(probe.c_str());
  }
  if (std::optional<uint64_t> free = freeBytes(dir); free && *free < kMinFreeBytes)
    return Error(where + " has no space left (" + std::to_string(*free) + " bytes free)" + fix);
  return dir;
}

namespace {
/// flock(2) of the cache directory, for publishing or checking an entry and
/// its checksum file as a pair. Best effort: where the filesystem has no
/// locks the operations still work, only without the pairing guarantee.
class DirLock {
public:
  DirLock(const std::string &dir, bool exclusive) {
    fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0)
      while (flock(fd, exclusive ? LOCK_EX : LOCK_SH) != 0 && errno == EINTR) {
      }
  }
  ~DirLock() {
    if (fd >= 0)
      close(fd); // releases the lock
  }
  DirLock(const DirLock &) = delete;
  DirLock &operator=(const DirLock &) = delete;

private:
  int fd = -1;
};
} // namespace

/// The subdirectory of the checksum files. Not beside the entries, so that
/// the cache directory lists (and globs) exactly its entries.
static const char kChecksumDir[] = "checksums";

std::string uop::rt::cacheChecksumPath(const std::string &entryPath) {
  size_t slash = entryPath.find_last_of('/');
  std::string dir = slash == std::string::npos ? "" : entryPath.substr(0, slash + 1);
  std::string base = slash == std::string::npos ? entryPath : entryPath.substr(slash + 1);
  return dir + kChecksumDir + "/" + base + ".sha256";
}

static const char kChecksumMagic[] = "uop-cache-checksum 1 ";

/// Streams the file at `path` through SHA-256; false (errno set) when it
/// cannot be read.
static bool hashFile(const std::string &path, uint64_t &size, std::string &hex) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  Sha256 h;
  size = 0;
  static thread_local char buf[1 << 16];
  while (true) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n == 0)
      break;
    if (n < 0) {
      if (errno == EINTR)
        continue;
      int saved = errno;
      close(fd);
      errno = saved;
      return false;
    }
    h.update(std::string_view(buf, static_cast<size_t>(n)));
    size += static_cast<uint64_t>(n);
  }
  close(fd);
  hex = h.finalHex();
  return true;
}

/// Reads up to `max` bytes of `path`; nullopt when it cannot be opened.
static std::optional<std::string> readSmallFile(const std::string &path, size_t max) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return std::nullopt;
  std::string out;
  char buf[256];
  while (out.size() <= max) {
    ssize_t n = read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    out.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  return out;
}

/// What is wrong with the entry at `path` as a phrase that follows "the cache
/// entry PATH", or nullopt when it verifies.
static std::optional<std::string> entryProblem(const std::string &path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0)
    return std::string("cannot be read (") + std::strerror(errno) + ")";
  if (!S_ISREG(st.st_mode))
    return std::string("is not a regular file");
  std::optional<std::string> sum = readSmallFile(cacheChecksumPath(path), 200);
  if (!sum)
    return std::string(errno == ENOENT ? "has no checksum (written by an older uop, or "
                                         "not by uop)"
                                       : "has an unreadable checksum file");
  // "uop-cache-checksum 1 SIZE HEX\n"
  const size_t magicLen = sizeof(kChecksumMagic) - 1;
  unsigned long long want = 0;
  char hexWant[65] = {0};
  char tail = 0;
  if (sum->compare(0, magicLen, kChecksumMagic) != 0 ||
      std::sscanf(sum->c_str() + magicLen, "%llu %64[0-9a-f]%c", &want, hexWant, &tail) != 3 ||
      std::strlen(hexWant) != 64 || tail != '\n')
    return std::string("has a malformed checksum file");
  uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size != want)
    return std::string(size < want ? "is truncated" : "is corrupted") + " (" +
           std::to_string(size) + " bytes, expected " + std::to_string(want) + ")";
  std::string hex;
  if (!hashFile(path, size, hex))
    return std::string("cannot be read (") + std::strerror(errno) + ")";
  if (size != want)
    return std::string("changed while it was checked (") + std::to_string(size) +
           " bytes, expected " + std::to_string(want) + ")";
  if (hex != hexWant)
    return std::string("is corrupted (checksum mismatch)");
  return std::nullopt;
}

Result<bool> uop::rt::cacheVerify(const std::string &entryPath) {
  std::optional<std::string> problem = entryProblem(entryPath);
  if (!problem)
    return true;
  // Perhaps an install in progress (its data beside the old checksum):
  // installers hold the directory's lock, so check again under it.
  size_t slash = entryPath.find_last_of('/');
  std::string dir = slash == std::string::npos ? "."
                    : slash == 0               ? "/"
                                               : entryPath.substr(0, slash);
  DirLock lock(dir, /*exclusive=*/false);
  problem = entryProblem(entryPath);
  if (!problem)
    return true;
  return Error("the cache entry " + entryPath + " " + *problem);
}

/// Removes the entry at `path` and its checksum file, whatever they are (a
/// directory in an entry's place included); "" or why not.
static std::string removeEntry(const std::string &path) {
  std::string err;
  if (!removeTree(path))
    err = std::strerror(errno);
  if (!removeTree(cacheChecksumPath(path)) && err.empty() && errno != ENOTDIR)
    err = std::strerror(errno);
  return err;
}

std::string uop::rt::cacheLookup(const std::string &key, const std::string &ext,
                                 std::string *warning) {
  if (warning)
    warning->clear();
  if (!isSafeName(key) || !(ext.empty() || isSafeName(normalizeExt(ext))))
    return "";
  std::string dir = cacheDir();
  std::string path = dir + "/" + key + normalizeExt(ext);
  struct stat st;
  if (stat(path.c_str(), &st) != 0)
    return "";
  // The common case, a good entry, takes no lock.
  if (!entryProblem(path))
    return path;
  // A failed check may be an install in progress (the new data beside the
  // old checksum): installers hold the lock, so check again under it before
  // removing anything.
  DirLock lock(dir, /*exclusive=*/true);
  if (stat(path.c_str(), &st) != 0)
    return ""; // removed meanwhile
  std::optional<std::string> problem = entryProblem(path);
  if (!problem)
    return path;
  std::string msg = "the cache entry " + path + " " + *problem;
  msg += "; rebuilding it";
  if (std::string err = removeEntry(path); !err.empty())
    msg += " (cannot remove it: " + err + ")";
  if (warning)
    *warning = msg;
  return "";
}

std::string uop::rt::cacheLookup(const std::string &key, const std::string &ext) {
  std::string warning;
  std::string path = cacheLookup(key, ext, &warning);
  if (!warning.empty())
    std::fprintf(stderr, "uop: warning: %s\n", warning.c_str());
  return path;
}

/// 64 random bits: getrandom(2) where available, else clock and address bits.
static uint64_t randomBits() {
  uint64_t r = 0;
#ifdef UOP_HAVE_GETRANDOM
  if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == sizeof(r))
    return r;
#endif
  r = static_cast<uint64_t>(std::chrono::high_resolution_clock::now().time_since_epoch().count());
  return r ^ (reinterpret_cast<uintptr_t>(&r) << 16);
}

namespace {
/// A process's claim on its temporaries in one tmp/ directory: the file
/// ".<token>.lock" there, held with flock(2) for the process's life (the
/// kernel drops the lock when the process dies, however it dies); its
/// temporaries are "<token>-N<ext>". Whoever can take the lock of another
/// token knows its owner is gone and removes what it left.
struct TempOwners {
  struct Claim {
    std::string token;
    pid_t pid; ///< the claimant: a forked child makes its own claim
  };
  std::mutex mu;
  std::map<std::string, Claim> claims;

  static TempOwners &get() {
    // Never destroyed: the locks stay held to the end; at a normal exit the
    // claims and any temporaries they still name are removed.
    static TempOwners *owners = [] {
      auto *o = new TempOwners;
      std::atexit([] { get().release(); });
      return o;
    }();
    return *owners;
  }

  /// Removes this process's lock files and temporaries (at exit).
  void release() {
    std::lock_guard<std::mutex> lock(mu);
    for (auto &[dir, claim] : claims) {
      if (claim.pid != getpid())
        continue;
      if (DIR *d = opendir(dir.c_str())) {
        std::vector<std::string> mine;
        while (dirent *e = readdir(d))
          if (std::string n = e->d_name; n.compare(0, claim.token.size() + 1, claim.token + "-") == 0)
            mine.push_back(n);
        closedir(d);
        for (const std::string &n : mine)
          unlink((dir + "/" + n).c_str());
      }
      unlink((dir + "/." + claim.token + ".lock").c_str());
    }
    claims.clear();
  }

  /// The token of this process in `dir`, claimed (and the dead owners'
  /// leftovers removed) on first use.
  std::string token(const std::string &dir) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = claims.find(dir);
    if (it != claims.end() && it->second.pid == getpid())
      return it->second.token;
    char name[64];
    std::snprintf(name, sizeof(name), "%ld-%016llx", static_cast<long>(getpid()),
                  static_cast<unsigned long long>(randomBits()));
    std::string token = name;
    int fd = open((dir + "/." + token + ".lock").c_str(),
                  O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0) {
      close(fd);
      fd = -1;
    }
    // The descriptor stays open (and locked) until the process exits.
    (void)fd;
    removeDeadOwners(dir, token);
    claims[dir] = Claim{token, getpid()};
    return token;
  }

  /// Removes the lock files whose owner is gone and every temporary of
  /// theirs; returns how many files went.
  static size_t removeDeadOwners(const std::string &dir, const std::string &self) {
    DIR *d = opendir(dir.c_str());
    if (!d)
      return 0;
    std::vector<std::string> names;
    while (dirent *e = readdir(d))
      names.push_back(e->d_name);
    closedir(d);
    size_t removed = 0;
    for (const std::string &name : names) {
      if (name.size() <= 6 || name[0] != '.' || name.compare(name.size() - 5, 5, ".lock") != 0)
        continue;
      std::string token = name.substr(1, name.size() - 6);
      if (token == self)
        continue;
      std::string lockPath = dir + "/" + name;
      int fd = open(lockPath.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
      if (fd < 0)
        continue;
      if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
        // Ours now: its owner is gone. Its temporaries, then the lock.
        for (const std::string &other : names)
          if (other.compare(0, token.size() + 1, token + "-") == 0 &&
              unlink((dir + "/" + other).c_str()) == 0)
            ++removed;
        if (unlink(lockPath.c_str()) == 0)
          ++removed;
      }
      close(fd);
    }
    // Files no claim names (a temporary of an older uop, whose lock scheme
    // this is not, or of a process whose lock file could not be made, or
    // anything else left in tmp/): removed once an hour old, when no
    // writer is still at them.
    time_t now = time(nullptr);
    std::set<std::string> live(names.begin(), names.end()); // the locks left
    for (const std::string &name : names) {
      if (name.empty() || name[0] == '.')
        continue;
      size_t dash = name.rfind('-');
      std::string token = dash == std::string::npos ? "" : name.substr(0, dash);
      if (!token.empty() &&
          (token == self || (live.count("." + token + ".lock") &&
                             access((dir + "/." + token + ".lock").c_str(), F_OK) == 0)))
        continue;
      std::string path = dir + "/" + name;
      struct stat st;
      if (lstat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode) && now - st.st_mtime > 3600 &&
          unlink(path.c_str()) == 0)
        ++removed;
    }
    return removed;
  }
};
} // namespace

std::string uop::rt::cacheTempPath(const std::string &ext) {
  static std::atomic<uint64_t> counter{0};
  std::string dir = cacheDir() + "/tmp";
  healDir(dir);
  std::string token = TempOwners::get().token(dir);
  return dir + "/" + token + "-" + std::to_string(counter.fetch_add(1)) + normalizeExt(ext);
}

/// Copies `from` to `to` (for a temporary file on another filesystem), and
/// makes the copy durable.
static bool copyFile(const std::string &from, const std::string &to, std::string &err) {
  int in = open(from.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) {
    err = std::strerror(errno);
    return false;
  }
  int out = open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (out < 0) {
    err = std::strerror(errno);
    close(in);
    return false;
  }
  char buf[1 << 16];
  bool ok = true;
  while (ok) {
    ssize_t n = read(in, buf, sizeof(buf));
    if (n == 0)
      break;
    if (n < 0) {
      if (errno == EINTR)
        continue;
      ok = false;
      break;
    }
    ok = writeAll(out, std::string_view(buf, static_cast<size_t>(n)));
  }
  if (ok && fsync(out) != 0 && errno != EINVAL)
    ok = false;
  if (!ok)
    err = std::strerror(errno);
  close(in);
  if (close(out) != 0 && ok) {
    err = std::strerror(errno);
    ok = false;
  }
  if (!ok)
    unlink(to.c_str());
  return ok;
}

Result<std::string> uop::rt::cacheInstall(const std::string &tmpPath, const std::string &key,
                                          const std::string &ext) {
  // Every temporary made here; all are gone when this returns.
  std::vector<std::string> temps = {tmpPath};
  auto cleanup = [&] {
    for (const std::string &t : temps)
      unlink(t.c_str());
  };
  auto failWith = [&](const std::string &msg) -> Result<std::string> {
    cleanup();
    return Error(msg);
  };
  if (!isSafeName(key))
    return failWith("invalid cache key '" + key + "'");
  if (!ext.empty() && !isSafeName(normalizeExt(ext)))
    return failWith("invalid cache extension '" + ext + "'");
  struct stat st;
  if (stat(tmpPath.c_str(), &st) != 0)
    return Error(tmpPath + ": cannot install in the cache: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return failWith(tmpPath + ": cannot install in the cache: not a regular file");
  // One clear line for a cache that cannot take the entry (not a directory,
  // read-only, full) instead of whichever system call fails first.
  Result<std::string> checked = cacheDirChecked();
  if (!checked)
    return failWith(checked.error());
  std::string dir = *checked;
  struct stat dirSt;
  if (stat(dir.c_str(), &dirSt) != 0)
    return failWith("cannot install in the cache directory " + dir + ": " + std::strerror(errno));
  std::string dest = dir + "/" + key + normalizeExt(ext);
  auto systemError = [&](const std::string &what) {
    return failWith("cannot install " + dest + " in the cache: " + what + ": " +
                    std::strerror(errno));
  };

  // The data must be on the cache's filesystem for rename(2) to be atomic.
  std::string local = tmpPath;
  // "" or the reason the copy failed.
  auto copyHere = [&]() -> std::string {
    local = cacheTempPath(ext);
    std::string err;
    if (!copyFile(tmpPath, local, err))
      return "cannot copy " + tmpPath + " into the cache " + dir + ": " + err;
    temps.push_back(local);
    unlink(tmpPath.c_str());
    return "";
  };
  if (st.st_dev != dirSt.st_dev) {
    if (std::string err = copyHere(); !err.empty())
      return failWith(err);
  } else if (int fd = open(tmpPath.c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
    // Make the contents durable before the name points at them, so a crash
    // cannot leave a complete-looking but empty entry.
    fsync(fd);
    close(fd);
  }

  // The checksum file, written beside the data before either is published.
  uint64_t size = 0;
  std::string hex;
  if (!hashFile(local, size, hex))
    return systemError("cannot read " + local);
  // checksums/ replaced by a file is healed; so is an entry or its
  // checksum file replaced by a directory, which rename(2) cannot replace.
  std::string sumDir = dir + "/" + kChecksumDir;
  if (!healDir(sumDir))
    return systemError("cannot create " + sumDir);
  for (const std::string &p : {dest, cacheChecksumPath(dest)}) {
    struct stat pst;
    if (lstat(p.c_str(), &pst) == 0 && S_ISDIR(pst.st_mode) && !removeTree(p))
      return systemError("cannot remove the directory " + p);
  }
  std::string sumTmp = cacheTempPath(ext + ".sha256");
  std::string sumText = std::string(kChecksumMagic) + std::to_string(size) + " " + hex + "\n";
  if (Result<bool> written = writeNewFile(sumTmp, sumText); !written)
    return failWith("cannot install " + dest + " in the cache: " + written.error());
  temps.push_back(sumTmp);

  // rename(2) within a filesystem is atomic: readers see the old entry or
  // the new one, never a partial file, and concurrent installers of the same
  // key each replace the entry whole. The lock makes the data and checksum
  // one unit: lookups that see a mismatch check again under it.
  DirLock lock(dir, /*exclusive=*/true);
  if (rename(local.c_str(), dest.c_str()) != 0) {
    if (errno != EXDEV || local != tmpPath)
      return systemError("rename");
    // Another mount of the same filesystem (a bind mount): copy, then retry.
    if (std::string err = copyHere(); !err.empty())
      return failWith(err);
    if (rename(local.c_str(), dest.c_str()) != 0)
      return systemError("rename");
  }
  if (rename(sumTmp.c_str(), cacheChecksumPath(dest).c_str()) != 0) {
    int saved = errno;
    unlink(dest.c_str()); // data without its checksum would only be rebuilt
    errno = saved;
    return systemError("rename of its checksum file");
  }
  return dest;
}

bool uop::rt::cacheRemove(const std::string &key, const std::string &ext) {
  if (!isSafeName(key) || !(ext.empty() || isSafeName(normalizeExt(ext))))
    return false;
  std::string dir = cacheDir();
  std::string path = dir + "/" + key + normalizeExt(ext);
  DirLock lock(dir, /*exclusive=*/true);
  bool existed = unlink(path.c_str()) == 0;
  unlink(cacheChecksumPath(path).c_str());
  return existed;
}

size_t uop::rt::cachePruneTemps(int64_t maxAgeSeconds) {
  std::string dir = cacheDir() + "/tmp";
  // The leftovers of processes that are gone, whatever their age.
  size_t removed = TempOwners::removeDeadOwners(dir, "");
  DIR *d = opendir(dir.c_str());
  if (!d)
    return removed;
  time_t cutoff = std::time(nullptr) - static_cast<time_t>(maxAgeSeconds);
  std::vector<std::string> names;
  while (dirent *e = readdir(d))
    names.push_back(e->d_name);
  closedir(d);
  for (const std::string &name : names) {
    if (name == "." || name == ".." ||
        (name.size() > 5 && name.compare(name.size() - 5, 5, ".lock") == 0))
      continue; // a live owner's lock (a dead one's went above)
    std::string path = dir + "/" + name;
    struct stat st;
    if (lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_mtime < cutoff &&
        unlink(path.c_str()) == 0)
      ++removed;
  }
  return removed;
}
