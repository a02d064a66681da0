"""Make the shipped generated passages levels again from the seed and options in their headers.

    python benchmarks/generator/regenerate.py puzzles/passages/generated/*.toml [--check]

Each file names its seed and options in its comment header (twisty.generator.passages_writer); the generator
is deterministic (work bounded by counts, never by time), so the same options give the same bytes on any
machine. Without --check every file is written again with what the generator makes now (after a change to
the generator or its writer); with --check nothing is written and the files that would change are named
(exit 1). Each level is made in this process, one after another, with the search engine, as
`twisty generate passages` makes it.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from twisty.generator.passages import generate_level
from twisty.generator.passages_params import PassagesParams
from twisty.limits import Deadline
from twisty.solver import passages_search


def options_of(text: str) -> tuple[PassagesParams, int]:
    """The parameters and seed a generated level's header records."""
    seed = re.search(r"^# seed: (\d+)$", text, re.M)
    found = re.search(r"--size (\d+)x(\d+) --blockers (\d+) --difficulty (\w+)(?: --method (\w+))?", text)
    if seed is None or found is None:
        raise ValueError("no seed and options in the header")
    width, height, blockers, difficulty, method = found.groups()
    return PassagesParams(int(width), int(height), int(blockers), difficulty, method or "auto"), int(seed.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="+", type=Path)
    parser.add_argument("--check", action="store_true", help="write nothing; name the files that would change")
    args = parser.parse_args(argv)
    changed = 0
    for path in args.levels:
        text = path.read_text(encoding="utf-8")
        params, seed = options_of(text)
        started = time.process_time()
        made = generate_level(params, seed, passages_search, Deadline(None))
        same = made.text == text
        changed += not same
        if not same and not args.check:
            path.write_text(made.text, encoding="utf-8")
        verdict = "same bytes" if same else "would change" if args.check else "written again"
        print(f"{path}: {verdict} ({time.process_time() - started:.1f} s of CPU)", file=sys.stderr)
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
