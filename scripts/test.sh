#!/usr/bin/env bash
# The whole test suite: set up and build uop, then run lit (regression tests
# and the GoogleTest suites) and pytest (the Python package and the seed's
# frontend tests on it). Ends with a plain `N passed, N failed` line.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${UOP_BUILD_DIR:-$ROOT/build}"

if ! "$ROOT/scripts/setup.sh" "$BUILD"; then
  echo "uop test: set-up or build failed"
  echo "0 passed, 1 failed"
  exit 1
fi

LOG="$(mktemp)"
ninja -C "$BUILD" check-uop 2>&1 | tee "$LOG"
rc=${PIPESTATUS[0]}

# lit's summary lines look like "  Passed     : 136 (98.55%)".
count() { grep -E "^ *$1 *: +[0-9]+" "$LOG" | tail -1 | sed -E 's/^[^:]*: +([0-9]+).*/\1/'; }
passed=$(( $(count "Passed" || true) + $(count "Expectedly Failed" || true) + 0 ))
failed=$(( $(count "Failed" || true) + $(count "Unresolved" || true) + $(count "Timed Out" || true) + $(count "Unexpectedly Passed" || true) + 0 ))
skipped=$(( $(count "Unsupported" || true) + $(count "Skipped" || true) + 0 ))
rm -f "$LOG"
if [[ $rc -ne 0 && $failed -eq 0 ]]; then
  failed=1
fi

# The Python package (python/, docs/Python.md): its pytest suite, and the
# seed's own frontend tests (test_w05_*, test_w09_models) run unchanged
# against uop, their imports redirected by uop.compat's pytest plugin.
if [[ -d "$BUILD/python/uop" ]]; then
  SEED="${UOP_SEED_ROOT:-$ROOT/../shared/reference/uopc-python}"
  seed_tests=()
  if [[ -d "$SEED/tests" ]]; then
    for t in "$SEED"/tests/test_w05_*.py "$SEED/tests/test_w09_models.py"; do
      [[ -f "$t" ]] && seed_tests+=("$t")
    done
  else
    echo "uop test: no seed at $SEED: its redirected tests do not run"
  fi
  PYLOG="$(mktemp)"
  PYTHONPATH="$BUILD/python" PYTHONDONTWRITEBYTECODE=1 UOP_CACHE="$BUILD/test/uop-cache" \
    UOP_SEED_ROOT="$SEED" /usr/bin/python3 -m pytest -c "$ROOT/python/pytest.ini" \
    -p uop.compat.pytest_plugin -q "$ROOT/python/test" "${seed_tests[@]}" 2>&1 | tee "$PYLOG"
  pyrc=${PIPESTATUS[0]}
  # pytest's summary: "== 60 passed, 1 skipped, 2 xfailed in 30.1s ==".
  pycount() { grep -E "[0-9]+ $1" "$PYLOG" | tail -1 | sed -E "s/.*[^0-9]([0-9]+) $1.*/\1/;s/^([0-9]+) $1.*/\1/"; }
  pyfailed=$(( $(pycount failed || true) + $(pycount error || true) + $(pycount xpassed || true) + 0 ))
  passed=$(( passed + $(pycount passed || true) + $(pycount xfailed || true) + 0 ))
  skipped=$(( skipped + $(pycount skipped || true) + 0 ))
  if [[ $pyrc -ne 0 && $pyfailed -eq 0 ]]; then
    pyfailed=1
  fi
  failed=$(( failed + pyfailed ))
  rm -f "$PYLOG"
  [[ $pyrc -ne 0 && $rc -eq 0 ]] && rc=$pyrc
fi
echo "$passed passed, $failed failed, $skipped skipped"
exit $rc
