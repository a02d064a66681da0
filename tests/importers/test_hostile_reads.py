"""Unbounded reads in the importers (issue 28, class 2): every file an import reads is read as every command
reads files: a regular file only (a FIFO or a device is refused before a byte is read), its size checked
before reading. One --timeout covers reading, parsing and the import: past it the run ends with exit 1,
one line, and nothing written."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.towers.big_tower import open_field
from twisty.cli import main

ROOT = Path(__file__).resolve().parents[2]
TOWERS = ROOT / "tests" / "towers"
MINI = TOWERS / "h5mota-mini" / "project"
# A run that blocks on a FIFO would block for ever: the subprocess runs under this guard (seconds), far
# above the fraction of a second a refusal takes, so that a regression fails instead of hanging the suite.
GUARD = 60


def twisty(*arguments: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "twisty.cli", *arguments],
        capture_output=True,
        text=True,
        timeout=GUARD,
        env=environment,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(MINI, tmp_path / "project")
    return tmp_path / "project"


def test_an_mtai_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "map.txt"
    os.mkfifo(fifo)
    result = twisty("import", "mtai", str(fifo), "-o", str(tmp_path / "out.toml"))
    assert result.returncode == 2
    assert result.stderr == (
        f"twisty: {fifo}: this is a FIFO (named pipe), not a magic-tower-AI map (only regular files are read)\n"
    )
    assert not (tmp_path / "out.toml").exists()


def test_dev_zero_is_refused_as_a_device(tmp_path):
    result = CliRunner().invoke(main, ["import", "mtai", "/dev/zero", "-o", str(tmp_path / "out.toml")])
    assert result.exit_code == 2
    assert result.output == (
        "twisty: /dev/zero: this is a character device, not a magic-tower-AI map (only regular files are read)\n"
    )


def count_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    sizes: list[int] = []
    real_read = os.read

    def counting_read(handle: int, size: int) -> bytes:
        data = real_read(handle, size)
        sizes.append(len(data))
        return data

    monkeypatch.setattr(os, "read", counting_read)
    return sizes


def test_a_huge_mtai_map_is_refused_before_reading(tmp_path, monkeypatch):
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as out:
        out.truncate(2**31)  # (a sparse file: 2 GiB that take no room on disk)
    sizes = count_reads(monkeypatch)
    result = CliRunner().invoke(main, ["import", "mtai", str(huge), "-o", str(tmp_path / "out.toml")])
    assert result.exit_code == 2
    assert result.output == f"twisty: {huge}: larger than 1048576 bytes: not a magic-tower-AI map\n"
    assert sum(sizes) == 0


def test_a_gigabyte_data_js_is_refused_before_reading(project, tmp_path, monkeypatch):
    data = project / "data.js"
    with open(data, "r+b") as out:
        out.truncate(2**30)
    sizes = count_reads(monkeypatch)
    result = CliRunner().invoke(main, ["import", "h5mota", str(project), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.output == f"twisty: {data}: larger than 4194304 bytes: not an h5mota project file\n"
    assert sum(sizes) == 0


def test_project_files_that_are_fifos_or_devices_are_refused(project, tmp_path):
    floor = project / "floors" / "F2.js"
    floor.unlink()
    os.mkfifo(floor)
    result = twisty("import", "h5mota", str(project), "-o", str(tmp_path / "out"))
    assert result.returncode == 2
    assert result.stderr == (
        f"twisty: {floor}: this is a FIFO (named pipe), not an h5mota project file (only regular files are read)\n"
    )
    assert not (tmp_path / "out").exists()
    enemies = project / "enemys.js"
    enemies.unlink()
    enemies.symlink_to("/dev/zero")
    result = twisty("import", "h5mota", str(project), "-o", str(tmp_path / "out"))
    assert result.returncode == 2
    assert result.stderr.startswith(f"twisty: {enemies}: a symbolic link that leads out of the folder")


def test_the_towers_code_files_are_read_as_every_project_file(project, tmp_path):
    """plugins.js and functions.js are only searched for the trigger names a tower registers, but read with
    the same care: a FIFO is refused without blocking, a link out of the project is refused."""
    plugins = project / "plugins.js"
    os.mkfifo(plugins)
    result = twisty("import", "h5mota", str(project), "-o", str(tmp_path / "out"))
    assert result.returncode == 2
    assert result.stderr == (
        f"twisty: {plugins}: this is a FIFO (named pipe), not an h5mota project file (only regular files are read)\n"
    )
    plugins.unlink()
    (tmp_path / "elsewhere.js").write_text('core.registerSystemEvent("man", f);', encoding="utf-8")
    plugins.symlink_to(tmp_path / "elsewhere.js")
    result = twisty("import", "h5mota", str(project), "-o", str(tmp_path / "out"))
    assert result.returncode == 2
    assert result.stderr.startswith(f"twisty: {plugins}: a symbolic link that leads out of the folder")
    assert not (tmp_path / "out").exists()


def test_import_ends_within_its_timeout_and_writes_nothing(tmp_path):
    """A hundred and twenty 200 x 200 floors take about 5 s of CPU to import; --timeout 1 ends the run
    within the limit plus 0.5 s of CPU time (the child's CPU as the parent's resource usage counts it, less
    the CPU time of starting the command line: the shared machine's wall clock is noisy), exit 1, one line."""
    project = open_field(tmp_path / "big", 120, 200)
    out = tmp_path / "out"
    before = _children_cpu()
    result = subprocess.run(
        [sys.executable, "-m", "twisty.cli", "import", "h5mota", str(project), "-o", str(out), "--timeout", "1"],
        capture_output=True,
        text=True,
        timeout=GUARD,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    cpu = _children_cpu() - before
    assert result.returncode == 1, result.stderr
    assert result.stderr.splitlines() == [
        "twisty: unknown: time limit reached while importing (--timeout 1 s); nothing written"
    ]
    startup = _startup_cpu()
    assert cpu - startup <= 1.5, (cpu, startup)
    assert not out.exists()


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _startup_cpu() -> float:
    """The CPU seconds of starting the command line and doing nothing (its imports), to take off."""
    before = _children_cpu()
    subprocess.run(
        [sys.executable, "-c", "import twisty.cli"],
        capture_output=True,
        timeout=GUARD,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return _children_cpu() - before


def test_the_timeout_option_is_checked(tmp_path):
    for bad in ("0", "nan", "inf", "-1"):
        result = CliRunner().invoke(
            main, ["import", "mtai", str(TOWERS / "mtai-shop.txt"), "-o", str(tmp_path / "x.toml"), "--timeout", bad]
        )
        assert result.exit_code == 2 and "is not a number of seconds" in result.output
    fine = CliRunner().invoke(
        main, ["import", "mtai", str(TOWERS / "mtai-shop.txt"), "-o", str(tmp_path / "x.toml"), "--timeout", "30"]
    )
    assert fine.exit_code == 0, fine.output
