"""What a tower's own trigger does, in words for the loss report, read without running anything.

A tower registers a trigger with `core.registerSystemEvent("name", function (data, callback) {...})` in
plugins.js (mota-js `events.registerSystemEvent`); the engine runs that function when the hero touches a
block with that trigger. twisty never runs it, so such a block is always a loss; this module only says what
the loss is. Many towers' trigger functions do one thing twisty can name: insert one of the tower's common
events (`core.insertAction([{"type": "insert", "name": "商人", ...}])`, events.js `commonEvent`), whose
actions are data. The report then names the common event and the values it changes on that floor: the
classic 50-floor tower's merchant ("woman") runs 商人, which on MT6 takes 50 gold and gives a blue key.

The reading of the actions (`effects`) is deliberately small and errs on the side of saying more: it
follows `setValue` / `addValue` on `status:`, `item:` and `flag:` values; a `switch` on the floor's number
(`parseInt(core.status.floorId.substring(2))`, the common idiom) takes the case of the floor, any other
`switch`, `if` or `choices` contributes every branch (the values it *may* change); a flag set to a plain
value earlier on the way is written as that value where it is used; `hide` and `openDoor` are named.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from twisty.importers.h5mota_values import shown

# The body of one registered trigger function: from its registration to the next one (or this many
# characters): the tower's code is only searched, never parsed.
_BODY_CHARACTERS = 4000
_REGISTER = re.compile(r"registerSystemEvent\s*\(\s*[\"']([^\"']{1,60})[\"']")
_INSERT = re.compile(
    r"[\"']?type[\"']?\s*:\s*[\"']insert[\"']\s*,\s*[\"']?name[\"']?\s*:\s*[\"']([^\"']{1,60})[\"']"
    r"(?:\s*,\s*[\"']?args[\"']?\s*:\s*\[([^\]]{0,200})\])?"
)
_FLOOR = r"parseInt\(\s*core\.status\.floorId\.substring\(\s*2\s*\)\s*\)"
_FLOOR_NUMBER = re.compile(rf"^\s*{_FLOOR}\s*$")
_GET_FLAG = re.compile(r"getFlag\(\s*[\"']([^\"']{1,60})[\"']")
_OPEN_DOOR = re.compile(r"[\"']?type[\"']?\s*:\s*[\"']openDoor[\"']")
# `var a = parseInt(core.status.floorId.substring(2));`: a name the function gives the floor's number.
_FLOOR_VARIABLE = re.compile(rf"\b(?:var|let|const)\s+([A-Za-z_$][\w$]*)\s*=\s*{_FLOOR}")
# Effects shown per loss line (a common event may change dozens of flags).
_SHOWN_EFFECTS = 8
# How deep the actions are followed (events nest `if` in `choices` in `switch`).
_MAX_DEPTH = 12


@dataclass(frozen=True)
class Inserted:
    """A common event a trigger function inserts, and which of its `args` are the floor's number (the
    event reads them as flag:arg1, flag:arg2, ...)."""

    name: str
    floor_args: frozenset[int] = frozenset()


@dataclass(frozen=True)
class OwnTrigger:
    """What a search of a registered trigger function's text finds in it."""

    inserted: tuple[Inserted, ...] = ()  # the common events it inserts, in order
    reads: tuple[str, ...] = ()  # the flags it reads (core.getFlag('talking'))
    opens: bool = False  # whether it inserts an openDoor (takes a block away)

    def joined(self, other: OwnTrigger) -> OwnTrigger:
        return OwnTrigger(
            tuple(dict.fromkeys(self.inserted + other.inserted)),
            tuple(dict.fromkeys(self.reads + other.reads)),
            self.opens or other.opens,
        )


def registered_triggers(texts: list[str]) -> dict[str, OwnTrigger]:
    """The trigger names a tower registers itself (`core.registerSystemEvent("name", ...)` in its code),
    each with what its function's text shows it does."""
    found: dict[str, OwnTrigger] = {}
    for text in texts:
        matches = list(_REGISTER.finditer(text))
        for index, match in enumerate(matches):
            end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
            body = text[match.end() : min(end, match.end() + _BODY_CHARACTERS)]
            numbers = {name for name in _FLOOR_VARIABLE.findall(body)}
            inserted = []
            for name, args in _INSERT.findall(body):
                parts = [part.strip() for part in args.split(",")] if args else []
                floor_args = {i + 1 for i, part in enumerate(parts) if part in numbers or _FLOOR_NUMBER.match(part)}
                inserted.append(Inserted(name, frozenset(floor_args)))
            reads = tuple(dict.fromkeys(_GET_FLAG.findall(body)))
            own = OwnTrigger(tuple(dict.fromkeys(inserted)), reads, bool(_OPEN_DOOR.search(body)))
            found[match.group(1)] = found.get(match.group(1), OwnTrigger()).joined(own)
    return found


def floor_number(floor_id: str) -> int | None:
    """The floor's number as `parseInt(floorId.substring(2))` gives it (MT6 -> 6), None for NaN (F1 -> NaN:
    parseInt("") is NaN)."""
    digits = re.match(r"\d+", floor_id[2:])
    return int(digits.group()) if digits else None


