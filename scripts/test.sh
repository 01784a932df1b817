#!/usr/bin/env bash
# The whole test suite: set up and build uop, then run lit (regression tests
# and the GoogleTest suites). Ends with a plain `N passed, N failed` line.
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
echo "$passed passed, $failed failed, $skipped skipped"
exit $rc
