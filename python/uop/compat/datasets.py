"""The seed examples' datasets module on Debian's packages (no downloads).

The seed's examples/datasets.py downloads MNIST and Tiny Shakespeare; uop's
examples use the data that scripts/setup.sh installs, and so does this
replacement (what examples/support/Datasets.cpp reads for the C++ examples):

- mnist(): Fashion-MNIST from `dataset-fashion-mnist`
  ($UOP_FASHION_MNIST, else /usr/share/datasets/fashion-mnist), the same
  shapes as the seed's: X (N, 784) f32, Y (N,) i32. Standardized by default
  as the C++ example (pixels - 0.2860) / 0.3530 over the training set;
  mnist(standardize=False) keeps [0, 1] as the seed's mnist().
- shakespeare(): the text of every `fortunes` file ($UOP_FORTUNES, else
  /usr/share/games/fortunes), cleaned as the C++ corpus is: backspace
  overstrikes resolved, tabs as spaces, only printable ASCII and newlines.
"""
import gzip
import os

import numpy as np

__all__ = ["mnist", "shakespeare", "fashion_mnist_dir", "fortunes_path"]


def fashion_mnist_dir() -> str:
    return os.environ.get("UOP_FASHION_MNIST") or "/usr/share/datasets/fashion-mnist"


def fortunes_path() -> str:
    return os.environ.get("UOP_FORTUNES") or "/usr/share/games/fortunes"


def _idx(path: str, dims: int) -> np.ndarray:
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: no such file: install Debian's dataset-fashion-mnist "
                                "(scripts/setup.sh does) or set UOP_FASHION_MNIST")
    with gzip.open(path, "rb") as f:
        data = f.read()
    if len(data) < 4 + 4 * dims or data[:3] != b"\0\0\x08" or data[3] != dims:
        raise ValueError(f"{path}: not an IDX file of {dims} dimension(s) of unsigned bytes")
    shape = tuple(int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims))
    body = np.frombuffer(data, np.uint8, offset=4 + 4 * dims)
    if body.size != int(np.prod(shape)):
        raise ValueError(f"{path}: {body.size} bytes of data for shape {shape}")
    return body.reshape(shape)


def mnist(standardize: bool = True):
    """(X_train (60000, 784) f32, Y_train (60000,) i32, X_test, Y_test): Fashion-MNIST."""
    d = fashion_mnist_dir()
    def images(n): return _idx(os.path.join(d, n), 3).reshape(-1, 784).astype(np.float32) / 255
    def labels(n): return _idx(os.path.join(d, n), 1).astype(np.int32)
    xtr, ytr = images("train-images-idx3-ubyte.gz"), labels("train-labels-idx1-ubyte.gz")
    xte, yte = images("t10k-images-idx3-ubyte.gz"), labels("t10k-labels-idx1-ubyte.gz")
    if standardize:
        mean = xtr.mean(dtype=np.float64)
        sd = max(1e-6, float(np.sqrt((xtr.astype(np.float64) ** 2).mean() - mean * mean)))
        xtr = ((xtr - mean) / sd).astype(np.float32)
        xte = ((xte - mean) / sd).astype(np.float32)
    return xtr, ytr, xte, yte


def shakespeare() -> str:
    """The fortunes corpus as one string (the seed's Tiny Shakespeare's place)."""
    path = fortunes_path()
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: no such file or directory: install Debian's fortunes "
                                "(scripts/setup.sh does) or set UOP_FORTUNES")
    if os.path.isdir(path):
        files = sorted(os.path.join(path, n) for n in os.listdir(path)
                       if not n.endswith((".dat", ".u8")) and not n.startswith(".")
                       and os.path.isfile(os.path.join(path, n))
                       and not os.path.islink(os.path.join(path, n)))
    else:
        files = [path]
    raw = bytearray()
    for f in files:
        with open(f, "rb") as fh:
            raw += fh.read()
        if raw and raw[-1:] != b"\n":
            raw += b"\n"
    # Tabs as spaces, only printable ASCII, newlines and (for now) backspaces.
    keep = bytes([8, 10] + list(range(0x20, 0x7f)))
    text = bytes(raw).replace(b"\t", b" ")
    text = text.translate(None, bytes(b for b in range(256) if b not in keep))
    if b"\b" not in text:
        return text.decode("ascii")
    out = bytearray()
    for i, piece in enumerate(text.split(b"\b")):
        if i and out and out[-1] != 10:  # overstrike: "_\bA" is an underlined A; keep the A
            del out[-1]
        out += piece
    return out.decode("ascii")