def effects(actions: Any, floor_id: str, floor_args: frozenset[int] = frozenset()) -> list[str]:
    """What a common event's actions may change on floor `floor_id` (module docstring): the hero's values
    and items ("status:money -= 50", "item:blueKey += 1") and blocks ("hides itself"), in order, then the
    flags it sets to numbers (its own memory, which the tower's code may read: "flag:talking = 2"), those
    set on every way through it first. `floor_args`: the args (flag:arg1, ...) that hold the floor's number."""
    reading = _Reading(floor_number(floor_id), {f"flag:arg{index}" for index in floor_args})
    reading.walk(actions, {}, 0)
    flags = sorted(reading.flags, key=lambda name: reading.flags[name])
    return list(reading.found) + [f"{name} = {reading.flag_values[name]}" for name in flags]


def trigger_words(common: dict[str, Any], own: OwnTrigger, floor_id: str) -> str:
    """What a registered trigger does, for the loss line: the common events it runs and their effects,
    the flags it reads, whether it opens blocks."""
    parts = []
    if own.opens:
        parts.append("may open the block (openDoor)")
    if own.reads:
        parts.append(f"reads flag {', '.join(shown(flag) for flag in own.reads)}")
    for event in own.inserted:
        actions = common.get(event.name)
        if not isinstance(actions, list):
            parts.append(f"runs common event {shown(event.name)}")
            continue
        changes = effects(actions, floor_id, event.floor_args)
        more = len(changes) - _SHOWN_EFFECTS
        listed = ", ".join(changes[:_SHOWN_EFFECTS]) + (f" and {more} more" if more > 0 else "")
        parts.append(f"runs common event {shown(event.name)}: {listed or 'changes nothing read'}")
    return "the tower's own code" + (f", which {'; '.join(parts)}" if parts else "")


class _Reading:
    """One walk through a common event's actions."""

    def __init__(self, number: int | None, floor_flags: set[str]) -> None:
        self.number = number
        self.floor_flags = floor_flags
        self.found: dict[str, None] = {}
        self.flags: dict[str, int] = {}  # flag -> the least depth it is set at
        self.flag_values: dict[str, str] = {}

    def walk(self, actions: Any, known: dict[str, str], depth: int) -> None:
        if depth > _MAX_DEPTH:
            self.found["more than can be read"] = None
            return
        if isinstance(actions, dict) and isinstance(actions.get("data"), list) and "type" not in actions:
            actions = actions["data"]
        for action in actions if isinstance(actions, list) else [actions]:
            if not isinstance(action, dict):
                continue
            kind = action.get("type")
            if kind in ("setValue", "addValue"):
                self.value(action, known, depth)
            elif kind == "switch":
                self.switch(action, known, depth)
            elif kind == "if":
                for branch in ("true", "false"):
                    self.walk(action.get(branch), dict(known), depth + 1)
            elif kind == "choices":
                for choice in action.get("choices") or []:
                    if isinstance(choice, dict):
                        self.walk(choice.get("action"), dict(known), depth + 1)
            elif kind == "hide":
                own = "loc" not in action or _own_place(action["loc"])
                self.found["hides itself" if own else "hides a block"] = None
            elif kind in ("openDoor", "insert", "changeFloor", "setBlock", "show", "battle", "openShop"):
                self.found[f"{kind} {shown(str(action.get('name', '')))}".strip()] = None

    def value(self, action: dict[str, Any], known: dict[str, str], depth: int) -> None:
        name = action.get("name")
        if not isinstance(name, str):
            return
        text = str(action.get("value"))
        text = known.get(text.strip(), text)
        operator = "+=" if action.get("type") == "addValue" else str(action.get("operator") or "=")
        if name.startswith("flag:"):
            if operator == "=":
                known[name] = text
            if re.fullmatch(r"-?\d+", text.strip()) and name not in self.floor_flags:
                self.flags[name] = min(depth, self.flags.get(name, depth))
                self.flag_values.setdefault(name, f"{text.strip()}" if operator == "=" else f"{operator} {text}")
        elif name.startswith(("status:", "item:")):
            self.found[f"{shown(name)} {operator} {shown(text)}"] = None

    def switch(self, action: dict[str, Any], known: dict[str, str], depth: int) -> None:
        cases = [case for case in action.get("caseList") or [] if isinstance(case, dict)]
        condition = action.get("condition")
        on_floor = isinstance(condition, str) and (
            _FLOOR_NUMBER.match(condition) or condition.strip() in self.floor_flags
        )
        if on_floor:
            # (a floor id without a number after its first two characters gives NaN, which is no case)
            chosen = [case for case in cases if self.number is not None and str(case.get("case")) == str(self.number)]
            chosen = chosen or [case for case in cases if str(case.get("case")) == "default"]
            for case in chosen:
                self.walk(case.get("action"), known, depth)  # (the floor's own case: as if unconditional)
            return
        for case in cases:
            self.walk(case.get("action"), dict(known), depth + 1)


def _own_place(loc: Any) -> bool:
    """Whether a `hide`'s place is the block's own (the place the hero faces: core.nextX(), core.nextY())."""
    return isinstance(loc, list) and [str(part).replace(" ", "") for part in loc] == ["core.nextX()", "core.nextY()"]
