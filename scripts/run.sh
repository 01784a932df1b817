#!/usr/bin/env bash
# The main job: set up and build uop, print the IR of the programs in
# examples/, then run the loop-IR gemm (examples/loops_gemm.uir) and the
# shaped gemm (examples/gemm.uir) natively with uop-run on random inputs and
# check both against numpy; then the examples: a short Fashion-MNIST training
# (where its loss curve is) and flash attention beside numpy.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${UOP_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh" "$BUILD"

BIN="$BUILD/bin"
shopt -s nullglob
for prog in "$ROOT"/examples/*.mlir "$ROOT"/examples/*.uir; do
  echo "==== uop-opt -cse ${prog#$ROOT/}"
  "$BIN/uop-opt" -cse "$prog"
done

echo "==== uop-run examples/loops_gemm.uir (64x64x64 gemm in the loop IR)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
/usr/bin/python3 - "$TMP" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(0)
for name in ("a", "b"):
    np.save(f"{sys.argv[1]}/{name}.npy", rng.standard_normal(64 * 64).astype(np.float32))
PY
"$BIN/uop-run" "$ROOT/examples/loops_gemm.uir" --input "0=$TMP/a.npy" --input "1=$TMP/b.npy" \
  --output "2=$TMP/c.npy"
"$BIN/uop-run" "$ROOT/examples/loops_gemm.uir" --input "0=$TMP/a.npy" --input "1=$TMP/b.npy" --bench=20
/usr/bin/python3 - "$TMP" <<'PY'
import sys, numpy as np
t = sys.argv[1]
a, b, c = (np.load(f"{t}/{n}.npy") for n in ("a", "b", "c"))
err = np.abs(c.reshape(64, 64) - a.reshape(64, 64) @ b.reshape(64, 64)).max()
print(f"loops_gemm.uir vs numpy: max abs error {err:.2e}", "(OK)" if err < 1e-4 else "(MISMATCH)")
sys.exit(0 if err < 1e-4 else 1)
PY

echo "==== uop-run examples/gemm.uir (256x256 gemm from movement ops: kernelize -> rangeify -> loops -> LLVM)"
/usr/bin/python3 - "$TMP" <<'PY'
import sys, numpy as np
rng = np.random.default_rng(1)
for name in ("A", "B"):
    np.save(f"{sys.argv[1]}/{name}.npy", rng.standard_normal(256 * 256).astype(np.float32))
PY
"$BIN/uop-run" "$ROOT/examples/gemm.uir" --input "0=$TMP/A.npy" --input "1=$TMP/B.npy" --output "$TMP/C.npy"
"$BIN/uop-run" "$ROOT/examples/gemm.uir" --input "0=$TMP/A.npy" --input "1=$TMP/B.npy" --bench=10
/usr/bin/python3 - "$TMP" <<'PY'
import sys, numpy as np
t = sys.argv[1]
a, b, c = (np.load(f"{t}/{n}.npy") for n in ("A", "B", "C"))
err = np.abs(c - a.reshape(256, 256) @ b.reshape(256, 256)).max()
print(f"gemm.uir {c.shape} vs numpy: max abs error {err:.2e}", "(OK)" if err < 1e-3 else "(MISMATCH)")
sys.exit(0 if err < 1e-3 else 1)
PY

echo "==== uop-opt --uop-kernelize examples/softmax.uir (fission: 3 kernels and a host)"
"$BIN/uop-opt" --uop-kernelize "$ROOT/examples/softmax.uir" | sed -n '/func.func @main/,$p'
echo "==== uop-run examples/softmax.uir"
/usr/bin/python3 -c "import sys, numpy as np; np.save(sys.argv[1], np.random.default_rng(2).standard_normal(4096).astype(np.float32))" "$TMP/X.npy"
"$BIN/uop-run" "$ROOT/examples/softmax.uir" --input "0=$TMP/X.npy" --output "$TMP/S.npy"
/usr/bin/python3 - "$TMP" <<'PY'
import sys, numpy as np
t = sys.argv[1]
x, s = np.load(f"{t}/X.npy").reshape(64, 64), np.load(f"{t}/S.npy")
e = np.exp(x - x.max(1, keepdims=True))
err = np.abs(s - e / e.sum(1, keepdims=True)).max()
print(f"softmax.uir {s.shape} vs numpy: max abs error {err:.2e}", "(OK)" if err < 1e-5 else "(MISMATCH)")
sys.exit(0 if err < 1e-5 else 1)
PY

# The examples (examples/README.md): a short Fashion-MNIST training
# and attention three ways beside numpy. The dataset comes from Debian's
# dataset-fashion-mnist, which setup.sh installs.
OUT="$BUILD/examples-out"
if [[ -x "$BIN/mnist_mlp" ]]; then
  echo "==== examples/mnist_mlp: Fashion-MNIST, MLP 784-128-10, AdamW, 200 steps (the full run is 600)"
  "$BIN/mnist_mlp" --steps=200 --out="$OUT"
  echo "the loss curve is $OUT/mnist_mlp_loss.png, the metrics $OUT/mnist_mlp.csv"
fi
if [[ -x "$BIN/flash_attention" ]]; then
  echo "==== examples/flash_attention: unfused, fused, online, blocked and tiled (.uir loop programs), beside numpy"
  "$BIN/flash_attention"
fi
