"""The Book's static rules as a circuit over what the cells hold: `build_static` runs the six phases of
docs/book.md in order (phases 1 to 4 in `book_sat_model`, 5 and 6 in `book_sat_effects`). The model, its
contents and its bounds are described in `book_sat_model`."""

from __future__ import annotations

from collections.abc import Mapping

from twisty.encodings.book_circuit import Circuit
from twisty.encodings.book_sat_effects import phase_effects, phase_overrides
from twisty.encodings.book_sat_model import (
    CHAIN_BOUND,
    IMMUNE,
    MELEE_BOUND,
    BookFrame,
    Contents,
    StaticModel,
    largest_group,
    rule_mimic,
    rule_orcs_and_dwarves,
    rule_path_removal_and_giant_crush,
    rule_rat,
    rule_vampire_conversion,
    rule_wolf,
)
from twisty.rules.book.contents import PREY

__all__ = ["CHAIN_BOUND", "IMMUNE", "MELEE_BOUND", "BookFrame", "Contents", "StaticModel", "build_static"]


def build_static(
    circuit: Circuit,
    contents: Contents,
    removed: Mapping[int, int] | None = None,
    tag: object = 0,
    *,
    exact: bool = False,
    chain_bound: int = CHAIN_BOUND,
    melee_bound: int = MELEE_BOUND,
) -> StaticModel:
    """The evaluation of the book under the removals `removed` (cell -> literal "the walk removed it").

    `exact`: unroll every chain to its full length (for fixed books, where it folds to constants); else to
    the bounds given (a Vampire chain of `chain_bound` conversions, a melee of `melee_bound` fighters), with
    constraints holding the models within them."""
    size = contents.frame.size
    model = StaticModel(circuit, contents, dict(removed or {}), tag, chain_bound, melee_bound)
    model.deadly_reasons = [[] for _ in range(size)]
    rule_mimic(model)
    rule_path_removal_and_giant_crush(model)
    if exact:
        _exact_bounds(model)
    rule_vampire_conversion(model)
    wolves = rule_wolf(model)
    rule_orcs_and_dwarves(model)
    rule_rat(model)
    phase_effects(model, wolves)
    phase_overrides(model)
    return model


def _exact_bounds(model: StaticModel) -> None:
    """Bounds no model can exceed: a chain converts at most every cell that may be prey, and a melee holds
    at most the largest joined group of cells that may hold a fighter."""
    size = model.frame.size
    orthogonal = model.shape.orthogonal_table()
    model.chain_bound = sum(1 for index in range(size) if any(name in PREY for name in model.now[index])) + 1
    fighters = {index for index in range(size) if "Orc" in model.now[index] or "Dwarf" in model.now[index]}
    model.melee_bound = largest_group(orthogonal, fighters)
