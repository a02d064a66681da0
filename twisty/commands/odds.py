"""`twisty odds` (Twisted Tunnels: Saving Rolls, Clashes, fights), `twisty generate tunnels` and
`twisty bench tunnels`. Parse options, call the library, print. Bad values are click usage errors (exit 2).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from twisty.bench import tunnels as tunnels_bench
from twisty.commands.common import EXIT_FAILED, timeout_option
from twisty.commands.writing import check_targets, write_files
from twisty.errors import GenerationError, LimitReached, UsageError
from twisty.generator.tunnels import MonsterCandidate
from twisty.generator.tunnels_entry import fighter_fields, find_monster_for
from twisty.limits import Deadline
from twisty.report.tunnels import (
    MAX_ARMOUR,
    MAX_DIFFICULTY,
    MAX_FIGHT_DICE,
    MAX_LEVEL,
    MAX_LUCK,
    MAX_RATING,
    Odds,
    clash_odds,
    fraction_text,
)
from twisty.report.tunnels_params import clash_sides, odds_for
from twisty.rules.tunnels import MAX_POOL_DICE


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
    """A fighter written as `key=value,...` (a bare key means key=1, as in `shield`), read as the API reads
    it (twisty.report.tunnels_params), with the same messages."""

    name = "spec"

    def __init__(self, role: str) -> None:
        self.role = role

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> dict[str, int]:
        if isinstance(value, dict):
            return value
        try:
            return fighter_fields(str(value), self.role)
        except UsageError as error:
            self.fail(str(error), param, ctx)


DELVER_SPEC = SpecType("delver")
MONSTER_SPEC = SpecType("monster")


@contextmanager
def usage_errors() -> Iterator[None]:
    """A bad value found by the shared reading of the parameters is a usage error of the command (its
    usage line, then the message; exit 2)."""
    try:
        yield
    except UsageError as error:
        raise click.UsageError(str(error)) from None


def _describe(spec: dict[str, int]) -> str:
    return ", ".join(
        f"{key} {value}" if key != "shield" else "shield" for key, value in spec.items() if key != "shield" or value
    )


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


def _plot(plot: str | None, force: bool, answer: Odds) -> None:
    """Draw the odds with the tunnels renderer of the registry and write them with the shared safe writer;
    the note goes to stderr (stdout may be JSON)."""
    if plot is None:
        return
    from twisty.commands.render import renderer_for
    from twisty.render.pictures import output_suffix, picture_bytes

    picture = renderer_for("tunnels").draw_odds(answer)
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
    with usage_errors():
        answer = odds_for("save", {"rating": rating, "level": level, "difficulty": difficulty})
    target, success = answer.data["difficulty"], answer.result
    _plot(plot, force, answer)
    if as_json:
        _echo_json(answer.to_json())
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
    params = {"a": a_dice, "b": b_dice, "upper_hand": upper_hand, "flat_footed": flat_footed, "luck": luck}
    with usage_errors():
        sides = dict(zip("ab", clash_sides(params | {"shield": shield, "armour": list(armour)}), strict=True))
        answer = clash_odds(sides["a"], sides["b"])
    result = answer.result
    _plot(plot, force, answer)
    if as_json:
        _echo_json(answer.to_json())
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
    rules = {"level": level, "difficulty": difficulty, "upper_hand": upper_hand, "flat_footed": flat_footed}
    with usage_errors():
        answer = odds_for("fight", rules | {"armour_use": armour_use, "delver": delver_spec, "monster": monster_spec})
    result = answer.result
    _plot(plot, force, answer)
    if as_json:
        _echo_json(answer.to_json())
        return
    click.echo(
        f"Fight: delver {_describe(delver_spec)} against monster {_describe(monster_spec)}; "
        f"reeling save difficulty {answer.data['difficulty']}; {result.states} states"
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
@timeout_option("Seconds for the whole search; past them the answer is unknown (exit 1).")
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
    timeout: float | None,
) -> None:
    """Twisted Tunnels: the monster (rating, dice) whose exact odds against a delver are closest to a goal.

    Exit 0 with the monster, 1 when no monster meets a survival goal or the time runs out, 2 for bad options.
    """
    deadline = Deadline(timeout)
    params = {
        "delver": delver_spec,
        "max_rating": max_rating,
        "max_dice": max_dice,
        "monster_armour": monster_armour,
        "level": level,
        "difficulty": difficulty,
        "upper_hand": upper_hand,
        "flat_footed": flat_footed,
        "armour_use": armour_use,
    }
    if target is not None:
        params["target"] = target
    if survival is not None:
        params["survival"] = survival
    try:
        with usage_errors():
            found = find_monster_for(params, deadline)
    except GenerationError as error:
        click.echo(f"twisty: {error}", err=True)
        sys.exit(EXIT_FAILED)
    except LimitReached as reached:
        if as_json:
            _echo_json({"status": "unknown", "cap": reached.cap, "monster": None})
        click.echo(f"twisty: unknown: no monster found within the {reached.cap}", err=True)
        sys.exit(EXIT_FAILED)
    if as_json:
        _echo_json(found.to_json())
        return
    choice, goal, wanted, at_edge = found.choice, found.choice.goal, found.choice.target, found.at_search_edge
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
