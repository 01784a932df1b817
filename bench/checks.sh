#!/usr/bin/env bash
# The cost of the run-time checks (issue 12): each example run checked (the
# default) and --unchecked, interleaved, as medians of uop-run --bench.
#
#   bench/checks.sh [uop-run] [runs] [rounds]
#
# defaults: build/bin/uop-run, 50 runs per --bench, 5 rounds. Each round
# times checked then unchecked for every program; the table shows the median
# over rounds of each side's median, the checks each plan has (from
# --print-plan) and the ratio checked / unchecked. Where every index and
# divisor is proven (gemm, softmax: no checks) the two compile to the same
# code, so the ratio is noise; the target is < 2%.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
run=${1:-$here/../build/bin/uop-run}
runs=${2:-50}
rounds=${3:-5}
ex=$here/../examples
# loops_gemm with vector = 16 (vector lanes, whose loads and stores are
# proven too), made beside the examples' paths for the loop below.
translate=$(dirname "$run")/uop-translate
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$translate" --import-uir "$ex/loops_gemm.uir" |
  sed -e 's/func.func @main() -> !uop.void {/func.func @main() -> !uop.void attributes {uop.opts = #uop.opts<vector = 16>} {/' \
    > "$tmp/loops_gemm_vector16.mlir"
cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
echo "host CPU: $cpu ($(nproc) cores), $rounds rounds of --bench=$runs"
printf '| %-24s | %-7s | %6s | %12s | %14s | %6s |\n' program target checks "checked ms" "unchecked ms" ratio
printf '|%s|%s|%s|%s|%s|%s|\n' -------------------------- --------- -------- -------------- ---------------- --------
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
for spec in "gemm.uir cpu" "gemm.uir emulate" "softmax.uir cpu" "softmax.uir emulate" \
            "loops_gemm.uir cpu" "loops_gemm.uir cpu --opt=hand" "loops_gemm_vector16.mlir cpu"; do
  set -- $spec
  prog=$1 target=$2 extra=${3:-}
  dir=$ex
  [[ -e $ex/$prog ]] || dir=$tmp
  checks=$("$run" "$dir/$prog" --target="$target" $extra --random-inputs --print-plan |
           { grep -o '[0-9]* run-time check' || true; } | awk '{s+=$1} END {print s+0}')
  on=() off=()
  for ((r = 0; r < rounds; ++r)); do
    on+=("$("$run" "$dir/$prog" --target="$target" $extra --random-inputs --bench="$runs" | awk '{print $2}')")
    off+=("$("$run" "$dir/$prog" --target="$target" $extra --random-inputs --bench="$runs" --unchecked | awk '{print $2}')")
  done
  a=$(printf '%s\n' "${on[@]}" | median)
  b=$(printf '%s\n' "${off[@]}" | median)
  printf '| %-24s | %-7s | %6s | %12.3f | %14.3f | %6.3f |\n' "$prog $extra" "$target" "$checks" "$a" "$b" \
    "$(awk -v a="$a" -v b="$b" 'BEGIN {print a / b}')"
done
