"""One micro book per static rule, mostly the rulebook's own examples, asserting the exact cells decided."""

from tests.book_levels import blank, make_book
from twisty.rules.book.static import DEADLY, PASSABLE, PETRIFIED, WALL, evaluate
from twisty.solver.book import solve_book
from twisty.solver.book_sat import solve_book_sat


def statuses(book, status):
    evaluation = evaluate(book)
    return {book.shape.cell(index) for index, value in enumerate(evaluation.status) if value == status}


def deadly(book):
    return statuses(book, DEADLY)


# Rule 1 and 2 -------------------------------------------------------------------------------------


def test_bad_guys_are_deadly_and_weaklings_passable():
    book = make_book({1: "Sk Mu Dr\nGo Im Ko"}, rows=2, cols=3)
    assert deadly(book) == {(1, 0, 0), (1, 0, 1), (1, 0, 2)}


# Rule 3 -------------------------------------------------------------------------------------------


def test_nine_rats_on_a_spread_are_safe_ten_are_deadly():
    nine = make_book({1: "Ra Ra Ra Ra Ra\nRa Ra Ra Ra ."}, rows=2, cols=5)
    assert deadly(nine) == set()
    ten = make_book({1: "Ra Ra Ra Ra Ra\nRa Ra Ra Ra Ra"}, rows=2, cols=5)
    assert deadly(ten) == {(1, row, col) for row in range(2) for col in range(5)}


def test_rats_count_over_the_whole_spread_and_not_beyond():
    # Five rats on each page of spread 1 (pages 2|3) make ten; page 1's rats are another spread.
    book = make_book({1: "Ra Ra Ra Ra Ra", 2: "Ra Ra Ra Ra Ra", 3: "Ra Ra Ra Ra Ra"}, rows=1, cols=5)
    assert deadly(book) == {(page, 0, col) for page in (2, 3) for col in range(5)}


def test_a_lone_rat_is_explained_in_the_rulebook_s_words():
    # Page 1 is alone on its spread: one Rat there, "1 Rat" (not "1 Rats") on "the spread of page 1" (not
    # "spread 0", a number no reader sees); pages 2 and 3 together hold ten.
    book = make_book({1: "Ra . . . .", 2: "Ra Ra Ra Ra Ra", 3: "Ra Ra Ra Ra ."}, rows=1, cols=5)
    evaluation = evaluate(book)
    assert evaluation.chain(book.shape.index((1, 0, 0))) == [
        "rule 3 (The Rat): 1 Rat on the spread of page 1: fewer than ten, safe"
    ]
    assert evaluation.chain(book.shape.index((3, 0, 0))) == [
        "rule 3 (The Rat): 9 Rats on the spread of pages 2-3: fewer than ten, safe"
    ]


# Rule 4 -------------------------------------------------------------------------------------------


def test_lone_wolf_passable_pair_deadly_without_attack():
    book = make_book({1: "Wo . . Wo Wo"}, rows=1, cols=5)
    assert deadly(book) == {(1, 0, 3), (1, 0, 4)}


def test_pack_of_three_attacks_to_the_right():
    book = make_book({1: "Wo Ru . .\nWo Wo Th .\n. . . ."}, rows=3, cols=4)
    assert deadly(book) == {(1, 0, 0), (1, 1, 0), (1, 1, 1), (1, 0, 1), (1, 1, 2)}


def test_pack_of_four_attacks_to_the_left_across_the_gutter():
    # The pack sits at the left edge of right page 3: its left attacks land on page 2's last column.
    book = make_book({2: blank(2, 3), 3: "Wo Wo Ru\nWo Wo Ms"}, rows=2, cols=3)
    assert deadly(book) == {(3, 0, 0), (3, 0, 1), (3, 1, 0), (3, 1, 1), (2, 0, 2), (2, 1, 2)}


