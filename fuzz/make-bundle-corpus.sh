#!/bin/sh
# Regenerates fuzz/bundle-corpus, the seed corpus of tools/uop-bundle-fuzz:
# program bundles compiled by uop-compile (cpu and cuda, a shaped and a
# loop program, one with run-time checks), and a few hand-made ones (an
# empty file, a header alone, a plan with an edited output). Needs a build
# (BUILD, default build/). Run from anywhere.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${BUILD:-$root/build}/bin
out="$root/fuzz/bundle-corpus"
rm -rf "$out"
mkdir -p "$out"
export UOP_CACHE=$(mktemp -d)
trap 'rm -rf "$UOP_CACHE"' EXIT
"$bin/uop-compile" "$root/test/Runtime/Inputs/vadd16.uir" -o "$out/vadd16-cpu.uopx"
"$bin/uop-compile" "$root/test/Runtime/Inputs/vadd16.uir" --target=cuda -o "$out/vadd16-cuda.uopx"
"$bin/uop-compile" "$root/test/Integration/CPU/checks-divide.uir" --target=cuda -o "$out/checks-cuda.uopx"
"$bin/uop-compile" "$root/test/Integration/CPU/Inputs/gather-stack.uir" -o "$out/gather-cpu.uopx"
"$bin/uop-compile" "$root/test/Integration/CPU/Inputs/gather-expand.uir" --target=cuda -o "$out/expand-cuda.uopx"
# Hand-made: nothing, a header alone, the magic alone.
printf '' > "$out/empty.uopx"
printf '\211UOPX\r\n\032' > "$out/magic.uopx"
head -c 24 "$out/vadd16-cpu.uopx" > "$out/header.uopx"
# A plan whose output is smaller than its kernel writes (re-checksummed).
/usr/bin/python3 "$root/test/Runtime/craft_bundle.py" "$out/vadd16-cuda.uopx" "$out/small-output.uopx" \
  plan "arg 1 -1 f32 16" "arg 1 -1 f32 4"
# A training step (format 2): the toy step of test/Runtime/uop-runner-train.test.
work="$UOP_CACHE/step"
mkdir -p "$work"
/usr/lib/llvm-22/bin/split-file "$root/test/Runtime/uop-runner-train.test" "$work"
for k in sgd scale; do cc -x c -O1 -s -shared -fPIC "$work/$k.c" -o "$work/$k.so"; done
/usr/bin/python3 "$root/test/Integration/npy.py" save "$work/w.npy" float32 "[1, 2, 3, 4]"
/usr/bin/python3 "$root/test/Integration/npy.py" save "$work/scale.npy" float32 "[0.5]"
/usr/bin/python3 "$root/test/Integration/npy.py" save "$work/count.npy" float32 "[10]"
/usr/bin/python3 "$root/test/Integration/npy.py" save "$work/prev.npy" float32 "[-1]"
"$bin/uop-bundle" create-step "$out/toy-step.uopx" --target=cpu --step="$work/step.txt" \
  --program="$work/sgd.plan,$work/sgd.so" --program="$work/scale.plan,$work/scale.so" \
  --tensor="$work/w.npy" --tensor="$work/scale.npy" --tensor="$work/count.npy" --tensor="$work/prev.npy"
ls "$out" | wc -l
