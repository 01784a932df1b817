"""python3 -m uop.compat SCRIPT [ARGS...]: runs a seed script on uop.

The seed's module names are installed first (uop.compat.install), and the
script runs as __main__ with sys.argv = [SCRIPT, ARGS...], so the seed's
examples/mnist_mlp.py and examples/gpt.py run unchanged, on Debian's data
(uop.compat.datasets).
"""
import runpy
import sys

import uop.compat


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(sys.argv) >= 2 else 2
    uop.compat.install()
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
