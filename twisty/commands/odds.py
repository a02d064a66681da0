"""`twisty odds` (Twisted Tunnels: Saving Rolls, Clashes, fights), `twisty generate tunnels` and
`twisty bench tunnels`. Parse options, call the library, print. Bad values are click usage errors (exit 2).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

import click

from twisty.bench import tunnels as tunnels_bench
from twisty.commands.writing import check_targets, write_files
from twisty.errors import UsageError
from twisty.generator.tunnels import EncounterChoice, Goal, MonsterCandidate, find_monster
from twisty.report.tunnels import (
    MAX_ARMOUR,
    MAX_CONSTITUTION,
    MAX_DIFFICULTY,
    MAX_FIGHT_DICE,
    MAX_FIGHT_WORK,
    MAX_GENERATOR_WORK,
    MAX_LEVEL,
    MAX_LUCK,
    MAX_RATING,
    clash_data,
    difficulty_of,
    fight_data,
    fight_work,
    fraction_text,
    save_data,
)
from twisty.rules.tunnels import (
    MAX_POOL_DICE,
    ArmourUse,
    ClashSide,
    Delver,
    FightChain,
    FightRules,
    Monster,
    Side,
    clash,
    saving_roll_success,
)


def _table(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> str:
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    lines = [
        "  ".join(str(cell).ljust(width) for cell, width in zip(row, widths, strict=False)).rstrip()
        for row in [header, *rows]
    ]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def _short(value: Fraction, limit: int = 24) -> str:
    """The exact fraction when it is short enough to read, else a note that --json has it."""
    text = fraction_text(value)
    return text if len(text) <= limit else f"({len(text)}-char fraction, see --json)"


class SpecType(click.ParamType):
    """A fighter written as `key=value,...` (a bare key means key=1, as in `shield`)."""

    name = "spec"

    def __init__(self, fields: dict[str, tuple[str, int, int]], required: tuple[str, ...]) -> None:
        self.fields = fields  # alias -> (field name, minimum, maximum)
        self.required = required

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> dict[str, int]:
        if isinstance(value, dict):
            return value
        found: dict[str, int] = {}
        for part in str(value).split(","):
            part = part.strip()
            if not part:
                continue
            key, _, number = part.partition("=")
            key = key.strip().lower()
            if key not in self.fields:
                self.fail(f"unknown key {key!r} in {value!r}; keys: {', '.join(sorted(self.fields))}", param, ctx)
            name, low, high = self.fields[key]
            try:
                amount = int(number) if number.strip() else 1
            except ValueError:
                self.fail(f"{key} must be a whole number, got {number!r}", param, ctx)
            if not low <= amount <= high:
                self.fail(f"{key} must be in {low}..{high}, got {amount}", param, ctx)
            found[name] = amount
        missing = [key for key in self.required if key not in found]
        if missing:
            self.fail(f"{value!r} lacks {', '.join(missing)}", param, ctx)
        return found


DELVER_SPEC = SpecType(
    {
        "combat": ("combat", 1, MAX_FIGHT_DICE),
        "dice": ("combat", 1, MAX_FIGHT_DICE),
        "con": ("constitution", 0, MAX_CONSTITUTION),
        "constitution": ("constitution", 0, MAX_CONSTITUTION),
        "luck": ("luck", 0, MAX_LUCK),
        "armour": ("armour", 0, MAX_ARMOUR),
        "armor": ("armour", 0, MAX_ARMOUR),
        "shield": ("shield", 0, 1),
    },
    required=("combat", "constitution"),
)
MONSTER_SPEC = SpecType(
    {
        "rating": ("rating", 1, MAX_RATING),
        "mr": ("rating", 1, MAX_RATING),
        "dice": ("dice", 1, MAX_FIGHT_DICE),
        "armour": ("armour", 0, MAX_ARMOUR),
        "armor": ("armour", 0, MAX_ARMOUR),
        "luck": ("luck", 0, MAX_LUCK),
        "shield": ("shield", 0, 1),
    },
    required=("rating", "dice"),
)


def _describe(spec: dict[str, int]) -> str:
    return ", ".join(
        f"{key} {value}" if key != "shield" else "shield" for key, value in spec.items() if key != "shield" or value
    )


def _delver(spec: dict[str, int]) -> Delver:
    return Delver(
        combat=spec["combat"],
        constitution=spec["constitution"],
        luck=spec.get("luck", 0),
        armour=spec.get("armour", 0),
        shield=bool(spec.get("shield", 0)),
    )


def _monster(spec: dict[str, int]) -> Monster:
    return Monster(
        rating=spec["rating"],
        dice=spec["dice"],
        armour=spec.get("armour", 0),
        luck=spec.get("luck", 0),
        shield=bool(spec.get("shield", 0)),
    )


def _difficulty(level: int | None, difficulty: int | None, default_level: int | None = None) -> int:
    try:
        return difficulty_of(level, difficulty, default_level)
    except UsageError as error:
        raise click.UsageError(
            str(error).replace("a dungeon level", "--level").replace("a difficulty", "--difficulty")
        ) from None


def _echo_json(data: dict[str, Any]) -> None:
    click.echo(json.dumps(data, sort_keys=True))


def plot_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--plot OUT and --force, as every odds command takes them."""
    command = click.option(
        "--force", is_flag=True, help="Replace the --plot file if it exists (never through a symbolic link)."
    )(command)
    return click.option(
        "--plot",
        type=click.Path(dir_okay=False),
        default=None,
        metavar="OUT.png",
        help="Also draw the odds as bars (exact fractions in the legend): OUT.png or OUT.svg.",
    )(command)


