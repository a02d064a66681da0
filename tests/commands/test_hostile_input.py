"""One hand-made reproducer per class of hostile input (issue: hostile input and honest limits), each with
its exact exit code and message. Book-specific and generator-specific classes live with those tests."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.timing import HANG_GUARD, cpu_seconds, returns
from twisty.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOOD = (ROOT / "puzzles" / "passages" / "01-first-blood.toml").read_text(encoding="utf-8")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def level(tmp_path: Path, text: str, name: str = "level.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def only_message(result) -> str:
    """The one INVALID line of a check (exit 2), with no traceback anywhere."""
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.startswith("INVALID")]
    assert len(lines) == 1, result.output
    return lines[0]


def test_deep_nesting_is_a_positioned_error(tmp_path):
    """Class 1: 3,000 nested brackets used to end in RecursionError inside the TOML reader."""
    result = run("check", level(tmp_path, GOOD + "\njunk = " + "[" * 3000 + "]" * 3000 + "\n"))
    assert result.exit_code == 2
    line = GOOD.count("\n") + 2
    # the 33rd bracket is the first too many: "junk = " is 7 characters, so it stands in column 8 + 32
    assert f"level.toml:{line}:40: values nested more than 32 deep (at most 32)" in only_message(result)


@pytest.mark.parametrize("number", [2**63, 2**64, -(2**63) - 1, 10**9 + 1])
def test_huge_numbers_are_refused_where_they_stand(tmp_path, number):
    """Class 2: integers of 2^63 and more reached the compiled core and raised OverflowError."""
    text = GOOD.replace("hp = 7", f"hp = {number}")
    assert text != GOOD
    result = run("check", level(tmp_path, text))
    assert result.exit_code == 2
    row = text.splitlines().index(f"hp = {number}") + 1
    assert f"level.toml:{row}:1: the number {number} is out of range" in only_message(result)


def test_a_device_is_not_a_level():
    """Class 3: /dev/zero was read until memory ran out."""
    result = run("check", "/dev/zero")
    assert result.exit_code == 2
    assert "/dev/zero: this is a character device, not a level file (only regular files are read)" in only_message(
        result
    )


def test_a_fifo_named_like_a_level_does_not_block(tmp_path):
    """Class 3: a FIFO named x.toml blocked for ever; in a folder, it is reported beside the real levels."""
    fifo = tmp_path / "x.toml"
    os.mkfifo(fifo)
    level(tmp_path, GOOD, "good.toml")
    result = returns(lambda: run("check", str(tmp_path)))  # (opening the FIFO to read blocked for ever)
    assert result.exit_code == 2
    assert f"{fifo}: this is a FIFO (named pipe), not a level file" in only_message(result)
    assert "ok " in result.output and "2 levels: 1 ok" in result.output


def test_a_long_dotted_key_ends_at_once(tmp_path):
    """Class 4: a dotted key of 30,000 parts took the TOML reader minutes (quadratic time)."""
    text = GOOD + "\n" + ".".join(["a"] * 30000) + " = 1\n"
    result, cpu = cpu_seconds(lambda: run("check", level(tmp_path, text)))
    # CPU, not the wall clock (tests/timing.py): the quadratic reader spent minutes of it, the refusal takes
    # milliseconds; 10 s tells the two apart on any machine, however loaded.
    assert cpu < 10
    assert result.exit_code == 2
    assert "a dotted key of more than 16 parts (at most 16)" in only_message(result)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder")
def test_an_unreadable_folder_is_reported_not_skipped(tmp_path):
    """Class 5: an unreadable subfolder was skipped without a word."""
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    level(hidden, GOOD)
    hidden.chmod(0)
    try:
        result = run("check", str(tmp_path))
    finally:
        hidden.chmod(0o755)
    assert result.exit_code == 2
    assert f"{hidden}: cannot read the folder: Permission denied" in only_message(result)


def test_an_unreadable_folder_is_reported_even_for_root(tmp_path, monkeypatch):
    """Class 5, as root too: a folder the walk cannot list (simulated) is one invalid entry, not a skip."""
    import twisty.api

    real_walk = os.walk

    def failing_walk(top, onerror=None, **options):
        for entry in real_walk(top, onerror=onerror, **options):
            yield entry
            if onerror is not None:
                error = PermissionError(13, "Permission denied")
                error.filename = os.path.join(top, "locked")
                onerror(error)
                return

    monkeypatch.setattr(twisty.api.os, "walk", failing_walk)
    level(tmp_path, GOOD)
    result = run("check", str(tmp_path))
    assert result.exit_code == 2
    assert f"{tmp_path / 'locked'}: cannot read the folder: Permission denied" in only_message(result)


def test_a_misspelt_key_names_the_key_its_line_and_a_hint(tmp_path):
    """Class 5: unknown keys are errors naming the key, its line, the keys expected and the likely one."""
    result = run("check", level(tmp_path, GOOD.replace('name = "First blood"', 'nmae = "First blood"')))
    assert result.exit_code == 2
    message = only_message(result)
    assert 'unknown key "nmae"' in message and '(did you mean "name"?)' in message


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "0", "1e300", "soon"])
def test_a_timeout_must_be_a_positive_finite_number(tmp_path, value):
    """Class 6: --timeout nan, negative or infinite values were accepted."""
    result = run("check", "--timeout", value, level(tmp_path, GOOD))
    assert result.exit_code == 2
    assert "Invalid value for '--timeout'" in result.output and "Traceback" not in result.output


def test_an_unknown_question_or_engine_is_a_usage_error(tmp_path):
    path = level(tmp_path, GOOD)
    result = run("check", "--questions", "route,speed", path)
    assert result.exit_code == 2 and "unknown question speed" in result.output
    result = run("check", "--engine", "magic", path)
    assert result.exit_code == 2 and 'no engine "magic"' in result.output


def test_questions_not_asked_are_not_answered(tmp_path):
    """--questions route: the best route only; the count and the least starting hp are not asked (and the
    level's claims about them are not checked), so the level is ok."""
    result = run("check", "--json", "--questions", "route", level(tmp_path, GOOD))
    assert result.exit_code == 0
    import json

    data = json.loads(result.output)
    assert (data["final_hp"], data["solutions"], data["min_start_hp_status"]) == (4, None, "not asked")


def test_an_unsolvable_level_without_a_claim_exits_1(tmp_path):
    """Exit codes: 1 when a level is unsolvable and does not claim so; 0 when it claims it."""
    text = GOOD.replace("hp = 7", "hp = 3")
    text = text[: text.index("[expect]")]
    result = run("check", level(tmp_path, text))
    assert result.exit_code == 1 and "UNSOLVABLE" in result.output
    result = run("check", level(tmp_path, text + "[expect]\nsolvable = false\n"))
    assert result.exit_code == 0


def children_cpu() -> float:
    """CPU seconds of this process's children that have ended and been waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_of(pid: int) -> float:
    """CPU seconds a running process has spent so far (utime and stime of /proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads a process's CPU time from /proc")
def test_ctrl_c_stops_at_once_with_exit_130(tmp_path):
    """Class 10: Ctrl-C exited 1 (click's "Aborted!"); now 130 and one line, at once. The level takes the
    search far longer than the interrupt's second."""
    hard = ROOT / "twisty" / "bench" / "suites" / "passages" / "b120-01.toml"
    process = subprocess.Popen(
        [sys.executable, "-m", "twisty.cli", "check", str(hard)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    time.sleep(2.0)
    before = children_cpu() + cpu_of(process.pid)
    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=HANG_GUARD)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert err.strip().splitlines()[-1] == "twisty: interrupted"
    assert "Traceback" not in err
    # "At once", in the CPU the process spent after the signal (tests/timing.py: not the wall clock): acting
    # on it takes milliseconds, while a search that ran on would spend the rest of its far longer run; 3 s
    # tells the two apart however loaded the machine is.
    assert children_cpu() - before < 3
