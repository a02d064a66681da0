"""Writing a generated passages level as a normal level file (the format of docs/passages.md).

Each distinct object (a key, a door, an elixir of some strength, an enemy with its stats) gets one legend
character; the file carries its `[expect]` claims and a comment header saying how it was made.
"""

from __future__ import annotations

from twisty.generator.passages_params import Difficulty, PassagesParams
from twisty.rules.passages import PassagesLevel, Thing

# Legend characters per kind, in the order they are handed out. Only characters that need no escaping in
# a TOML basic string, and none of the reserved map characters (# . S G space).
ENEMY_SYMBOLS = "abcdefghijlmnopqrstuvwxyzACEFHIJLMNOPQRTUVWXYZ"
BOSS_SYMBOLS = "B"
EQUIPMENT_SYMBOLS = "/]!)}|%&"
ELIXIR_SYMBOLS = "+*~=^$0123456789"
KEY_SYMBOLS = "k"
DOOR_SYMBOLS = "DK"


def entry_of(thing: Thing) -> tuple:
    """What a legend entry says of an object; objects with the same entry share a character."""
    if thing.kind == "enemy":
        enemy = thing.enemy
        assert enemy is not None
        return ("enemy", enemy.boss, enemy.name, enemy.hp, enemy.atk, enemy.defense, enemy.first_strike)
    if thing.kind == "elixir":
        return ("elixir", thing.hp)
    if thing.kind == "equipment":
        return ("equipment", thing.atk, thing.defense)
    return (thing.kind,)


def pool_for(entry: tuple) -> str:
    if entry[0] == "enemy":
        return BOSS_SYMBOLS + ENEMY_SYMBOLS if entry[1] else ENEMY_SYMBOLS
    return {"elixir": ELIXIR_SYMBOLS, "equipment": EQUIPMENT_SYMBOLS, "key": KEY_SYMBOLS, "door": DOOR_SYMBOLS}[
        entry[0]
    ]


def assign_symbols(things: tuple[Thing, ...]) -> dict[tuple, str]:
    entries = sorted(
        {entry_of(thing) for thing in things}, key=lambda e: (e[0], not e[1] if e[0] == "enemy" else False, e[1:])
    )
    used: set[str] = set()
    symbols = {}
    spare = [c for c in ENEMY_SYMBOLS + EQUIPMENT_SYMBOLS + ELIXIR_SYMBOLS + "-_<>?@;:,"]
    for entry in entries:
        choices = [c for c in pool_for(entry) if c not in used] + [c for c in spare if c not in used]
        if not choices:
            raise ValueError("more distinct objects than legend characters")
        symbols[entry] = choices[0]
        used.add(choices[0])
    return symbols


def legend_line(symbol: str, entry: tuple) -> str:
    key = symbol if symbol.isalnum() or symbol in "-_" else f'"{symbol}"'
    kind = entry[0]
    if kind == "enemy":
        _, boss, name, hp, atk, defense, first_strike = entry
        flags = (", boss = true" if boss else "") + (", first_strike = true" if first_strike else "")
        return f'{key} = {{ kind = "enemy", name = "{name}", hp = {hp}, atk = {atk}, def = {defense}{flags} }}'
    if kind == "elixir":
        return f'{key} = {{ kind = "elixir", hp = {entry[1]} }}'
    if kind == "equipment":
        gains = ", ".join(f"{name} = {value}" for name, value in (("atk", entry[1]), ("def", entry[2])) if value)
        return f'{key} = {{ kind = "equipment", {gains} }}'
    return f'{key} = {{ kind = "{kind}" }}'


def header_lines(params: PassagesParams, seed: int, difficulty: Difficulty, level: PassagesLevel) -> list[str]:
    greedy = (
        "a cheapest-fight-first player wins"
        if difficulty.greedy_wins
        else f"a cheapest-fight-first player makes {difficulty.greedy_steps} good decisions, then a "
        f"losing one; the solution has {difficulty.route_length}"
    )
    blockers = len(level.blockers())
    method = "" if params.method == "auto" else f" --method {params.method}"
    return [
        "# Twisty Little Passages level made by `twisty generate passages`; verified tight and unique.",
        f"# seed: {seed}",
        f"# parameters: --size {params.width}x{params.height} --blockers {params.blockers} "
        f"--difficulty {params.difficulty}{method} ({blockers} blockers on the map)",
        f"# difficulty score: {difficulty.score} (traps {difficulty.traps}, of them at the start "
        f"{difficulty.first_move_traps}; fights that must wait {difficulty.ordered_fights}; {greedy})",
    ]


def level_text(
    level: PassagesLevel, params: PassagesParams, seed: int, difficulty: Difficulty, header: bool = True
) -> str:
    """The level file: the comment header (with `header`), the map with one legend character per distinct
    object, the player, the legend and the [expect] claims the generator has proved."""
    symbols = assign_symbols(level.things)
    rows = [list(row) for row in level.grid]
    for thing in level.things:
        rows[thing.cell[0]][thing.cell[1]] = symbols[entry_of(thing)]
    lines = header_lines(params, seed, difficulty, level) if header else []
    lines += [
        'game = "passages"',
        f'name = "Generated passages, {params.difficulty}, seed {seed}"',
        'map = """',
        *("".join(row) for row in rows),
        '"""',
        "",
        "[player]",
        f"hp = {level.player.hp}",
        f"atk = {level.player.atk}",
        f"def = {level.player.defense}",
        f"keys = {level.player.keys}",
        "",
        "[legend]",
    ]
    for entry, symbol in sorted(symbols.items(), key=lambda item: item[1]):
        lines.append(legend_line(symbol, entry))
    lines += [
        "",
        "[expect]",
        "solvable = true",
        "final_hp = 1",
        "unique = true",
        f"min_start_hp = {level.player.hp}",
    ]
    return "\n".join(lines) + "\n"
