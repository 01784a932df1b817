#!/bin/sh
# Regenerates fuzz/corpus: every .uir program of the lit tests (split at
# `// -----`, `#` comment lines dropped), one file per program named by its
# SHA-1. Run from anywhere.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/fuzz/corpus"
mkdir -p "$out"
find "$root/test/Target" -name '*.uir' | sort | while read -r f; do
  awk -v out="$out" '
    function flush() { if (buf != "") { print buf > (out "/tmp.uir"); close(out "/tmp.uir");
                       system("h=$(sha1sum \"" out "/tmp.uir\" | cut -c1-16); mv \"" out "/tmp.uir\" \"" out "/$h.uir\"") }
                       buf = "" }
    /^\/\/ -----/ { flush(); next }
    /^[ \t]*#/ { next }
    { buf = buf $0 "\n" }
    END { flush() }' "$f"
done
# a few tiny edge cases
printf '' > "$out/empty.uir"
printf '%%0 = const 1\n' > "$out/const.uir"
ls "$out" | wc -l
