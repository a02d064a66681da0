"""The path rules and the walk's verdict on micro books (walks worked out by hand)."""

from tests.book_levels import make_book
from twisty.rules.book.path import PathRules, replay_walk
from twisty.rules.book.static import DEADLY, PASSABLE
from twisty.solver.book import solve_book

WALLS = "## ## ## ## ##"


def test_bridge_jumps_one_deadly_cell_onto_a_safe_one():
    book = make_book({1: "Ru Br Si Go"}, rows=1, cols=4, entrance=[1, 0, 0], exit=[1, 0, 3])
    verdict = solve_book(book)
    assert verdict.walk == [(1, 0, 0), (1, 0, 1), (1, 0, 3)]
    assert 15 in verdict.walk_rules


def test_without_the_bridge_the_spikes_block_the_way():
    book = make_book({1: "Ru Ru Si Go"}, rows=1, cols=4, entrance=[1, 0, 0], exit=[1, 0, 3])
    assert solve_book(book).status == "unsolvable"


def test_bridge_landing_must_be_safe():
    book = make_book({1: "Ru Br Si Pi Go"}, rows=1, cols=5, entrance=[1, 0, 0], exit=[1, 0, 4])
    assert solve_book(book).status == "unsolvable"


def test_tunnel_joins_the_front_and_back_of_a_leaf():
    book = make_book(
        {1: "## ## ##\nRu Tu ##\n## ## ##", 2: "## ## ##\n## Tu Ru\n## ## ##"},
        rows=3,
        cols=3,
        entrance=[1, 1, 0],
        exit=[2, 1, 2],
    )
    verdict = solve_book(book)
    assert verdict.walk == [(1, 1, 0), (1, 1, 1), (2, 1, 1), (2, 1, 2)]
    assert verdict.moves == 2
    assert verdict.unique and verdict.simple_corridor


def test_bow_breaks_a_pack_of_three():
    # The rulebook's example: the middle Wolf is exactly five cells from the Bow; once it is shot the two
    # others no longer touch, so they and the cells they attacked turn safe.
    book = make_book(
        {1: ". . . . . Wo .\nBw Ru Ru Ru Ru Wo Ru\n. . . . . Wo ."}, rows=3, cols=7, entrance=[1, 1, 0], exit=[1, 1, 6]
    )
    verdict = solve_book(book)
    assert verdict.initial.status_of((1, 1, 6)) == DEADLY
    assert verdict.walk == [(1, 1, col) for col in range(7)]
    assert verdict.unique
    assert {
        cell for cell in [(1, 0, 5), (1, 2, 5), (1, 0, 6), (1, 2, 6)] if verdict.final.status_of(cell) == PASSABLE
    } == {(1, 0, 5), (1, 2, 5), (1, 0, 6), (1, 2, 6)}
    assert 22 in verdict.walk_rules


def test_molotov_burns_the_zombie_and_its_neighbours_but_the_swamp_stays():
    book = make_book(
        {1: ". Tr Og Mu .\nMo Sk Zo Sw Ru\n. De Wi Sp ."}, rows=3, cols=5, entrance=[1, 1, 0], exit=[1, 1, 4]
    )
    verdict = solve_book(book)
    assert verdict.solvable
    final = verdict.final
    burnt = [(1, 0, 1), (1, 0, 2), (1, 0, 3), (1, 1, 1), (1, 1, 2), (1, 2, 1), (1, 2, 2), (1, 2, 3)]
    assert [cell for cell in burnt if final.status_of(cell) != PASSABLE] == []
    assert final.status_of((1, 1, 3)) == DEADLY
    assert verdict.moves == 6  # e.g. (1,1,1) (1,1,2) (1,0,2) (1,0,3) (1,0,4) (1,1,4): round the Swamp
    assert not verdict.unique


def test_sword_slays_a_dragon_on_the_next_page():
    pages = {2: "## ## ##\nRu Sd Ru\n## ## ##", 3: "## ## ##\nDr Ru Ru\n## ## ##", 4: "## ## ##\nRu Dr Ru\n## ## ##"}
    verdict = solve_book(make_book(pages, rows=3, cols=3, entrance=[2, 1, 0], exit=[3, 1, 2]))
    assert verdict.walk == [(2, 1, 0), (2, 1, 1), (2, 1, 2), (3, 1, 0), (3, 1, 1), (3, 1, 2)]
    assert 23 in verdict.walk_rules