def _plot_ready(plot: str | None, force: bool) -> None:
    """Before any work: a usage error (exit 2) for a missing pictures extra, a bad file name, or a file that
    exists without --force."""
    if plot is not None:
        from twisty.render.pictures import output_suffix, require_matplotlib

        require_matplotlib()
        output_suffix(plot)
        check_targets([Path(plot)], force, "pictures")


def _plot(plot: str | None, force: bool, kind: str, result: Any, data: dict[str, Any]) -> None:
    """Draw the odds with the tunnels renderer of the registry and write them with the shared safe writer;
    the note goes to stderr (stdout may be JSON)."""
    if plot is None:
        return
    from twisty.commands.render import renderer_for
    from twisty.render.pictures import output_suffix, picture_bytes
    from twisty.report.tunnels import Odds

    picture = renderer_for("tunnels").draw_odds(Odds(kind, result, data))
    write_files([(Path(plot), picture_bytes(picture, output_suffix(plot)))], force, "pictures")
    click.echo(f"wrote {plot}", err=True)


_difficulty_options = [
    click.option(
        "--level", type=click.IntRange(1, MAX_LEVEL), default=None, help="Dungeon level: difficulty = 3 x level + 6."
    ),
    click.option(
        "--difficulty",
        type=click.IntRange(-MAX_DIFFICULTY, MAX_DIFFICULTY),
        default=None,
        help="Difficulty number given directly.",
    ),
]


def _with_difficulty(command):
    for option in reversed(_difficulty_options):
        command = option(command)
    return command


@click.group()
def odds() -> None:
    """Twisted Tunnels: exact odds of Saving Rolls, Clashes and whole fights."""


