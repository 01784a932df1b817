//===- File.cpp - writing files whole ---------------------------*- C++ -*-===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/File.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

using namespace uop::rt;

namespace {
/// A unique name beside `path` for its temporary.
std::string tempBeside(const std::string &path) {
  static std::atomic<unsigned> counter{0};
  std::random_device rd;
  return path + ".tmp-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + "-" +
         std::to_string(rd() & 0xffffff);
}

/// writeNewFile's work: "" or the reason it failed (strerror).
std::string writeNew(const std::string &path, std::string_view data, unsigned mode, bool durable) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0)
    return std::strerror(errno);
  bool ok = writeAll(fd, data) && (!durable || ::fsync(fd) == 0 || errno == EINVAL);
  std::string why = ok ? "" : std::strerror(errno);
  if (::close(fd) != 0 && why.empty())
    why = std::strerror(errno);
  if (!why.empty())
    ::unlink(path.c_str());
  return why;
}
} // namespace

bool uop::rt::writeAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t w = ::write(fd, data.data(), data.size());
    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0)
      return false;
    if (w == 0) {
      // No progress and no error: give up rather than spin.
      errno = EIO;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(w));
  }
  return true;
}

Result<bool> uop::rt::writeNewFile(const std::string &path, std::string_view data, unsigned mode,
                                   bool durable) {
  if (std::string why = writeNew(path, data, mode, durable); !why.empty())
    return Error{"cannot write " + path + ": " + why};
  return true;
}

std::string uop::rt::nonRegularKind(unsigned mode) {
  if (S_ISREG(mode))
    return "";
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  if (S_ISLNK(mode))
    return "a symbolic link";
  return "not a regular file";
}

namespace {
/// Where the data for `path` goes: the target of a symbolic link that
/// resolves (so the link stays a link), else `path` itself.
std::string writeTarget(const std::string &path) {
  struct stat st;
  if (lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    if (char *real = realpath(path.c_str(), nullptr)) {
      std::string r = real;
      std::free(real);
      return r;
    }
  }
  return path;
}

/// "" when `path` may be replaced by a regular file (absent or regular),
/// else why not; `mode` gets an existing file's permissions.
std::string replaceable(const std::string &path, unsigned &mode) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0)
    return errno == ENOENT ? "" : std::strerror(errno);
  if (!S_ISREG(st.st_mode))
    return "it is " + nonRegularKind(st.st_mode) + ", not a regular file (uop writes only regular files)";
  mode = st.st_mode & 07777;
  return "";
}
} // namespace

Result<bool> uop::rt::checkOutputPath(const std::string &path,
                                      const std::vector<std::string> &inputs) {
  if (path.empty())
    return Error{"an empty output file name"};
  struct stat st;
  if (stat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode))
      return Error{path + ": is " + nonRegularKind(st.st_mode) +
                   ", not a regular file (uop writes only regular files)"};
    for (const std::string &in : inputs) {
      struct stat ist;
      if (in != "-" && stat(in.c_str(), &ist) == 0 && ist.st_dev == st.st_dev &&
          ist.st_ino == st.st_ino)
        return Error{path + ": is also an input" + (in == path ? "" : " (" + in + ")") +
                     " (uop never writes over an input)"};
    }
    return true;
  }
  if (errno != ENOENT)
    return Error{path + ": cannot write: " + std::strerror(errno)};
  // A new file: its directory must exist (and be a directory).
  std::string target = writeTarget(path);
  size_t slash = target.find_last_of('/');
  std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
  if (stat(dir.c_str(), &st) != 0)
    return Error{path + ": cannot write in " + dir + ": " + std::strerror(errno)};
  if (!S_ISDIR(st.st_mode))
    return Error{path + ": cannot write in " + dir + ": Not a directory"};
  return true;
}

