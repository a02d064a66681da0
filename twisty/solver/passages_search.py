"""The search engine: exact best-first search over sets of consumed blockers, run by the compiled core.

The search itself is twisty/solver/_passages_core.c, the one fast engine: a best-first branch and bound on
the region graph, where a state is a set of consumed blockers with the best life found for it, stored by
what its future depends on besides life (the reached areas, the consumed blockers that touch another
blocker or a goal, and the keys held), with dominance between states and four admissible bounds on the
final hp (the dominator-tree relaxation, the priced bound, the Steiner bound and the chain bound). The core's
comments prove each rule sound. This module feeds it and binds it:

- the graph it reads is made by passages_search_graph.SearchGraph (the rules stay in Python: the region
  graph, each area's gains, every fight's damage through a callback);
- best_route races two configurations of the core on two cores from RACE_BLOCKERS blockers on (_race);
- min_start_hp starts from the best route proved last for the same level (it bounds the least starting hp
  both ways), then races the core's least-need search against decision searches at single starting hps;
- count_solutions is the counting engine (passages_count): the core's walk over the prefixes consistent
  with the signatures found, and its first-win searches from their deviations;
- every route the core reports is a list of blockers, followed here by the rules' own functions
  (passages_reference.RegionWalk) into decisions, which must end on a goal with the hp the core claimed.

Where the core is not built (no C compiler at install time: COMPILED_AVAILABLE is False), or a level does
not fit it (more than 128 blockers or areas, 256 dominator-tree nodes, or numbers that could leave its
64-bit integers: SearchGraph.fits_compiled), every question goes to the reference engine
(passages_reference), which gives the same answers, slower.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from twisty.errors import EngineBug
from twisty.rules.passages import Decision, PassagesLevel, Stats, buy, consume_blocker, replay
from twisty.rules.passages import start_hp_upper_bound as rules_start_hp_upper_bound
from twisty.rules.passages_tower import tower_start_hp_upper_bound
from twisty.solver import passages_count, passages_reference
from twisty.solver.passages_count import follow_steps
from twisty.solver.passages_reference import Position
from twisty.solver.passages_search_graph import NOT_COMPILED, SearchGraph
from twisty.solver.passages_verdict import SOLVABLE, UNKNOWN, UNSOLVABLE, BestRoute, Deadline, MinStartHp, SolutionCount

try:
    from twisty.solver import _passages_core  # type: ignore[attr-defined]  # a C extension, no stubs
except ImportError:  # built without a C compiler: the reference engine answers instead
    _passages_core = None

__all__ = [
    "COMPILED_AVAILABLE",
    "NAME",
    "SearchGraph",
    "SearchResult",
    "best_route",
    "count_solutions",
    "generator_oracle",
    "min_start_hp",
    "search",
    "start_hp_upper_bound",
]

NAME = "search"
# Whether the compiled core is built; without it every question goes to the reference engine.
COMPILED_AVAILABLE = _passages_core is not None

# From this many blockers on, best_route races the compiled search with the priced bound and the one with
# the Steiner and chain bounds.
RACE_BLOCKERS = 40

# The race's priced search gives way after this many seconds, and the search with the chain bound then
# bounds states on both cores. The priced search proves the levels it is the better at within a few
# seconds (alone on one core, b120-00 in 5.0 s against 9.4 s, b120-03 0.4 s against 3.3 s); the long
# ones (b120-01: 35.6 s on one core, 20.3 s on two) need the second core.
PRICED_SECONDS = 4.0


@dataclass
class SearchResult:
    best_hp: int | None
    route: tuple[Decision, ...] | None
    complete: bool  # the search ran to the end (the answer is proven)
    expanded: int


def fits(sg: SearchGraph, start_hp: int) -> bool:
    """Whether the compiled core is built and holds this level searched from `start_hp`."""
    return COMPILED_AVAILABLE and sg.fits_compiled(start_hp)


def search(
    sg: SearchGraph,
    start_hp: int,
    deadline: Deadline | _RaceDeadline | _Counted,
    *,
    first_win: bool = False,
    dive: bool = False,
    use_dominance: bool = True,
    at_least: int = 1,
    priced: bool = True,
    steiner: bool = False,
    chain_from: int | None = None,
    threads: int = 1,
    must: int | None = None,
    entry: int = 0,
) -> SearchResult:
    """The compiled best-first branch and bound from the level's start (the core's run_search): the best
    route with at least `at_least` hp; with `first_win`, the first winning route found (solvability).
    `dive` expands the deepest state first: it finds some win fast when wins are plentiful, but it may
    expand a set several times as better ways to it turn up, so refutations are cheaper best bound first.
    The lazy bounds, best bound first only: `priced` asks the priced bound of every state that comes up for
    expansion, `steiner` the Steiner bound (before it), `chain_from` the chain bound from that many
    expansions on (None: never). The core goes without the Steiner and chain bounds on a level whose
    Steiner graph has more than 128 nodes, or a costly blocker with more than 24 neighbours.
    `threads`: 2 lets the search with the chain bound from the start (and without the priced bound) bound
    states on a second core too, once the deadline's spare_core() says it may (always when the deadline
    has none): the same answers, with the expansions in a slightly different order.
    `must`: a blocker every route found must consume (a route through it; the search then may take every
    blocker a route can, dead ends included, since that blocker may be in one).
    `entry`: the entry bound on that many goal sides of every state that comes up (0: none; ENTRY_NEAREST):
    whether a route from it can enter the part of the map around the goals alive at all (the core's
    entry_possible); a state no route from which can is dropped.
    The level must fit the core (fits)."""
    if not fits(sg, start_hp):
        raise ValueError("the compiled search cannot hold this level (see fits)")
    priced = priced and not dive
    steiner = steiner and not dive
    chain_from = None if dive else chain_from
    root = sg.walk.start(replace(sg.level.player, hp=start_hp))
    best_hp, complete, expanded, steps, goal = _passages_core.search(
        sg.compiled_graph(None if must is None else sg.all_mask),
        sg.compiled_state(root),
        deadline,
        first_win,
        dive,
        use_dominance,
        at_least,
        priced,
        steiner,
        -1 if chain_from is None else chain_from,
        threads,
        -1 if must is None else must,
        entry,
    )
    if best_hp is None:
        return SearchResult(None, None, complete, expanded)
    return SearchResult(best_hp, follow_steps(sg, root, steps, goal, best_hp), complete, expanded)


# The core's entry bound (search's `entry`: on how many goal sides) on the goal side nearest the goals that
# a state has not entered yet: the one that drops states on suite level b060-01 (every side: the same
# states dropped, at more cost per state).
ENTRY_NEAREST = 1

# The tower features with which solutions are counted by the reference engine: the counting walk reads a
# signature's fights as (atk, def) and steps by the region graph, where a boss whose defeat wins is a goal.
COUNTED_BY_REFERENCE = frozenset({"colours", "mdef", "specials", "boss", "shop"})

# The first try of best_route (FIRST_LOOKS): the same search, bound once here, apart from the race's.
_first_try = search

# ----------------------------------------------------------------------------------------- the best route


def _cores() -> int:
    """The cores this process may run on (its affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (not on every system)
        return os.cpu_count() or 1


class _RaceDeadline:
    """The deadline of one of two racing searches: the level's own, or the other search's end (a proof,
    or an error or interrupt that ends the race). `spare`, once set, tells the search that the other
    core is free (spare_core, read by the compiled search)."""

    def __init__(self, deadline: Deadline, stop: threading.Event, spare: threading.Event | None = None) -> None:
        self.deadline = deadline
        self.stop = stop
        self.spare = spare

    def expired(self) -> bool:
        return self.stop.is_set() or self.deadline.expired()

    def spare_core(self) -> bool:
        return self.spare is not None and self.spare.is_set()


def _race(sg: SearchGraph, start_hp: int, deadline: Deadline) -> SearchResult:
    """The compiled search with the priced bound and with the Steiner bound at once, one per core (the core
    runs without the GIL); the first proof stops the other. Neither is best everywhere: on suite level
    b060-01 the priced search took 2.2 s and the Steiner search 3.9 s, on b090-02 37 s against 19.5 s, on
    b090-03 3.1 s against 0.4 s (one run, docs/bench-passages.md); one search with both bounds was never
    much faster than the better of the two, and slower on some. The Steiner search asks the chain bound
    too, from the first expansion on: it costs several expansions' time per state, and the priced search
    is the faster where the bounds of least damage are close already (alone on one core, b120-00 5.0 s
    priced against 9.4 s with the chain bound). The priced search gives way after PRICED_SECONDS, or once
    the two hold half the memory budget, and the search with the chain bound goes on on both cores
    (threads=2), which proves the long ones (b120-01 in about 22 s). Without a proof, the better route
    found is the answer, unproven. An interrupt (Ctrl-C) reaches the main thread only, in its own search
    or while it waits for the other: either way the other search is stopped before it is raised."""
    stop, spare = threading.Event(), threading.Event()
    results: dict[bool, SearchResult] = {}
    failures: list[BaseException] = []

    def run(priced: bool) -> None:
        """The search with the priced bound, or else with the Steiner and chain bounds."""
        own = deadline
        if priced:
            # Its memory goes back when it gives way, and the search with the chain bound goes on.
            left = deadline.remaining()
            memory = None if deadline.memory_bytes is None else deadline.memory_bytes // 2
            own = Deadline(PRICED_SECONDS if left is None else min(left, PRICED_SECONDS), memory)
        try:
            results[priced] = search(
                sg,
                start_hp,
                _RaceDeadline(own, stop, None if priced else spare),
                priced=priced,
                steiner=not priced,
                chain_from=None if priced else 0,
                threads=1 if priced or _cores() < 2 else 2,
            )
        except BaseException as error:  # handed to the caller below, as if the search ran here
            failures.append(error)
            stop.set()  # an interrupt (Ctrl-C) must not wait for the other search
        else:
            if results[priced].complete:
                stop.set()
        finally:
            if priced:
                spare.set()  # its core is free from now on

    sg.compiled_graph()  # made once, before two threads could both make it
    _side_by_side(lambda: run(True), lambda: run(False), "passages search with the Steiner bound", stop)
    for failure in failures:
        if not isinstance(failure, Exception):
            raise failure  # KeyboardInterrupt and the like, whatever the other found
    for result in results.values():
        if result.complete:
            return result
    if failures:
        raise failures[0]
    return max(results.values(), key=lambda result: -1 if result.best_hp is None else result.best_hp)


def _side_by_side(here: Callable[[], None], there: Callable[[], None], name: str, stop: threading.Event) -> None:
    """Run `there` in a thread of its own (named `name`) and `here` in this one, until both end. An
    interrupt (Ctrl-C) while waiting sets `stop`, which the other search looks at every few hundred
    expansions, so that it ends too before the interrupt goes on."""
    other = threading.Thread(target=there, name=name, daemon=True)
    try:
        # Started inside the try: an interrupt that lands while the thread starts must stop it too.
        other.start()
        here()
        other.join()
    except BaseException:
        stop.set()
        if other.ident is not None:  # it started (a thread never started cannot be joined)
            other.join()
        raise


# The generator's searches for a route through a blocker first dive for this many looks at the clock (256
# expansions each: a count, never time).
DIVE_LOOKS = 40

# From RACE_BLOCKERS blockers on, best_route first gives the single search with the Steiner and chain bounds
# (FIRST_OPTIONS) this many looks at the clock (256 units of work each, a bound of that search counting 8:
# a count, not a time; about a third of a second) and races only when that does not prove the level: the
# single search is deterministic, so a level it proves quickly (every shipped puzzle) gets the same route on
# every run and machine, where the race's route is the one of whichever search proves first. The first try
# had the priced bound for 200 looks before: suite level b060-01 took 174,000 expansions (1.3 s) with it,
# 17,600 (0.3 s) with the chain bound; the levels the priced search proves faster (b120-03: 0.4 s against
# 2.4 s) it proves in the race.
FIRST_LOOKS = 3000
FIRST_OPTIONS: dict = dict(priced=False, steiner=True, chain_from=0)


class _Counted:
    """The level's deadline, expired as well after `looks` looks (the core looks every 256 expansions)."""

    def __init__(self, deadline: Deadline, looks: int) -> None:
        self.deadline = deadline
        self.left = looks

    def expired(self) -> bool:
        self.left -= 1
        return self.left < 0 or self.deadline.expired()

    def spare_core(self) -> bool:
        return False


# The last best route proved, with its level: counting the same level object next (the portfolio asks the
# best route, then the count) starts from it instead of proving it again. Levels are frozen, so the same
# object has the same best route.
_LAST_PROVED: list[tuple[PassagesLevel, SearchResult]] = []


def best_route(level: PassagesLevel, deadline: Deadline) -> BestRoute:
    """The best route, proven optimal when the search finishes. Levels of RACE_BLOCKERS blockers and more
    race two searches on two cores (_race); smaller ones are done within milliseconds by the first. A
    level the core cannot hold goes to the reference engine."""
    hp = level.player.hp
    if level.features & NOT_COMPILED:
        return passages_reference.best_route(level, deadline)
    sg = SearchGraph(level, hp)
    if not fits(sg, hp):
        return passages_reference.best_route(level, deadline)
    try:
        if sg.blocker_count < RACE_BLOCKERS:
            result = search(sg, hp, deadline)
        else:
            result = _first_try(sg, hp, _Counted(deadline, FIRST_LOOKS), **FIRST_OPTIONS)
            if not result.complete:
                result = _race(sg, hp, deadline)
    except MemoryError:
        return _out_of_memory(deadline, BestRoute(UNKNOWN))
    if result.complete:
        _LAST_PROVED[:] = [(level, result)]
    if result.complete:
        if result.best_hp is None:
            return BestRoute(UNSOLVABLE, proved=True)
        return BestRoute(SOLVABLE, result.best_hp, result.route, proved=True)
    if result.best_hp is None:
        return BestRoute(UNKNOWN)
    return BestRoute(SOLVABLE, result.best_hp, result.route, proved=False)


Answer = TypeVar("Answer", BestRoute, MinStartHp, SolutionCount)


def _out_of_memory(deadline: Deadline, answer: Answer) -> Answer:
    """The core could not grow one of its tables (its memory, or a table at its largest size): the question
    is undecided, and the level's deadline says it was memory (the rest of the level stops too)."""
    deadline.out_of_memory = True
    return answer


# -------------------------------------------------------------------------------- the least starting hp


def start_hp_upper_bound(sg: SearchGraph) -> int:
    """A starting hp with which every fight that can ever happen is survivable (the rules'
    start_hp_upper_bound, or in a tower with specials, magic defence or a shop tower_start_hp_upper_bound:
    the rules' bound counts the items' gains only, and a purchase of atk can make a fight possible that the
    items never do). Unsolvable with it = unsolvable at all."""
    if sg.towers or sg.level.shop is not None:
        return tower_start_hp_upper_bound(sg.level)
    return rules_start_hp_upper_bound(sg.level)


def _required_start_hp(sg: SearchGraph, route: tuple[Decision, ...]) -> int:
    """The least starting hp with which `route` is legal: every fight must leave at least 1 hp. Followed
    with life counted from 0, each fight's damage d needs d - (the life before it) + 1."""
    walk = sg.walk
    level = sg.level
    at = walk.start(replace(level.player, hp=0))
    number = sg.graph.blocker_of_object
    need = 1 - at.stats.hp
    for action, obj in route[:-1]:
        if action == "buy":
            bought = None if level.shop is None else buy(level.shop, at.stats, obj)
            if bought is None:
                raise EngineBug(f"a route buys {obj} where the rules do not allow it")
            at = replace(at, stats=bought)
            continue
        moved = walk.step(at, number[obj], survive=False)
        if moved is None:
            raise EngineBug(f"a route takes object {obj} where the rules do not allow it")
        need = max(need, moved[1] + 1 - at.stats.hp)
        at = moved[0]
        need = max(need, 1 - at.stats.hp)
    guard = level.guard(route[-1][1])
    if guard is not None:
        # The boss whose defeat wins: its fight is the route's last, and must leave 1 hp too.
        fought = consume_blocker(level.things[guard], at.stats, survive=False)
        if fought is None:
            raise EngineBug(f"a route ends at the boss {guard}, whom the rules do not let it fight")
        need = max(need, fought[1] + 1 - at.stats.hp)
    return max(1, need)


def min_start_hp(level: PassagesLevel, deadline: Deadline) -> MinStartHp:
    """The smallest starting hp that wins, with a route that wins from it.

    The best route proved last for this very level object (the portfolio asks it first) bounds it both
    ways: a route that wins from hp m <= H (the level's hp) wins from H with m less, so the best final hp F
    at H gives m >= H - F + 1 (and an unsolvable H gives m >= H + 1); the best route itself wins from its
    own need. Where the two meet, that is the answer; else (or without a best route: a first route found
    with a starting hp so large that every fight is survivable) two ways race on two cores
    (_least_start_race): the core's least-need search, and decision searches at single starting hps
    between the bounds. A level the core cannot hold at that starting hp goes to the reference engine."""
    if level.features & NOT_COMPILED:
        return passages_reference.min_start_hp(level, deadline)
    sg = SearchGraph(level)
    upper = start_hp_upper_bound(sg)
    if not fits(sg, upper):
        return passages_reference.min_start_hp(level, deadline)
    try:
        low, high, route = _start_hp_bounds(level, sg)
        # Which bound is likelier the answer: a level found unsolvable misses by a little more often than
        # not (suite levels miss by one), a level with a best route needs about what that route needs.
        low_first = high is None
        if high is None or route is None:
            witness = search(sg, upper, deadline, first_win=True, dive=True)
            if witness.route is None:
                return MinStartHp("none" if witness.complete else UNKNOWN)
            high, route = _required_start_hp(sg, witness.route), witness.route
        if low < high and not low_first:
            # A level with a best route: the probes alone first, for PROBE_LOOKS looks at the clock. The
            # refutation just below the need of a best route settles most (it has the entry bound), and the
            # race would spend the second core on the least-need search. An unsolvable level races at once:
            # the least-need search answers b120-05 in a fraction of a second, where the probes took 1.2 s.
            low, high, route = _probe_start_hps(level, low, high, route, low_first, _Counted(deadline, PROBE_LOOKS))
        if low < high:
            found = _least_start_race(sg, low, high, route, low_first, deadline)
            if found is None:
                return MinStartHp(UNKNOWN)
            high, route = found
    except MemoryError:
        return _out_of_memory(deadline, MinStartHp(UNKNOWN))
    return MinStartHp("proved", high, route)


def _start_hp_bounds(level: PassagesLevel, sg: SearchGraph) -> tuple[int, int | None, tuple[Decision, ...] | None]:
    """What the best route proved last for this level object says of the least starting hp m (min_start_hp's
    docstring): a lower bound, and an upper bound with a route that wins from it (None without one)."""
    if not _LAST_PROVED or _LAST_PROVED[0][0] is not level:
        return 1, None, None
    hp, proved = level.player.hp, _LAST_PROVED[0][1]
    if proved.best_hp is None or proved.route is None:
        return hp + 1, None, None
    return max(1, hp - proved.best_hp + 1), _required_start_hp(sg, proved.route), proved.route


def _least_start_race(
    sg: SearchGraph, low: int, high: int, route: tuple[Decision, ...], low_first: bool, deadline: Deadline
) -> tuple[int, tuple[Decision, ...]] | None:
    """The least starting hp, known to be at least `low` and at most `high` (`route` wins from it), with a
    route that wins from it; None when time runs out. Two ways race, one per core, and the first answer
    stops the other: the core's least-need search (one best-first search over the need of every route:
    fast where few routes need little, b120-01 and b120-05 of the suite in a fraction of a second), and
    decision searches at single starting hps (_probe_start_hps: fast where the bounds are close, as a tight
    level's best route makes them; on suite level b060-01, whose best route needs 102 where the least-need
    search takes 12 s to prove that nothing needs less, one refutation at 101 takes under a second)."""
    stop = threading.Event()
    answers: list[tuple[int, tuple[Decision, ...]]] = []
    failures: list[BaseException] = []

    def run(way: Callable[[_RaceDeadline], tuple[int, tuple[Decision, ...]] | None]) -> None:
        try:
            found = way(_RaceDeadline(deadline, stop))
        except BaseException as error:  # handed to the caller below, as if the search ran here
            failures.append(error)
            stop.set()
        else:
            if found is not None:
                answers.append(found)
                stop.set()

    def by_need(own: _RaceDeadline) -> tuple[int, tuple[Decision, ...]] | None:
        least, _, steps, goal = _least_need(sg, high, own)
        if least is None:
            return None
        if steps is None or goal is None:
            return high, route
        root = sg.walk.start(replace(sg.level.player, hp=least))
        return least, follow_steps(sg, root, steps, goal, passages_count.final_hp_of(sg, root, steps))

    _side_by_side(
        lambda: run(lambda own: _settled(_probe_start_hps(sg.level, low, high, route, low_first, own))),
        lambda: run(by_need),
        "passages least-need search",
        stop,
    )
    for failure in failures:
        if not isinstance(failure, Exception):
            raise failure
    if answers:
        return answers[0]
    if failures:
        raise failures[0]
    return None


def _probe_start_hps(
    level: PassagesLevel,
    low: int,
    high: int,
    route: tuple[Decision, ...],
    low_first: bool,
    deadline: _RaceDeadline | _Counted,
) -> tuple[int, int, tuple[Decision, ...]]:
    """The least starting hp between `low` and `high` by decision searches at single starting hps (first
    win): at `low` first when `low_first` (a win there proves `low`), then just below `high` (a refutation
    there proves `high`) while those find wins, at most EDGE_WINS times, then halves. A win at hp h lowers
    `high` to the need of the route found (at most h); a refutation raises `low` to h + 1. The searches just
    below `high` have REFUTATION_OPTIONS, the others PROBE_OPTIONS. Returns the bounds and the route that wins
    from `high` as they stand when they meet (the answer) or when time runs out."""
    first, edge_wins = low_first, 0
    while low < high:
        if first:
            hp = low
        elif edge_wins < EDGE_WINS:
            hp = high - 1
        else:
            hp = (low + high) // 2
        first = False
        sg = SearchGraph(level, hp)
        options = REFUTATION_OPTIONS if hp == high - 1 else PROBE_OPTIONS
        found = search(sg, hp, deadline, first_win=True, **options)
        if not found.complete:
            break
        if found.route is None:
            low = hp + 1
        else:
            edge_wins += hp == high - 1
            high, route = _required_start_hp(sg, found.route), found.route
    return low, high, route


# The decision searches of the least starting hp (_probe_start_hps). The one just below the upper bound is
# most often a refutation, which must go through every state that may still win: it has the entry bound
# alone (search's `entry`: whether a route can enter the part of the map around the goals alive at all),
# which drops the states that cannot, where the bounds of the final hp let a route count elixirs it takes
# only after the fight that needs the life. On suite level b060-01 the refutation at 101 hp that proves 102
# expanded 83,200 states with the Steiner and chain bounds (0.9 s), 17,600 with the entry bound alone
# (0.4 s). The others, most often wins to find, have the Steiner and chain bounds, which lead the search to
# a win: with the entry bound alone, the win at 300 hp on b090-02 took longer than 20 s, against 3.6 s.
REFUTATION_OPTIONS: dict = dict(priced=False, steiner=False, entry=ENTRY_NEAREST)
PROBE_OPTIONS: dict = dict(priced=False, steiner=True, chain_from=0)
# The least starting hp is most often just below the need of a route that wins (a tight level's best route
# makes the two meet): the probes look just below it again after each win there, this many times, before
# they halve the interval (on suite level b090-04, 5 to 134: a win at 133 that needs 132, then a refutation
# at 131, where halving took six more refutations).
EDGE_WINS = 3
# The probes alone get this many looks at the clock (256 units of work each, a count: the same on every
# run) before the least-need search races them on the other core (min_start_hp).
PROBE_LOOKS = 4000


def _settled(probed: tuple[int, int, tuple[Decision, ...]]) -> tuple[int, tuple[Decision, ...]] | None:
    """The least starting hp and its route where the probes' bounds met; None where time ran out first."""
    low, high, route = probed
    return (high, route) if low >= high else None


def _least_need(
    sg: SearchGraph, known: int, deadline: Deadline | _RaceDeadline, steiner: bool = True
) -> tuple[int | None, int, list[int] | None, int | None]:
    """The least starting hp with which some route wins, given a route that wins with `known` (None when
    time runs out), the number of states expanded, and, when some route needs less than `known`, the
    core's steps of one that needs the least from the start with no life, and its goal (else None, None):
    the core's least_need, with the Steiner bound on the final net life unless `steiner` is False."""
    root = sg.walk.start(replace(sg.level.player, hp=0))
    return _passages_core.least_need(sg.compiled_graph(), sg.compiled_state(root), deadline, known, steiner)


# ----------------------------------------------------------------------------------------------- counting


def count_solutions(level: PassagesLevel, deadline: Deadline, cap: int, final_hp: int | None) -> SolutionCount:
    """Distinct winning signatures up to `cap`, by the counting engine (passages_count): one new signature
    at a time, a walk over the prefixes still consistent with a signature found and the core's decision
    searches on the rest. With cap 1, whether the level is unique (the second signature is the witness)."""
    hp = level.player.hp
    if level.features & (NOT_COMPILED | COUNTED_BY_REFERENCE):
        return passages_reference.count_solutions(level, deadline, cap, final_hp)
    sg = SearchGraph(level, hp)
    if not fits(sg, hp):
        return passages_reference.count_solutions(level, deadline, cap, final_hp)
    if final_hp is None:
        try:
            best = search(sg, hp, deadline)
        except MemoryError:
            return _out_of_memory(deadline, SolutionCount(0, 0, False, False))
        if not best.complete:
            return SolutionCount(0, 0, False, False)
        if best.best_hp is None:
            return SolutionCount(0, 0, False, True)
        final_hp = best.best_hp

    def first() -> tuple[Decision, ...] | None:
        """A route with final_hp: the best route proved last for this level object, or else by the best
        route's search (the race from RACE_BLOCKERS on)."""
        if _LAST_PROVED and _LAST_PROVED[0][0] is level:
            found = _LAST_PROVED[0][1]
        else:
            found = _race(sg, hp, deadline) if sg.blocker_count >= RACE_BLOCKERS else search(sg, hp, deadline)
        return found.route if found.complete and found.best_hp == final_hp else None

    try:
        counter = passages_count.Counter(sg, _passages_core, deadline)
    except MemoryError:
        return _out_of_memory(deadline, SolutionCount(0, 0, False, False))
    return passages_count.count(counter, deadline, cap, final_hp, first)


# ----------------------------------------------------------------------------------- for the generator


class GeneratorOracle:
    """The questions the passages generator's explorer asks of a draft, answered exactly by the compiled
    core and the counting engine, with answers that are the same on every run (the best route by one
    single-threaded search, never the race). The generator finds it on the engine it is handed
    (`generator_oracle`), as it imports no engine itself. Every method raises MemoryError when the
    deadline or the memory budget cut its answer short, and answers None where the level does not fit the
    core (the explorer then answers itself)."""

    def fits(self, level: PassagesLevel, start_hp: int) -> bool:
        return fits(SearchGraph(level, start_hp), start_hp)

    def least_start_hp(self, level: PassagesLevel, deadline: Deadline) -> int | None:
        """The smallest starting hp that wins (None: none does)."""
        least = min_start_hp(level, deadline)
        if least.status == UNKNOWN:
            raise MemoryError("the least starting life was not decided in time")
        return least.value

    def best(self, level: PassagesLevel, start_hp: int, deadline: Deadline) -> tuple[int, tuple[Decision, ...]] | None:
        """The best final hp from `start_hp` and a route to it (None: unsolvable)."""
        found = search(SearchGraph(level, start_hp), start_hp, deadline)
        if not found.complete:
            raise MemoryError("the best route was not proved in time")
        return None if found.best_hp is None or found.route is None else (found.best_hp, found.route)

    def good_route(
        self, level: PassagesLevel, start_hp: int, looks: int, deadline: Deadline
    ) -> tuple[int, tuple[Decision, ...]] | None:
        """The best route from `start_hp` that the single-threaded search finds within `looks` looks at the
        clock (256 expansions each: a count, so the same route on every run), with its final hp; the best
        route when the search ends sooner; None when it finds none by then."""
        found = search(SearchGraph(level, start_hp), start_hp, _Counted(deadline, looks))
        if deadline.expired():
            raise MemoryError("the route was not found in time")
        return None if found.best_hp is None or found.route is None else (found.best_hp, found.route)

    def route_through(
        self, level: PassagesLevel, start_hp: int, obj: int, deadline: Deadline, dive: bool = True
    ) -> tuple[int, tuple[Decision, ...]] | None:
        """A winning route from `start_hp` that takes object `obj` (a blocker), with its final hp; None when
        there is none. First (unless not `dive`) a dive of DIVE_LOOKS looks at the clock (a count: the same
        route on every run), which finds such a route in a few expansions where there is one; then, if it
        did not, the best-first search, which proves there is none."""
        sg = SearchGraph(level, start_hp)
        b = sg.graph.blocker_of_object.get(obj)
        if b is None or not sg.all_mask >> b & 1:
            return None  # out of reach, or a fight no route survives
        found = SearchResult(None, None, False, 0)
        if dive:
            found = search(sg, start_hp, _Counted(deadline, DIVE_LOOKS), first_win=True, dive=True, must=b)
            if deadline.expired():
                raise MemoryError("the route was not found in time")
        if found.route is None and not found.complete:
            found = search(sg, start_hp, deadline, first_win=True, priced=False, must=b)
            if not found.complete:
                raise MemoryError("the route was not found in time")
        return None if found.best_hp is None or found.route is None else (found.best_hp, found.route)

    def __init__(self) -> None:
        # The last level asked whether a position wins, with its Decider: the decision searches of one
        # level share what they show to fail (a difficulty measure asks hundreds).
        self._deciding: tuple[PassagesLevel, int, SearchGraph, object] | None = None

    def wins_from(
        self, level: PassagesLevel, start_hp: int, reached: tuple[int, int, int, int], stats: Stats, deadline: Deadline
    ) -> bool:
        """Whether some route wins from the position that consumed, reached areas, frontier and goal
        (`reached`, masks by blocker and area number of the region graph) and `stats` describe."""
        consumed, areas, frontier, goal = reached
        at = Position(consumed, areas, frontier, stats, goal)
        if self._deciding is None or self._deciding[0] is not level or self._deciding[1] != start_hp:
            sg = SearchGraph(level, start_hp)
            self._deciding = (level, start_hp, sg, _passages_core.Decider(sg.compiled_graph(), 1, False))
        _, _, sg, decider = self._deciding
        answer = decider.decide(sg.compiled_state(at), deadline)  # type: ignore[attr-defined]
        if answer is None:
            raise MemoryError("a decision search was not finished in time")
        return bool(answer)

    def signatures(
        self, level: PassagesLevel, start_hp: int, cap: int, deadline: Deadline
    ) -> list[tuple[int, tuple[Decision, ...]]]:
        """Winning routes of distinct signatures from `start_hp` (a count up to `cap`: as many as it keeps,
        passages_verdict.witnesses_kept), each with its final hp, best first."""
        best = self.best(level, start_hp, deadline)
        if best is None:
            return []
        final_hp, route = best
        sg = SearchGraph(level.with_start_hp(start_hp), start_hp)
        counted = passages_count.count(
            passages_count.Counter(sg, _passages_core, deadline), deadline, cap, final_hp, lambda: route
        )
        if not counted.complete:
            raise MemoryError("the count was not finished in time")
        return [(replay(sg.level, decisions).final_hp, decisions) for decisions in counted.witnesses]

    def others(
        self, level: PassagesLevel, start_hp: int, route: tuple[Decision, ...], cap: int, deadline: Deadline
    ) -> list[tuple[int, tuple[Decision, ...]]]:
        """Up to `cap` winning routes (at least 1 hp) from `start_hp` whose signatures differ from the
        signature of `route` and from each other, each with its final hp: the counting engine's walks with
        `route` as the first signature found, so the first of them is the witness against uniqueness.
        The route-first generator asks this of its intended route (passages_construct)."""
        sg = SearchGraph(level.with_start_hp(start_hp), start_hp)
        counter = passages_count.Counter(sg, _passages_core, deadline)
        known = [passages_count.Known.of(sg, replay(sg.level, route).signature)]
        found: list[tuple[int, tuple[Decision, ...]]] = []
        while len(found) < cap:
            try:
                other = counter.another(known, 1)
            except passages_count.OutOfTime:
                raise MemoryError("the other solutions were not found in time") from None
            if other is None:
                break
            replayed = replay(sg.level, other)
            if any(k.signature == replayed.signature for k in known):
                raise EngineBug("the counting engine found a signature twice")
            known.append(passages_count.Known.of(sg, replayed.signature))
            found.append((replayed.final_hp, other))
        return found


generator_oracle = GeneratorOracle()