def test_pack_of_five_attacks_downward():
    book = make_book({1: "Wo Wo Wo\nWo Ko .\nWo Go Ms", 2: blank(3, 3)}, rows=3, cols=3)
    # Down from each Wolf: (1,0) (1,1) (1,2) (2,0) and, from (2,0) over the bottom edge onto the back of
    # the leaf, page 2's mirrored column: (2,2,2).
    assert deadly(book) == {(1, 0, 0), (1, 0, 1), (1, 0, 2), (1, 1, 0), (1, 2, 0), (1, 1, 1), (1, 1, 2), (2, 2, 2)}


def test_pack_of_six_on_a_top_row_attacks_the_back_of_the_leaf_mirrored():
    book = make_book({3: "Wo Wo Wo Wo Wo Wo\n. . . . . .", 4: blank(2, 6)}, rows=2, cols=6)
    assert deadly(book) == {(3, 0, col) for col in range(6)} | {(4, 0, col) for col in range(6)}


# Rule 5 -------------------------------------------------------------------------------------------


def test_mimic_chains_copy_toward_the_gutter():
    # Right-hand page 1: each Mimic copies its left neighbour.
    book = make_book({1: "Dr Mm Mm\nRu Mm .\nTh Mm Gd"}, rows=3, cols=3)
    evaluation = evaluate(book)
    assert evaluation.identity[book.shape.index((1, 0, 2))] == "Dragon"
    # The Mimic copying the Thief is a Thief for every rule: it guards the Gold beside it.
    assert deadly(book) == {(1, 0, 0), (1, 0, 1), (1, 0, 2), (1, 2, 2)}


def test_mimic_on_a_left_page_copies_across_the_gutter_and_a_loop_copies_nothing():
    book = make_book({2: "Mm\nMm", 3: "Tr\nMm"}, rows=2, cols=1)
    evaluation = evaluate(book)
    assert evaluation.identity[book.shape.index((2, 0, 0))] == "Troll"
    assert evaluation.identity[book.shape.index((2, 1, 0))] == "Mimic"  # 2 -> 3 -> back to 2: a loop
    assert deadly(book) == {(2, 0, 0), (3, 0, 0)}


# Rule 6 -------------------------------------------------------------------------------------------


def test_mage_calms_the_wraiths_of_his_page_only():
    book = make_book({2: "Wr Wr Wr\nRu Ma .", 3: "Wr . .\n. . ."}, rows=2, cols=3)
    assert deadly(book) == {(3, 0, 0)}


def test_scroll_beside_a_mage_kills_both():
    book = make_book({1: "Sc . .\n. Ma Ms\nSc . ."}, rows=3, cols=3)
    assert deadly(book) == {(1, 0, 0), (1, 1, 1), (1, 2, 0)}


# Rule 7 -------------------------------------------------------------------------------------------


def test_three_orcs_against_two_dwarves():
    book = make_book({1: "Or Or Or Dw Dw"}, rows=1, cols=5)
    assert deadly(book) == {(1, 0, 0), (1, 0, 1), (1, 0, 2)}


def test_three_orcs_against_four_dwarves_through_one_contact():
    book = make_book({1: "Or Or Or Dw\n. . . Dw\n. . Dw Dw"}, rows=3, cols=4)
    assert deadly(book) == {(1, 0, 3), (1, 1, 3), (1, 2, 2), (1, 2, 3)}


def test_two_against_two_all_fall_and_a_lone_orc_stays_deadly():
    book = make_book({1: "Or Or Dw Dw .\n. . . . Or"}, rows=2, cols=5)
    assert deadly(book) == {(1, 1, 4)}


def test_melee_across_the_gutter():
    book = make_book({2: ". Or", 3: "Dw Dw"}, rows=1, cols=2)
    assert deadly(book) == {(3, 0, 0), (3, 0, 1)}


# Rule 8 -------------------------------------------------------------------------------------------


def test_vampire_chain_stopped_by_a_swamp():
    book = make_book({1: "Va Ba Th Sw Cu\n. . Cu . ."}, rows=2, cols=5)
    evaluation = evaluate(book)
    assert evaluation.identity[book.shape.index((1, 1, 2))] == "Vampire"  # below the converted Thief
    assert deadly(book) == {(1, 0, 0), (1, 0, 1), (1, 0, 2), (1, 0, 3), (1, 1, 2)}


