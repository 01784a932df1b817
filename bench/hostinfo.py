"""The host as every benchmark table names it: the CPU's model, LLVM's name
for it (what uop targets and keys its caches by), cores and vector unit.

  from hostinfo import host_cpu
"""
import os
import re
import subprocess


def llvm_host_cpu():
    """LLVM's name for this CPU (`llc --version`'s Host CPU), or '?'."""
    for llc in ("/usr/lib/llvm-22/bin/llc", "llc-22"):
        try:
            out = subprocess.run([llc, "--version"], capture_output=True, text=True).stdout
        except OSError:
            continue
        m = re.search(r"Host CPU: (\S+)", out)
        if m:
            return m.group(1)
    return "?"


def host_cpu():
    model, flags = "?", set()
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name") and model == "?":
                model = line.split(":", 1)[1].strip()
            if line.startswith("flags") and not flags:
                flags = set(line.split(":", 1)[1].split())
    vec = "avx512f" if "avx512f" in flags else "avx2" if "avx2" in flags else "sse"
    return (f"{model} ({llvm_host_cpu()}), {os.cpu_count()} cores, "
            f"{vec}{'+fma' if 'fma' in flags else ''}")
