"""`twisty generate temple`: rounds with a unique shortest plan of exactly T turns in which every card
matters, checked here by the other engine; the same seed gives the same file; files are written safely."""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from twisty.bench.temple_plain import answer_all
from twisty.cli import main
from twisty.errors import GenerationError
from twisty.generator.temple import TempleParams, generate_round
from twisty.limits import Deadline
from twisty.rules.source import parse_level_bytes
from twisty.rules.temple.loader import load_round
from twisty.rules.temple.semantics import Position, gets_going
from twisty.solver import temple_race, temple_sat, temple_search
from twisty.solver.temple_portfolio import analyse_with

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "temple"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize(
    "seed, params",
    [
        (3, TempleParams()),
        (1, TempleParams(turns=5, challenges=("no_entry", "always_in_order"))),
        (2, TempleParams(players=3, turns=4, challenges=("gets_going",))),
    ],
)
def test_a_generated_round_is_what_it_claims_by_the_other_engine(seed, params):
    made = generate_round(params, seed, temple_sat)
    round_ = load_round(parse_level_bytes(made.text.encode(), "<generated>"))
    # The reference search (not the engine that made it) finds the same: exactly T turns, unique.
    found = analyse_with(round_, Deadline(120), temple_search)
    assert (found.solvable, found.turns, found.unique) == (True, params.turns, True)
    assert (found.bounce_safe, found.pooled_turns) == (made.expect.bounce_safe, made.expect.pooled_turns)
    # Every card matters. Dropping one: the reference search finds no plan of T turns or fewer.
    for seat, hand in enumerate(round_.hands):
        for card in set(hand):
            rest = list(hand)
            rest.remove(card)
            dropped = replace(round_, hands=round_.hands[:seat] + (tuple(rest),) + round_.hands[seat + 1 :])
            answer = temple_search.fewest_turns(dropped, Deadline(60))
            assert answer.status == "unsolvable" or len(answer.plan) > params.turns
    # And no turn of the (unique) plan leaves the temple as forgoing its card would.
    state = round_.start()
    for record in found.plan.records:
        forgone, _ = gets_going(round_, Position(state.down, state.die, state.walls))
        assert (forgone.down, forgone.die, forgone.walls) != (record.state.down, record.state.die, record.state.walls)
        state = record.state


def test_the_same_seed_gives_the_same_round_whichever_engine_proves_it():
    params = TempleParams(turns=4)
    first = generate_round(params, 7, temple_sat).text
    assert generate_round(params, 7, temple_sat).text == first
    assert generate_round(params, 7, temple_search).text == first


def test_parameters_out_of_range_and_seeds_that_give_nothing():
    with pytest.raises(ValueError, match="--cards"):
        TempleParams(turns=4, cards=3).validate()
    with pytest.raises(ValueError, match="always_in_order"):
        TempleParams(turns=4, rooms=1, challenges=("always_in_order",)).validate()
    with pytest.raises(GenerationError, match="no round in 2 attempts"):
        generate_round(TempleParams(turns=6, attempts=2), 1, temple_sat)


def test_generate_three_rounds_and_check_them(tmp_path):
    out = tmp_path / "rounds"
    result = run("generate", "temple", "--seed", "3", "-n", "3", "-o", str(out))
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.toml"))
    assert [path.name for path in files] == [f"temple-2p-4t-seed{seed}.toml" for seed in (3, 4, 5)]
    checked = run("check", "--json", *map(str, files))
    assert checked.exit_code == 0, checked.output
    for line in checked.output.splitlines():
        data = json.loads(line)
        assert (data["status"], data["solvable"], data["unique"], data["turns"]) == ("ok", True, True, 4)
    # The shipped copies were made by the same command: the same bytes (a change detector, beside the checks).
    for path in files:
        assert path.read_bytes() == (PUZZLES / "generated" / path.name).read_bytes()
    assert not [name for name in os.listdir(out) if name.endswith(".tmp")]


def test_files_are_never_replaced_without_force_nor_written_through_links(tmp_path):
    target = tmp_path / "temple-2p-4t-seed3.toml"
    target.write_text("mine", encoding="utf-8")
    refused = run("generate", "temple", "--seed", "3", "-o", str(tmp_path))
    assert refused.exit_code == 2 and "--force" in refused.output and target.read_text() == "mine"
    forced = run("generate", "temple", "--seed", "3", "-o", str(tmp_path), "--force")
    assert forced.exit_code == 0 and target.read_text().startswith("# Temple Twist round")
    target.unlink()
    elsewhere = tmp_path / "elsewhere.toml"
    target.symlink_to(elsewhere)  # a dangling link: writing through it would create elsewhere.toml
    linked = run("generate", "temple", "--seed", "3", "-o", str(tmp_path), "--force")
    assert linked.exit_code == 2 and "symbolic link" in linked.output and not elsewhere.exists()
    folder = tmp_path / "folder-link"
    folder.symlink_to(tmp_path / "real", target_is_directory=True)
    assert run("generate", "temple", "--seed", "3", "-o", str(folder)).exit_code == 2


