"""The table every game fills once (the `struct game` of Simon Tatham's puzzles): its loader, the questions
it answers, its engines, its checker, generator, renderer and benchmark.

Entries name the code that implements them by dotted path ("package.module" or "package.module:function"),
resolved on first use: the registry sits in the base layer and imports none of it, so that the command line,
the portfolio, the generator, the bench and the docs can all read one table without importing every game.
"""

from __future__ import annotations

import importlib
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
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


# The kinds of value a generator parameter takes (Param.kind).
PARAM_KINDS = ("int", "float", "str", "words", "spec", "probability", "flag")


@dataclass(frozen=True)
class Param:
    """One parameter of a game's generator, as the API takes it (`twisty.generate(game, name=value)`).
    `kind`: "int" (a whole number), "float", "str", "words" (a list of words or one comma-separated string),
    "spec" ("key=value,..." or a mapping of the same keys), "probability" (0.7, "7/10" or a Fraction) or
    "flag" (True or False: the command line's --name/--no-name, or a flag --name that is off unless given).
    The generator checks ranges and meanings; the kind is checked before it runs."""

    name: str
    kind: str
    summary: str

    def checked(self, value: Any) -> Any:
        """The value, or a UsageError naming the parameter when it is not of this kind."""
        fits = {
            "int": isinstance(value, numbers.Integral) and not isinstance(value, bool),
            "float": isinstance(value, numbers.Real) and not isinstance(value, bool),
            "str": isinstance(value, str),
            "words": isinstance(value, str)
            or (isinstance(value, (list, tuple)) and all(isinstance(word, str) for word in value)),
            "spec": isinstance(value, (str, Mapping)),
            "probability": isinstance(value, (str, int, float, Fraction)) and not isinstance(value, bool),
            # Only a bool: 0, 1 or "no" would pass a truth test and mean something the caller may not intend.
            "flag": isinstance(value, bool),
        }[self.kind]
        if not fits:
            shown = repr(value)
            shown = shown if len(shown) <= 60 else shown[:57] + "..."
            raise UsageError(f"{self.name} is {_KIND_WORDS[self.kind]}, not {shown}")
        return int(value) if self.kind == "int" else value


_KIND_WORDS = {
    "int": "a whole number",
    "float": "a number",
    "str": "a string",
    "words": 'a list of names or one string "a,b"',
    "spec": 'written "key=value,..." or as a mapping',
    "probability": "a probability like 0.7 or 7/10",
    "flag": "True or False",
}


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
    # The level features (a game's optional rules, such as the passages towers' shops) it answers; None:
    # every feature. A level with a feature outside this set is not for this engine (refusal).
    features: frozenset[str] | None = None

    def refusal(self, features: frozenset[str]) -> str | None:
        """Why this engine does not answer a level with these features, or None when it does."""
        if self.features is None or features <= self.features:
            return None
        missing = ", ".join(sorted(features - self.features))
        return f"engine {self.name} does not answer levels with {missing}"

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
    # The sandbox page's editor of the game's levels (twisty.serve: palette, grid, edit); None: edited as text.
    page: str | None = None
    # `twisty render` (twisty.commands.render builds its options from these): the word for what the game's
    # pictures draw as a level's answer (the flag --ANSWER; --answer draws any game's), that flag's help, and
    # the options of the command for this game's pictures alone, as dotted paths of click options in the
    # commands layer (each option's name is a field of twisty.render.pictures.PictureOptions or a key of
    # its `params`).
    answer: str | None = None
    answer_help: str = ""
    render_options: tuple[str, ...] = ()
    bench: str | None = None
    bench_baseline: str | None = None  # the engine the bench measures the others against
    docs: str = ""
    # The questions whose answer includes whether the level can be won.
    solving: frozenset[str] = frozenset()
    # The keys of a verdict's record (`check --json`) that say most about a level, beside whether it can be
    # won: what a verdict's repr, the parity test and a summary badge show.
    headline: tuple[str, ...] = ()
    # The parameters `generator` takes (twisty.generate(game, **params) and `twisty generate`).
    generator_params: tuple[Param, ...] = ()
    # The command line (click commands named by dotted path, resolved when asked for): `twisty generate
    # GAME` runs `generate_command` (None: a command made from `generator` and `generator_params`),
    # `twisty bench NAME` each (NAME, command) of `bench_commands`, and `twisty NAME` each of `commands`.
    # cli.py names no game.
    generate_command: str | None = None
    bench_commands: tuple[tuple[str, str], ...] = ()
    # Commands of this game alone at the top of the command line (`twisty explain`, `twisty odds`): each
    # (NAME, dotted path of its click command).
    commands: tuple[tuple[str, str], ...] = ()

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

    def auto_engine(self, features: frozenset[str] = frozenset()) -> Engine:
        """The engine `auto` picks: the first of `auto` that is available and answers levels with these
        features (skipped_engines says why the ones before it were passed over)."""
        for name in self.auto:
            engine = self.engine(name)
            if engine.available() and engine.refusal(features) is None:
                return engine
        raise UsageError(f"no engine of {self.name} is available here (tried {', '.join(self.auto)})")

    def skipped_engines(self, features: frozenset[str]) -> dict[str, str]:
        """The engines of `auto` that `auto` passes over for a level with these features, with the reason."""
        chosen = self.auto_engine(features)
        skipped = {}
        for name in self.auto:
            engine = self.engine(name)
            if engine is chosen:
                break
            skipped[name] = engine.refusal(features) or f"engine {name} is not available here"
        return skipped

    def chosen_engine(self, name: str, features: frozenset[str] = frozenset()) -> Engine:
        """The engine `--engine name` asks for: "auto", or one that is available here and answers levels
        with these features (else a UsageError saying why)."""
        if name == "auto":
            return self.auto_engine(features)
        engine = self.engine(name)
        if not engine.available():
            raise UsageError(f'engine "{name}" is not available here ({engine.summary})')
        refusal = engine.refusal(features)
        if refusal is not None:
            answering = [other.name for other in self.engines if other.refusal(features) is None]
            raise UsageError(f"{refusal} (engines that do: auto, {', '.join(answering)})")
        return engine

    def checking_engine(self, name: str, features: frozenset[str] = frozenset()) -> Engine:
        """The engine a check of one of this game's levels uses when `--engine name` was given: that engine,
        or auto's when `name` is another game's engine (`twisty check` reads levels of every game at once,
        and each game takes the engine that is its own)."""
        return self.chosen_engine(name if name in self.engine_names() else "auto", features)

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
