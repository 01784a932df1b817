#!/usr/bin/env python3
"""Changes one byte of a cache entry in place (its size stays the same).

  corrupt.py CACHE_DIR --ext=.search [--first]
"""
import glob
import os
import sys

cache, ext = sys.argv[1], sys.argv[2].split("=", 1)[1]
paths = sorted(glob.glob(os.path.join(cache, "*" + ext)))
if not paths:
    sys.exit(f"no {ext} entry in {cache}")
for p in paths[:1] if "--first" in sys.argv else paths:
    with open(p, "r+b") as f:
        data = bytearray(f.read())
        data[-2] ^= 0x01  # inside the opts text, before the newline
        f.seek(0)
        f.write(data)