@odds.command()
@_with_difficulty
@click.option(
    "--rating",
    type=click.IntRange(-MAX_DIFFICULTY, MAX_DIFFICULTY),
    required=True,
    help="The ability rating tested (usually Luck).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@plot_options
def save(level: int | None, difficulty: int | None, rating: int, as_json: bool, plot: str | None, force: bool) -> None:
    """Chance that a Saving Roll succeeds (flop on the first throw, doubles add and roll over)."""
    _plot_ready(plot, force)
    target = _difficulty(level, difficulty)
    success = saving_roll_success(target, rating)
    _plot(plot, force, "save", success, save_data(target, rating, success))
    if as_json:
        _echo_json(save_data(target, rating, success))
        return
    where = f" (dungeon level {level})" if level is not None else ""
    click.echo(f"Saving Roll: difficulty {target}{where}, rating {rating}")
    click.echo(
        _table(
            [
                ("success", fraction_text(success), f"{float(success):.6f}"),
                ("failure", fraction_text(1 - success), f"{float(1 - success):.6f}"),
            ],
            ("outcome", "exact", "float"),
        )
    )


def _armour_pairs(values: tuple[str, ...]) -> dict[str, int]:
    armour = {"a": 0, "b": 0}
    for value in values:
        side, _, number = value.partition("=")
        side = side.strip().lower()
        if side not in armour or not number.strip().isdigit():
            raise click.BadParameter(f"write a=N or b=N, got {value!r}", param_hint="--armour")
        armour[side] = int(number)
        if armour[side] > MAX_ARMOUR:
            raise click.BadParameter(f"armour is 0..{MAX_ARMOUR}, got {armour[side]}", param_hint="--armour")
    return armour


@odds.command(name="clash")
@click.argument("a_dice", metavar="A", type=click.IntRange(0, MAX_POOL_DICE))
@click.argument("b_dice", metavar="B", type=click.IntRange(0, MAX_POOL_DICE))
@click.option("--upper-hand", type=click.Choice(["a", "b"]), default=None, help="That side rolls one more die.")
@click.option(
    "--armour",
    "--armor",
    "armour",
    multiple=True,
    metavar="SIDE=N",
    help="Armour points of a side, e.g. --armour b=2 (repeatable).",
)
@click.option(
    "--flat-footed",
    type=click.Choice(["a", "b"]),
    default=None,
    help="That side rolls no dice (its A or B is ignored) and scores its Luck (+7 with a shield).",
)
@click.option(
    "--luck", type=click.IntRange(0, MAX_LUCK), default=0, show_default=True, help="Luck of the flat-footed side."
)
@click.option("--shield", is_flag=True, help="The flat-footed side could block with a shield (+7).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@plot_options
def clash_command(
    a_dice: int,
    b_dice: int,
    upper_hand: str | None,
    armour: tuple[str, ...],
    flat_footed: str | None,
    luck: int,
    shield: bool,
    as_json: bool,
    plot: str | None,
    force: bool,
) -> None:
    """Odds of one Clash: A Combat dice against B. Wounds are those reaching each side after armour."""
    _plot_ready(plot, force)
    if upper_hand is not None and upper_hand == flat_footed:
        raise click.UsageError("a flat-footed side rolls no dice, so it cannot have the upper hand")
    if (luck or shield) and flat_footed is None:
        raise click.UsageError("--luck and --shield describe a flat-footed side: add --flat-footed a|b")
    if upper_hand and (a_dice if upper_hand == "a" else b_dice) >= MAX_POOL_DICE:
        raise click.UsageError(f"with the upper hand a side rolls at most {MAX_POOL_DICE} dice")
    armour_of = _armour_pairs(armour)
    sides = {
        name: ClashSide(
            dice=dice,
            upper_hand=upper_hand == name,
            flat_footed=flat_footed == name,
            luck=luck if flat_footed == name else 0,
            shield=shield and flat_footed == name,
            armour=armour_of[name],
        )
        for name, dice in (("a", a_dice), ("b", b_dice))
    }
    result = clash(sides["a"], sides["b"])
    _plot(plot, force, "clash", result, clash_data(sides["a"], sides["b"], result))
    if as_json:
        _echo_json(clash_data(sides["a"], sides["b"], result))
        return

    def describe(name: str) -> str:
        side = sides[name]
        if side.flat_footed:
            text = f"{name}: flat-footed, scores {side.luck + (7 if side.shield else 0)}"
        else:
            text = f"{name}: {side.dice} dice" + (" + 1 (upper hand)" if side.upper_hand else "")
        return text + (f", armour {side.armour}" if side.armour else "")

    click.echo(f"Clash  {describe('a')};  {describe('b')}")
    click.echo(
        _table(
            [
                (label, _short(value), f"{float(value):.6f}")
                for label, value in (
                    ("a wins", result.a_wins),
                    ("b wins", result.b_wins),
                    ("indecisive", result.indecisive),
                )
            ],
            ("outcome", "exact", "float"),
        )
    )
    click.echo("")
    wounds = sorted(set(result.wounds_to_a) | set(result.wounds_to_b))
    click.echo(
        _table(
            [
                (str(w), f"{float(result.wounds_to_a.get(w, 0)):.6f}", f"{float(result.wounds_to_b.get(w, 0)):.6f}")
                for w in wounds
            ],
            ("wounds taken", "by a", "by b"),
        )
    )


_fight_options = [
    click.option(
        "--upper-hand",
        type=click.Choice(["delver", "monster"]),
        default=None,
        help="That side rolls one more die in every Clash.",
    ),
    click.option(
        "--flat-footed",
        type=click.Choice(["delver", "monster"]),
        default=None,
        help="That side is caught flat-footed in the first Clash.",
    ),
    click.option(
        "--armour-use",
        type=click.Choice(["absorb", "keep"]),
        default="absorb",
        show_default=True,
        help="The delver spends armour points on wounds, or keeps them for the reeling Saving Roll.",
    ),
]


def _with_fight_options(command):
    for option in reversed(_fight_options):
        command = option(command)
    return _with_difficulty(command)


def _fight_rules(
    level: int | None, difficulty: int | None, upper_hand: str | None, flat_footed: str | None, armour_use: str
) -> FightRules:
    # click.Choice has already limited each text to the values these Literal types name.
    return FightRules(
        difficulty=_difficulty(level, difficulty, default_level=1),
        upper_hand=cast(Side | None, upper_hand),
        flat_footed=cast(Side | None, flat_footed),
        armour_use=cast(ArmourUse, armour_use),
    )


@odds.command(name="fight")
@click.option(
    "--delver", "delver_spec", type=DELVER_SPEC, required=True, help="combat=N,con=N[,luck=N,armour=N,shield]"
)
@click.option(
    "--monster", "monster_spec", type=MONSTER_SPEC, required=True, help="rating=N,dice=N[,armour=N,luck=N,shield]"
)
@_with_fight_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@plot_options
def fight_command(
    delver_spec: dict[str, int],
    monster_spec: dict[str, int],
    level: int | None,
    difficulty: int | None,
    upper_hand: str | None,
    flat_footed: str | None,
    armour_use: str,
    as_json: bool,
    plot: str | None,
    force: bool,
) -> None:
    """Odds of a whole fight: Clashes until the monster falls or the delver is disabled or perishes.

    The Saving Roll made when hit while reeling uses --level (default 1) or --difficulty.
    """
    _plot_ready(plot, force)
    rules = _fight_rules(level, difficulty, upper_hand, flat_footed, armour_use)
    delver, monster = _delver(delver_spec), _monster(monster_spec)
    chain = FightChain(delver, monster, rules)
    if fight_work(chain) > MAX_FIGHT_WORK:
        raise click.UsageError(
            f"this fight is too long to answer exactly here (up to {chain.estimated_states()}"
            f" states, {delver.combat + monster.dice} dice a Clash): lower Constitution,"
            f" armour, rating or dice"
        )
    result = chain.forward()
    _plot(plot, force, "fight", result, fight_data(result) | {"difficulty": rules.difficulty})
    if as_json:
        _echo_json(fight_data(result) | {"difficulty": rules.difficulty})
        return
    click.echo(
        f"Fight: delver {_describe(delver_spec)} against monster {_describe(monster_spec)}; "
        f"reeling save difficulty {rules.difficulty}; {result.states} states"
    )
    click.echo(
        _table(
            [
                (label, _short(value), f"{float(value):.6f}")
                for label, value in (
                    ("delver wins", result.win),
                    ("disabled", result.disabled),
                    ("perished", result.perished),
                    ("expected clashes", result.expected_clashes),
                )
            ],
            ("outcome", "exact", "float"),
        )
    )
    click.echo("")
    click.echo(
        _table(
            [(str(c), f"{float(p):.6f}") for c, p in result.constitution.items()], ("constitution left", "probability")
        )
    )


def _candidate_row(candidate: MonsterCandidate, best: MonsterCandidate) -> tuple[str, ...]:
    odds_ = candidate.odds
    return (
        "*" if candidate == best else "",
        str(candidate.rating),
        str(candidate.dice),
        f"{float(odds_.win):.4f}",
        f"{float(odds_.survival):.4f}",
        f"{float(odds_.perished):.4f}",
        f"{float(odds_.expected_clashes):.2f}",
    )


def _candidate_data(candidate: MonsterCandidate) -> dict[str, Any]:
    odds_ = candidate.odds
    data: dict[str, Any] = {"rating": candidate.rating, "dice": candidate.dice}
    for key, value in (
        ("win", odds_.win),
        ("disabled", odds_.disabled),
        ("perished", odds_.perished),
        ("survival", odds_.survival),
        ("expected_clashes", odds_.expected_clashes),
    ):
        data[key] = fraction_text(value)
        data[f"{key}_float"] = float(value)
    return data


def _probability(text: str, option: str) -> Fraction:
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise click.BadParameter(f"a probability like 0.7 or 7/10, got {text!r}", param_hint=option) from None
    if not 0 <= value <= 1:
        raise click.BadParameter(f"a probability lies in [0, 1], got {text}", param_hint=option)
    return value


@click.command(name="tunnels")
@click.option(
    "--delver", "delver_spec", type=DELVER_SPEC, required=True, help="combat=N,con=N[,luck=N,armour=N,shield]"
)
@click.option("--target", default=None, help="Wanted chance that the delver wins (0.7 or 7/10).")
@click.option(
    "--survival",
    default=None,
    help="Least chance that the delver survives; the deadliest monster meeting it is chosen.",
)
@click.option("--max-rating", type=click.IntRange(1, MAX_RATING), default=40, show_default=True)
@click.option("--max-dice", type=click.IntRange(1, MAX_FIGHT_DICE), default=8, show_default=True)
@click.option("--monster-armour", type=click.IntRange(0, MAX_ARMOUR), default=0, show_default=True)
@_with_fight_options
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def generate_tunnels(
    delver_spec: dict[str, int],
    target: str | None,
    survival: str | None,
    max_rating: int,
    max_dice: int,
    monster_armour: int,
    level: int | None,
    difficulty: int | None,
    upper_hand: str | None,
    flat_footed: str | None,
    armour_use: str,
    as_json: bool,
) -> None:
    """Twisted Tunnels: the monster (rating, dice) whose exact odds against a delver are closest to a goal."""
    if (target is None) == (survival is None):
        raise click.UsageError("give exactly one of --target (win chance) or --survival (least survival chance)")
    goal: Goal
    if target is not None:
        goal, wanted = "win", _probability(target, "--target")
    else:
        assert survival is not None  # exactly one of the two, checked above
        goal, wanted = "survival", _probability(survival, "--survival")
    rules = _fight_rules(level, difficulty, upper_hand, flat_footed, armour_use)
    delver = _delver(delver_spec)
    work = sum(
        fight_work(FightChain(delver, Monster(max_rating, dice, monster_armour), rules))
        for dice in range(1, max_dice + 1)
    )
    if work > MAX_GENERATOR_WORK:
        raise click.UsageError(
            f"this search is too large to answer exactly here (work {work} > "
            f"{MAX_GENERATOR_WORK}): lower --max-rating or --max-dice"
        )
    try:
        choice: EncounterChoice = find_monster(
            delver,
            goal,
            wanted,
            ratings=range(1, max_rating + 1),
            dice=range(1, max_dice + 1),
            rules=rules,
            monster_armour=monster_armour,
        )
    except ValueError as error:
        click.echo(f"twisty: {error}", err=True)
        sys.exit(1)
    # A best monster on the rim of the search box may have a closer one just outside it.
    at_edge = bool(choice.gap) and (choice.best.rating == max_rating or choice.best.dice == max_dice)
    if as_json:
        _echo_json(
            {
                "goal": goal,
                "target": fraction_text(wanted),
                "target_float": float(wanted),
                "at_search_edge": at_edge,
                "searched": choice.searched,
                "monster": _candidate_data(choice.best),
                "gap": fraction_text(choice.gap),
                "gap_float": float(choice.gap),
                "neighbours": [_candidate_data(c) for c in choice.neighbours],
            }
        )
        return
    best = choice.best
    measure = "win" if goal == "win" else "survival"
    click.echo(
        f"Monster: rating {best.rating}, {best.dice} dice"
        f"{f', armour {monster_armour}' if monster_armour else ''}: {measure} "
        f"{float(best.measure(goal)):.4f} for the goal {float(wanted):.4f} "
        f"(gap {float(choice.gap):.4f}; {choice.searched} monsters scored exactly)"
    )
    if at_edge:
        click.echo("The best monster is at the edge of the search: raise --max-rating or --max-dice to look further.")
    click.echo("")
    click.echo(
        _table(
            [_candidate_row(c, best) for c in choice.neighbours],
            ("", "rating", "dice", "win", "survival", "perished", "clashes"),
        )
    )


@click.command(name="tunnels")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option(
    "--repeat",
    type=click.IntRange(1, 100),
    default=5,
    show_default=True,
    help="Timed runs per case; the fastest counts.",
)
def bench_tunnels(as_json: bool, repeat: int) -> None:
    """Twisted Tunnels: twisty's exact Clash odds against icepool's, agreement and time ratio."""
    version = tunnels_bench.icepool_version()
    if version is None:
        raise click.UsageError("icepool is not installed; it is a benchmark-only dependency: pip install icepool")
    rows = tunnels_bench.run(repeat)
    if as_json:
        click.echo(json.dumps({"icepool_version": version, "repeat": repeat, "cases": rows}, indent=2))
        return
    click.echo(
        f"Clash odds, exact, cold caches, best of {repeat} (icepool {version}); "
        f"every pool's (score, hits) distribution also matched exactly"
    )
    click.echo(tunnels_bench.table(rows))
