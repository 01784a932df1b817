#!/usr/bin/env python3
"""Runs N copies of a command at the same moment; fails unless all succeed.

  concurrent.py N CMD ARGS...   ('{i}' in ARGS becomes the copy's number)
"""
import subprocess
import sys

n = int(sys.argv[1])
procs = [subprocess.Popen([a.replace("{i}", str(i)) for a in sys.argv[2:]]) for i in range(n)]
codes = [p.wait() for p in procs]
if any(codes):
    print(f"exit codes: {codes}")
    sys.exit(1)
print(f"{n} processes succeeded")