def test_sword_vanishes_two_pages_away():
    pages = {2: "## ## ##\nRu Sd Ru\n## ## ##", 3: "## ## ##\nDr Ru Ru\n## ## ##", 4: "## ## ##\nRu Dr Ru\n## ## ##"}
    verdict = solve_book(make_book(pages, rows=3, cols=3, entrance=[2, 1, 0], exit=[4, 1, 2]))
    assert verdict.status == "unsolvable"
    assert (4, 1, 0) in verdict.corridor and (4, 1, 2) not in verdict.corridor


def test_mask_crosses_identical_creatures_only():
    page = "Mk Tr Mu ## ##\n## Tr Tr Tr Ru\n## ## ## ## ##"
    verdict = solve_book(make_book({1: page}, rows=3, cols=5, entrance=[1, 0, 0], exit=[1, 1, 4]))
    assert verdict.walk == [(1, 0, 0), (1, 0, 1), (1, 1, 1), (1, 1, 2), (1, 1, 3), (1, 1, 4)]
    assert verdict.unique and verdict.simple_corridor
    assert 24 in verdict.walk_rules
    mixed = "Mk Tr Mu ## ##\n## Tr Mu Tr Ru\n## ## ## ## ##"
    assert solve_book(make_book({1: mixed}, rows=3, cols=5, entrance=[1, 0, 0], exit=[1, 1, 4])).status == "unsolvable"


def test_boss_falls_once_the_walker_holds_all_its_weapons():
    boss = '[[local]]\nrule = "boss"\npage = 1\nitems = ["Bazooka", "Tweezers", "Excalibur"]\n'
    armed = make_book(
        {1: f"{WALLS}\nBz Tw Ex Bs Ru\n{WALLS}"}, rows=3, cols=5, entrance=[1, 1, 0], exit=[1, 1, 4], extra=boss
    )
    verdict = solve_book(armed)
    assert verdict.walk == [(1, 1, col) for col in range(5)]
    assert 27 in verdict.walk_rules
    unarmed = make_book(
        {1: f"{WALLS}\nBz Tw Ru Bs Ru\n{WALLS}"}, rows=3, cols=5, entrance=[1, 1, 0], exit=[1, 1, 4], extra=boss
    )
    assert solve_book(unarmed).status == "unsolvable"


def test_a_deadly_entrance_means_no_walk():
    assert (
        solve_book(make_book({1: "Tr Ru"}, rows=1, cols=2, entrance=[1, 0, 0], exit=[1, 0, 1])).status == "unsolvable"
    )


def test_two_ways_round_a_wall_are_two_shortest_walks():
    verdict = solve_book(
        make_book({1: "Ru Ru Ru\nRu ## Ru\nRu Ru Ru"}, rows=3, cols=3, entrance=[1, 0, 0], exit=[1, 2, 2])
    )
    assert verdict.moves == 4 and verdict.shortest_walks == 2 and not verdict.unique
    assert verdict.branches == [(1, 0, 0), (1, 2, 2)] and verdict.dead_ends == []


def test_a_side_pocket_is_a_dead_end_and_its_mouth_a_branch():
    verdict = solve_book(
        make_book({1: "Ru Ru Ru\nRu ## Ru\n## ## Ru"}, rows=3, cols=3, entrance=[1, 0, 0], exit=[1, 2, 2])
    )
    assert verdict.walk == [(1, 0, 0), (1, 0, 1), (1, 0, 2), (1, 1, 2), (1, 2, 2)]
    assert verdict.unique and not verdict.simple_corridor
    assert verdict.dead_ends == [(1, 1, 0)] and verdict.branches == [(1, 0, 0)]


def test_walk_crosses_the_gutter_and_the_outer_edge():
    # Page 1's right edge is an outer edge (its back is page 2); page 2|3 meet at the gutter. The Walls
    # above and below keep the walk on the middle row (the top and bottom edges wrap onto other pages).
    pages = {1: "## ## ##\nRu Ru Ru\n## ## ##", 2: "## ## ##\nRu Ru Ru\n## ## ##", 3: "## ## ##\nRu Ru Ru\n## ## ##"}
    verdict = solve_book(make_book(pages, rows=3, cols=3, entrance=[1, 1, 0], exit=[3, 1, 2]))
    assert verdict.walk == [(page, 1, col) for page in (1, 2, 3) for col in range(3)]
    assert verdict.unique and verdict.simple_corridor


