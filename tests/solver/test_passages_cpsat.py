"""The CP-SAT passages engine: hand-worked micro levels, and a differential test against brute force.

Each micro level's answer is worked out by hand in its comment from the rules of passages.md (damage =
hits received x max(0, enemy atk - player def), hits = ceil(enemy hp / (atk - enemy def)) - 1, or without
the -1 for first strike).
"""

from __future__ import annotations

import os
import random
import signal
import threading
import time
from pathlib import Path

import pytest
from ortools.sat.python import cp_model

from tests import sampling
from tests.passages_helpers import level_from_toml
from twisty.encodings.passages_cpsat import OutOfTime, build_model
from twisty.generator.passages_random import random_level
from twisty.rules.passages import PassagesLevel, initial_state, reachable_goals, replay
from twisty.rules.passages_format import load_passages
from twisty.rules.source import read_level
from twisty.solver import passages_brute, passages_cpsat
from twisty.solver.passages_verdict import Deadline, MinStartHp


def level(map_text: str, player: str, legend: str) -> PassagesLevel:
    return level_from_toml(
        f'game = "passages"\nmap = """\n{map_text.strip()}\n"""\n[player]\n{player}\n[legend]\n{legend}\n'
    )


def answers(lvl: PassagesLevel, cap: int = 50):
    """best route, min start hp and solution count, with every returned route replayed by the rules."""
    best = passages_cpsat.best_route(lvl, Deadline(None))
    if best.decisions is not None:
        assert replay(lvl, best.decisions).final_hp == best.final_hp
    smallest = passages_cpsat.min_start_hp(lvl, Deadline(None))
    count = passages_cpsat.count_solutions(lvl, Deadline(None), cap, best.final_hp)
    signatures = {replay(lvl, route).signature for route in count.witnesses}
    assert len(signatures) == len(count.witnesses)
    hps = [replay(lvl, route).final_hp for route in count.witnesses]
    assert hps == sorted(hps, reverse=True)
    return best, smallest, count


# S(1,1); a key k below it. Door D(1,3) leads to the goal; door D(3,1) to an elixir pocket only. With
# one key, opening the elixir door first leaves none for the goal door: exactly one solution, {D(1,3)}.
KEY_BUDGET = """
#######
#S.D.G#
#k#####
#D+####
#######
"""


def test_key_budget_punishes_the_wrong_door():
    lvl = level(KEY_BUDGET, "hp = 10", 'k = { kind = "key" }\nD = { kind = "door" }\n"+" = { kind = "elixir", hp = 5 }')
    best, smallest, count = answers(lvl)
    goal_door = lvl.thing_at[(1, 3)]
    assert (best.status, best.final_hp, best.proved) == ("solvable", 10, True)
    assert best.decisions == (("open", goal_door), ("goal", 0))
    assert (smallest.status, smallest.value) == ("proved", 1)
    assert (count.solutions, count.optimal, count.capped, count.complete) == (1, 1, False, True)


def test_two_keys_allow_the_elixir_detour_as_a_second_solution():
    lvl = level(
        KEY_BUDGET,
        "hp = 10\nkeys = 1",
        'k = { kind = "key" }\nD = { kind = "door" }\n"+" = { kind = "elixir", hp = 5 }',
    )
    best, _, count = answers(lvl)
    # Both doors: 10 + 5 = 15; the goal door alone: 10.
    assert best.final_hp == 15
    assert (count.solutions, count.optimal) == (2, 1)
    assert replay(lvl, count.witnesses[1]).final_hp == 10


# The Warden e (hp 6, atk 3, def 0) guards the goal. At atk 1: 6 strikes, 5 hits x 3 = 15 damage; with
# the sword (+1 atk) behind the door: 3 strikes, 2 hits x 3 = 6 damage.
FETCH_THE_SWORD = """
#######
#S.e.G#
#k#####
#D/####
#######
"""
SWORD_LEGEND = (
    'k = { kind = "key" }\nD = { kind = "door" }\n"/" = { kind = "equipment", atk = 1 }\n'
    'e = { kind = "enemy", name = "Warden", hp = 6, atk = 3, def = 0 }'
)


