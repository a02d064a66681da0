"""Twisted Tunnels encounters as the registry's generator (twisty.generate("tunnels", ...), `twisty generate
tunnels`): the parameters as the command line and the API take them, read once with one set of messages,
and the monster whose exact odds against a delver come closest to a goal.

A fighter is written as on the command line, `"combat=4,con=12,armour=2,shield"` (a bare key means 1), or
as a mapping with the same keys (`{"combat": 4, "con": 12}`), or as the rules' own Delver or Monster.
Every bad value is a UsageError naming the parameter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import Any, TypeVar

from twisty.checking import one_of, whole_number
from twisty.errors import GenerationError, LimitReached, UsageError, did_you_mean
from twisty.generator.tunnels import EncounterChoice, Goal, MonsterCandidate, find_monster
from twisty.limits import Deadline
from twisty.rules.tunnels import Delver, FightChain, FightRules, Monster
from twisty.rules.tunnels_limits import (
    MAX_ARMOUR,
    MAX_CONSTITUTION,
    MAX_DIFFICULTY,
    MAX_FIGHT_DICE,
    MAX_GENERATOR_WORK,
    MAX_LEVEL,
    MAX_LUCK,
    MAX_RATING,
    difficulty_of,
    fight_fields,
    fight_work,
    fraction_text,
)

# key as written -> (field of the rules' dataclass, least, most)
DELVER_KEYS: dict[str, tuple[str, int, int]] = {
    "combat": ("combat", 1, MAX_FIGHT_DICE),
    "dice": ("combat", 1, MAX_FIGHT_DICE),
    "con": ("constitution", 0, MAX_CONSTITUTION),
    "constitution": ("constitution", 0, MAX_CONSTITUTION),
    "luck": ("luck", 0, MAX_LUCK),
    "armour": ("armour", 0, MAX_ARMOUR),
    "armor": ("armour", 0, MAX_ARMOUR),
    "shield": ("shield", 0, 1),
}
MONSTER_KEYS: dict[str, tuple[str, int, int]] = {
    "rating": ("rating", 1, MAX_RATING),
    "mr": ("rating", 1, MAX_RATING),
    "dice": ("dice", 1, MAX_FIGHT_DICE),
    "armour": ("armour", 0, MAX_ARMOUR),
    "armor": ("armour", 0, MAX_ARMOUR),
    "luck": ("luck", 0, MAX_LUCK),
    "shield": ("shield", 0, 1),
}
REQUIRED = {"delver": ("combat", "constitution"), "monster": ("rating", "dice")}
SIDES = ("delver", "monster")


def fighter_fields(value: Any, role: str) -> dict[str, int]:
    """The fields of a delver or monster (`role`) written as "key=value,..." or as a mapping of the same
    keys; a UsageError for an unknown key, a value that is not a whole number in range, or a missing one."""
    keys = DELVER_KEYS if role == "delver" else MONSTER_KEYS
    if isinstance(value, str):
        pairs: list[tuple[Any, Any]] = []
        for part in value.split(","):
            part = part.strip()
            if part:
                key, _, written = part.partition("=")
                pairs.append((key.strip().lower(), written.strip()))
    elif isinstance(value, Mapping):
        pairs = list(value.items())
    else:
        raise UsageError(f'{role} is written "key=value,..." or as a mapping, not {type(value).__name__}')
    found: dict[str, int] = {}
    for key, given in pairs:
        if not isinstance(key, str) or key not in keys:
            hint = did_you_mean(key, keys) if isinstance(key, str) else ""
            raise UsageError(f"unknown key {key!r} in the {role}{hint}; keys: {', '.join(sorted(keys))}")
        name, low, high = keys[key]
        number: Any = given
        if isinstance(given, str):
            try:
                number = int(given) if given else 1  # a bare key means 1, as in `shield`
            except ValueError:
                raise UsageError(f"{key} must be a whole number, got {given!r}") from None
        found[name] = whole_number(number, key, low, high)
    missing = [key for key in REQUIRED[role] if key not in found]
    if missing:
        raise UsageError(f"the {role} lacks {', '.join(missing)}")
    return found


def delver_of(value: Any) -> Delver:
    return _fighter(value, "delver", Delver)


def monster_of(value: Any) -> Monster:
    return _fighter(value, "monster", Monster)


Fighter = TypeVar("Fighter", Delver, Monster)


def _fighter(value: Any, role: str, kind: type[Fighter]) -> Fighter:
    """A Delver or Monster from its written form, or from one of them (checked against the same bounds)."""
    if isinstance(value, kind):
        value = asdict(value) | {"shield": int(value.shield)}
    fields: dict[str, Any] = dict(fighter_fields(value, role))
    fields["shield"] = bool(fields.get("shield", 0))
    return kind(**fields)


def difficulty_from(level: Any, difficulty: Any, default_level: int | None = None) -> int:
    """The Saving Roll difficulty of `level` (3 x level + 6) or given as `difficulty`."""
    level = None if level is None else whole_number(level, "level", 1, MAX_LEVEL)
    difficulty = None if difficulty is None else whole_number(difficulty, "difficulty", -MAX_DIFFICULTY, MAX_DIFFICULTY)
    return difficulty_of(level, difficulty, default_level)


def fight_rules(params: Mapping[str, Any]) -> FightRules:
    """The rules of a whole fight from level or difficulty (default level 1), upper_hand, flat_footed and
    armour_use."""
    upper, flat = params.get("upper_hand"), params.get("flat_footed")
    return FightRules(
        difficulty=difficulty_from(params.get("level"), params.get("difficulty"), default_level=1),
        upper_hand=None if upper is None else one_of(upper, "upper_hand", SIDES),  # type: ignore[arg-type]
        flat_footed=None if flat is None else one_of(flat, "flat_footed", SIDES),  # type: ignore[arg-type]
        armour_use=one_of(params.get("armour_use", "absorb"), "armour_use", ("absorb", "keep")),  # type: ignore[arg-type]
    )


# The monster search (`twisty generate tunnels`). -----------------------------------------------------------

SEARCH_KEYS = (
    "delver",
    "target",
    "survival",
    "max_rating",
    "max_dice",
    "monster_armour",
    "level",
    "difficulty",
    "upper_hand",
    "flat_footed",
    "armour_use",
)


@dataclass(frozen=True)
class MonsterFound:
    """The monster whose exact odds against a delver come closest to a goal, and its neighbours; `to_json()`
    is what `twisty generate tunnels --json` prints."""

    choice: EncounterChoice
    monster_armour: int
    at_search_edge: bool  # the best monster is on the rim of the search: a closer one may lie outside

    @property
    def monster(self) -> Monster:
        return Monster(self.choice.best.rating, self.choice.best.dice, self.monster_armour)

    def __repr__(self) -> str:
        best = self.choice.best
        return (
            f"MonsterFound(rating={best.rating}, dice={best.dice}, {self.choice.goal}="
            f"{float(best.measure(self.choice.goal)):.4f}, target={float(self.choice.target):.4f})"
        )

    def to_json(self) -> dict[str, Any]:
        choice = self.choice
        return {
            "goal": choice.goal,
            "target": fraction_text(choice.target),
            "target_float": float(choice.target),
            "at_search_edge": self.at_search_edge,
            "searched": choice.searched,
            "monster": candidate_data(choice.best),
            "gap": fraction_text(choice.gap),
            "gap_float": float(choice.gap),
            "neighbours": [candidate_data(candidate) for candidate in choice.neighbours],
        }


def candidate_data(candidate: MonsterCandidate) -> dict[str, Any]:
    return {"rating": candidate.rating, "dice": candidate.dice} | fight_fields(candidate.odds)


def probability(value: Any, name: str) -> Fraction:
    """A probability written 0.7, "0.7", "7/10" or as a Fraction, within [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float, Fraction)):
        raise UsageError(f"{name} is a probability like 0.7 or 7/10, got {value!r:.60}")
    try:
        chance = Fraction(value)
    except (ValueError, ZeroDivisionError, OverflowError):
        raise UsageError(f"{name} is a probability like 0.7 or 7/10, got {value!r:.60}") from None
    if not 0 <= chance <= 1:
        raise UsageError(f"{name}: a probability lies in [0, 1], got {value}")
    return chance


