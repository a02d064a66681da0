"""Twisted Tunnels: Saving Rolls and dice-pool Clashes, answered with exact odds."""

from twisty.games.entry import Engine, Game, Question

GAME = Game(
    name="tunnels",
    title="Twisted Tunnels",
    rulebook="Twisted Tunnels",
    questions=(
        Question("save", "the exact odds of a Saving Roll"),
        Question("clash", "the exact odds and wounds of one Clash of dice pools"),
        Question("fight", "the exact odds of a whole fight, Clash after Clash"),
    ),
    engines=(
        Engine(
            "exact",
            "twisty.rules.tunnels",
            frozenset({"save", "clash", "fight"}),
            "exact fractions by convolution of dice pools and a Markov chain of fights",
        ),
    ),
    auto=("exact",),
    generator="twisty.generator.tunnels:find_monster",
    renderer="twisty.render.pictures_tunnels",
    docs="docs/tunnels.md",
)