def test_vampire_never_converts_diagonally():
    book = make_book({1: "Va .\n. Th"}, rows=2, cols=2)
    assert deadly(book) == {(1, 0, 0)}


# Rule 9 -------------------------------------------------------------------------------------------


def test_giants_crush_creatures_between_them_but_not_terrain_or_items():
    book = make_book({1: "Gi Mu Sw Zo Ge Gi"}, rows=1, cols=6)
    assert deadly(book) == {(1, 0, 0), (1, 0, 2), (1, 0, 5)}


def test_giants_row_runs_across_the_gutter():
    book = make_book({2: "Gi Tr", 3: "Og Gi", 4: "Sk Gi"}, rows=1, cols=2)
    # Spread 1 (pages 2|3) crushes Troll and Ogre; page 4 is another spread, its Skeleton stays.
    assert deadly(book) == {(2, 0, 0), (3, 0, 1), (4, 0, 0), (4, 0, 1)}


# Rule 10 ------------------------------------------------------------------------------------------


def test_oracle_with_four_monsters_protects_all_but_the_wall():
    book = make_book({1: "Og Ru Tr\n## Oc De\nMs Sk Ru"}, rows=3, cols=3)
    assert deadly(book) == set()
    assert statuses(book, WALL) == {(1, 1, 0)}


def test_oracle_with_three_monsters_does_nothing():
    book = make_book({1: "Og Ru Tr\nMs Oc Ru\nPl De Ms"}, rows=3, cols=3)
    assert deadly(book) == {(1, 0, 0), (1, 0, 2), (1, 2, 1)}


# Rule 11 ------------------------------------------------------------------------------------------


def test_reaper_kills_everything_within_two_cells_across_the_gutter():
    reaper_page = "\n".join([". . . . .", ". . . . .", ". . . . Re", ". . . . .", ". . . . ."])
    book = make_book({2: reaper_page, 3: blank(5, 5)}, rows=5, cols=5)
    expected = {(2, row, col) for row in range(5) for col in (2, 3, 4)}
    expected |= {(3, row, col) for row in range(5) for col in (0, 1)}
    assert deadly(book) == expected


# Rule 12 ------------------------------------------------------------------------------------------


def test_titan_band_covers_three_rows_of_three_spreads():
    pages = {page: blank(5, 2) for page in range(1, 8)}
    pages[4] = ". .\n. .\nTi .\n. .\n. ."
    book = make_book(pages, rows=5, cols=2)
    # Titan on page 4 (spread 2): spreads 1, 2, 3 = pages 2..7; rows 1..3. Page 1 (spread 0) is clear.
    assert statuses(book, WALL) == {(page, row, col) for page in range(2, 8) for row in (1, 2, 3) for col in range(2)}


def test_titan_band_on_a_top_row_is_clipped_to_the_page():
    book = make_book({1: "Ti .\n. .\n. ."}, rows=3, cols=2)
    assert statuses(book, WALL) == {(1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1)}


# Rule 13 ------------------------------------------------------------------------------------------


def test_chuck_makes_his_whole_page_passable_walls_included():
    book = make_book({2: "Tr Si ##\nLa Ch Re", 3: "Og . .\n. . ."}, rows=2, cols=3)
    # The Reaper still reaches two columns into page 3 (Chuck's override is for his own page only).
    assert deadly(book) == {(3, 0, 0), (3, 0, 1), (3, 1, 0), (3, 1, 1)}
    assert statuses(book, WALL) == set()


# Rules 14 to 17 -----------------------------------------------------------------------------------


def test_terrain():
    book = make_book({1: "Si Sw Pi\nRu Ms Pl\nBr ## ."}, rows=3, cols=3)
    assert deadly(book) == {(1, 0, 0), (1, 0, 1), (1, 0, 2)}
    assert statuses(book, WALL) == {(1, 2, 1)}


