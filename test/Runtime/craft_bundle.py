"""Crafts a .uopx from another: its plan entry (or any entry) edited, the
checksum made right again, so that only what was edited is wrong.

  craft_bundle.py IN OUT ENTRY OLD NEW   replace OLD by NEW in ENTRY once
  craft_bundle.py IN --show ENTRY        print ENTRY
"""
import hashlib
import struct
import sys


def decode(data):
    assert data[:8] == b"\x89UOPX\r\n\x1a", "not a bundle"
    version, count, size = struct.unpack_from("<IIQ", data, 8)
    off, entries = 24, []
    for _ in range(count):
        (n,) = struct.unpack_from("<I", data, off)
        off += 4
        name = data[off:off + n].decode()
        off += n
        (m,) = struct.unpack_from("<Q", data, off)
        off += 8
        entries.append((name, data[off:off + m]))
        off += m
    return version, entries


def encode(version, entries):
    body = b""
    for name, blob in entries:
        body += struct.pack("<I", len(name)) + name.encode() + struct.pack("<Q", len(blob)) + blob
    size = 24 + len(body) + 32
    out = b"\x89UOPX\r\n\x1a" + struct.pack("<IIQ", version, len(entries), size) + body
    return out + hashlib.sha256(out).digest()


def main(argv):
    data = open(argv[1], "rb").read()
    version, entries = decode(data)
    if argv[2] == "--show":
        sys.stdout.write(dict(entries)[argv[3]].decode())
        return 0
    out, entry, old, new = argv[2], argv[3], argv[4].encode(), argv[5].encode()
    edited = []
    for name, blob in entries:
        if name == entry:
            assert old in blob, "%r not in %s" % (old, entry)
            blob = blob.replace(old, new, 1)
        edited.append((name, blob))
    open(out, "wb").write(encode(version, edited))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