def test_equipment_must_be_fetched_before_the_fight():
    lvl = level(FETCH_THE_SWORD, "hp = 12\natk = 1", SWORD_LEGEND)
    best, smallest, count = answers(lvl)
    door, warden = lvl.thing_at[(3, 1)], lvl.thing_at[(1, 3)]
    # 15 >= 12 without the sword, so only the sword route survives: 12 - 6 = 6.
    assert (best.status, best.final_hp) == ("solvable", 6)
    assert best.decisions == (("open", door), ("fight", warden), ("goal", 0))
    # 6 damage needs 7 hp.
    assert (smallest.status, smallest.value) == ("proved", 7)
    assert (count.solutions, count.optimal) == (1, 1)


def test_with_life_to_spare_fighting_bare_handed_is_another_signature():
    lvl = level(FETCH_THE_SWORD, "hp = 16\natk = 1", SWORD_LEGEND)
    best, _, count = answers(lvl)
    warden = lvl.thing_at[(1, 3)]
    # Sword: 16 - 6 = 10. Bare-handed (also with or without the door): 16 - 15 = 1.
    assert best.final_hp == 10
    # Signatures: {door, Warden@(2,0)}, {Warden@(1,0)}, {door, Warden@(1,0)} (door opened after the fight).
    assert (count.solutions, count.optimal) == (3, 1)
    signatures = {replay(lvl, route).signature for route in count.witnesses}
    assert {fights for _, fights in signatures} == {frozenset({(warden, 2, 0)}), frozenset({(warden, 1, 0)})}


# A lone enemy (hp 2, atk 4, def 0) before the goal; the player has atk 2, so one strike kills it.
FIRST_STRIKE = """
######
#S.eG#
######
"""


def test_first_strike_enemy_hits_before_dying():
    lvl = level(
        FIRST_STRIKE,
        "hp = 5\natk = 2",
        'e = { kind = "enemy", name = "Viper", hp = 2, atk = 4, def = 0, first_strike = true }',
    )
    best, smallest, count = answers(lvl)
    # One strike kills it, but first strike lands 1 hit of 4: 5 - 4 = 1, and 5 hp is the least.
    assert (best.status, best.final_hp) == ("solvable", 1)
    assert (smallest.status, smallest.value) == ("proved", 5)
    assert (count.solutions, count.optimal) == (1, 1)


def test_without_first_strike_the_same_enemy_is_free_and_left_out_of_the_signature():
    lvl = level(FIRST_STRIKE, "hp = 5\natk = 2", 'e = { kind = "enemy", name = "Viper", hp = 2, atk = 4, def = 0 }')
    best, smallest, count = answers(lvl)
    assert best.final_hp == 5
    assert (smallest.status, smallest.value) == ("proved", 1)
    assert (count.solutions, count.optimal) == (1, 1)
    assert replay(lvl, count.witnesses[0]).signature == (frozenset(), frozenset())


def test_an_enemy_that_cannot_be_harmed_makes_the_level_unwinnable():
    # Player atk 1 against def 1 (the only sword is behind the enemy itself): no hp suffices.
    lvl = level(
        "#######\n#S.e/G#\n#######",
        "hp = 50\natk = 1",
        'e = { kind = "enemy", name = "Golem", hp = 1, atk = 1, def = 1 }\n"/" = { kind = "equipment", atk = 5 }',
    )
    best, smallest, count = answers(lvl)
    assert (best.status, best.proved) == ("unsolvable", True)
    assert smallest.status == "none"
    assert (count.solutions, count.optimal, count.complete, count.witnesses) == (0, 0, True, ())


def test_two_doors_in_a_row_with_one_key_are_unwinnable_at_any_hp():
    lvl = level("#######\n#SkDDG#\n#######", "hp = 3", 'k = { kind = "key" }\nD = { kind = "door" }')
    best, smallest, _ = answers(lvl)
    assert best.status == "unsolvable"
    assert smallest.status == "none"


# The rulebook's enemy as a boss (hp 3, atk 3, def 0): 6/4/2 damage at atk 1 and def 0/1/2. A shield
# (+1 def) waits behind a door; with 5 hp only the shield route survives, 5 - 4 = 1.
BOSS = """
#######
#S.b.G#
#k#####
#D]####
#######
"""


def test_boss_beaten_with_exactly_one_hp():
    lvl = level(
        BOSS,
        "hp = 5\natk = 1",
        'k = { kind = "key" }\nD = { kind = "door" }\n'
        '"]" = { kind = "equipment", def = 1 }\n'
        'b = { kind = "enemy", name = "Lich", hp = 3, atk = 3, def = 0, boss = true }',
    )
    best, smallest, count = answers(lvl)
    assert (best.status, best.final_hp, best.proved) == ("solvable", 1, True)
    assert (smallest.status, smallest.value) == ("proved", 5)
    assert (count.solutions, count.optimal) == (1, 1)


