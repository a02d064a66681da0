"""The table every game fills once (the `struct game` of Simon Tatham's puzzles): its loader, the questions
it answers, its engines, its checker, generator, renderer and benchmark.

Entries name the code that implements them by dotted path ("package.module" or "package.module:function"),
resolved on first use: the registry sits in the base layer and imports none of it, so that the command line,
the portfolio, the generator, the bench and the docs can all read one table without importing every game.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from twisty.errors import UsageError


def resolve(target: str) -> Any:
    """The module "package.module", or the attribute "package.module:name" of it."""
    module_name, _, attribute = target.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module


@dataclass(frozen=True)
class Question:
    name: str  # as written after --questions
    summary: str


@dataclass(frozen=True)
class Engine:
    """One engine of a game. `module` follows the game's engine contract; `questions` are the names of the
    questions it answers. An engine whose module sets AVAILABLE = False (a compiled core not built) is
    listed but not offered. `baseline`: a yardstick for the bench, not offered to `check`."""

    name: str
    module: str
    questions: frozenset[str]
    summary: str
    baseline: bool = False
    bench: bool = False  # run by `twisty bench` on the game's suite

    def load(self) -> ModuleType:
        module = resolve(self.module)
        assert isinstance(module, ModuleType)
        return module

    def available(self) -> bool:
        try:
            return bool(getattr(self.load(), "AVAILABLE", True))
        except ImportError:
            return False


@dataclass(frozen=True)
class Game:
    """One game. `loader` turns a LevelSource into the game's model; `checker` is the module with
    check(level, options) -> verdict and solve_text(verdict) -> str; `auto` lists the engines `--engine
    auto` tries, first available first. Entries that a game lacks are None."""

    name: str
    title: str
    rulebook: str
    questions: tuple[Question, ...]
    engines: tuple[Engine, ...] = ()
    auto: tuple[str, ...] = ()
    loader: str | None = None
    checker: str | None = None
    generator: str | None = None
    renderer: str | None = None
    bench: str | None = None
    bench_baseline: str | None = None  # the engine the bench measures the others against
    docs: str = ""
    # The questions whose answer includes whether the level can be won.
    solving: frozenset[str] = frozenset()

    @property
    def question_names(self) -> tuple[str, ...]:
        return tuple(question.name for question in self.questions)

    def engine(self, name: str) -> Engine:
        for engine in self.engines:
            if engine.name == name:
                return engine
        known = ", ".join(engine.name for engine in self.engines if not engine.baseline)
        raise UsageError(f'no engine "{name}" for {self.name} (engines: auto, {known})')

    def engine_names(self, *, baselines: bool = False) -> tuple[str, ...]:
        return tuple(engine.name for engine in self.engines if baselines or not engine.baseline)

    def auto_engine(self) -> Engine:
        """The engine `auto` picks: the first of `auto` that is available."""
        for name in self.auto:
            engine = self.engine(name)
            if engine.available():
                return engine
        raise UsageError(f"no engine of {self.name} is available here (tried {', '.join(self.auto)})")

    def chosen_engine(self, name: str) -> Engine:
        """The engine `--engine name` asks for: "auto", or one that is available here."""
        if name == "auto":
            return self.auto_engine()
        engine = self.engine(name)
        if not engine.available():
            raise UsageError(f'engine "{name}" is not available here ({engine.summary})')
        return engine

    def parse_questions(self, names: str | None) -> frozenset[str] | None:
        """A comma-separated list of question names (None or "all": every question)."""
        if names is None or names.strip() in ("", "all"):
            return None
        chosen = frozenset(part.strip() for part in names.split(",") if part.strip())
        unknown = sorted(chosen - set(self.question_names))
        if unknown:
            raise UsageError(
                f"{self.name} has no question {', '.join(unknown)} (questions: {', '.join(self.question_names)})"
            )
        return chosen
