"""The pass/fail tally of the integration scripts: a FAIL line per failed
check, then "N of M checks pass" (what their .test files FileCheck) and the
exit status.

  from tally import check, finish
"""
import sys

checks = failed = 0


def check(name, ok, detail=""):
    global checks, failed
    checks += 1
    if not ok:
        failed += 1
        print(f"FAIL {name} {detail}")
    return ok


def finish():
    print(f"{checks - failed} of {checks} checks pass")
    sys.exit(1 if failed else 0)