# Two enemies on two ways to the goal: a (hp 2, atk 2) costs 1 hit x 2 = 2, b (hp 2, atk 3) 1 x 3 = 3 at
# atk 1. Signatures {a}, {b} and {a, b} (the route may fight on before stepping onto the goal).
TWO_WAYS = """
#####
#S.a#
#.#.#
#b.G#
#####
"""
TWO_WAYS_LEGEND = (
    'a = { kind = "enemy", name = "Imp", hp = 2, atk = 2, def = 0 }\n'
    'b = { kind = "enemy", name = "Orc", hp = 2, atk = 3, def = 0 }'
)


def test_signatures_count_each_way_and_both():
    lvl = level(TWO_WAYS, "hp = 10\natk = 1", TWO_WAYS_LEGEND)
    best, smallest, count = answers(lvl)
    assert best.final_hp == 8
    assert (smallest.status, smallest.value) == ("proved", 3)
    assert (count.solutions, count.optimal, count.capped) == (3, 1, False)
    assert [replay(lvl, route).final_hp for route in count.witnesses] == [8, 7, 5]


def test_fighting_both_needs_more_than_five_hp():
    lvl = level(TWO_WAYS, "hp = 5\natk = 1", TWO_WAYS_LEGEND)
    _, _, count = answers(lvl)
    assert (count.solutions, count.optimal) == (2, 1)


def test_the_cap_stops_counting_and_says_so():
    lvl = level(TWO_WAYS, "hp = 10\natk = 1", TWO_WAYS_LEGEND)
    count = passages_cpsat.count_solutions(lvl, Deadline(None), 2, 8)
    assert (count.solutions, count.optimal, count.capped, count.complete) == (2, 1, True, True)
    assert [replay(lvl, route).final_hp for route in count.witnesses] == [8, 7]


def test_the_best_route_leaves_out_fights_it_does_not_need():
    # A harmless rat (atk 0) guards an empty pocket; the goal is in reach from the start.
    lvl = level(
        "######\n#G.Sr.#\n######", "hp = 3\natk = 1", 'r = { kind = "enemy", name = "Rat", hp = 1, atk = 0, def = 0 }'
    )
    best = passages_cpsat.best_route(lvl, Deadline(None))
    assert (best.final_hp, best.decisions) == (3, (("goal", 0),))


def test_a_spent_deadline_answers_unknown():
    lvl = level(TWO_WAYS, "hp = 10\natk = 1", TWO_WAYS_LEGEND)
    spent = Deadline(0)
    assert passages_cpsat.best_route(lvl, spent).status == "unknown"
    assert passages_cpsat.min_start_hp(lvl, spent).status == "unknown"
    assert passages_cpsat.count_solutions(lvl, spent, 10, None).complete is False


SUITE = Path(__file__).resolve().parents[2] / "twisty" / "bench" / "suites" / "passages"


@pytest.mark.parametrize("seconds", [0, 1.0])
def test_a_large_level_past_its_deadline_answers_unknown(seconds):
    """120 blockers: building the model takes seconds and CP-SAT's uninterruptible setup far longer, so
    an expired or tiny deadline must end in "unknown" for every question, never a guess. (Statuses only:
    no timing is asserted.)"""
    lvl = load_passages(read_level(SUITE / "b120-00.toml"))
    best = passages_cpsat.best_route(lvl, Deadline(seconds))
    assert (best.status, best.final_hp, best.decisions, best.proved) == ("unknown", None, None, False)
    assert passages_cpsat.min_start_hp(lvl, Deadline(seconds)) == MinStartHp("unknown")
    count = passages_cpsat.count_solutions(lvl, Deadline(seconds), 10, None)
    assert (count.complete, count.witnesses) == (False, ())


class OneSecondLeft(Deadline):
    """A deadline that never expires while the model is built and always has one second left."""

    def __init__(self) -> None:
        super().__init__(1.0)

    def remaining(self) -> float:
        return 1.0


