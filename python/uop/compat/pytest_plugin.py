"""pytest -p uop.compat.pytest_plugin SEED_TESTS...: the seed's tests on uop.

Loaded before the test files are collected, it installs the seed's module
names (uop.compat.install), so `from uopc.tensor import Tensor` in a seed
test imports uop.Tensor: the tests run unchanged, with only their imports
redirected.
"""
import uop.compat

uop.compat.install()
