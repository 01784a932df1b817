#!/usr/bin/env python3
"""Small .npy helper for the integration tests.

  npy.py save FILE DTYPE EXPR        save np.array(EXPR, DTYPE); EXPR may use np
  npy.py random FILE DTYPE N SEED    N standard-normal values (i32: small ints)
  npy.py check FILE EXPR [ATOL]      FILE's contents equal EXPR (allclose for floats);
                                      EXPR may use np and load('other.npy')
"""
import sys

import numpy as np


def load(path):
    return np.load(path)


def main(argv):
    cmd = argv[1]
    if cmd == "save":
        path, dtype, expr = argv[2:5]
        np.save(path, np.array(eval(expr, {"np": np, "load": load}), dtype=dtype))
    elif cmd == "random":
        path, dtype, n, seed = argv[2], argv[3], int(argv[4]), int(argv[5])
        rng = np.random.default_rng(seed)
        if dtype == "int32":
            a = rng.integers(-50, 50, n).astype(np.int32)
        else:
            a = rng.standard_normal(n).astype(dtype)
        np.save(path, a)
    elif cmd == "check":
        path, expr = argv[2], argv[3]
        atol = float(argv[4]) if len(argv) > 4 else 1e-5
        got = np.load(path)
        want = np.asarray(eval(expr, {"np": np, "load": load})).reshape(got.shape)
        if got.dtype.kind == "f":
            ok = np.allclose(got, want, atol=atol, rtol=1e-5, equal_nan=True)
        else:
            ok = np.array_equal(got, want)
        if not ok:
            err = np.abs(got.astype(np.float64) - want.astype(np.float64)).max()
            print(f"MISMATCH {path}: max abs err {err}\n got {got.ravel()[:16]}\nwant {want.ravel()[:16]}")
            return 1
        print(f"OK {path}")
    else:
        print(f"unknown command {cmd}")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
