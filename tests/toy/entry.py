"""The one registry entry of Lights Out (tests put it into twisty.games.GAMES with monkeypatch)."""

from __future__ import annotations

from twisty.games import Engine, Game, Param, Question

_ALL = frozenset({"presses", "unique"})

GAME = Game(
    name="lights",
    title="Lights Out",
    rulebook="Lights Out (tests/toy/__init__.py)",
    questions=(
        Question("presses", "whether the board can be darkened, and the fewest presses that do it"),
        Question("unique", "whether the fewest presses are the only set of that size"),
    ),
    engines=(
        Engine("gauss", "tests.toy.gauss", _ALL, "elimination over GF(2)"),
        Engine("brute", "tests.toy.engines", _ALL, "every set of presses, smallest first", baseline=False),
    ),
    auto=("gauss",),
    loader="tests.toy.rules:load_board",
    checker="tests.toy.report",
    renderer="tests.toy.pictures",
    answer="presses",
    answer_help="the fewest presses, numbered",
    page="tests.toy.page",
    generator="tests.toy.generate:generate_from",
    generator_params=(
        Param("size", "str", 'the board "ROWSxCOLS" (default 3x3)'),
        Param("presses", "int", "presses of the unique solution (default 3)"),
    ),
    solving=frozenset({"presses"}),
    headline=("presses", "unique"),
    bench_commands=(("lights", "tests.toy.commands:bench_lights"),),
)
