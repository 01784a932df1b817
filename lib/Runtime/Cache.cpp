//===- Cache.cpp - The on-disk cache of compiled code ---------------------===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Cache.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
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
  if (slash != std::string::npos && slash > 0 &&
      !makeDirs(dir.substr(0, slash)))
    return false;
  // Another process may create it between the stat and the mkdir.
  return (mkdir(dir.c_str(), 0755) == 0 || errno == EEXIST) &&
         stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
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
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.'))
      return false;
  return true;
}

static std::string entryPath(const std::string &key, const std::string &ext) {
  return cacheDir() + "/" + key + normalizeExt(ext);
}

std::string uop::rt::cacheDir() {
  std::string dir;
  if (const char *env = std::getenv("UOP_CACHE"); env && *env)
    dir = env;
  else if (const char *home = std::getenv("HOME"); home && *home)
    dir = std::string(home) + "/.cache/uop";
  else
    dir = "/tmp/uop-cache-" + std::to_string(getuid());
  while (dir.size() > 1 && dir.back() == '/')
    dir.pop_back();
  makeDirs(dir);
  return dir;
}

std::string uop::rt::cacheLookup(const std::string &key,
                                 const std::string &ext) {
  if (!isSafeName(key) || !(ext.empty() || isSafeName(normalizeExt(ext))))
    return "";
  std::string path = entryPath(key, ext);
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
    return "";
  return path;
}

/// 64 random bits: getrandom(2) where available, else clock and address bits.
static uint64_t randomBits() {
  uint64_t r = 0;
#ifdef UOP_HAVE_GETRANDOM
  if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == sizeof(r))
    return r;
#endif
  r = static_cast<uint64_t>(
      std::chrono::high_resolution_clock::now().time_since_epoch().count());
  return r ^ (reinterpret_cast<uintptr_t>(&r) << 16);
}

std::string uop::rt::cacheTempPath(const std::string &ext) {
  static std::atomic<uint64_t> counter{0};
  std::string dir = cacheDir() + "/tmp";
  makeDirs(dir);
  char name[96];
  std::snprintf(name, sizeof(name), "/%ld-%llu-%016llx",
                static_cast<long>(getpid()),
                static_cast<unsigned long long>(counter.fetch_add(1)),
                static_cast<unsigned long long>(randomBits()));
  return dir + name + normalizeExt(ext);
}

/// Copies `from` to `to` (for a temporary file on another filesystem).
static bool copyFile(const std::string &from, const std::string &to,
                     std::string &err) {
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
    for (ssize_t done = 0; ok && done < n;) {
      ssize_t w = write(out, buf + done, n - done);
      if (w < 0 && errno != EINTR)
        ok = false;
      else if (w > 0)
        done += w;
    }
  }
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

Result<std::string> uop::rt::cacheInstall(const std::string &tmpPath,
                                          const std::string &key,
                                          const std::string &ext) {
  auto failWith = [&](const std::string &msg) -> Result<std::string> {
    unlink(tmpPath.c_str());
    return Error(msg);
  };
  if (!isSafeName(key))
    return failWith("invalid cache key '" + key + "'");
  if (!ext.empty() && !isSafeName(normalizeExt(ext)))
    return failWith("invalid cache extension '" + ext + "'");
  struct stat st;
  if (stat(tmpPath.c_str(), &st) != 0)
    return Error(tmpPath + ": cannot install in the cache: " +
                 std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return failWith(tmpPath +
                    ": cannot install in the cache: not a regular file");
  std::string dir = cacheDir();
  if (!makeDirs(dir))
    return failWith("cannot create the cache directory " + dir + ": " +
                    std::strerror(errno));
  std::string dest = dir + "/" + key + normalizeExt(ext);

  // Make the contents durable before the name points at them, so a crash
  // cannot leave a complete-looking but empty entry.
  if (int fd = open(tmpPath.c_str(), O_RDONLY | O_CLOEXEC); fd >= 0) {
    fsync(fd);
    close(fd);
  }
  // rename(2) within a filesystem is atomic: readers see the old entry or
  // the new one, never a partial file, and concurrent installers of the same
  // key each replace the entry whole.
  if (rename(tmpPath.c_str(), dest.c_str()) == 0)
    return dest;
  if (errno != EXDEV)
    return failWith("cannot install " + tmpPath + " as " + dest + ": " +
                    std::strerror(errno));
  // Another filesystem: copy next to the cache first, then rename.
  std::string local = cacheTempPath(ext);
  std::string err;
  if (!copyFile(tmpPath, local, err))
    return failWith("cannot copy " + tmpPath + " into the cache: " + err);
  unlink(tmpPath.c_str());
  if (rename(local.c_str(), dest.c_str()) != 0) {
    std::string msg = std::strerror(errno);
    unlink(local.c_str());
    return Error("cannot install " + local + " as " + dest + ": " + msg);
  }
  return dest;
}

bool uop::rt::cacheRemove(const std::string &key, const std::string &ext) {
  if (!isSafeName(key) || !(ext.empty() || isSafeName(normalizeExt(ext))))
    return false;
  return unlink(entryPath(key, ext).c_str()) == 0;
}

size_t uop::rt::cachePruneTemps(int64_t maxAgeSeconds) {
  std::string dir = cacheDir() + "/tmp";
  DIR *d = opendir(dir.c_str());
  if (!d)
    return 0;
  time_t cutoff = std::time(nullptr) - static_cast<time_t>(maxAgeSeconds);
  size_t removed = 0;
  while (dirent *e = readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..")
      continue;
    std::string path = dir + "/" + name;
    struct stat st;
    if (lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_mtime < cutoff && unlink(path.c_str()) == 0)
      ++removed;
  }
  closedir(d);
  return removed;
}
