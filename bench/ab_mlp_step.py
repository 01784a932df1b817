#!/usr/bin/env python3
"""The MLP training step of two uop builds (or one build under two settings)
side by side, interleaved (A, B, A, B, ...), so that a loaded machine's
noise falls on both alike.

  /usr/bin/python3 bench/ab_mlp_step.py [--rounds=5] [--steps=200] \
      NAME=BUILD_DIR[:ENV=VALUE,...] NAME=BUILD_DIR[:ENV=VALUE,...] ...

An ENV that starts with "--" is a flag of uop-bench-mlp-step instead
(`unfused=build:--fuse-epilogue=false`).

Each round runs `uop-bench-mlp-step --no-numpy --no-eager --profile` of
each build (each with its own plan cache, OMP_NUM_THREADS=2 unless the
spec sets it) and prints, per build, the median and range over the rounds
of: the replayed step's wall ms and CPU ms (all threads), the kernels
alone, the sum of the kernels one at a time, the time outside the run,
the loss; then each kernel's median (best of its runs in each round), and
the load average before and after.
"""
import os, re, statistics, subprocess, sys, tempfile

rounds, steps, specs = 5, 200, []
for a in sys.argv[1:]:
    if a.startswith("--rounds="):
        rounds = int(a.split("=", 1)[1])
    elif a.startswith("--steps="):
        steps = int(a.split("=", 1)[1])
    else:
        name, rest = a.split("=", 1)
        build, _, envs = rest.partition(":")
        env = dict(kv.split("=", 1) for kv in envs.split(",") if kv)
        specs.append((name, build, env))
if len(specs) < 1:
    sys.exit(__doc__)
tmp = tempfile.mkdtemp()


def load():
    return open("/proc/loadavg").read().split()[0]


res = {name: [] for name, _, _ in specs}
loads = [load()]
for r in range(rounds):
    for name, build, extra in specs:
        env = dict(os.environ, OMP_NUM_THREADS="2", UOP_CACHE=f"{tmp}/cache-{name}")
        env.update((k, v) for k, v in extra.items() if not k.startswith("--"))
        flags = [f"{k}={v}" for k, v in extra.items() if k.startswith("--")]
        out = subprocess.run([build + "/bin/uop-bench-mlp-step", "--no-numpy", "--no-eager",
                              "--profile", f"--steps={steps}"] + flags, capture_output=True,
                             text=True, env=env).stdout
        m = re.search(r"\| uop, TinyJit \(replayed\) \| ([0-9.]+) \| - \| ([0-9.]+) \| ([0-9.]+) \|",
                      out)
        alone = re.search(r"kernels alone take ([0-9.]+) ms", out)
        one = re.search(r"one at a time \(best of runs\): ([0-9.]+) ms in all; the replayed step "
                        r"spends (-?[0-9.]+) ms outside", out)
        count = re.search(r"the step's program: (\d+) kernels", out)
        kernels = dict((k, float(t)) for k, t in re.findall(r"^  (\S+): ([0-9.]+) ms, ", out, re.M))
        if not m:
            sys.exit(f"{name}: no result:\n{out}")
        res[name].append(dict(wall=float(m.group(1)), cpu=float(m.group(2)), loss=m.group(3),
                              alone=float(alone.group(1)) if alone else float("nan"),
                              one=float(one.group(1)) if one else float("nan"),
                              outside=float(one.group(2)) if one else float("nan"),
                              count=int(count.group(1)) if count else 0, kernels=kernels))
loads.append(load())


def med(v):
    return f"{statistics.median(v):.3f} ({min(v):.3f}-{max(v):.3f})"


print(f"{rounds} rounds of {steps} steps, interleaved; load average {loads[0]} before, "
      f"{loads[1]} after")
print("| build | kernels | step wall ms | step CPU ms | kernels alone ms | one at a time ms "
      "| outside the run ms | loss |")
print("|---|---|---|---|---|---|---|---|")
for name, _, _ in specs:
    v = res[name]
    print(f"| {name} | {v[0]['count']} | {med([x['wall'] for x in v])} | "
          f"{med([x['cpu'] for x in v])} | {med([x['alone'] for x in v])} | "
          f"{med([x['one'] for x in v])} | {med([x['outside'] for x in v])} | "
          f"{', '.join(sorted(set(x['loss'] for x in v)))} |")
for name, _, _ in specs:
    v = res[name]
    names = sorted(v[0]["kernels"], key=lambda k: -v[0]["kernels"][k])
    print(f"\n{name}, each kernel's median ms (best of its runs in a round):")
    for k in names:
        ts = [x["kernels"].get(k, float("nan")) for x in v]
        print(f"  {k}: {statistics.median(ts):.4f}")
