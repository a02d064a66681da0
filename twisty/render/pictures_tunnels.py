"""The picture of Twisted Tunnels odds (`twisty odds ... --plot OUT.png`): the outcomes as bars with their
exact fractions in the legend, and beside them the wounds of a Clash or the Constitution a fight leaves.

Drawn from the Odds that twisty.odds hands back (twisty.report.tunnels.Odds): its exact result and the
JSON of `odds --json`, whose fractions are the ones printed.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from twisty.render.pictures import (
    BLACK,
    BLUE,
    GREEN,
    ORANGE,
    SKY_BLUE,
    VERMILLION,
    Picture,
    new_figure,
    plain_text,
    short_fraction,
)
from twisty.report.tunnels import Odds, fraction_text

# (label, attribute, colour, hatch) per outcome; hatches keep the bars apart in grey.
_OUTCOMES: dict[str, list[tuple[str, str | None, str, str]]] = {
    "save": [("success", "success", GREEN, ""), ("failure", None, VERMILLION, "///")],
    "clash": [
        ("a wins", "a_wins", BLUE, ""),
        ("b wins", "b_wins", VERMILLION, "///"),
        ("indecisive", "indecisive", SKY_BLUE, ".."),
    ],
    "fight": [
        ("delver wins", "win", GREEN, ""),
        ("disabled", "disabled", ORANGE, ".."),
        ("perished", "perished", VERMILLION, "///"),
    ],
}


def outcomes(odds: Odds) -> list[tuple[str, Fraction, str, str]]:
    """The outcomes drawn as bars: (label, exact probability, colour, hatch); they add up to 1."""
    found = []
    for label, attribute, colour, hatch in _OUTCOMES[odds.kind]:
        if attribute is None:  # a save's failure
            value = 1 - odds.result
        elif odds.kind == "save":
            value = odds.result
        else:
            value = getattr(odds.result, attribute)
        found.append((label, Fraction(value), colour, hatch))
    return found


def title_of(odds: Odds) -> str:
    data = odds.to_json()
    if odds.kind == "save":
        return f"Saving Roll: difficulty {data['difficulty']}, rating {data['rating']}"
    if odds.kind == "clash":

        def side(name: str) -> str:
            part = data[name]
            if part["flat_footed"]:
                text = f"{name} flat-footed"
            else:
                text = f"{name}: {part['dice']} dice" + (" +1 (upper hand)" if part["upper_hand"] else "")
            return text + (f", armour {part['armour']}" if part["armour"] else "")

        return f"Clash  {side('a')};  {side('b')}"
    return f"Fight: {data['states']} states; reeling save difficulty {data.get('difficulty', '?')}"


@plain_text
def draw_odds(odds: Odds, title: str | None = None) -> Picture:
    """The outcome bars (exact fractions in the legend) and, for a Clash or a fight, the distribution of
    wounds taken or of the Constitution left."""
    from matplotlib.patches import Patch

    two = odds.kind in ("clash", "fight")
    figure = new_figure(10.5 if two else 6.5, 4.2)
    picture = Picture(figure)
    axes = figure.add_subplot(1, 2, 1) if two else figure.add_subplot()
    bars = outcomes(odds)
    handles = []
    for position, (label, value, colour, hatch) in enumerate(bars):
        (bar,) = axes.bar([position], [float(value)], color=colour, hatch=hatch, edgecolor=BLACK, linewidth=0.8)
        exact = fraction_text(value)
        picture.tip(bar, f"outcome-{position}", f"{label}: {exact} = {float(value):.6f}")
        axes.text(position, float(value) + 0.015, f"{float(value):.1%}", ha="center", va="bottom", fontsize=8)
        handles.append(
            Patch(facecolor=colour, hatch=hatch, edgecolor=BLACK, label=f"{label} = {short_fraction(exact)}")
        )
    axes.set_xticks(range(len(bars)), [label for label, *_ in bars], fontsize=8)
    axes.set_ylim(0, 1.12)
    axes.set_ylabel("probability")
    figure.legend(
        handles=handles, loc="outside lower left", fontsize=7.5, title="exact odds", title_fontsize=8, alignment="left"
    )
    axes.set_title(title or title_of(odds), fontsize=9, loc="left")
    if odds.kind == "clash":
        _distribution(
            picture,
            figure.add_subplot(1, 2, 2),
            "wounds reaching each side after armour",
            "wounds",
            [("to a", odds.result.wounds_to_a, BLUE, ""), ("to b", odds.result.wounds_to_b, VERMILLION, "///")],
        )
    elif odds.kind == "fight":
        _distribution(
            picture,
            figure.add_subplot(1, 2, 2),
            "the delver's Constitution when the fight ends",
            "Constitution left",
            [("delver", odds.result.constitution, GREEN, "")],
        )
    return picture


def _distribution(
    picture: Picture, axes: Any, title: str, xlabel: str, series: list[tuple[str, dict[int, Fraction], str, str]]
) -> None:
    width = 0.8 / len(series)
    for number, (label, values, colour, hatch) in enumerate(series):
        keys = sorted(values)
        shift = (number - (len(series) - 1) / 2) * width
        container = axes.bar(
            [key + shift for key in keys],
            [float(values[key]) for key in keys],
            width=width,
            color=colour,
            hatch=hatch,
            edgecolor=BLACK,
            linewidth=0.5,
            label=label,
        )
        for key, bar in zip(keys, container, strict=False):
            picture.tip(
                bar,
                f"{label.replace(' ', '-')}-{key}",
                f"{label}, {xlabel} {key}: {fraction_text(values[key])} = {float(values[key]):.6f}",
            )
    axes.set_xlabel(xlabel)
    axes.set_ylabel("probability")
    axes.set_title(title, fontsize=9, loc="left")
    axes.legend(fontsize=8)
