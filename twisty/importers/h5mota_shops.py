"""The standard shops of an h5mota project (data.js `firstData.shops`), read as twisty's shop where they fit.

Twisty's shop (docs/mota.md): "Purchase n (counting from 0) costs start + delta x n and gives exactly one of
the non-zero hp / atk / def / mdef gains, chosen by the hero", usable from anywhere once the hero has
stepped on a shop cell (or from the start). mota-js has written its money shops in two forms:

- mota-js 2.7 and later (its `plugins.js` "shop" plugin): each choice has a `need` ("status:money>=PRICE")
  and an `action` list run when it is bought, which takes the price from the money, adds 1 to a counter
  flag and raises a stat. The shop may be used from the quick-shop list once an `openShop` event has been
  run (`setShopVisited`), or from the start when it is not `mustEnable` (`canOpenShop`).
- mota-js 2.0 to 2.6 (`events.openShop`, `_useShop`): the shop has `use` ("money" or "experience"), a
  `need` in `times` (the purchases made at this shop, or at every `commonTimes` shop), and each choice an
  `effect` ("status:atk+=4"); it is used only once an `openShop` event has marked it visited.

A shop fits when it takes money, its price is start + delta x (the purchases made so far) with whole
start >= 1 and delta >= 0, the counter counts this shop's purchases only (its own flag, or `times` without
`commonTimes`), and each choice raises exactly one of hp, atk, def, mdef by a whole number above 0, no two
choices the same stat, with nothing else done (texts, sounds and comments aside). Anything else is named
by why it does not fit. Prices are read by `linear_price`: numbers, the counter, + - * and brackets, as a
linear expression; nothing is run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from twisty.importers.h5mota_values import shown
from twisty.rules.passages import PURCHASES, Shop

# Actions a bought choice may run besides the three that make a purchase: they change no play.
QUIET_ACTIONS = frozenset({"comment", "text", "tip", "playSound", "stopSound", "sleep", "animate"})
_STATUS = {"hp": "hp", "atk": "atk", "def": "def", "mdef": "mdef"}
MAX_PRICE_CHARS = 200


@dataclass(frozen=True)
class ShopFit:
    """A shop of data.js as twisty's shop: its prices and gains, and whether the hero may use it from the
    start (a 2.7+ shop that is not `mustEnable`)."""

    ident: str
    shop: Shop
    from_start: bool


def read_shops(shops: Any) -> dict[str, ShopFit | str]:
    """Each shop of data.js's `firstData.shops` by id: a ShopFit, or why it is not twisty's shop."""
    found: dict[str, ShopFit | str] = {}
    if not isinstance(shops, list):
        return found
    common = sum(1 for shop in shops if isinstance(shop, dict) and shop.get("commonTimes"))
    for shop in shops:
        if not isinstance(shop, dict) or not isinstance(shop.get("id"), str):
            continue
        ident = shop["id"]
        if ident in found:
            found[ident] = "a second shop with the same id"
            continue
        try:
            found[ident] = _old_form(ident, shop, common) if "use" in shop else _new_form(ident, shop)
        except NotAShop as why:
            found[ident] = str(why)
    return found


class NotAShop(ValueError):
    """Why a shop of data.js is not twisty's shop."""


def _new_form(ident: str, shop: dict) -> ShopFit:
    """A 2.7+ shop: choices with `need` and `action`."""
    if shop.get("item"):
        raise NotAShop("an item shop (it sells items)")
    if shop.get("commonEvent"):
        raise NotAShop(f"a shop run by the common event {shown(shop.get('commonEvent'))}")
    choices = shop.get("choices")
    if not isinstance(choices, list) or not choices:
        raise NotAShop("no choices")
    price: tuple[Fraction, Fraction] | None = None
    counter: str | None = None
    gains: dict[str, int] = {}
    for choice in choices:
        if not isinstance(choice, dict):
            raise NotAShop("a choice that is not an object")
        if choice.get("condition") not in (None, ""):
            raise NotAShop(f"a choice shown only when {shown(choice.get('condition'))}")
        need = choice.get("need")
        found = re.fullmatch(r"\s*status:money\s*>=\s*(.+?)\s*", need) if isinstance(need, str) else None
        if found is None:
            raise NotAShop(f"a choice that needs {shown(need)} (not money)")
        taken, flag, stat, gain = _purchase_actions(choice.get("action"))
        needed = linear_price(found.group(1), flag)
        if linear_price(taken, flag) != needed:
            raise NotAShop("a choice that takes other money than it needs")
        if counter not in (None, flag) or price not in (None, needed):
            raise NotAShop("choices with different prices")
        counter, price = flag, needed
        if stat in gains:
            raise NotAShop(f"two choices of {stat}")
        gains[stat] = gain
    assert price is not None
    return ShopFit(ident, _shop(price, gains), from_start=not shop.get("mustEnable"))


def _purchase_actions(actions: Any) -> tuple[str, str, str, int]:
    """The three actions of a bought choice, in any order among quiet ones: money -= PRICE, flag:F += 1,
    status:STAT += N. Returns (PRICE, "flag:F", STAT, N)."""
    if not isinstance(actions, list):
        raise NotAShop("a choice without an action list")
    taken = flag = stat = None
    gain = 0
    for action in actions:
        if isinstance(action, str) or (isinstance(action, dict) and action.get("type") in QUIET_ACTIONS):
            continue
        if not isinstance(action, dict) or action.get("type") != "setValue":
            kind = action.get("type") if isinstance(action, dict) else action
            raise NotAShop(f"a choice that runs {shown(kind)}")
        name, operator, value = action.get("name"), action.get("operator"), action.get("value")
        if not isinstance(name, str) or not isinstance(value, str):
            raise NotAShop("a setValue without a name or a value")
        if name == "status:money" and operator == "-=" and taken is None:
            taken = value
        elif name.startswith("flag:") and operator == "+=" and value.strip() == "1" and flag is None:
            flag = name
        elif name.startswith("status:") and name[7:] in _STATUS and operator == "+=" and stat is None:
            stat, gain = _STATUS[name[7:]], _whole_gain(value)
        else:
            raise NotAShop(f"a choice that sets {shown(name)} {shown(operator)} {shown(value)}")
    if taken is None or flag is None or stat is None:
        raise NotAShop("a choice that is not money for one stat, counted in a flag")
    return taken, flag, stat, gain


