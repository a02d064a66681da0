"""The generator's explorer with its questions answered by the search and counting engines
(EngineExplorer, used from 30 blockers on) against the explorer itself and the brute force, on random small
levels where both can answer: the same least starting life, best final life, winning signatures (up to a
cap) and wins from the positions along the best route."""

from __future__ import annotations

import pytest

from twisty.generator.passages_engine_explore import EngineExplorer
from twisty.generator.passages_explore import Explorer
from twisty.generator.passages_random import random_level
from twisty.rules.passages import replay, start_hp_upper_bound
from twisty.solver import passages_brute, passages_search
from twisty.solver.passages_verdict import SOLVABLE, Deadline

pytestmark = pytest.mark.skipif(not passages_search.COMPILED_AVAILABLE, reason="the compiled core is not built")


@pytest.mark.parametrize("chunk", range(4))
def test_engine_explorer_agrees_with_the_explorer_and_the_brute_force(chunk):
    for seed in range(chunk * 15, chunk * 15 + 15):
        level = random_level(seed, cells_wide=4, cells_high=3, blockers=8, items=4, loops=0.3)
        plain = Explorer(level, budget=10_000_000)
        engine = EngineExplorer(level, passages_search.generator_oracle, deadline=Deadline(None))
        hp = level.player.hp
        best = passages_brute.best_route(level, Deadline(None))
        mine, theirs = engine.best_route(hp), plain.best_route(hp)
        assert (mine and mine[0]) == (theirs and theirs[0]) == (best.final_hp if best.status == SOLVABLE else None)
        upper = start_hp_upper_bound(level)
        assert engine.min_start_hp(upper) == plain.min_start_hp(upper), seed
        cap = 1 + seed % 5
        got = {(w.fights, w.doors) for w in engine.winning_signatures(hp, cap)}
        want = plain.winning_signatures(hp, cap)
        if len(want) <= cap:  # not capped: exactly the same signatures
            assert got == {(w.fights, w.doors) for w in want}, seed
        else:  # capped: distinct real signatures, as many as a count up to `cap` keeps
            every = {(w.fights, w.doors) for w in plain.winning_signatures(hp, 10_000)}
            assert got <= every and len(got) == (2 if cap == 1 else cap), seed
        if mine:
            assert replay(level, mine[1]).final_hp == mine[0]
            for mask, life in plain.replay_states(mine[1], hp)[:-1]:
                for life_here in (life, max(1, life // 2)):
                    assert engine.can_win_from(mask, life_here) == plain.can_win_from(mask, life_here), seed