def test_entrance_on_the_exit_is_a_walk_of_no_moves():
    verdict = solve_book(make_book({1: "Ru Ru"}, rows=1, cols=2, entrance=[1, 0, 1], exit=[1, 0, 1]))
    assert verdict.solvable and verdict.moves == 0 and verdict.walk == [(1, 0, 1)]


def test_mask_disguise_holds_across_a_passable_creature_of_the_same_kind():
    # The Lava makes the first and third Thieves deadly; the middle one is safe, yet the walker stays among
    # Thieves and so stays disguised ("from creature to creature, as long as each one is identical").
    page = "## La ## La ##\nMk Th Th Th Ru\n## ## ## ## ##"
    verdict = solve_book(make_book({1: page}, rows=3, cols=5, entrance=[1, 1, 0], exit=[1, 1, 4]))
    assert verdict.initial.status_of((1, 1, 2)) == PASSABLE
    assert verdict.walk == [(1, 1, col) for col in range(5)]


def test_a_slain_dragon_within_a_reapers_reach_still_kills():
    page = "## ## ## ## ## ##\nRu Sd Ru Dr . .\n## ## ## ## ## ##"
    armed = make_book({1: page}, rows=3, cols=6, entrance=[1, 1, 0], exit=[1, 1, 3])
    assert solve_book(armed).walk == [(1, 1, 0), (1, 1, 1), (1, 1, 2), (1, 1, 3)]
    reaped = make_book({1: page.replace(". .\n##", ". Re\n##")}, rows=3, cols=6, entrance=[1, 1, 0], exit=[1, 1, 3])
    assert solve_book(reaped).status == "unsolvable"


def test_the_bows_upward_arrow_circles_the_leaf_and_hits_the_cell_below_it():
    # Up from (1,1,1): (1,0,1), over the top to (2,0,1), down page 2 to (2,2,1), over the bottom back to
    # (1,2,1): the fifth cell is right under the Bow.
    book = make_book(
        {1: ". . .\n. Bw .\n. Tr .", 2: ". . .\n. . .\n. . ."}, rows=3, cols=3, entrance=[1, 1, 1], exit=[1, 2, 1]
    )
    verdict = solve_book(book)
    assert verdict.initial.status_of((1, 2, 1)) == DEADLY
    assert verdict.walk == [(1, 1, 1), (1, 2, 1)]


def _road(*middles: str) -> dict[int, str]:
    """Pages 1.. of 3x3 with Walls on rows 0 and 2: the walk keeps to row 1, page after page."""
    return {page: f"## ## ##\n{middle}\n## ## ##" for page, middle in enumerate(middles, start=1)}


def test_a_second_sword_is_picked_up_after_the_first_is_lost():
    # Sword A at (1,1,1) reaches pages 1-2: it slays the Dragon at (2,1,1). Arriving on page 3 loses it.
    # Sword B at (4,1,1) is its own Sword: taken there, it reaches pages 3-5 and slays the Dragon at (5,1,0).
    # The walk is the whole middle row, 15 cells, 14 moves, the only one (every other cell is a Wall).
    # Once the walk reaches the exit both Dragons are gone: (2,1,1) and (5,1,0) are passable.
    book = make_book(
        _road("Ru Sd Ru", "Ru Dr Ru", "Ru Ru Ru", "Ru Sd Ru", "Dr Ru Ru"),
        rows=3,
        cols=3,
        entrance=[1, 1, 0],
        exit=[5, 1, 2],
    )
    verdict = solve_book(book)
    assert verdict.walk == [(page, 1, col) for page in range(1, 6) for col in range(3)]
    assert verdict.moves == 14 and verdict.unique
    assert verdict.initial.status_of((2, 1, 1)) == DEADLY and verdict.initial.status_of((5, 1, 0)) == DEADLY
    assert verdict.final.status_of((2, 1, 1)) == PASSABLE and verdict.final.status_of((5, 1, 0)) == PASSABLE
    assert 23 in verdict.walk_rules
    # Without Sword B the Dragon on page 5 stops the walk at (4,1,2): A was lost on page 3.
    unarmed = make_book(
        _road("Ru Sd Ru", "Ru Dr Ru", "Ru Ru Ru", "Ru Ru Ru", "Dr Ru Ru"),
        rows=3,
        cols=3,
        entrance=[1, 1, 0],
        exit=[5, 1, 2],
    )
    verdict = solve_book(unarmed)
    assert verdict.status == "unsolvable"
    assert verdict.corridor == [(page, 1, col) for page in range(1, 5) for col in range(3)]