def test_lava_kills_its_four_orthogonal_neighbours_never_the_diagonals():
    book = make_book({1: ". Go .\nGd La Th\n. Ru ."}, rows=3, cols=3)
    assert deadly(book) == {(1, 0, 1), (1, 1, 0), (1, 1, 1), (1, 1, 2), (1, 2, 1)}


# Rule 19 ------------------------------------------------------------------------------------------


def test_number_counts_creatures_among_its_eight_neighbours():
    book = make_book({1: "Og Tr .\n3 De .\n. . .\nOg 3 Tr"}, rows=4, cols=3)
    # (1,1,0) sees Ogre, Troll, Demon: 3, safe. (1,3,1) sees Ogre, Troll: 2, deadly.
    assert deadly(book) == {(1, 0, 0), (1, 0, 1), (1, 1, 1), (1, 3, 0), (1, 3, 2), (1, 3, 1)}


# Rule 20 ------------------------------------------------------------------------------------------


def test_gold_beside_a_thief_is_deadly_alone_it_is_safe():
    book = make_book({1: "Gd Th Ru Gd"}, rows=1, cols=4)
    assert deadly(book) == {(1, 0, 0)}


# Rule 21 ------------------------------------------------------------------------------------------


def test_torch_light_passes_through_creatures_but_a_wall_stops_it():
    book = make_book({1: "To Tr Ru Gd Sh\nTo Tr ## Ru Sh"}, rows=2, cols=5)
    # Row 0's Shadow is lit; row 1's is behind a Wall. The Torch's column lights nothing else.
    assert deadly(book) == {(1, 0, 1), (1, 1, 1), (1, 1, 4)}


def test_torch_light_crosses_the_gutter_but_not_into_the_next_spread():
    book = make_book({2: "To .", 3: ". Sh", 4: "Sh ."}, rows=1, cols=2)
    assert deadly(book) == {(4, 0, 0)}


# Local rule: Medusa and Mirror --------------------------------------------------------------------


def test_medusa_petrifies_her_row_up_to_the_wall():
    book = make_book(
        {1: ". . . . . . .\nBa Go Im Me ## Th Ko"}, rows=2, cols=7, extra='[[local]]\nrule = "medusa"\npage = 1\n'
    )
    assert statuses(book, PETRIFIED) == {(1, 1, 0), (1, 1, 1), (1, 1, 2)}
    assert deadly(book) == {(1, 1, 3)}


def test_mirror_in_her_column_petrifies_the_medusa_instead():
    book = make_book(
        {1: ". . . Mr . . .\nBa Go Im Me ## Th Ko"}, rows=2, cols=7, extra='[[local]]\nrule = "medusa"\npage = 1\n'
    )
    assert statuses(book, PETRIFIED) == set()
    assert deadly(book) == set()


def test_medusa_without_the_local_rule_is_just_a_bad_guy():
    book = make_book({1: ". . . . . . .\nBa Go Im Me ## Th Ko"}, rows=2, cols=7)
    assert statuses(book, PETRIFIED) == set()
    assert deadly(book) == {(1, 1, 3)}


# The other readings docs/book.md names under "Ambiguity" -----------------------------------------------


def test_conversion_before_crush_lets_the_chain_pass_the_crushed_thief():
    from twisty.rules.book.static import CONVERSION_BEFORE_CRUSH

    book = make_book({1: ". Va .\nGi Th Gi\n. Cu ."}, rows=3, cols=3)
    # docs/book.md: the Giants crush the Thief first, so the Vampire has no prey and the Cultist stays safe.
    assert deadly(book) == {(1, 0, 1), (1, 1, 0), (1, 1, 2)}
    other = evaluate(book, reading=frozenset({CONVERSION_BEFORE_CRUSH}))
    assert other.status_of((1, 2, 1)) == DEADLY and other.status_of((1, 1, 1)) == PASSABLE


def test_a_crushed_mage_calms_wraiths_only_under_the_other_reading():
    from twisty.rules.book.static import REMOVED_MAGE_CALMS

    book = make_book({1: "Gi Ma Gi\n. Wr ."}, rows=2, cols=3)
    assert deadly(book) == {(1, 0, 0), (1, 0, 2), (1, 1, 1)}
    other = evaluate(book, reading=frozenset({REMOVED_MAGE_CALMS}))
    assert other.status_of((1, 1, 1)) == PASSABLE


