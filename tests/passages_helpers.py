"""Small helpers for passages tests: levels from TOML text."""

from twisty.rules.passages import PassagesLevel
from twisty.rules.passages_format import load_passages
from twisty.rules.source import parse_level_bytes


def level_from_toml(text: str, path: str = "test.toml") -> PassagesLevel:
    return load_passages(parse_level_bytes(text.encode(), path))