def test_a_model_too_large_for_the_time_left_is_not_solved():
    """90 blockers, fully built: CP-SAT's setup alone (which its time limit does not interrupt) would take
    far more than the second left, so every question answers unknown."""
    lvl = load_passages(read_level(SUITE / "b090-00.toml"))
    assert passages_cpsat.best_route(lvl, OneSecondLeft()).status == "unknown"
    assert passages_cpsat.min_start_hp(lvl, OneSecondLeft()) == MinStartHp("unknown")
    assert passages_cpsat.count_solutions(lvl, OneSecondLeft(), 10, None).complete is False


def test_an_expired_deadline_stops_the_model_building():
    lvl = load_passages(read_level(SUITE / "b120-00.toml"))
    with pytest.raises(OutOfTime):
        build_model(lvl, deadline=Deadline(0))


class Countdown(Deadline):
    """A deadline that never passes, whose remaining() gives 100, 90, 80, ... seconds, one per call."""

    def __init__(self) -> None:
        super().__init__(None)
        self.given: list[float] = []

    def remaining(self) -> float:
        self.given.append(100.0 - 10 * len(self.given))
        return self.given[-1]

    def expired(self) -> bool:
        return False


class RecordingSolver(cp_model.CpSolver):
    """CP-SAT's solver, recording the time limit of every solve and every request to stop."""

    limits: list[float] = []
    stops: list[RecordingSolver] = []

    def solve(self, *args, **kwargs):
        RecordingSolver.limits.append(self.parameters.max_time_in_seconds)
        return super().solve(*args, **kwargs)

    def stop_search(self) -> None:
        RecordingSolver.stops.append(self)
        super().stop_search()


@pytest.fixture
def recording_solver(monkeypatch):
    RecordingSolver.limits, RecordingSolver.stops = [], []
    monkeypatch.setattr(passages_cpsat.cp_model, "CpSolver", RecordingSolver)
    return RecordingSolver


def test_every_solve_gets_the_time_left_on_the_one_deadline(recording_solver):
    # Three signatures and a last, infeasible solve: four solves, each limited to what the deadline
    # had left when it started (never a fresh full timeout).
    lvl = level(TWO_WAYS, "hp = 10\natk = 1", TWO_WAYS_LEGEND)
    countdown = Countdown()
    count = passages_cpsat.count_solutions(lvl, countdown, 10, 8)
    assert count.solutions == 3
    assert recording_solver.limits == countdown.given == [100.0, 90.0, 80.0, 70.0]


class PassesMidSolve(Deadline):
    """Two minutes left by remaining() (CP-SAT's own limit), but passed from the twentieth look while the
    solver thread runs: only the engine's own watch can stop the search that early."""

    def __init__(self) -> None:
        super().__init__(None)
        self.looks_while_solving = 0

    def remaining(self) -> float:
        return 120.0

    def expired(self) -> bool:
        if any(thread.name == "cpsat-solve" for thread in threading.enumerate()):
            self.looks_while_solving += 1
        return self.looks_while_solving >= 20


def test_the_search_stops_when_the_deadline_passes_mid_solve(recording_solver):
    lvl = load_passages(read_level(SUITE / "b040-00.toml"))  # CP-SAT does not prove it in a minute
    best = passages_cpsat.best_route(lvl, PassesMidSolve())
    assert best.proved is False and best.status in ("unknown", "solvable")
    assert len(recording_solver.stops) == 1
    assert recording_solver.stops[0].wall_time < 60  # stopped long before its own limit of 120 s


def test_ctrl_c_during_a_solve_raises_keyboard_interrupt_and_ends_the_solver():
    """OR-Tools catches SIGINT during a solve unless told not to; the engine must hand it to Python."""
    lvl = load_passages(read_level(SUITE / "b040-00.toml"))

    def interrupt_once_solving() -> None:
        while not any(thread.name == "cpsat-solve" for thread in threading.enumerate()):
            time.sleep(0.01)
        time.sleep(0.3)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt_once_solving, daemon=True).start()
    with pytest.raises(KeyboardInterrupt) as caught:
        passages_cpsat.best_route(lvl, Deadline(None))
    assert any(entry.name == "_solve" for entry in caught.traceback)
    for thread in threading.enumerate():
        if thread.name == "cpsat-solve":
            thread.join(60)  # the search was told to stop: it ends (unstopped, it would run for ever)
            assert not thread.is_alive()


# ------------------------------------------------------------------------------------------ differential


