//===- File.cpp - writing files whole ---------------------------*- C++ -*-===//
//
// Part of the uop project.
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/File.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <random>
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

Result<bool> uop::rt::atomicWriteFile(const std::string &path, std::string_view data,
                                      unsigned mode) {
  std::string tmp = tempBeside(path);
  std::string why = writeNew(tmp, data, mode, /*durable=*/true);
  if (why.empty() && ::rename(tmp.c_str(), path.c_str()) != 0) {
    why = std::strerror(errno);
    ::unlink(tmp.c_str());
  }
  if (!why.empty())
    return Error{"cannot write " + path + ": " + why};
  return true;
}
