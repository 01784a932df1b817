# -*- Python -*-
# The GoogleTest suites under build/unittests, one lit test per gtest case.

import os

import lit.formats

config.name = "UOP-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.uop_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
