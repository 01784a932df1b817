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


def uop_target(uop_tool, target=""):
    """The #uop.target uop compiles for here (the host's, or `target`), in
    short: "cpu rocketlake, 512-bit vectors, 32 registers, 2 threads".
    `uop_tool` is any uop binary (uop-run); uop-opt beside it prints it."""
    opt = os.path.join(os.path.dirname(uop_tool), "uop-opt")
    spec = f"target={target}" if target else ""
    try:
        out = subprocess.run([opt, "-", f"--uop-attach-target={spec}"], input="module {}\n",
                             capture_output=True, text=True).stdout
    except OSError:
        return "?"
    m = re.search(r"#uop\.target<(\w+), (.*)>\}", out)
    if not m:
        return "?"
    fields = dict(re.findall(r'(\w+) = ("[^"]*"|\[[^\]]*\]|\d+)', m.group(2)))
    get = lambda k: fields.get(k, "").strip('"')
    if m.group(1) == "cuda":
        return f"cuda {get('chip')}"
    parts = [f"cpu {get('cpu')}"]
    if get("vector_bits"):
        parts.append(f"{get('vector_bits')}-bit vectors, {get('vector_registers')} registers")
    if get("threads"):
        parts.append(f"{get('threads')} threads")
    return ", ".join(parts)
