"""The Book's static rules as a circuit, phases 5 (intrinsic and area effects) and 6 (overrides): each rule
is one function, its docstring quoting the rule (phases 1 to 4 and the model are in `book_sat_model`).

Phase 5 only ever makes a cell worse: a cell is wall-like (a Wall or a Titan's band), else deadly when any
rule of phases 4 and 5 says so, else passable. Phase 6 sets statuses outright: Chuck's page and the cells
the Oracle protects are passable, and Medusa's petrification comes last of all.
"""

from __future__ import annotations

from twisty.encodings.book_sat_model import BAD_GUYS, IMMUNE, WOLF_ATTACK, StaticModel, Wolves
from twisty.rules.book.contents import DEADLY_TERRAIN, NUMBERS
from twisty.rules.book.topology import DIRECTIONS, spread_of


def phase_effects(model: StaticModel, wolves: Wolves) -> None:
    rule_wall_and_titan(model)
    mage_page = rule_mage(model)
    rule_bad_guys(model, mage_page)
    rule_vampire_giant_and_boss(model)
    rule_reaper(model)
    rule_deadly_terrain(model)
    rule_lava(model)
    rule_wolf_attacks(model, wolves)
    rule_number(model)
    rule_safe_items(model)
    rule_torches_and_shadows(model)
    c = model.circuit
    model.deadly5 = [c.or_(reasons) for reasons in model.deadly_reasons]


def phase_overrides(model: StaticModel) -> None:
    c, frame = model.circuit, model.frame
    spared = rule_chuck(model)
    for index, literal in rule_oracle(model).items():
        spared[index].append(literal)
    petrified = rule_medusa(model, spared)
    for index in range(frame.size):
        stone = petrified[index]
        saved = c.or_(spared[index])
        wall = c.and_([-stone, -saved, model.wall_like[index]])
        deadly = c.and_([-stone, -saved, -model.wall_like[index], model.deadly5[index]])
        model.petrified.append(stone)
        model.wall.append(wall)
        model.deadly.append(deadly)
        model.passable.append(c.and_([-stone, -wall, -deadly]))


# --- phase 5: intrinsic and area effects --------------------------------------------------------------


def rule_wall_and_titan(model: StaticModel) -> None:
    """Rule 16, Wall: "The Wall is impassable and opaque". Rule 12, the Titan: "His presence makes a band of
    three rows deadly: his own, the one above, and the one below. [...] this band extends across three
    spreads — six pages in all: the spread containing the Titan, the one before it, and the one after it.
    [...] This band blocks light and acts as a Wall."

    The band is clipped to the page (it does not wrap behind the leaf).
    """
    c, frame = model.circuit, model.frame
    shape = frame.shape
    band: list[list[int]] = [[] for _ in range(frame.size)]
    for titan in range(frame.size):
        alive = model.now_is(titan, "Titan")
        if alive == c.false:
            continue
        page, row, _col = shape.cell(titan)
        for other_spread in (spread_of(page) - 1, spread_of(page), spread_of(page) + 1):
            for band_page in shape.spread_pages(other_spread):
                start = shape.page_cells(band_page)[0]
                for band_row in range(max(0, row - 1), min(shape.height, row + 2)):
                    for col in range(shape.width):
                        band[start + band_row * shape.width + col].append(alive)
    for index in range(frame.size):
        banded = c.or_(band[index])
        model.fire("titan", index, banded)
        model.wall_like.append(c.or_([model.now_is(index, "Wall"), banded]))


def rule_mage(model: StaticModel) -> list[int]:
    """Rule 6, the Mage: "as long as a Mage is present on the page, all the Wraiths on that same page are
    harmless. [...] But if a Scroll occupies any of the Mage's eight neighboring cells, the Mage becomes
    deadly himself." With rule 20: "The Scroll is also safe, but... if it occupies any of a Mage's eight
    neighboring cells, it becomes deadly."

    Returns, per page (by position in the book), whether a Mage is on it after removal.
    """
    c, frame = model.circuit, model.frame
    shape = frame.shape
    king = shape.king_table()
    mage_page = [c.or_(model.now_is(index, "Mage") for index in shape.page_cells(page)) for page in shape.pages]
    for index in range(frame.size):
        mage, scroll = model.now_is(index, "Mage"), model.now_is(index, "Scroll")
        if mage != c.false:
            deadly = c.and_([mage, c.or_(model.now_is(other, "Scroll") for other in king[index])])
            model.deadly_because(index, deadly)
            model.fire("mage", index, deadly)
        if scroll != c.false:
            deadly = c.and_([scroll, c.or_(model.now_is(other, "Mage") for other in king[index])])
            model.deadly_because(index, deadly)
            model.fire("mage", index, deadly)
        wraith = model.now_is(index, "Wraith")
        if wraith != c.false:
            model.fire("mage:walk", index, c.and_([wraith, mage_page[frame.page_of(index) - shape.first_page]]))
    return mage_page


