"""One measured run in a Python process of its own, with a release's tree on its path: what the whole-check
benchmark (benchmarks/passages/bench_whole_check.py) and the generator benchmark (passages_generate) share.

Each run is a fresh process, so that the release in `tree` runs its own code (its `twisty` package first on
the path) and one run's tables and memory never reach the next. A run given a CPU limit sets it on itself
(RLIMIT_CPU); the kernel ends it past the limit, and the run then counts as stopped at the CPU time its
process used, which the parent reads from its children's usage (the process reports nothing itself).
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class TreeRun:
    answer: dict | None  # the last line the process printed, as JSON (None: stopped or failed)
    seconds: float  # wall clock of the whole process, as the parent saw it
    cpu: float  # CPU seconds of the whole process (its children's usage as the parent reads it)
    stopped: bool = False  # the kernel ended it at its CPU limit
    failed: str | None = None  # the last line of its error output when it failed otherwise


def children_cpu() -> float:
    """The CPU seconds of every child process ended so far (a process the kernel stopped at its CPU limit
    reports nothing itself)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run_in_tree(tree: Path, script: str, arguments: list[str], cpu_limited: bool = False) -> TreeRun:
    """`python -c script arguments...` with the release in `tree` on its path; its answer is the JSON of the
    last line it prints, which must name the `twisty` package it imported (`package`): a process that
    imported another tree's package raises RuntimeError, as its times would be another release's.
    `cpu_limited`: the script limits its own CPU time, and a process the kernel ends is stopped there, not
    failed."""
    environment = dict(os.environ, PYTHONPATH=str(tree))
    before, wall = children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", script, *arguments],
        env=environment,
        # (in the tree's folder: `python -c` puts the folder it runs in before PYTHONPATH, and from any other
        # tree's folder the process would import that tree's `twisty`)
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    seconds, cpu = time.perf_counter() - wall, children_cpu() - before
    if cpu_limited and done.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return TreeRun(None, seconds, cpu, stopped=True)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        return TreeRun(None, seconds, cpu, failed=lines[-1] if lines else str(done.returncode))
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    if Path(answer["package"]).resolve() != (tree / "twisty").resolve():
        raise RuntimeError(f"the process imported twisty from {answer['package']}, not from {tree}")
    return TreeRun(answer, seconds, cpu)