def test_a_second_sword_taken_while_holding_the_first_brings_its_own_pages():
    # Pages 2-4. Sword A at (2,1,1) reaches pages 1-3; the walker still holds it on page 3 and there takes
    # Sword B at (3,1,1), whose pages 2-4 count from then on: the Dragon at (4,1,0) is slain (A alone would
    # have been lost on page 4). The walk: the middle row of pages 2, 3, 4, 9 cells, 8 moves.
    pages = dict(zip((2, 3, 4), _road("Ru Sd Ru", "Ru Sd Ru", "Dr Ru Ru").values(), strict=True))
    verdict = solve_book(make_book(pages, rows=3, cols=3, entrance=[2, 1, 0], exit=[4, 1, 2]))
    assert verdict.walk == [(page, 1, col) for page in (2, 3, 4) for col in range(3)]
    assert verdict.moves == 8 and verdict.unique
    assert verdict.final.status_of((4, 1, 0)) == PASSABLE
    only_a = dict(zip((2, 3, 4), _road("Ru Sd Ru", "Ru Ru Ru", "Dr Ru Ru").values(), strict=True))
    assert solve_book(make_book(only_a, rows=3, cols=3, entrance=[2, 1, 0], exit=[4, 1, 2])).status == "unsolvable"


def test_a_bridge_jump_that_lands_on_a_dragon_slays_it_with_the_sword():
    # Row 1: Sword (the entrance: taken at the start), Bridge, Spikes, Dragon, exit. From the Bridge the walker
    # jumps the Spikes and lands on the Dragon, which the Sword (same page) slays: removed, the book
    # re-evaluated, the cell passable, so the landing stands. Walk (1,1,0) (1,1,1) (1,1,3) (1,1,4): 3 moves.
    # The Spikes stay deadly; the Dragon's cell is passable once the walk reaches the exit.
    book = make_book(
        {1: "## ## ## ## ##\nSd Br Si Dr Ru\n## ## ## ## ##"}, rows=3, cols=5, entrance=[1, 1, 0], exit=[1, 1, 4]
    )
    verdict = solve_book(book)
    assert verdict.walk == [(1, 1, 0), (1, 1, 1), (1, 1, 3), (1, 1, 4)]
    assert verdict.moves == 3 and verdict.unique
    assert {15, 23} <= verdict.walk_rules
    assert verdict.final.status_of((1, 1, 3)) == PASSABLE and verdict.final.status_of((1, 1, 2)) == DEADLY
    # Without the Sword the landing cell is a deadly Dragon: no jump, no walk; the corridor is the first two.
    unarmed = make_book(
        {1: "## ## ## ## ##\nRu Br Si Dr Ru\n## ## ## ## ##"}, rows=3, cols=5, entrance=[1, 1, 0], exit=[1, 1, 4]
    )
    verdict = solve_book(unarmed)
    assert verdict.status == "unsolvable" and verdict.corridor == [(1, 1, 0), (1, 1, 1)]


def test_a_walk_is_replayed_by_the_path_rules_and_a_made_up_one_is_refused():
    # Rubble, Bridge, Spikes, Goblin: (1,0,0) -> (1,0,1), then the jump over the Spikes to (1,0,3).
    book = make_book({1: "Ru Br Si Go"}, rows=1, cols=4, entrance=[1, 0, 0], exit=[1, 0, 3])
    rules = PathRules(book)
    cell = book.shape.index
    finals = replay_walk(rules, [(cell((1, 0, 1)),), (cell((1, 0, 3)),)])
    assert [book.shape.cell(walker.position) for walker in finals] == [(1, 0, 3)]
    # Stepping onto the Spikes is no legal move; a walk that stops short of the exit ends nowhere.
    assert replay_walk(rules, [(cell((1, 0, 1)),), (cell((1, 0, 2)),), (cell((1, 0, 3)),)]) == []
    assert replay_walk(rules, [(cell((1, 0, 1)),)]) == []
