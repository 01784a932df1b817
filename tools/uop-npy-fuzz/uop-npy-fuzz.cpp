//===- uop-npy-fuzz.cpp - libFuzzer target for the .npy reader -*- C++ -*-===//
//
// Feeds arbitrary bytes to uop::rt::readNpyFromMemory. Malformed input must
// give one line of error that names the input, never a crash, a sanitizer
// report, an allocation larger than the input, or an abort. An array that
// reads must fit in the input, re-encode (encodeNpy) to bytes that read back
// to the same dtype, shape and data, and format without trouble.
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

using namespace uop::rt;

[[noreturn]] static void die(const char *what, const std::string &detail) {
  std::fprintf(stderr, "uop-npy-fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Result<HostBuffer> r = readNpyFromMemory(data, size, "fuzz.npy");
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
