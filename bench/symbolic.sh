#!/usr/bin/env bash
# uop-symbolic against the seed's simplify, side by side (issue 4's table).
#
#   bench/symbolic.sh [--shape index|dag] [uop-bench-symbolic] [max-ops] [seed-max-ops]
#
# The shapes are uop-bench-symbolic's (bench/SymbolicBench.cpp): index
# arithmetic as rangeify makes it (the default), or a random integer DAG.
# defaults: build/bin/uop-bench-symbolic, 1000000, 100000 (the seed takes
# about a minute for 10^6 ops; pass 1000000 as seed-max-ops for that row;
# the seed's column is empty above seed-max-ops). The seed is
# /work/shared/reference/uopc-python unless SEED_PYTHONPATH says otherwise.
#
# For every size up to seed-max-ops both sides simplify the same graph and
# their results are checked: "values" says whether both simplified graphs
# have the same values at the points of bench/symbolic_seed.py, "seed after"
# is the seed's op count after simplification (its nodes, counted as uop
# counts a function), to compare with uop's "ops after" (equal since the
# driver shares equal ops as it goes; bench/results/zen3-2026-11-29.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
shape=index
if [[ ${1:-} == --shape ]]; then
  shape=$2
  shift 2
fi
bench=${1:-$here/../build/bin/uop-bench-symbolic}
max=${2:-1000000}
seedmax=${3:-100000}
seedpath=${SEED_PYTHONPATH:-/work/shared/reference/uopc-python}
python=${PYTHON:-/usr/bin/python3}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bench" --shape "$shape" "$max" > "$tmp/uop"
PYTHONPATH=$seedpath "$python" "$here/symbolic_seed.py" --shape "$shape" "$seedmax" > "$tmp/seed"
for ((n = 1000; n <= seedmax && n <= max; n *= 10)); do
  "$bench" --shape "$shape" --eval "$n" >> "$tmp/eval"
done
touch "$tmp/eval"

"$python" - "$tmp" <<'EOF'
import sys
tmp = sys.argv[1]
uop = {}
for line in open(f"{tmp}/uop").read().splitlines()[1:]:
    ops, after, wall_ms, _, cpu_ms, _ = line.split()
    uop[int(ops)] = (int(after), float(wall_ms))
seed, evals = {}, {}
for line in open(f"{tmp}/seed"):
    f = line.split()
    seed[int(f[1])] = (int(f[3]), 1000 * float(f[5]), f[7:])
for line in open(f"{tmp}/eval"):
    f = line.split()
    evals[int(f[1])] = (int(f[3]), f[5:])
print(f"{'ops':>9} {'ops after':>9} {'uop ms':>10} {'uop us/op':>10} {'seed after':>10} "
      f"{'seed ms':>10} {'seed us/op':>10} {'speedup':>8} {'values':>7}")
for n in sorted(uop):
    after, ms = uop[n]
    row = f"{n:>9} {after:>9} {ms:>10.1f} {1000 * ms / n:>10.2f}"
    if n in seed:
        sa, sms, sval = seed[n]
        ea, evalues = evals.get(n, (None, None))
        same = ea == after and sval == evalues
        row += (f" {sa:>10} {sms:>10.1f} {1000 * sms / n:>10.2f} {sms / ms:>7.0f}x"
                f" {'same' if same else 'DIFFER':>7}")
    else:
        row += f" {'-':>10} {'-':>10} {'-':>10} {'-':>8} {'-':>7}"
    print(row)
EOF
