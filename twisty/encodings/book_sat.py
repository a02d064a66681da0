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
    rule_mimic,
    rule_orcs_and_dwarves,
    rule_path_removal_and_giant_crush,
    rule_rat,
    rule_vampire_conversion,
    rule_wolf,
)

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
    if exact:
        model.chain_bound = model.melee_bound = size + 1
    model.deadly_reasons = [[] for _ in range(size)]
    rule_mimic(model)
    rule_path_removal_and_giant_crush(model)
    rule_vampire_conversion(model)
    wolves = rule_wolf(model)
    rule_orcs_and_dwarves(model)
    rule_rat(model)
    phase_effects(model, wolves)
    phase_overrides(model)
    return model
