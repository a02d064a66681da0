"""The genre's standard solver: the baseline of `twisty bench passages`.

Public Magic Tower / Tower of the Sorcerer solvers all run one algorithm: compress the map into a graph of
areas joined by blockers, take every item of a reached area at once, fight zero-damage enemies at once, and
search over the sets of consumed blockers keeping the best life per set. There is no bound, no dominance
between different sets and no ordering: every reachable set is visited (breadth first), and the answer is
the best life among the sets from which a goal is reached.

That algorithm is the reference engine's best_route (twisty/solver/passages_reference.py), the oracle of the
tests and the engine used where the compiled search is not built; the benchmark measures it under the name
of the genre's standard. Same contract as the project's engines for `best_route`
(twisty.solver.passages_verdict); it answers nothing else here.
"""

from __future__ import annotations

from twisty.solver.passages_reference import best_route

NAME = "standard"

__all__ = ["NAME", "best_route"]
