"""Prints one entry of a .uopx bundle (the container of include/Uop/Runtime/Bundle.h).

  bundle_entry.py FILE.uopx NAME
"""
import struct, sys

data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89UOPX\r\n\x1a", "not a uop bundle"
count = struct.unpack_from("<I", data, 12)[0]
off = 24
for _ in range(count):
    n = struct.unpack_from("<I", data, off)[0]
    name = data[off + 4:off + 4 + n].decode()
    size = struct.unpack_from("<Q", data, off + 4 + n)[0]
    body = data[off + 12 + n:off + 12 + n + size]
    off += 12 + n + size
    if name == sys.argv[2]:
        sys.stdout.buffer.write(body)
        sys.exit(0)
sys.exit(f"no entry {sys.argv[2]}")
