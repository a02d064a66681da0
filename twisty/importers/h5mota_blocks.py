"""What each block of an h5mota floor does, as mota-js defines it (`libs/maps.js` initBlock and _addEvent,
`libs/events.js` trigger and doSystemEvent), read without running anything.

A cell of a floor's `map` holds a tile number (0: nothing), looked up in maps.js. The floor's `events` may
hold an event at the same place ("x,y"), whose fields are copied over the block's (`trigger`, `noPass`,
`script`, `data`, ...; null keeps the block's), and whose `"enable": false` hides the block until a script
shows it (maps.js skips such a block when it builds the floor). What the engine then does with it:

- passable: `noPass` when given, else `!canPass` when `canPass` is given, else "not an item";
- `cannotIn` / `cannotOut`: the directions in which the hero may not enter / leave the cell, on the event
  layer and on the `bgmap` / `fgmap` layers alike (tile 17, `airwall`, forbids entering from all four);
- its trigger, run when the hero touches it (a block that does not let it pass) or steps on it:
  `battle`, `getItem`, `openDoor`, `changeFloor` and `action` (the event's list) are the engine's and read
  here; `pushBox`, `ski`, `custom` are the engine's too but change the map in ways twisty does not model;
  any other name is a function the tower registers itself (`core.registerSystemEvent` in plugins.js), or
  none (the engine then does nothing but log it): code twisty does not run, so always a loss, named with
  what its text shows it does (twisty.importers.h5mota_common);
- `script`: JavaScript run when the block is touched: a loss.

`Block` is that reading of one cell; the importer (twisty.importers.h5mota) decides from it what the level
has there and what goes into the loss report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from twisty.importers.h5mota_values import shown

DIRECTIONS = frozenset({"up", "down", "left", "right"})
# The engine's triggers twisty reads; "null" is the engine's "no trigger".
READ_TRIGGERS = frozenset({"battle", "getItem", "openDoor", "changeFloor", "action", "null"})
# The engine's own triggers that twisty does not model (mota-js events._sys_*).
ENGINE_TRIGGERS = frozenset({"pushBox", "ski", "custom"})
AIRWALL = 17
# Event actions that only show or sound something: an event made of these changes no play.
SHOW_ONLY = frozenset(
    {"text", "tip", "comment", "playSound", "stopSound", "sleep", "animate", "setText", "autoText", "scrollText"}
    | {"playBgm", "pauseBgm", "resumeBgm", "vibrate", "changePos", "waitAsync", "setCurtain", "update"}
)


@dataclass(frozen=True)
class Block:
    """One cell of the event layer as the engine reads it (module docstring)."""

    number: int
    cls: str  # "enemys", "items", "npcs", "terrains", "animates", ... ("" for nothing, tile 0)
    ident: str  # its id in maps.js ("" for nothing)
    trigger: str | None  # the effective trigger; None when none
    no_pass: bool
    script: bool  # whether touching it runs JavaScript
    cannot_in: frozenset[str]
    cannot_out: frozenset[str]
    event: dict[str, Any] | None  # the floor's event at this place, as an object with `data`
    hidden: bool  # "enable": false: absent until a script shows it

    @property
    def name(self) -> str:
        """What to call it in the loss report."""
        return shown(self.ident) if self.ident else "event"

    @property
    def actions(self) -> list[Any]:
        """The event's actions (its `data`)."""
        data = self.event.get("data") if self.event else None
        return data if isinstance(data, list) else []


def event_object(value: Any) -> dict[str, Any] | None:
    """A floor's event as the engine holds it (_addEvent): a string or a list is {"data": [...]}."""
    if value is None:
        return None
    if isinstance(value, str):
        return {"data": [value]}
    if isinstance(value, list):
        return {"data": value}
    if isinstance(value, dict):
        return value
    return {"data": [value]}


def read_block(number: int, entry: dict[str, Any] | None, event: dict[str, Any] | None) -> Block:
    """The block of tile `number` (its maps.js `entry`, None for 0) with the event at its place."""
    fields: dict[str, Any] = dict(entry) if entry else {"cls": "terrains", "id": "none", "noPass": False}
    if number == AIRWALL and entry is None:
        fields = {"cls": "terrains", "id": "airwall", "cannotIn": sorted(DIRECTIONS)}
    cls = str(fields["cls"]) if isinstance(fields.get("cls"), str) else ""
    if fields.get("noPass") is None:
        fields["noPass"] = not fields["canPass"] if fields.get("canPass") is not None else cls != "items"
    if cls.startswith("enemy") and not fields.get("trigger"):
        fields["trigger"] = "battle"
    if cls == "items" and not fields.get("trigger"):
        fields["trigger"] = "getItem"
    hidden = False
    if event is not None:
        hidden = event.get("enable") is False
        for key, value in event.items():
            if key not in ("enable", "animate", "opacity", "filter") and value is not None:
                fields[key] = value
        if not fields.get("trigger"):
            fields["trigger"] = "action"
    trigger = fields.get("trigger")
    ident = fields.get("id")
    return Block(
        number,
        cls,
        ident if isinstance(ident, str) and number else "",
        None if trigger in (None, "", "null") else str(trigger),
        bool(fields.get("noPass")),
        bool(fields.get("script")),
        _directions(fields.get("cannotIn")),
        _directions(fields.get("cannotOut")),
        event,
        hidden,
    )


def _directions(value: Any) -> frozenset[str]:
    return frozenset(value) & DIRECTIONS if isinstance(value, list) else frozenset()


def shows_only(actions: Any) -> bool:
    """Whether actions only show text, pictures or sounds (an event made of them changes no play)."""
    if actions is None or isinstance(actions, str):
        return True
    if isinstance(actions, list):
        return all(shows_only(action) for action in actions)
    if isinstance(actions, dict):
        if "data" in actions and isinstance(actions.get("data"), list):  # {"trigger": ..., "data": [...]}
            return shows_only(actions["data"])
        kind = actions.get("type")
        return isinstance(kind, str) and kind in SHOW_ONLY
    return False


def hides_itself(block: Block) -> bool:
    """Whether the event is show-only actions and one `hide` of its own block (no `loc`, or its own place),
    last: touching it shows the texts and takes the block away, which to a route is a floor cell."""
    actions = block.actions
    if not actions or not isinstance(actions[-1], dict) or actions[-1].get("type") != "hide":
        return False
    last = actions[-1]
    return "loc" not in last and "floorId" not in last and shows_only(actions[:-1])


def shop_opened(block: Block) -> str | None:
    """The shop id the event opens, when it is show-only actions and one `openShop`; else None."""
    opening = [a for a in block.actions if isinstance(a, dict) and a.get("type") == "openShop"]
    if len(opening) != 1 or not isinstance(opening[0].get("id"), str):
        return None
    rest = [a for a in block.actions if a is not opening[0]]
    return opening[0]["id"] if shows_only(rest) else None


def trigger_loss(trigger: str, own: str | None) -> str:
    """How the loss report names a trigger twisty does not read (`own`: what the tower's own trigger of
    that name does, in words, twisty.importers.h5mota_common; None when the tower registers none)."""
    if trigger in ENGINE_TRIGGERS:
        return f"trigger {shown(trigger)}: the engine's, not modelled"
    if own is not None:
        return f"trigger {shown(trigger)}: {own}"
    return f"trigger {shown(trigger)}: not the engine's"