def rule_bad_guys(model: StaticModel, mage_page: list[int]) -> None:
    """Rule 1, the bad guys: "they're all deadly [...] You may only pass through their cells if an item or
    some other effect neutralizes them." Wraiths on a page with a Mage are harmless (rule 6)."""
    c, frame = model.circuit, model.frame
    for index in range(frame.size):
        bad = [literal for name, literal in model.now[index].items() if name in BAD_GUYS and name != "Wraith"]
        wraith = model.now_is(index, "Wraith")
        if wraith != c.false:
            bad.append(c.and_([wraith, -mage_page[frame.page_of(index) - frame.shape.first_page]]))
        model.deadly_because(index, c.or_(bad))


def rule_vampire_giant_and_boss(model: StaticModel) -> None:
    """Rule 8: "The Vampire is deadly" (converted prey too). Rule 9: "The Giants themselves stay deadly."
    Local rule, the Boss: deadly until the walker holds its weapons (the walk then removes it)."""
    for index in range(model.frame.size):
        model.deadly_because(index, model.vampire[index])
        model.deadly_because(index, model.now_is(index, "Giant"))
        model.deadly_because(index, model.now_is(index, "Boss"))


def rule_reaper(model: StaticModel) -> None:
    """Rule 11, the Reaper: "Every cell within two cells of the Reaper becomes deadly, diagonals included."
    (Within two king moves through `step`.)"""
    c, frame = model.circuit, model.frame
    king = frame.shape.king_table()
    for reaper in range(frame.size):
        alive = model.now_is(reaper, "Reaper")
        if alive == c.false:
            continue
        model.deadly_because(reaper, alive)
        reach, frontier = {reaper}, [reaper]
        for _ in range(2):
            frontier = [other for here in frontier for other in king[here] if other not in reach]
            reach.update(frontier)
        for index in reach - {reaper}:
            model.deadly_because(index, alive)
            model.fire("reaper", index, alive)


def rule_deadly_terrain(model: StaticModel) -> None:
    """Rule 14, deadly terrain: "Spikes, Swamps, and Pits are deadly.\""""
    for index in range(model.frame.size):
        model.deadly_because(index, model.now_any(index, DEADLY_TERRAIN))


def rule_lava(model: StaticModel) -> None:
    """Rule 17, Lava: "Its four orthogonally adjacent cells become deadly as well. [...] never diagonally.\""""
    c, frame = model.circuit, model.frame
    orthogonal = frame.shape.orthogonal_table()
    for lava in range(frame.size):
        literal = model.now_is(lava, "Lava")
        if literal == c.false:
            continue
        model.deadly_because(lava, literal)
        for index in orthogonal[lava]:
            model.deadly_because(index, literal)
            model.fire("lava", index, literal)


def rule_wolf_attacks(model: StaticModel, wolves: Wolves) -> None:
    """Rule 4: "Once a pack contains three or more, each Wolf also attacks one adjacent cell, which becomes
    deadly in turn" (3: right, 4: left, 5: down, 6: up, in the Wolf's own page; through `step`)."""
    steps = model.shape.step_table()
    for wolf, sizes in wolves.size_is.items():
        for size, literal in sizes.items():
            moved = steps[wolf][WOLF_ATTACK[size]]
            if moved is not None:
                model.deadly_because(moved[0], literal)
                model.fire("wolf", moved[0], literal)


def rule_number(model: StaticModel) -> None:
    """Rule 19, Number: "The digit tells you exactly how many of the cell's eight neighboring cells must
    contain creatures. If the count matches, the cell is safe. Otherwise, it kills you.\""""
    c, frame = model.circuit, model.frame
    king = frame.shape.king_table()
    for index in range(frame.size):
        digits = [(NUMBERS[name], literal) for name, literal in model.now[index].items() if name in NUMBERS]
        if not digits:
            continue
        around = [model.creature(other) for other in king[index]]
        levels = c.at_least(around, max(digit for digit, _ in digits) + 1)
        for digit, literal in digits:
            right = c.and_([levels[digit], -levels[digit + 1]])
            model.deadly_because(index, c.and_([literal, -right]))
            model.fire("number", index, c.and_([literal, -right]))
            model.fire("number:walk", index, c.and_([literal, right]))


def rule_safe_items(model: StaticModel) -> None:
    """Rule 20, safe items: "Gold and Gems become deadly when a Thief occupies one of the four cells
    orthogonally adjacent to them." (The Scroll beside a Mage is rule_mage's.)"""
    c, frame = model.circuit, model.frame
    orthogonal = frame.shape.orthogonal_table()
    for index in range(frame.size):
        treasure = c.or_([model.now_is(index, "Gold"), model.now_is(index, "Gem")])
        if treasure == c.false:
            continue
        guarded = c.and_([treasure, c.or_(model.now_is(other, "Thief") for other in orthogonal[index])])
        model.deadly_because(index, guarded)
        model.fire("thief", index, guarded)


def light_rays(model: StaticModel, index: int) -> list[list[int]]:
    """The four spread-bounded rays from a cell (not stopped by anything yet), as `light_ray` walks them."""
    steps = model.shape.step_table()
    spread = model.frame.spread_of_cell(index)
    rays = []
    for direction in DIRECTIONS:
        found, here, heading = [], index, direction
        while True:
            moved = steps[here][heading]
            if moved is None:
                break
            here, heading = moved
            if here == index or model.frame.spread_of_cell(here) != spread:
                break
            found.append(here)
        rays.append(found)
    return rays