def find_monster_for(params: Mapping[str, Any], deadline: Deadline | None = None) -> MonsterFound:
    """The monster search with the parameters `twisty generate tunnels` takes (delver, target or survival,
    max_rating, max_dice, monster_armour and the fight's rules); a UsageError for anything it refuses,
    LimitReached when the deadline passes before every monster of the search is scored."""
    unknown = sorted(set(params) - set(SEARCH_KEYS))
    if unknown:
        raise UsageError(
            f"the tunnels generator takes no {', '.join(unknown)}{did_you_mean(unknown[0], SEARCH_KEYS)} "
            f"(it takes {', '.join(SEARCH_KEYS)})"
        )
    if "delver" not in params:
        raise UsageError("the tunnels generator needs delver= (combat=N,con=N[,luck=N,armour=N,shield])")
    target, survival = params.get("target"), params.get("survival")
    if (target is None) == (survival is None):
        raise UsageError("give exactly one of target (win chance) or survival (least survival chance)")
    goal: Goal = "win" if target is not None else "survival"
    wanted = probability(target if target is not None else survival, goal if target is not None else "survival")
    max_rating = whole_number(params.get("max_rating", 40), "max_rating", 1, MAX_RATING)
    max_dice = whole_number(params.get("max_dice", 8), "max_dice", 1, MAX_FIGHT_DICE)
    monster_armour = whole_number(params.get("monster_armour", 0), "monster_armour", 0, MAX_ARMOUR)
    rules = fight_rules(params)
    delver = delver_of(params["delver"])
    work = sum(
        fight_work(FightChain(delver, Monster(max_rating, dice, monster_armour), rules))
        for dice in range(1, max_dice + 1)
    )
    if work > MAX_GENERATOR_WORK:
        raise UsageError(
            f"this search is too large to answer exactly here (work {work} > {MAX_GENERATOR_WORK}): lower "
            "max_rating or max_dice"
        )
    try:
        choice = find_monster(
            delver,
            goal,
            wanted,
            ratings=range(1, max_rating + 1),
            dice=range(1, max_dice + 1),
            rules=rules,
            monster_armour=monster_armour,
            deadline=deadline,
        )
    except ValueError as error:  # no monster meets a survival threshold
        raise GenerationError(str(error)) from None
    at_edge = bool(choice.gap) and (choice.best.rating == max_rating or choice.best.dice == max_dice)
    return MonsterFound(choice, monster_armour, at_edge)


def generate_from(params: Mapping[str, Any], seed: int, deadline: Deadline, engine: Any) -> MonsterFound:
    """The registry's generator entry (twisty.generate("tunnels", ...)): the search is exact and has no
    randomness, so the seed changes nothing; its work is bounded (MAX_GENERATOR_WORK), and the deadline
    stops it sooner (a GenerationError, as for a level the time ran out on)."""
    try:
        return find_monster_for(params, deadline)
    except LimitReached as reached:
        raise GenerationError(f"no monster found within the {reached.cap}") from None