def test_options_and_time_limits():
    for bad in ("nan", "inf", "0", "-1"):
        assert run("generate", "temple", "--timeout", bad).exit_code == 2
    assert run("generate", "temple", "-n", "2").exit_code == 2  # several rounds need -o
    assert run("generate", "temple", "--challenges", "poor_visibility").exit_code == 2
    slow = run("generate", "temple", "--seed", "3", "--timeout", "0.001")
    assert slow.exit_code == 1 and "time limit" in slow.output
    printed = run("generate", "temple", "--seed", "3")
    assert printed.exit_code == 0 and load_round(parse_level_bytes(printed.output.encode(), "<out>")).name


def test_a_round_on_a_temple_given_by_a_file():
    result = run("generate", "temple", "--seed", "1", "--turns", "2", "--temple", str(PUZZLES / "02-out-and-back.toml"))
    assert result.exit_code == 0, result.output
    round_ = load_round(parse_level_bytes(result.output.encode(), "<out>"))
    assert round_.temple.name == "box" and "[temple]" in result.output


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_bounce_safe_round_has_a_unique_bounce_safe_shortest_plan_by_both_engines_and_the_plain_search(seed):
    params = TempleParams(turns=4, bounce_safe=True)
    made = generate_round(params, seed, temple_race)
    assert "--bounce-safe" in made.text and made.expect.bounce_safe_turns == 4
    round_ = load_round(parse_level_bytes(made.text.encode(), "<generated>"))
    for engine in (temple_search, temple_sat):
        found = analyse_with(round_, Deadline(120), engine)
        assert (found.turns, found.unique, found.bounce_safe_turns) == (4, True, 4), engine.NAME
        assert found.plan is not None and found.plan.bounce_safe  # the one shortest plan is itself bounce-safe
    # The bench's plain breadth-first search, which shares no code with the engines, agrees.
    plain = answer_all(round_, Deadline(120))
    assert (plain.turns, plain.unique, plain.bounce_safe_turns) == (4, True, 4)


def test_ten_turns_in_order_without_the_swap():
    # Ten turns of two seats, the rooms to be explored in order, no swap token: proved by the search, and
    # the SAT engine (sharing no search code) finds the same unique 10-turn plan.
    params = TempleParams(turns=10, challenges=("always_in_order",), swap=False)
    made = generate_round(params, 1, temple_search)
    assert "swap = false" in made.text and "--no-swap" in made.text
    round_ = load_round(parse_level_bytes(made.text.encode(), "<generated>"))
    found = analyse_with(round_, Deadline(300), temple_sat, questions=frozenset({"unique"}))
    assert (found.solvable, found.turns, found.unique) == (True, 10, True)


def test_generate_json_records_what_check_proves(tmp_path):
    printed = run("generate", "temple", "--seed", "3", "--json")
    assert printed.exit_code == 0, printed.output
    record = json.loads(printed.output)
    assert record["file"] is None and record["level"] == run("generate", "temple", "--seed", "3").output
    result = run("generate", "temple", "--seed", "4", "-n", "2", "--bounce-safe", "-o", str(tmp_path), "--json")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines()]
    assert [(record["seed"], Path(record["file"]).name) for record in records] == [
        (4, "temple-2p-4t-bounce_safe-seed4.toml"),
        (5, "temple-2p-4t-bounce_safe-seed5.toml"),
    ]
    for record in records:
        checked = json.loads(run("check", record["file"], "--json").output)
        facts = ("turns", "unique", "bounce_safe", "bounce_safe_turns", "pooled_turns")
        assert {key: checked[key] for key in facts} == {key: record[key] for key in facts}
    failed = run("generate", "temple", "--seed", "3", "--timeout", "0.001", "--json")
    assert failed.exit_code == 1
    error = json.loads(failed.stdout)
    assert error["file"] is None and "time limit" in error["error"]


@pytest.mark.parametrize("path", sorted((PUZZLES / "generated").glob("*.toml")), ids=lambda path: path.name)
def test_every_shipped_generated_round_is_made_again_by_its_header(path, tmp_path):
    text = path.read_text(encoding="utf-8")
    header = re.search(r"^# seed: (\d+); parameters: (.*)$", text, re.MULTILINE)
    assert header is not None
    result = run("generate", "temple", "--seed", header[1], *header[2].split(), "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert (tmp_path / path.name).read_bytes() == path.read_bytes()
