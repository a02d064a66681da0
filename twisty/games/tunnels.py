"""Twisted Tunnels: Saving Rolls and dice-pool Clashes, answered with exact odds."""

from twisty.games.entry import Engine, Game, Param, Question

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
    generator="twisty.generator.tunnels_entry:generate_from",
    generator_params=(
        Param("delver", "spec", "combat=N,con=N[,luck=N,armour=N,shield]"),
        Param("target", "probability", "wanted chance that the delver wins"),
        Param("survival", "probability", "least chance that the delver survives (the deadliest such monster)"),
        Param("max_rating", "int", "largest Monster Rating searched (default 40)"),
        Param("max_dice", "int", "most Combat dice searched (default 8)"),
        Param("monster_armour", "int", "the monster's armour (default 0)"),
        Param("level", "int", "dungeon level of the reeling Saving Roll (default 1)"),
        Param("difficulty", "int", "difficulty of the reeling Saving Roll, given directly"),
        Param("upper_hand", "str", "delver or monster: that side rolls one more die in every Clash"),
        Param("flat_footed", "str", "delver or monster: caught flat-footed in the first Clash"),
        Param("armour_use", "str", "absorb (default) or keep"),
    ),
    renderer="twisty.render.pictures_tunnels",
    docs="docs/tunnels.md",
    generate_command="twisty.commands.odds:generate_tunnels",
    bench_commands=(("tunnels", "twisty.commands.odds:bench_tunnels"),),
    commands=(("odds", "twisty.commands.odds:odds"),),
)
