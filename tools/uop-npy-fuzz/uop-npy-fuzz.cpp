//===- uop-npy-fuzz.cpp - libFuzzer target for the .npy reader -*- C++ -*-===//
//
// Feeds arbitrary bytes to uop::rt::readNpyFromMemory. Malformed input must
// give one line of error that names the input, never a crash, a sanitizer
// report, an allocation larger than the input, or an abort. An array that
// reads must fit in the input, re-encode (encodeNpy) to bytes that read back
// to the same dtype, shape and data, and format without trouble.
//
// The same bytes are also read as a file that is not regular (a pipe, by
// its /proc/self/fd path, as a FIFO or a device is): readNpy must agree
// with the in-memory reader (an array both ways, the same one, or an error
// that names the path on one line).
//
// Build with -DUOP_ENABLE_FUZZ=ON (clang); run as
//   build/bin/uop-npy-fuzz CORPUS_DIR fuzz/npy-corpus -dict=fuzz/npy.dict
//
//===----------------------------------------------------------------------===//

#include "Uop/Runtime/Npy.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

using namespace uop::rt;

[[noreturn]] static void die(const char *what, const std::string &detail) {
  std::fprintf(stderr, "uop-npy-fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

/// Reads `data` through a pipe (the path of its read end): what a FIFO, a
/// pipe or a device gives readNpy. Returns false when the pipe cannot hold
/// the bytes (then nothing is read).
static bool readThroughPipe(const uint8_t *data, size_t size, Result<HostBuffer> &out,
                            std::string &path) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return false;
  int capacity = fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
  if (capacity < 0)
    capacity = fcntl(fds[1], F_GETPIPE_SZ);
  bool fits = capacity > 0 && size <= static_cast<size_t>(capacity);
  size_t done = 0;
  while (fits && done < size) {
    ssize_t w = ::write(fds[1], data + done, size - done);
    if (w <= 0) {
      fits = false;
      break;
    }
    done += static_cast<size_t>(w);
  }
  ::close(fds[1]); // the reader sees the end of the data
  if (fits) {
    path = "/proc/self/fd/" + std::to_string(fds[0]);
    out = readNpy(path);
  }
  ::close(fds[0]);
  return fits;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A non-regular file first: it must agree with the in-memory read below.
  std::string pipePath;
  Result<HostBuffer> piped = Error("not read");
  bool throughPipe = readThroughPipe(data, size, piped, pipePath);
  Result<HostBuffer> r = readNpyFromMemory(data, size, "fuzz.npy");
  if (throughPipe) {
    if (piped.ok() != r.ok())
      die("a pipe and memory disagree",
          piped.ok() ? "the pipe read an array, memory: " + r.error()
                     : "memory read an array, the pipe: " + piped.error());
    if (!piped.ok()) {
      const std::string &e = piped.error();
      if (e.rfind(pipePath + ": ", 0) != 0 || e.find('\n') != std::string::npos)
        die("a pipe's error does not name it on one line", e);
    } else if (piped->dtype() != r->dtype() || piped->shape() != r->shape() ||
               (r->bytes() && std::memcmp(piped->data(), r->data(), r->bytes()) != 0)) {
      die("a pipe and memory read different arrays", piped->describe() + " vs " + r->describe());
    }
  }
  if (!r.ok()) {
    const std::string &e = r.error();
    if (e.rfind("fuzz.npy: ", 0) != 0)
      die("error does not name the input", e);
    if (e.find('\n') != std::string::npos)
      die("error is not one line", e);
    if (e.size() > 1000)
      die("error is too long", e);
    return 0;
  }
  const HostBuffer &b = r.value();
  if (b.bytes() > size)
    die("array larger than the input", b.describe());
  if (b.bytes() && !b.data())
    die("no storage", b.describe());
  // Round trip: what we write must read back the same.
  std::string enc = encodeNpy(b);
  Result<HostBuffer> again = readNpyFromMemory(enc.data(), enc.size(), "re");
  if (!again.ok())
    die("re-encoded array does not read", again.error());
  if (again->dtype() != b.dtype() || again->shape() != b.shape())
    die("round trip changed the array", b.describe() + " vs " + again->describe());
  if (b.bytes() && std::memcmp(again->data(), b.data(), b.bytes()) != 0)
    die("round trip changed the data", b.describe());
  // Bools are normalized to 0/1.
  if (b.dtype() == DType::Bool)
    for (int64_t i = 0; i < b.numel(); ++i)
      if (b.as<uint8_t>()[i] > 1)
        die("bool not normalized", b.describe());
  (void)b.format(64);
  (void)b.describe();
  return 0;
}
