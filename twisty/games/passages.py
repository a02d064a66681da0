"""Twisty Little Passages: grid dungeons with life, attack, defence, keys, doors, elixirs, equipment and
enemies fought with exact combat."""

from twisty.games.entry import Engine, Game, Param, Question

_ALL = frozenset({"route", "min-hp", "count"})
# The tower features (docs/mota.md) that the engines on the region graph as it was answer: floors joined by
# stairs are only more of the graph. The reference engine and the brute force answer every feature.
_GRAPH_ONLY = frozenset({"floors"})
# The search engine's compiled core also holds keys of several colours, magic defence, every special whose
# damage is a function of the hero's stats at the fight (all but drain), the boss whose defeat wins, money
# and a shop (docs/mota.md, "The compiled core on towers"). Drain and items that are decisions go to the
# reference engine.
_COMPILED = _GRAPH_ONLY | {"colours", "mdef", "specials", "boss", "money", "shop"}

GAME = Game(
    name="passages",
    title="Twisty Little Passages",
    rulebook="Twisty Little Passages",
    questions=(
        Question("route", "solvable or not, and the best route (the most life left at the goal), proved"),
        Question("min-hp", "the smallest starting life with which the level can be won"),
        Question("count", "distinct solutions up to --max-solutions, and whether the best one is unique"),
    ),
    engines=(
        Engine(
            "search",
            "twisty.solver.passages_search",
            _ALL,
            "exact best-first search over consumed blockers with bounds and dominance, in a compiled core "
            "(levels it cannot hold, or no core built: the reference engine's answers)",
            bench=True,
            features=_COMPILED,
        ),
        Engine(
            "cpsat",
            "twisty.solver.passages_cpsat",
            _ALL,
            "CP-SAT model of the order in which blockers are consumed",
            bench=True,
            features=_GRAPH_ONLY,
        ),
        Engine(
            "reference",
            "twisty.solver.passages_reference",
            _ALL,
            "the genre's standard algorithm in plain Python: best life per set of consumed blockers, no "
            "bounds (the tests' oracle)",
            bench=True,
        ),
        Engine(
            "brute",
            "twisty.solver.passages_brute",
            _ALL,
            "enumeration of every order on the grid itself (tiny levels only)",
        ),
        Engine(
            "grid",
            "twisty.solver.passages_grid",
            _ALL,
            "best-first search on the grid's own cells, never the region graph: the second opinion on large "
            "levels (the rulebook's game; counts on small levels only)",
            baseline=True,
            features=frozenset(),
        ),
    ),
    auto=("search", "reference"),
    loader="twisty.rules.passages_format:load_passages",
    checker="twisty.report.passages",
    renderer="twisty.render.pictures_passages",
    answer="route",
    answer_help="the best route as a numbered path, with the hp at each step",
    page="twisty.serve.page_passages",
    generator="twisty.generator.passages:generate_from",
    bench="twisty.bench.passages",
    bench_baseline="reference",
    solving=frozenset({"route", "count"}),
    headline=("final_hp", "min_start_hp", "unique"),
    generator_params=(
        Param("size", "str", 'maze cells "WxH" (default 6x5), or width= and height='),
        Param("width", "int", "maze cells across"),
        Param("height", "int", "maze cells down"),
        Param("blockers", "int", "doors and enemies to place, the boss included (default 10)"),
        Param("difficulty", "str", "easy, medium or hard (default medium)"),
        Param("method", "str", "auto, route or repair (docs/generator-passages.md)"),
    ),
    docs="docs/passages.md",
    generate_command="twisty.commands.generate_passages:generate_passages",
    bench_commands=(
        ("passages", "twisty.commands.bench_passages:bench_passages"),
        ("generate", "twisty.commands.bench_passages:bench_generate"),
    ),
    # Real Magic Tower towers in and out (docs/mota.md).
    commands=(
        ("import", "twisty.commands.importing:import_group"),
        ("export", "twisty.commands.export:export_group"),
    ),
)