def _old_form(ident: str, shop: dict, common: int) -> ShopFit:
    """A 2.0-2.6 shop: `use`, `need` in `times`, choices with an `effect`."""
    if shop.get("use") != "money":
        raise NotAShop(f"a shop that takes {shown(shop.get('use'))}, not money")
    if shop.get("commonTimes") and common > 1:
        raise NotAShop("a shop whose prices count the purchases of other shops too (commonTimes)")
    choices = shop.get("choices")
    if not isinstance(choices, list) or not choices:
        raise NotAShop("no choices")
    gains: dict[str, int] = {}
    price: tuple[Fraction, Fraction] | None = None
    for choice in choices:
        if not isinstance(choice, dict) or not isinstance(choice.get("effect"), str):
            raise NotAShop("a choice without an effect")
        need = choice.get("need") or shop.get("need")
        needed = linear_price(need if isinstance(need, str) else str(need), "times")
        if price not in (None, needed):
            raise NotAShop("choices with different prices")
        price = needed
        found = re.fullmatch(r"\s*status:(hp|atk|def|mdef)\s*\+=\s*([^;]+?)\s*;?\s*", choice["effect"])
        if found is None:
            raise NotAShop(f"a choice whose effect is {shown(choice['effect'])}")
        stat = _STATUS[found.group(1)]
        if stat in gains:
            raise NotAShop(f"two choices of {stat}")
        gains[stat] = _whole_gain(found.group(2))
    assert price is not None
    return ShopFit(ident, _shop(price, gains), from_start=False)


def _whole_gain(text: str) -> int:
    if not re.fullmatch(r"\s*[0-9]{1,9}\s*", text) or int(text) == 0:
        raise NotAShop(f"a gain of {shown(text)} (not a whole number above 0)")
    return int(text)


def _shop(price: tuple[Fraction, Fraction], gains: dict[str, int]) -> Shop:
    start, delta = price
    if start.denominator != 1 or delta.denominator != 1 or start < 1 or delta < 0:
        raise NotAShop(f"a price of {start} + {delta} x purchases (twisty's shop: whole, first >= 1, rise >= 0)")
    if start > 10**9 or delta > 10**9:
        raise NotAShop("a price beyond the numbers twisty holds")
    hp, atk, defense, mdef = (gains.get(stat, 0) for stat in PURCHASES)
    return Shop(int(start), int(delta), hp, atk, defense, mdef)


def linear_price(text: str, counter: str) -> tuple[Fraction, Fraction]:
    """A price written in JavaScript as (a, b): a + b x counter, where `counter` is the count of purchases
    ("flag:shop1", or "times"). Numbers, the counter, + - * and brackets; a product of two terms that both
    hold the counter is not linear, and anything else is not read (NotAShop)."""
    if len(text) > MAX_PRICE_CHARS:
        raise NotAShop("a price of more than 200 characters")
    tokens = re.findall(r"\s*(flag:[\w\u4e00-\u9fff@.-]+|[A-Za-z_][\w:.]*|[0-9]+(?:\.[0-9]+)?|[-+*()])", text)
    if "".join(tokens) != re.sub(r"\s+", "", text):
        raise NotAShop(f"a price of {shown(text)}")
    value, at = _sum(tokens, 0, counter, 0)
    if at != len(tokens):
        raise NotAShop(f"a price of {shown(text)}")
    return value


def _sum(tokens: list[str], at: int, counter: str, depth: int) -> tuple[tuple[Fraction, Fraction], int]:
    (a, b), at = _product(tokens, at, counter, depth)
    while at < len(tokens) and tokens[at] in "+-":
        sign = 1 if tokens[at] == "+" else -1
        (c, d), at = _product(tokens, at + 1, counter, depth)
        a, b = a + sign * c, b + sign * d
    return (a, b), at


def _product(tokens: list[str], at: int, counter: str, depth: int) -> tuple[tuple[Fraction, Fraction], int]:
    (a, b), at = _factor(tokens, at, counter, depth)
    while at < len(tokens) and tokens[at] == "*":
        (c, d), at = _factor(tokens, at + 1, counter, depth)
        if b and d:
            raise NotAShop("a price that grows faster than by a fixed step")
        a, b = a * c, a * d + b * c
    return (a, b), at


def _factor(tokens: list[str], at: int, counter: str, depth: int) -> tuple[tuple[Fraction, Fraction], int]:
    if at >= len(tokens) or depth > 16:
        raise NotAShop("a price that stops short")
    token = tokens[at]
    if token == "(":
        value, at = _sum(tokens, at + 1, counter, depth + 1)
        if at >= len(tokens) or tokens[at] != ")":
            raise NotAShop("a price with an unclosed bracket")
        return value, at + 1
    if token == "-":
        (a, b), at = _factor(tokens, at + 1, counter, depth + 1)
        return (-a, -b), at
    if token[0].isdigit():
        return (Fraction(token), Fraction(0)), at + 1
    if token == counter:
        return (Fraction(0), Fraction(1)), at + 1
    raise NotAShop(f"a price that reads {shown(token)}")
