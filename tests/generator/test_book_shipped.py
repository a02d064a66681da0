"""The shipped generated and completed books are what the generator and `twisty complete` make today: each
file is made again from its own header (the parameters and the seed) or from its sketch, byte for byte.
These are change detectors (a file against its saved copy), not evidence that a book's claims are right:
that they check clean, [expect] included, is tests/commands/test_book_puzzles.py's job, and that the SAT
engine agrees is tests/test_shipped_levels_second_engine.py's."""

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from twisty.cli import main

BOOKS = Path(__file__).resolve().parents[2] / "puzzles" / "book"
GENERATED = sorted((BOOKS / "generated").glob("*.toml"))
SKETCHES = sorted((BOOKS / "sketches").glob("*.sketch"))


def test_five_generated_books_one_per_family_and_two_completed_sketches():
    families = [re.search(r"6x8-(.*)-seed", path.name).group(1) for path in GENERATED]
    assert families == ["bridge-tunnel-bow-number", "melee-giant", "oracle-reaper-lava", "vampire-mimic", "wolf-rat"]
    assert [path.stem for path in SKETCHES] == ["gutter-crossing", "wolf-run"]
    assert all((BOOKS / "completed" / f"{path.stem}.toml").is_file() for path in SKETCHES)


@pytest.mark.change_detector
@pytest.mark.parametrize("path", GENERATED, ids=lambda path: path.stem)
def test_a_generated_book_is_made_again_from_its_header(path, tmp_path):
    header = path.read_text().splitlines()[1]
    seed, parameters = re.fullmatch(r"# seed: (\d+); parameters: (.*)", header).groups()
    result = CliRunner().invoke(
        main, ["generate", "book", *shlex.split(parameters), "--seed", seed, "-o", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / path.name).read_text() == path.read_text()


@pytest.mark.change_detector
@pytest.mark.parametrize("sketch", SKETCHES, ids=lambda path: path.stem)
def test_a_completed_book_is_made_again_from_its_sketch(sketch, tmp_path):
    out = tmp_path / "done.toml"
    result = CliRunner().invoke(main, ["complete", str(sketch.relative_to(BOOKS.parents[1])), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text() == (BOOKS / "completed" / f"{sketch.stem}.toml").read_text()