def rule_torches_and_shadows(model: StaticModel) -> None:
    """Rule 21, torches and shadows: "A Shadow is deadly. Unless it's lit. The Torch is safe. Its light runs
    the full length of its row and its column, but never beyond its spread; Walls stop the beam. [...] This
    light makes Shadows safe — nothing else." (A Titan's band stops it too.)"""
    c, frame = model.circuit, model.frame
    lit: dict[int, list[int]] = {}
    shadows = {index for index in range(frame.size) if model.now_is(index, "Shadow") != c.false}
    if not shadows:
        return
    for torch in range(frame.size):
        alive = model.now_is(torch, "Torch")
        if alive == c.false:
            continue
        for ray in light_rays(model, torch):
            clear = alive
            for index in ray:
                clear = c.and_([clear, -model.wall_like[index]])
                if clear == c.false:
                    break
                if index in shadows:
                    lit.setdefault(index, []).append(clear)
    for index in shadows:
        shadow = model.now_is(index, "Shadow")
        is_lit = c.or_(lit.get(index, []))
        model.deadly_because(index, c.and_([shadow, -is_lit]))
        model.fire("torch:walk", index, c.and_([shadow, is_lit]))


# --- phase 6: overrides -----------------------------------------------------------------------------


def rule_chuck(model: StaticModel) -> list[list[int]]:
    """Rule 13, Chuck: "A Chuck cell makes its entire page passable: monsters, terrain, and items included."
    (Walls too, in the contract's reading; they still stop light.) Returns each cell's reasons to be spared."""
    c, frame = model.circuit, model.frame
    shape = frame.shape
    spared: list[list[int]] = [[] for _ in range(frame.size)]
    for page in shape.pages:
        cells = shape.page_cells(page)
        chuck = c.or_(model.now_is(index, "Chuck") for index in cells)
        if chuck == c.false:
            continue
        for index in cells:
            spared[index].append(chuck)
            model.fire("chuck:walk", index, c.and_([chuck, c.or_([model.deadly5[index], model.wall_like[index]])]))
    return spared


def rule_oracle(model: StaticModel) -> dict[int, int]:
    """Rule 10, the Oracle: "She is always safe, passable, and immune to all effects. No rule can make her
    deadly. If at least four of the eight cells around her contain deadly monsters, all eight neighboring
    cells become safe and passable except Wall cells."

    Her four are counted as the cells stand after phase 5, before any override: deadly creatures, not
    wall-like ones. Returns the cells she spares (herself, and those she protects).
    """
    c, frame = model.circuit, model.frame
    king = frame.shape.king_table()
    spared: dict[int, list[int]] = {}
    for oracle in range(frame.size):
        present = model.now_is(oracle, "Oracle")
        if present == c.false:
            continue
        spared.setdefault(oracle, []).append(present)
        threats = [
            c.and_([model.creature(other), model.deadly5[other], -model.wall_like[other]]) for other in king[oracle]
        ]
        protects = c.and_([present, c.at_least(threats, 4)[4]])
        for other in king[oracle]:
            protected = c.and_([protects, -model.wall_like[other]])
            spared.setdefault(other, []).append(protected)
            model.fire("oracle:walk", other, c.and_([protected, model.deadly5[other]]))
    return {index: c.or_(literals) for index, literals in spared.items()}


def rule_medusa(model: StaticModel, spared: list[list[int]]) -> list[int]:
    """Local rule, Medusa and Mirror: "On this spread, a Medusa petrifies every creature in her row and
    column, up to the first Wall, except other Medusas. A petrified creature is impassable. A Mirror in a
    Medusa's row or column, with no Wall between them, petrifies the Medusa: her cell becomes safe and she
    no longer petrifies any creatures." (The Oracle and Chuck are immune.) Returns petrified per cell."""
    c, frame = model.circuit, model.frame
    petrified: list[list[int]] = [[] for _ in range(frame.size)]
    for medusa in range(frame.size):
        present = model.now_is(medusa, "Medusa")
        if present == c.false or frame.spread_of_cell(medusa) not in frame.medusa_spreads:
            continue
        seen: list[tuple[int, int]] = []
        for ray in light_rays(model, medusa):
            visible = c.true
            for index in ray:
                visible = c.and_([visible, -model.wall_like[index]])
                if visible == c.false:
                    break
                seen.append((index, visible))
        mirrored = c.or_(c.and_([visible, model.now_is(index, "Mirror")]) for index, visible in seen)
        spared[medusa].append(c.and_([present, mirrored]))
        gazing = c.and_([present, -mirrored])
        for index, visible in seen:
            victim = c.and_(
                [
                    model.creature(index),
                    -model.now_is(index, "Medusa"),
                    -model.now_any(index, IMMUNE),
                ]
            )
            stone = c.and_([gazing, visible, victim])
            petrified[index].append(stone)
            model.fire("medusa", index, stone)
    return [c.or_(literals) for literals in petrified]