def test_walls_on_chucks_page_under_both_readings():
    from twisty.rules.book.static import CHUCK_KEEPS_WALLS

    book = make_book({1: "Ch ## Tr"}, rows=1, cols=3)
    assert statuses(book, WALL) == set() and deadly(book) == set()
    other = evaluate(book, reading=frozenset({CHUCK_KEEPS_WALLS}))
    assert other.status_of((1, 0, 1)) == WALL and other.status_of((1, 0, 2)) == PASSABLE


def test_the_oracles_four_are_counted_before_chucks_override():
    # Spread 1: left page 2, right page 3 (3x3). The Oracle stands at (3,1,0), against the gutter. Her eight
    # neighbours (through `step`): on page 3 (3,0,0) (3,2,0) (3,0,1) (3,1,1) (3,2,1); across the gutter on
    # page 2 (2,0,2) (2,1,2) (2,2,2). After phase 5 four of them are deadly creatures: the Troll (3,1,1) and
    # the three Ogres of page 2's last column. Chuck (3,2,2) then makes page 3 passable, the Troll too, but
    # the count was taken before any override, so she protects: the three Ogres of page 2 turn passable.
    # (Had Chuck's override come first, she would see three and page 2's Ogres would stay deadly.)
    # Statuses: page 2 -> the four Walls impassable, everything else passable; page 3 -> all passable.
    # The walk: (2,1,0) (2,1,1) (2,1,2) over the gutter to (3,1,0) (3,1,1) (3,1,2), five moves, the only
    # walk of five (three moves from (2,1,2) to (3,1,2) must follow the row).
    pages = {2: "## ## Og\nRu Ru Og\n## ## Og", 3: ". . .\nOc Tr Ru\n. . Ch"}
    book = make_book(pages, rows=3, cols=3, entrance=[2, 1, 0], exit=[3, 1, 2])
    assert statuses(book, DEADLY) == set()
    assert statuses(book, WALL) == {(2, 0, 0), (2, 0, 1), (2, 2, 0), (2, 2, 1)}
    evaluation = evaluate(book)
    assert "4 deadly creatures around her" in " ".join(evaluation.chain(book.shape.index((2, 1, 2))))
    verdict = solve_book(book)
    assert verdict.walk == [(2, 1, 0), (2, 1, 1), (2, 1, 2), (3, 1, 0), (3, 1, 1), (3, 1, 2)]
    assert verdict.moves == 5 and verdict.unique
    # The SAT engine (the second engine) reads the same statuses and the same one shortest walk.
    sat = solve_book_sat(book)
    assert sat.statuses == evaluation.status
    assert (sat.status, sat.moves, sat.shortest_walks) == ("solvable", 5, 1)


# Evaluations without words ------------------------------------------------------------------------


def test_an_evaluation_without_its_reasons_decides_every_cell_as_one_with_them():
    # The walk search evaluates without keeping the rules' words (a path of its own through `record`); on
    # random books of every static rule, with cells removed as a walk would, both evaluations agree on every
    # status, identity and rule fired, and the reasons asked of the one without them are the other's.
    import random

    from tests.book_levels import random_book

    compared = 0
    for seed in range(300):
        book = random_book(seed)
        if book is None:
            continue
        chooser = random.Random(seed)
        taken = chooser.sample(range(book.shape.cell_count), chooser.randint(0, min(3, book.shape.cell_count)))
        removed = {index: (22, "shot") for index in taken if book.contents[index]}
        full = evaluate(book, removed)
        lean = evaluate(book, removed, explain=False)
        assert lean.explained is None
        assert (lean.status, lean.identity, lean.fired, lean.removed) == (
            full.status,
            full.identity,
            full.fired,
            full.removed,
        ), f"seed {seed}"
        assert lean.reasons == full.reasons
        compared += 1
    assert compared >= 250
