"""Checks a training run of an example from its CSV and its log:
the loss decreases (mean of the last k steps below the mean of the first k)
and, with --min-accuracy, the printed test accuracy is above it.

  check_training.py CSV LOG [--column=loss] [--min-accuracy=PERCENT] [--below-entropy]
"""
import argparse, csv, re, sys

ap = argparse.ArgumentParser()
ap.add_argument("csv")
ap.add_argument("log")
ap.add_argument("--column", default="loss")
ap.add_argument("--min-accuracy", type=float)
a = ap.parse_args()

rows = list(csv.DictReader(open(a.csv)))
if len(rows) < 4:
    sys.exit(f"{a.csv}: {len(rows)} rows, expected at least 4")
loss = [float(r[a.column]) for r in rows]
steps = [int(float(r["step"])) for r in rows]
if steps != list(range(1, len(rows) + 1)):
    sys.exit(f"{a.csv}: steps are not 1..{len(rows)}")
k = max(1, len(loss) // 4)
first, last = sum(loss[:k]) / k, sum(loss[-k:]) / k
print(f"loss: first {k} steps {first:.4f}, last {k} steps {last:.4f}")
if not last < first:
    sys.exit("the loss did not decrease")
log = open(a.log).read()
if a.min_accuracy is not None:
    m = re.search(r"test accuracy ([0-9.]+)%", log)
    if not m:
        sys.exit(f"{a.log}: no 'test accuracy' line")
    acc = float(m.group(1))
    print(f"test accuracy {acc:.2f}% (at least {a.min_accuracy}%)")
    if acc < a.min_accuracy:
        sys.exit("accuracy too low")
print("OK")
