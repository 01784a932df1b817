# -*- Python -*-
# lit configuration of the uop regression suite.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "UOP"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".uir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.uop_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "Unit"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%uop_src_root", config.uop_src_root))
config.substitutions.append(("%uop_obj_root", config.uop_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cmake_generator", config.cmake_generator))
config.substitutions.append(("%cxx", config.cxx_compiler))
config.substitutions.append(("%mlir_dir", config.mlir_dir))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP", "CCACHE_DIR"])
llvm_config.use_default_substitutions()

config.uop_tools_dir = os.path.join(config.uop_obj_root, "bin")
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.uop_tools_dir, append_path=True)

tool_dirs = [config.uop_tools_dir, config.llvm_tools_dir]
tools = ["uop-opt", ToolSubst("uop-translate", unresolved="ignore"),
         ToolSubst("uop-run", unresolved="ignore"), ToolSubst("uop-compile", unresolved="ignore"),
         ToolSubst("uop-smt-check", unresolved="ignore")]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Integration tests make inputs and check results with numpy (and can run the
# Python seed as an oracle). Debian's python3 + python3-numpy.
import shutil
import subprocess

python = shutil.which("python3", path="/usr/bin:" + os.environ.get("PATH", ""))
if python:
    # Before lit's own %p, which would otherwise eat the start of %python.
    config.substitutions.insert(0, ("%python", python))
    try:
        subprocess.run([python, "-c", "import numpy"], check=True, capture_output=True)
        config.available_features.add("numpy")
    except (subprocess.CalledProcessError, OSError):
        pass
config.substitutions.insert(0, ("%npy", (python or "python3") + " " + os.path.join(config.uop_src_root, "test", "Integration", "npy.py")))
config.substitutions.append(("%seed_root", os.path.join(os.path.dirname(config.uop_src_root), "shared", "reference", "uopc-python")))
if os.path.isdir(os.path.join(os.path.dirname(config.uop_src_root), "shared", "reference", "uopc-python")):
    config.available_features.add("seed")

# Compiled kernels go to a cache private to this test run.
config.environment["UOP_CACHE"] = os.path.join(config.uop_obj_root, "test", "uop-cache")
if shutil.which("gcc"):
    config.available_features.add("gcc")

# ptxas (the CUDA toolkit) checks the PTX of the GPU path; no GPU is needed.
ptxas = "/usr/local/cuda/bin/ptxas"
if not os.path.exists(ptxas):
    ptxas = shutil.which("ptxas")
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# nvcc (the CUDA toolkit) compiles the CUDA C of --uop-to-cuda and
# --codegen=cuda-c; no GPU is needed.
nvcc = "/usr/local/cuda/bin/nvcc"
if not os.path.exists(nvcc):
    nvcc = shutil.which("nvcc")
if nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc))
if shutil.which("clang-22"):
    config.available_features.add("clang-22")

# A usable CUDA device (the driver loads, cuInit succeeds, a device exists):
# the GPU tests (REQUIRES: cuda-device) run; elsewhere they are unsupported.
def _have_cuda_device():
    import ctypes
    try:
        cuda = ctypes.CDLL(os.environ.get("UOP_LIBCUDA") or "libcuda.so.1")
        count = ctypes.c_int(0)
        return cuda.cuInit(0) == 0 and cuda.cuDeviceGetCount(ctypes.byref(count)) == 0 and count.value > 0
    except (OSError, AttributeError):
        return False

if _have_cuda_device():
    config.available_features.add("cuda-device")
