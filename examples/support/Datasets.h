//===- Datasets.h - the examples' data from Debian packages -------*- C++ -*-===//
//
// Fashion-MNIST from Debian's `dataset-fashion-mnist` (gzip'd IDX files in
// /usr/share/datasets/fashion-mnist) and a character corpus from the
// `fortunes` files (/usr/share/games/fortunes). No downloads: the setup
// script installs the packages. Every failure (a file missing, not gzip,
// truncated, the wrong IDX header) is an llvm::Error naming the file and
// what is wrong, and for a missing package the package to install.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_EXAMPLES_DATASETS_H
#define UOP_EXAMPLES_DATASETS_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace uop::examples {

/// An IDX array of unsigned bytes (type code 0x08, the MNIST family's).
struct IdxArray {
  std::vector<int64_t> dims;
  std::vector<uint8_t> data;
};

/// Reads an IDX file, gzip'd or plain (zlib reads both). Checks the magic
/// (two zero bytes, type 0x08, 1 to 4 dimensions), that the data has exactly
/// the size the dimensions say, and that nothing follows it.
llvm::Expected<IdxArray> readIdx(const std::string &path);

/// Writes an IDX file gzip'd (for tests and for subsets of a dataset).
llvm::Error writeIdxGz(const std::string &path, const IdxArray &array);

/// Fashion-MNIST (or MNIST: the same files): images as floats in [0, 1],
/// row-major 28*28 per image, labels 0..9.
struct ImageDataset {
  int64_t rows = 28, cols = 28;
  std::vector<float> trainImages, testImages; ///< count * rows * cols
  std::vector<int32_t> trainLabels, testLabels;
  int64_t numTrain() const { return static_cast<int64_t>(trainLabels.size()); }
  int64_t numTest() const { return static_cast<int64_t>(testLabels.size()); }
  int64_t pixels() const { return rows * cols; }
};

/// $UOP_FASHION_MNIST, else /usr/share/datasets/fashion-mnist.
std::string defaultFashionMnistDir();

/// Reads {train,t10k}-{images-idx3,labels-idx1}-ubyte.gz from `dir`. The
/// images and labels of a split must agree in count; labels must be < 10.
llvm::Expected<ImageDataset> loadFashionMnist(const std::string &dir = defaultFashionMnistDir());

/// A character-level corpus: the text, its sorted alphabet and the text as
/// indices into it.
struct CharCorpus {
  std::string text;
  std::vector<char> vocab;
  std::vector<int32_t> ids;
  /// Index of `c` in vocab, or -1.
  int32_t indexOf(char c) const;
  /// The entropy of the character distribution of the text, in nats (the
  /// cross-entropy of the best model that ignores context).
  double unigramEntropy() const;
};

/// $UOP_FORTUNES, else /usr/share/games/fortunes.
std::string defaultFortunesPath();

/// Builds a corpus from `text`: backspace overstrikes ("_\bA") are resolved
/// to the last character, tabs become spaces, other bytes outside printable
/// ASCII and '\n' are dropped. An error when nothing is left.
llvm::Expected<CharCorpus> makeCharCorpus(std::string text, const std::string &origin);

/// The corpus of a fortunes file, or of every fortunes file in a directory
/// (regular files, not the .dat indexes or .u8 links, by name).
llvm::Expected<CharCorpus> loadFortunes(const std::string &path = defaultFortunesPath());

} // namespace uop::examples

#endif // UOP_EXAMPLES_DATASETS_H
