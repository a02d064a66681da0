"""A toy game declared only through the registry (tests/commands/test_registry_commands.py): its generator
answers the smallest n-digit palindrome, a question with an answer a reader checks by eye."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from twisty.errors import UsageError


@dataclass(frozen=True)
class Palindrome:
    digits: int
    value: int

    def to_json(self) -> dict[str, Any]:
        return {"digits": self.digits, "value": self.value}


def generate_from(params: Mapping[str, Any], seed: int, deadline: Any, engine: Any) -> Palindrome:
    digits = params.get("digits", 3)
    if not 1 <= digits <= 9:
        raise UsageError(f"digits is 1 to 9, not {digits}")
    value = 10 ** (digits - 1) + (1 if digits > 1 else 0)  # 1, 11, 101, 1001, ...
    return Palindrome(digits, value)
