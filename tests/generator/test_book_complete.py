"""`twisty complete`: a sketch's open cells are filled so that its book has one simple corridor, checked by
the rule engine; or the conflicting cells and wishes are named, each one needed."""

import json

from click.testing import CliRunner

import twisty
from twisty.cli import main
from twisty.generator.book_complete import CORRIDOR_WISH, complete_book
from twisty.rules.book.loader import load_sketch
from twisty.rules.source import parse_level_bytes

SKETCH = '''game = "book"
title = "a sketch"
rows = 4
cols = 5
entrance = [1, 1, 0]
exit = [2, 2, 4]

[pages]
1 = """
## ## ## ## ##
.  ?  ?  ?  ?
## ?  ?  ?  ##
## ## ## ## ##
"""
2 = """
## ## ## ## ##
?  ?  ?{Wo,Tr} ?  ##
## ?  ?  ?  .
## ## ## ## ##
"""
'''


def sketch_of(text: str):
    return load_sketch(parse_level_bytes(text.encode(), "sketch.toml"))


def test_a_sketch_is_filled_into_a_book_with_one_simple_corridor():
    sketch, open_cells = sketch_of(SKETCH)
    assert len(open_cells) == 14
    completion = complete_book(sketch, open_cells)
    assert completion.completed
    verdict = twisty.check(completion.text)
    assert verdict.expect_failures == ()
    assert (verdict.unique, verdict.simple_corridor) == (True, True)
    book = completion.book
    for index, name in enumerate(sketch.contents):
        if index in open_cells:
            assert book.contents[index] in open_cells[index]
        else:
            assert book.contents[index] == name  # the designer's cells are kept
    assert book.content((2, 1, 2)) in ("Wolf", "Troll")


def test_a_walled_in_exit_is_named_with_the_walls_that_close_it():
    # The exit (2, 2, 4) has three neighbours, (2, 1, 4), (2, 2, 3) and (2, 3, 4), all fixed Walls (the page
    # after it does not exist): no filling reaches it, and each Wall is needed (without it the exit opens).
    text = SKETCH.replace("?  ?  ?{Wo,Tr} ?  ##\n## ?  ?  ?  .", "?  ?  ?{Wo,Tr} ?  ##\n## ?  ?  ## .")
    sketch, open_cells = sketch_of(text)
    completion = complete_book(sketch, open_cells)
    assert not completion.completed
    assert [wish.text for wish in completion.conflict] == [
        CORRIDOR_WISH,
        "page 2, row 1, col 4 holds Wall",
        "page 2, row 2, col 3 holds Wall",
        "page 2, row 3, col 4 holds Wall",
    ]
    assert [wish.rule for wish in completion.conflict[1:]] == [16, 16, 16]


def test_an_open_cell_whose_set_cannot_be_crossed_is_named():
    # One row of five cells (a page of one row has no neighbours over its edges: the leaf's other side is
    # not in the book): the only way from the entrance to the exit is through (1, 0, 2), whose set holds a
    # Troll or a Wall, neither passable. Those two wishes conflict, and nothing else is involved.
    text = '''game = "book"
rows = 1
cols = 5
entrance = [1, 0, 0]
exit = [1, 0, 4]

[pages]
1 = """
.  .  ?{Tr,##} .  .
"""
'''
    sketch, open_cells = sketch_of(text)
    completion = complete_book(sketch, open_cells)
    assert not completion.completed
    assert [wish.text for wish in completion.conflict] == [CORRIDOR_WISH, "page 1, row 0, col 2 is one of ?{##,Tr}"]
    # With any passable content allowed there, the same row is completed.
    done = complete_book(*sketch_of(text.replace("?{Tr,##}", "?{Tr,Ru}")))
    assert done.completed and done.book.content((1, 0, 2)) == "Rubble"


def run(tmp_path, text, *arguments):
    sketch = tmp_path / "sketch.toml"
    sketch.write_text(text)
    result = CliRunner().invoke(main, ["complete", str(sketch), *arguments])
    assert "Traceback" not in result.output
    return result


def test_the_command_writes_the_book_and_refuses_to_overwrite(tmp_path):
    out = tmp_path / "done.toml"
    result = run(tmp_path, SKETCH, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "14 cells filled" in result.output
    assert CliRunner().invoke(main, ["check", str(out)]).exit_code == 0
    again = run(tmp_path, SKETCH, "-o", str(out))
    assert again.exit_code == 2 and "already exists" in again.output


def test_no_filling_exits_1_with_the_conflict_in_json(tmp_path):
    text = SKETCH.replace("?  ?  ?{Wo,Tr} ?  ##\n## ?  ?  ?  .", "?  ?  ?{Wo,Tr} ?  ##\n## ?  ?  ## .")
    result = run(tmp_path, text, "--json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["completed"] is False
    assert [entry["cell"] for entry in data["conflict"]] == [None, [2, 1, 4], [2, 2, 3], [2, 3, 4]]


def test_bad_open_cells_are_positioned_errors(tmp_path):
    cases = {
        "?{Wo,Zz}": ('unknown content "Zz"', 17, 12),
        "?{Br}": ("an open cell may not hold Bridge", 17, 9),
        "?x": ('open cell "?x"', 17, 7),
    }
    for token, (words, line, column) in cases.items():
        result = run(tmp_path, SKETCH.replace("?{Wo,Tr}", token), "-o", str(tmp_path / "x.toml"))
        assert result.exit_code == 2, token
        assert f"sketch.toml:{line}:{column}: " in result.output, (token, result.output)
        assert words in result.output


def test_a_sketch_with_a_path_rule_is_refused(tmp_path):
    result = run(tmp_path, SKETCH.replace("## ?  ?  ?  ##", "## ?  Bw ?  ##"))
    assert result.exit_code == 2
    assert "page 1, row 2, col 2 holds Bow: complete fills sketches whose walk needs no path rule" in result.output
