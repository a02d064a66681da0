"""Small helpers for passages tests: levels from TOML text."""

from twisty.rules.passages import PassagesLevel
from twisty.rules.passages_format import load_passages
from twisty.rules.source import parse_level_bytes


def level_from_toml(text: str, path: str = "test.toml") -> PassagesLevel:
    return load_passages(parse_level_bytes(text.encode(), path))


def assert_agrees_with_the_reference_at_the_edge_of_solvability(engine, level, what) -> None:
    """`engine` against the reference engine on one level: the same least starting hp; at it and with 15 hp
    to spare, the same best final hp (the route the engine reports replays with it); one hp less, no route
    for either. Medium levels (10 to 16 blockers) are where the reference engine still visits every consumed
    set and pruning that is only wrong on larger state spaces shows."""
    from twisty.rules.passages import replay
    from twisty.solver import passages_reference
    from twisty.solver.passages_verdict import SOLVABLE, Deadline

    least = engine.min_start_hp(level, Deadline(None))
    assert least == passages_reference.min_start_hp(level, Deadline(None)), what
    if least.status != "proved":
        return
    for hp in (least.value, least.value + 15):
        tried = level.with_start_hp(hp)
        found = engine.best_route(tried, Deadline(None))
        assert found.final_hp == passages_reference.best_route(tried, Deadline(None)).final_hp, (what, hp)
        if found.decisions is not None:
            assert replay(tried, found.decisions).final_hp == found.final_hp, (what, hp)
    if least.value > 1:
        below = level.with_start_hp(least.value - 1)
        assert engine.best_route(below, Deadline(None)).status != SOLVABLE, what
        assert passages_reference.best_route(below, Deadline(None)).status != SOLVABLE, what
