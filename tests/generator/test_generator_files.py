"""`twisty generate passages` and its files: nothing replaced without --force, nothing written through a
symbolic link, every file complete or absent (written aside and renamed into place), --timeout per level,
Ctrl-C exiting 130 with the files written so far complete, and the exit codes 0 / 1 / 2 / 130. Each
case is a hand-made reproducer with its exact exit code and message."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import twisty.commands.generate_passages as command
import twisty.commands.writing as writing
from tests.timing import HANG_GUARD
from twisty.cli import main
from twisty.errors import GenerationError
from twisty.generator.passages import PassagesParams, generate_level
from twisty.limits import Deadline
from twisty.solver import passages_search as search

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--size", "4x4", "--blockers", "6", "--difficulty", "medium"]
PARAMS = PassagesParams(4, 4, 6, "medium")


def run(*args: str):
    return CliRunner().invoke(main, ["generate", "passages", *SMALL, *args])


def target(folder: Path, seed: int) -> Path:
    return folder / f"passages-4x4-6-medium-seed{seed}.toml"


def expected_text(seed: int) -> str:
    return generate_level(PARAMS, seed, search, Deadline(None)).text


def names(folder: Path) -> list[str]:
    """Every entry of the folder, hidden temporary files included."""
    return sorted(os.listdir(folder))


def no_work(*args, **kwargs):
    raise AssertionError("a level was generated although the run should have stopped before any work")


# ------------------------------------------------------------------------------------------ writing


def test_new_files_are_written_whole_with_exit_0(tmp_path: Path):
    result = run("--seed", "1", "-n", "2", "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert names(tmp_path) == [target(tmp_path, 1).name, target(tmp_path, 2).name]
    for seed in (1, 2):
        assert target(tmp_path, seed).read_text(encoding="utf-8") == expected_text(seed)
    # A plain file's permissions under the umask, not the 0600 of the temporary file it was written as.
    umask = os.umask(0)
    os.umask(umask)
    assert target(tmp_path, 1).stat().st_mode & 0o777 == 0o666 & ~umask


def test_an_existing_file_is_refused_before_any_work(tmp_path: Path, monkeypatch):
    mine = target(tmp_path, 2)
    mine.write_text("my own level\n", encoding="utf-8")
    monkeypatch.setattr(command, "generate_level", no_work)
    result = run("--seed", "1", "-n", "3", "-o", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr == f"twisty: {mine} already exists; use --force to replace existing levels\n"
    assert names(tmp_path) == [mine.name]
    assert mine.read_text(encoding="utf-8") == "my own level\n"


def test_every_existing_file_is_counted_in_the_one_message(tmp_path: Path, monkeypatch):
    for seed in (1, 3):
        target(tmp_path, seed).write_text("mine\n", encoding="utf-8")
    monkeypatch.setattr(command, "generate_level", no_work)
    result = run("--seed", "1", "-n", "4", "-o", str(tmp_path))
    assert result.exit_code == 2
    assert result.stderr == (
        f"twisty: {target(tmp_path, 1)} already exists (and 1 more of the 4 files to "
        "write); use --force to replace existing levels\n"
    )


def test_force_replaces_an_existing_file(tmp_path: Path):
    mine = target(tmp_path, 1)
    mine.write_text("my own level\n", encoding="utf-8")
    result = run("--seed", "1", "-o", str(tmp_path), "--force")
    assert result.exit_code == 0, result.output
    assert mine.read_text(encoding="utf-8") == expected_text(1)
    assert names(tmp_path) == [mine.name]


def test_a_symbolic_link_is_never_written_through_even_with_force(tmp_path: Path, monkeypatch):
    folder, outside = tmp_path / "levels", tmp_path / "precious.txt"
    folder.mkdir()
    outside.write_text("precious\n", encoding="utf-8")
    link = target(folder, 1)
    link.symlink_to(outside)
    monkeypatch.setattr(command, "generate_level", no_work)
    for force in ([], ["--force"]):
        result = run("--seed", "1", "-o", str(folder), *force)
        assert result.exit_code == 2
        assert result.stderr == f"twisty: {link} is a symbolic link; refusing to write through it (remove it first)\n"
    assert link.is_symlink() and outside.read_text(encoding="utf-8") == "precious\n"


def test_a_dangling_symbolic_link_is_refused_and_its_target_not_made(tmp_path: Path, monkeypatch):
    folder, nowhere = tmp_path / "levels", tmp_path / "elsewhere" / "new.toml"
    folder.mkdir()
    target(folder, 1).symlink_to(nowhere)
    monkeypatch.setattr(command, "generate_level", no_work)
    result = run("--seed", "1", "-o", str(folder), "--force")
    assert result.exit_code == 2 and "is a symbolic link" in result.stderr
    assert not nowhere.parent.exists()


def test_a_target_that_is_a_folder_is_refused(tmp_path: Path, monkeypatch):
    target(tmp_path, 1).mkdir()
    monkeypatch.setattr(command, "generate_level", no_work)
    result = run("--seed", "1", "-o", str(tmp_path), "--force")
    assert result.exit_code == 2
    assert result.stderr == f"twisty: {target(tmp_path, 1)} exists and is not a regular file\n"


class FailingHalfWay:
    """Replaces os.fdopen for the writer: the file takes half of what it is given, then `error` strikes
    (a full disk, or Ctrl-C), as when a run dies in the middle of a write."""

    def __init__(self, error: BaseException) -> None:
        self.error = error
        self.written: list[tuple[str, int]] = []
        self.real_fdopen = os.fdopen

    def __call__(self, descriptor: int, mode: str = "r", *args, **kwargs):
        real = self.real_fdopen(descriptor, mode, *args, **kwargs)
        failing = self

        class HalfFile:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                real.close()

            def fileno(self) -> int:
                return real.fileno()

            def write(self, data: bytes) -> int:
                real.write(data[: len(data) // 2])
                real.flush()
                failing.written.append((os.readlink(f"/proc/self/fd/{real.fileno()}"), len(data) // 2))
                raise failing.error

        return HalfFile()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads the temporary file's name from /proc")
def test_a_write_failing_half_way_leaves_no_file_and_exits_1(tmp_path: Path, monkeypatch):
    failing = FailingHalfWay(OSError(errno.ENOSPC, "No space left on device"))
    monkeypatch.setattr(writing.os, "fdopen", failing)
    result = run("--seed", "1", "-o", str(tmp_path))
    assert result.exit_code == 1
    assert result.stderr == f"twisty: cannot write {target(tmp_path, 1)}: No space left on device\n"
    # Half the level was in a temporary file beside the target when the write failed: it is gone, and
    # the target never appeared.
    [(temporary, half)] = failing.written
    assert Path(temporary).parent == tmp_path and half > 100
    assert names(tmp_path) == []


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads the temporary file's name from /proc")
def test_ctrl_c_in_the_middle_of_a_write_leaves_no_file(tmp_path: Path, monkeypatch):
    failing = FailingHalfWay(KeyboardInterrupt())
    monkeypatch.setattr(writing.os, "fdopen", failing)
    result = run("--seed", "1", "-n", "2", "-o", str(tmp_path))
    assert result.exit_code == 130
    assert result.stderr.splitlines()[-1] == "twisty: interrupted; the 0 level files written before it are complete"
    assert len(failing.written) == 1 and names(tmp_path) == []


def test_ctrl_c_between_levels_keeps_the_files_written(tmp_path: Path, monkeypatch):
    real = command.generate_level

    def interrupted_at_seed_3(params, seed, engine, deadline, **options):
        if seed == 3:
            raise KeyboardInterrupt
        return real(params, seed, engine, deadline, **options)

    monkeypatch.setattr(command, "generate_level", interrupted_at_seed_3)
    result = run("--seed", "1", "-n", "4", "-o", str(tmp_path))
    assert result.exit_code == 130
    assert result.stderr.splitlines()[-1] == "twisty: interrupted; the 2 level files written before it are complete"
    assert names(tmp_path) == [target(tmp_path, 1).name, target(tmp_path, 2).name]
    for seed in (1, 2):
        assert target(tmp_path, seed).read_text(encoding="utf-8") == expected_text(seed)


def test_ctrl_c_with_workers_stops_the_pool_and_keeps_whole_files(tmp_path: Path):
    """A real SIGINT to the whole process group (as a terminal sends it) while two workers are busy: the
    command exits 130 with one line, the workers are gone, and every file there is a whole level."""
    command_line = [
        sys.executable,
        "-m",
        "twisty.cli",
        "generate",
        "passages",
        "--size",
        "7x6",
        "--blockers",
        "20",
        "-n",
        "40",
        "--workers",
        "2",
        "-o",
        str(tmp_path),
    ]
    process = subprocess.Popen(
        command_line,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        # Every wait is a hang guard (tests/timing.py), far beyond any load: a loaded machine stretches the
        # first level, the pool's shutdown and the workers' exit alike.
        give_up = time.monotonic() + HANG_GUARD
        while not list(tmp_path.glob("*.toml")) and time.monotonic() < give_up:
            time.sleep(0.05)
        assert list(tmp_path.glob("*.toml")), f"no level was written within {HANG_GUARD:.0f} s"
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=HANG_GUARD)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, err
    lines = err.strip().splitlines()
    assert lines[-1].startswith("twisty: interrupted; the ") and lines[-1].endswith(
        " level files written before it are complete"
    )
    assert "Traceback" not in err
    give_up = time.monotonic() + HANG_GUARD
    while time.monotonic() < give_up:
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("worker processes outlived the command")
    written = sorted(tmp_path.iterdir())
    assert all(path.suffix == ".toml" and not path.name.startswith(".") for path in written)
    params = PassagesParams(7, 6, 20, "medium")
    for path in written:
        seed = int(path.stem.rpartition("seed")[2])
        assert path.read_text(encoding="utf-8") == generate_level(params, seed, search, Deadline(None)).text


# ------------------------------------------------------------------------------------ time and exit codes


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "0", "1e9", "soon"])
def test_a_timeout_that_is_not_a_positive_finite_number_is_refused(value: str, monkeypatch):
    monkeypatch.setattr(command, "generate_level", no_work)
    result = run("--timeout", value)
    assert result.exit_code == 2
    assert "Invalid value for '--timeout'" in result.stderr and f"{value!r} is not a number of seconds" in result.stderr


def test_a_level_out_of_time_fails_its_seed_with_exit_1_and_no_file(tmp_path: Path):
    result = run("--seed", "1", "-n", "2", "-o", str(tmp_path), "--timeout", "1e-9")
    assert result.exit_code == 1
    assert [line for line in result.stderr.splitlines() if line.startswith("twisty:")] == [
        f"twisty: time limit of 1e-09 s reached for seed {seed} in draft 1 (of at most 400); no level made"
        for seed in (1, 2)
    ]
    assert names(tmp_path) == []


def test_a_timeout_is_a_limit_per_level(tmp_path: Path, monkeypatch):
    """Each level gets its own deadline, made when its work starts, with the seconds asked for."""
    given: list[Deadline] = []
    real = command.generate_level

    def recording(params, seed, engine, deadline, **options):
        given.append(deadline)
        return real(params, seed, engine, deadline, **options)

    monkeypatch.setattr(command, "generate_level", recording)
    result = run("--seed", "1", "-n", "2", "-o", str(tmp_path), "--timeout", "600")
    assert result.exit_code == 0, result.output
    assert [deadline.seconds for deadline in given] == [600.0, 600.0] and given[0] is not given[1]


def test_a_seed_without_a_level_exits_1_and_the_others_are_written(tmp_path: Path, monkeypatch):
    real = command.generate_level

    def no_level_for_seed_2(params, seed, engine, deadline, **options):
        if seed == 2:
            raise GenerationError("no medium level of 4x4 cells with 6 blockers found for seed 2 in 400 drafts")
        return real(params, seed, engine, deadline, **options)

    monkeypatch.setattr(command, "generate_level", no_level_for_seed_2)
    result = run("--seed", "1", "-n", "3", "-o", str(tmp_path))
    assert result.exit_code == 1
    assert "twisty: no medium level of 4x4 cells with 6 blockers found for seed 2 in 400 drafts\n" in result.stderr
    assert names(tmp_path) == [target(tmp_path, 1).name, target(tmp_path, 3).name]