Result<bool> uop::rt::writeFilesAtomically(const std::vector<FileContents> &files,
                                           unsigned mode) {
  struct Pending {
    std::string path, target, tmp;
  };
  std::vector<Pending> pending;
  auto removeTemps = [&] {
    for (const Pending &p : pending)
      ::unlink(p.tmp.c_str());
  };
  for (const FileContents &f : files) {
    Pending p{f.path, writeTarget(f.path), ""};
    unsigned fileMode = mode;
    if (std::string why = replaceable(p.target, fileMode); !why.empty()) {
      removeTemps();
      return Error{"cannot write " + f.path + ": " + why};
    }
    p.tmp = tempBeside(p.target);
    int fd = ::open(p.tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode);
    if (fd < 0) {
      std::string why = std::strerror(errno);
      removeTemps();
      return Error{"cannot write " + f.path + ": " + why};
    }
    pending.push_back(p);
    bool ok = true;
    for (std::string_view piece : f.pieces)
      if (!(ok = writeAll(fd, piece)))
        break;
    // An existing file's permissions, whatever the umask.
    ok = ok && (fileMode == mode || ::fchmod(fd, fileMode) == 0);
    ok = ok && (::fsync(fd) == 0 || errno == EINVAL);
    std::string why = ok ? "" : std::strerror(errno);
    if (::close(fd) != 0 && why.empty())
      why = std::strerror(errno);
    if (!why.empty()) {
      removeTemps();
      return Error{"cannot write " + f.path + ": " + why};
    }
  }
  for (size_t i = 0; i < pending.size(); ++i) {
    if (::rename(pending[i].tmp.c_str(), pending[i].target.c_str()) != 0) {
      std::string why = std::strerror(errno);
      for (size_t j = i; j < pending.size(); ++j)
        ::unlink(pending[j].tmp.c_str());
      return Error{"cannot write " + pending[i].path + ": " + why};
    }
  }
  return true;
}

Result<bool> uop::rt::atomicWriteFile(const std::string &path, std::string_view data,
                                      unsigned mode) {
  return writeFilesAtomically({FileContents{path, {data}}}, mode);
}

int uop::rt::openForReading(const std::string &path) {
  // O_NONBLOCK: opening a FIFO for reading waits for a writer otherwise.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return -1;
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
      fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  }
  return fd;
}

int64_t uop::rt::readSome(int fd, void *dst, uint64_t n, int timeoutSeconds) {
  char *p = static_cast<char *>(dst);
  uint64_t got = 0;
  while (got < n) {
    // Wait (boundedly) until a read cannot block: data, or the writer's
    // close. A regular file is always ready.
    struct pollfd pfd = {fd, POLLIN, 0};
    int ready;
    do
      ready = ::poll(&pfd, 1, timeoutSeconds * 1000);
    while (ready < 0 && errno == EINTR);
    if (ready < 0)
      return -1;
    if (ready == 0) {
      errno = ETIMEDOUT;
      return -1;
    }
    size_t want = static_cast<size_t>(std::min<uint64_t>(n - got, uint64_t(1) << 30));
    ssize_t r = ::read(fd, p + got, want);
    if (r > 0) {
      got += static_cast<uint64_t>(r);
      continue;
    }
    if (r == 0)
      break;
    if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
      continue;
    return -1;
  }
  return static_cast<int64_t>(got);
}

/// "timed out waiting for data (N s)" for ETIMEDOUT, else strerror.
static std::string readError(int err, int timeoutSeconds) {
  if (err == ETIMEDOUT)
    return "no data for " + std::to_string(timeoutSeconds) + " s (is anything writing to it?)";
  return std::strerror(err);
}

Result<std::string> uop::rt::readInputFile(const std::string &path, uint64_t maxBytes,
                                           int timeoutSeconds) {
  int fd = path == "-" ? ::dup(0) : openForReading(path);
  if (fd < 0)
    return Error{path + ": cannot open: " + std::strerror(errno)};
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st;
  if (fstat(fd, &st) != 0)
    return Error{path + ": cannot read: " + std::strerror(errno)};
  if (S_ISDIR(st.st_mode))
    return Error{path + ": cannot read: Is a directory"};
  std::string out;
  if (S_ISREG(st.st_mode)) {
    out.resize(static_cast<size_t>(st.st_size));
    int64_t got = readSome(fd, out.data(), out.size(), timeoutSeconds);
    if (got < 0)
      return Error{path + ": cannot read: " + std::strerror(errno)};
    out.resize(static_cast<size_t>(got));
    return out;
  }
  // A pipe, FIFO or device: chunks until its end, within the bounds.
  constexpr uint64_t kChunk = 1 << 16;
  while (true) {
    size_t start = out.size();
    out.resize(start + kChunk);
    int64_t got = readSome(fd, &out[start], kChunk, timeoutSeconds);
    if (got < 0) {
      int err = errno;
      return Error{path + ": cannot read: " + readError(err, timeoutSeconds)};
    }
    out.resize(start + static_cast<size_t>(got));
    if (out.size() > maxBytes)
      return Error{path + ": more than " + std::to_string(maxBytes) + " bytes from " +
                   nonRegularKind(st.st_mode) + " (not a regular file)"};
    if (static_cast<uint64_t>(got) < kChunk)
      break;
  }
  return out;
}
