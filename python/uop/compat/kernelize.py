"""uopc.kernelize on uop: make_plan and the plan cache, as the seed's tests use them.

make_plan(roots) -> (plan, None): the plan that realizing the tensors
`roots` together would run (compiled once, not run); plan.kernels has one
entry per distinct kernel. _plans stands for the seed's structural plan
cache: len(_plans) is the number of executables the global context has
compiled or loaded, so a step that recompiles nothing leaves it unchanged.
"""
import uop

__all__ = ["make_plan", "_plans"]


def make_plan(roots):
    return uop.plan_of(*roots).plan, None


class _PlanCache:
    def __len__(self):
        return uop.stats()["plans"]

    def __repr__(self):
        return f"<uop plan cache: {len(self)} plans>"


_plans = _PlanCache()
