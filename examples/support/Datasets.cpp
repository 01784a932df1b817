//===- Datasets.cpp - the examples' data from Debian packages ----*- C++ -*-===//

#include "Datasets.h"
#include "Support.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <zlib.h>

namespace uop::examples {

//===----------------------------------------------------------------------===//
// IDX
//===----------------------------------------------------------------------===//

namespace {
/// A gzFile closed on scope exit.
struct GzFile {
  gzFile f = nullptr;
  ~GzFile() {
    if (f)
      gzclose(f);
  }
};
} // namespace

/// Reads exactly `n` bytes; an error saying what was being read when the
/// file ends early or does not decompress.
static llvm::Error readExactly(gzFile f, const std::string &path, void *dst, size_t n,
                               const char *what) {
  auto *p = static_cast<char *>(dst);
  while (n > 0) {
    unsigned chunk = static_cast<unsigned>(std::min<size_t>(n, 1u << 30));
    int got = gzread(f, p, chunk);
    if (got < 0) {
      int code;
      const char *msg = gzerror(f, &code);
      return makeError(path + ": not a readable gzip file (" + (msg ? msg : "zlib error") +
                       ") while reading " + what);
    }
    if (got == 0)
      return makeError(path + ": truncated: the file ends inside " + what);
    p += got;
    n -= static_cast<size_t>(got);
  }
  return llvm::Error::success();
}

llvm::Expected<IdxArray> readIdx(const std::string &path) {
  if (!llvm::sys::fs::exists(path))
    return makeError(path + ": no such file");
  GzFile g;
  g.f = gzopen(path.c_str(), "rb");
  if (!g.f)
    return makeError(path + ": cannot open: " + std::strerror(errno));
  unsigned char magic[4];
  if (llvm::Error e = readExactly(g.f, path, magic, 4, "the IDX header"))
    return std::move(e);
  if (magic[0] != 0 || magic[1] != 0)
    return makeError(path + ": not an IDX file (the first two bytes are not zero)");
  if (magic[2] != 0x08)
    return makeError(path + ": IDX element type 0x" + llvm::utohexstr(magic[2]) +
                     " is not supported (only unsigned bytes, 0x08)");
  int ndim = magic[3];
  if (ndim < 1 || ndim > 4)
    return makeError(path + ": an IDX file of " + llvm::Twine(ndim) +
                     " dimensions (expected 1 to 4)");
  IdxArray a;
  uint64_t count = 1;
  for (int i = 0; i < ndim; ++i) {
    unsigned char b[4];
    if (llvm::Error e = readExactly(g.f, path, b, 4, "the IDX dimensions"))
      return std::move(e);
    uint32_t d = (uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | b[3];
    if (d == 0 || d > (1u << 28))
      return makeError(path + ": IDX dimension " + llvm::Twine(i) + " is " + llvm::Twine(d));
    a.dims.push_back(d);
    count *= d;
    if (count > (uint64_t(1) << 32))
      return makeError(path + ": the IDX array is larger than 4 GiB");
  }
  a.data.resize(count);
  if (llvm::Error e = readExactly(g.f, path, a.data.data(), count, "the IDX data"))
    return std::move(e);
  char extra;
  int got = gzread(g.f, &extra, 1);
  if (got < 0)
    return makeError(path + ": not a readable gzip file after the IDX data");
  if (got > 0)
    return makeError(path + ": trailing bytes after the IDX data (the dimensions say " +
                     llvm::Twine(count) + " bytes)");
  return a;
}

llvm::Error writeIdxGz(const std::string &path, const IdxArray &a) {
  if (a.dims.empty() || a.dims.size() > 4)
    return makeError(path + ": an IDX array has 1 to 4 dimensions");
  GzFile g;
  g.f = gzopen(path.c_str(), "wb");
  if (!g.f)
    return makeError(path + ": cannot write: " + std::strerror(errno));
  std::vector<unsigned char> header{0, 0, 0x08, static_cast<unsigned char>(a.dims.size())};
  for (int64_t d : a.dims)
    for (int s = 24; s >= 0; s -= 8)
      header.push_back(static_cast<unsigned char>((uint64_t(d) >> s) & 0xff));
  if (gzwrite(g.f, header.data(), static_cast<unsigned>(header.size())) !=
          static_cast<int>(header.size()) ||
      (!a.data.empty() && gzwrite(g.f, a.data.data(), static_cast<unsigned>(a.data.size())) !=
                              static_cast<int>(a.data.size())))
    return makeError(path + ": write failed");
  int rc = gzclose(g.f);
  g.f = nullptr;
  if (rc != Z_OK)
    return makeError(path + ": write failed");
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Fashion-MNIST
//===----------------------------------------------------------------------===//

std::string defaultFashionMnistDir() {
  if (const char *env = std::getenv("UOP_FASHION_MNIST"); env && *env)
    return env;
  return "/usr/share/datasets/fashion-mnist";
}

/// One split: images (count, rows, cols) and labels (count,).
static llvm::Error loadSplit(const std::string &dir, const char *prefix, ImageDataset &ds,
                             std::vector<float> &images, std::vector<int32_t> &labels) {
  llvm::SmallString<256> ip(dir), lp(dir);
  llvm::sys::path::append(ip, std::string(prefix) + "-images-idx3-ubyte.gz");
  llvm::sys::path::append(lp, std::string(prefix) + "-labels-idx1-ubyte.gz");
  llvm::Expected<IdxArray> img = readIdx(ip.str().str());
  if (!img)
    return img.takeError();
  llvm::Expected<IdxArray> lab = readIdx(lp.str().str());
  if (!lab)
    return lab.takeError();
  if (img->dims.size() != 3)
    return makeError(ip + ": images are (count, rows, cols), but the file has " +
                     llvm::Twine(img->dims.size()) + " dimensions");
  if (lab->dims.size() != 1)
    return makeError(lp + ": labels are (count,), but the file has " +
                     llvm::Twine(lab->dims.size()) + " dimensions");
  if (img->dims[0] != lab->dims[0])
    return makeError(ip + " holds " + llvm::Twine(img->dims[0]) + " images but " + lp + " holds " +
                     llvm::Twine(lab->dims[0]) + " labels");
  if (&images == &ds.trainImages) {
    ds.rows = img->dims[1];
    ds.cols = img->dims[2];
  } else if (img->dims[1] != ds.rows || img->dims[2] != ds.cols) {
    return makeError(ip + ": images of " + llvm::Twine(img->dims[1]) + "x" +
                     llvm::Twine(img->dims[2]) + ", but the training images are " +
                     llvm::Twine(ds.rows) + "x" + llvm::Twine(ds.cols));
  }
  labels.resize(lab->data.size());
  for (size_t i = 0; i < lab->data.size(); ++i) {
    if (lab->data[i] > 9)
      return makeError(lp + ": label " + llvm::Twine(int(lab->data[i])) + " at index " +
                       llvm::Twine(i) + " (labels are 0 to 9)");
    labels[i] = lab->data[i];
  }
  images.resize(img->data.size());
  for (size_t i = 0; i < img->data.size(); ++i)
    images[i] = static_cast<float>(img->data[i]) / 255.0f;
  return llvm::Error::success();
}

llvm::Expected<ImageDataset> loadFashionMnist(const std::string &dir) {
  if (!llvm::sys::fs::is_directory(dir))
    return makeError(dir + ": no such directory: install Debian's dataset-fashion-mnist "
                           "(scripts/setup.sh does) or set UOP_FASHION_MNIST to a directory "
                           "holding the four .gz IDX files");
  ImageDataset ds;
  if (llvm::Error e = loadSplit(dir, "train", ds, ds.trainImages, ds.trainLabels))
    return std::move(e);
  if (llvm::Error e = loadSplit(dir, "t10k", ds, ds.testImages, ds.testLabels))
    return std::move(e);
  return ds;
}

//===----------------------------------------------------------------------===//
// Character corpora
//===----------------------------------------------------------------------===//

int32_t CharCorpus::indexOf(char c) const {
  auto it = std::lower_bound(vocab.begin(), vocab.end(), c);
  return it != vocab.end() && *it == c ? static_cast<int32_t>(it - vocab.begin()) : -1;
}

double CharCorpus::unigramEntropy() const {
  std::vector<double> counts(vocab.size(), 0.0);
  for (int32_t i : ids)
    counts[i] += 1;
  double n = static_cast<double>(ids.size()), h = 0;
  for (double c : counts)
    if (c > 0)
      h -= c / n * std::log(c / n);
  return h;
}

std::string defaultFortunesPath() {
  if (const char *env = std::getenv("UOP_FORTUNES"); env && *env)
    return env;
  return "/usr/share/games/fortunes";
}

llvm::Expected<CharCorpus> makeCharCorpus(std::string raw, const std::string &origin) {
  CharCorpus c;
  c.text.reserve(raw.size());
  for (char ch : raw) {
    if (ch == '\b') {
      // Overstrike: "_\bA" prints an underlined A; keep the A.
      if (!c.text.empty() && c.text.back() != '\n')
        c.text.pop_back();
    } else if (ch == '\t') {
      c.text += ' ';
    } else if (ch == '\n' || (ch >= 0x20 && ch < 0x7f)) {
      c.text += ch;
    }
  }
  if (c.text.empty())
    return makeError(origin + ": no text (after dropping non-ASCII bytes)");
  bool seen[256] = {};
  for (char ch : c.text)
    seen[static_cast<unsigned char>(ch)] = true;
  for (int i = 0; i < 256; ++i)
    if (seen[i])
      c.vocab.push_back(static_cast<char>(i));
  c.ids.reserve(c.text.size());
  for (char ch : c.text)
    c.ids.push_back(c.indexOf(ch));
  return c;
}

llvm::Expected<CharCorpus> loadFortunes(const std::string &path) {
  llvm::sys::fs::file_status st;
  if (llvm::sys::fs::status(path, st) || !llvm::sys::fs::exists(st))
    return makeError(path + ": no such file or directory: install Debian's fortunes "
                            "(or fortunes-min; scripts/setup.sh does) or set UOP_FORTUNES");
  std::vector<std::string> files;
  if (llvm::sys::fs::is_directory(st)) {
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(path, ec), end; it != end && !ec; it.increment(ec)) {
      llvm::StringRef name = llvm::sys::path::filename(it->path());
      if (name.ends_with(".dat") || name.ends_with(".u8") || name.starts_with("."))
        continue;
      llvm::sys::fs::file_status fst;
      // Only regular files: the .u8 names are links to the same files.
      if (llvm::sys::fs::status(it->path(), fst, /*follow=*/false) ||
          !llvm::sys::fs::is_regular_file(fst))
        continue;
      files.push_back(it->path());
    }
    if (ec)
      return makeError(path + ": cannot list: " + ec.message());
    std::sort(files.begin(), files.end());
    if (files.empty())
      return makeError(path + ": no fortunes files in the directory");
  } else {
    files.push_back(path);
  }
  std::string text;
  for (const std::string &f : files) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buf = llvm::MemoryBuffer::getFile(f);
    if (!buf)
      return makeError(f + ": cannot read: " + buf.getError().message());
    text += (*buf)->getBuffer();
    if (!text.empty() && text.back() != '\n')
      text += '\n';
  }
  return makeCharCorpus(std::move(text), path);
}

} // namespace uop::examples
