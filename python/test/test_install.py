"""`cmake --install` puts an importable package (module, Python files, stubs) under the prefix."""
import os
import subprocess
import sys

import pytest

import uop


def test_install_tree_imports(tmp_path):
    build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(uop.__file__))))
    if not os.path.exists(os.path.join(build, "python", "cmake_install.cmake")):
        pytest.skip("not a build tree")
    subprocess.run(["cmake", "--install", os.path.join(build, "python"), "--prefix", str(tmp_path)],
                   check=True, capture_output=True)
    site = [os.path.join(r, d) for r, ds, _ in os.walk(tmp_path) for d in ds if d == "uop"]
    assert len(site) == 1
    for f in ("__init__.py", "nn.py", "_uop.pyi", "nn.pyi", "py.typed", "compat/__init__.py"):
        assert os.path.exists(os.path.join(site[0], f)), f
    code = "import uop, uop.compat; print((uop.Tensor([1.0, 2.0]) * 2).numpy().tolist())"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                       env=dict(os.environ, PYTHONPATH=os.path.dirname(site[0])))
    assert r.stdout.strip() == "[2.0, 4.0]"
    assert uop.__file__ not in r.stdout


def test_stubs_cover_the_module():
    import ast
    stub = os.path.join(os.path.dirname(uop.__file__), "_uop.pyi")
    tree = ast.parse(open(stub).read())
    names = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    assert {"Tensor", "Executable", "Plan", "TinyJit", "compile", "Error", "CompileError"} <= names
    tensor = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tensor")
    methods = {n.name for n in tensor.body if isinstance(n, ast.FunctionDef)}
    public = {m for m in dir(uop.Tensor) if not m.startswith("_") and m != "uop"}
    assert public <= methods, public - methods
    assert ast.get_docstring(next(n for n in tensor.body if isinstance(n, ast.FunctionDef) and n.name == "backward"))
