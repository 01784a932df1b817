"""Where the seed (the reference Python implementation) is, for the tests that run its code."""
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = os.environ.get("UOP_SEED_ROOT") or os.path.join(os.path.dirname(ROOT), "shared", "reference",
                                                        "uopc-python")


@pytest.fixture
def seed_root():
    if not os.path.isdir(os.path.join(SEED, "examples")):
        pytest.skip(f"no seed at {SEED} (set UOP_SEED_ROOT)")
    return SEED