def differential_level(seed: int) -> PassagesLevel:
    """A small random level (1..8 blockers). Four in five have the goal out of reach at the start (drawn
    again until so), so most routes go through doors and fights."""
    rng = random.Random(f"differential {seed}")
    want_goal_behind = rng.random() < 0.8
    while True:
        wide, high = rng.choice([(2, 2), (3, 2), (3, 3), (4, 3)])
        room = 2 * wide * high - 1 - 2  # floor cells of a perfect maze, less start and goal
        blockers = min(rng.randint(1, 8), room)
        items = min(rng.randint(0, 5), room - blockers)
        lvl = random_level(
            rng.randrange(1 << 30),
            cells_wide=wide,
            cells_high=high,
            blockers=blockers,
            items=items,
            loops=rng.choice([0.0, 0.1, 0.25]),
            door_share=rng.choice([0.2, 0.35, 0.5]),
        )
        if (not reachable_goals(lvl, initial_state(lvl)[0])) == want_goal_behind:
            return lvl


def compare_engines(levels, cap: int = 50) -> dict[str, int]:
    """Assert that CP-SAT and brute force give the same answers on every level; return figures."""
    figures = {"levels": 0, "solvable": 0, "through_blockers": 0, "several_solutions": 0, "capped": 0}
    for number, lvl in enumerate(levels):
        where = f"level {number} ({lvl.name})"
        brute = passages_brute.best_route(lvl, Deadline(None))
        cpsat = passages_cpsat.best_route(lvl, Deadline(None))
        assert (cpsat.status, cpsat.final_hp, cpsat.proved) == (brute.status, brute.final_hp, True), where
        if cpsat.decisions is not None:
            assert replay(lvl, cpsat.decisions).final_hp == brute.final_hp, where
        assert passages_cpsat.min_start_hp(lvl, Deadline(None)) == passages_brute.min_start_hp(lvl, Deadline(None)), (
            where
        )
        brute_count = passages_brute.count_solutions(lvl, Deadline(None), cap, brute.final_hp)
        cpsat_count = passages_cpsat.count_solutions(lvl, Deadline(None), cap, brute.final_hp)
        assert (cpsat_count.solutions, cpsat_count.optimal, cpsat_count.capped, cpsat_count.complete) == (
            brute_count.solutions,
            brute_count.optimal,
            brute_count.capped,
            True,
        ), where
        if not brute_count.capped:
            brute_signatures = {replay(lvl, route).signature for route in brute_count.witnesses}
            assert {replay(lvl, route).signature for route in cpsat_count.witnesses} == brute_signatures, where
        figures["levels"] += 1
        figures["solvable"] += brute.status == "solvable"
        figures["through_blockers"] += brute.status == "solvable" and len(brute.decisions) > 1
        figures["several_solutions"] += brute_count.solutions > 1
        figures["capped"] += brute_count.capped
    return figures


def test_cpsat_agrees_with_brute_force_on_random_small_levels():
    figures = compare_engines(differential_level(seed) for seed in range(250))
    assert figures["levels"] == 250
    # Counts must be exact here, and the sample must exercise the engine: many winnable levels, most
    # through doors and fights, and levels with several solutions.
    assert figures["capped"] == 0
    assert figures["solvable"] >= 0.4 * figures["levels"]
    assert figures["through_blockers"] >= 0.3 * figures["levels"]
    assert figures["several_solutions"] >= 0.1 * figures["levels"]


@pytest.mark.slow
def test_cpsat_agrees_with_brute_force_on_many_more_random_levels(slow_sample):
    figures = compare_engines(differential_level(seed) for seed in slow_sample(range(250, 2250)))
    if sampling.whole():  # the make-up of the 2,000 levels, not of a sample of them
        assert figures["solvable"] >= 0.4 * figures["levels"]


@pytest.mark.slow
def test_cpsat_agrees_with_brute_force_on_medium_levels_including_capped_counts(slow_sample):
    def medium(seed: int) -> PassagesLevel:
        rng = random.Random(f"medium {seed}")
        return random_level(
            rng.randrange(1 << 30),
            cells_wide=5,
            cells_high=4,
            blockers=rng.randint(12, 16),
            items=rng.randint(3, 8),
            loops=0.1,
        )

    figures = compare_engines((medium(seed) for seed in slow_sample(range(60))), cap=20)
    if sampling.whole():  # the make-up of the 60 levels, not of a sample of them
        assert figures["solvable"] >= 0.3 * figures["levels"]
        assert figures["capped"] >= 1
