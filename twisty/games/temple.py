"""Temple Twist: a cooperative round in a 3D temple; turn it and build walls so that the die explores the
revealed rooms and leaves by the revealed door."""

from twisty.games.entry import Engine, Game, Param, Question

_ALL = frozenset({"win", "unique", "bounce", "pooled"})

GAME = Game(
    name="temple",
    title="Temple Twist",
    rulebook="Temple Twist",
    questions=(
        Question("win", "winnable or not, the fewest turns and a shortest plan, proved"),
        Question("unique", "whether the shortest plan is the only one (plans differ by their temple states)"),
        Question("bounce", "the fewest turns of a bounce-safe plan (no fall longer than the round's bounce)"),
        Question("pooled", "the fewest turns if all cards were one pool (no seats, no swap)"),
    ),
    engines=(
        Engine(
            "race",
            "twisty.solver.temple_race",
            _ALL,
            "the search and the SAT engine in turn on each question, the first proof counts",
        ),
        Engine(
            "sat",
            "twisty.solver.temple_sat",
            _ALL,
            "SAT over time steps: shortest by growing the horizon, uniqueness by blocking the states",
        ),
        Engine(
            "search",
            "twisty.solver.temple_search",
            _ALL,
            "exact search over full states (temple, hands, swap) in order of turns, walls decided when they matter",
        ),
    ),
    auto=("race",),
    loader="twisty.rules.temple.loader:load_round",
    checker="twisty.report.temple",
    renderer="twisty.render.pictures_temple",
    answer="plan",
    answer_help="one small picture per turn of the plan",
    page="twisty.serve.page_temple",
    generator="twisty.generator.temple_entry:generate_from",
    bench="twisty.bench.temple",
    solving=frozenset({"win", "unique"}),
    headline=("turns", "unique"),
    generator_params=(
        Param("players", "int", "players (default 2)"),
        Param("turns", "int", "turns of the unique shortest plan (default 4)"),
        Param("cards", "int", "cards dealt (default: turns)"),
        Param("rooms", "int", "rooms revealed (default: one for each turn but the last)"),
        Param("challenges", "words", "challenge cards to play with"),
        Param("temple", "str", "a round file whose temple to use (default: the standard temple)"),
        Param("bounce_safe", "flag", "the unique shortest plan must also be bounce-safe (default False)"),
        Param("swap", "flag", "the round plays with the Swap card token (default True)"),
    ),
    docs="docs/temple.md",
    generate_command="twisty.commands.temple:generate_temple",
    bench_commands=(("temple", "twisty.commands.temple:bench_temple"),),
)
