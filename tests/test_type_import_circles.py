"""No two modules import each other, counting the imports made for type checkers only (`if TYPE_CHECKING:`)
too: such a pair (generator/book.py and generator/book_text.py once) still means neither can be read, or
moved, without the other. tests/test_layers.py holds the run-time imports to the layers."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "twisty"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def every_import_of(path: Path) -> set[str]:
    """The twisty modules a module names in any import, type-checking ones included (absolute imports:
    the package uses no relative ones)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name in MODULES}


def test_no_import_circles_even_for_type_checkers() -> None:
    graph = {module: every_import_of(path) - {module} for module, path in MODULES.items()}
    circles = []
    for module, targets in graph.items():
        for target in targets:
            # A circle of any length passes through some module that the target reaches back to.
            seen, frontier = {target}, [target]
            while frontier:
                current = frontier.pop()
                for following in graph[current]:
                    if following == module:
                        circles.append((module, target))
                        frontier.clear()
                        break
                    if following not in seen:
                        seen.add(following)
                        frontier.append(following)
    assert not circles, f"modules that reach each other through imports: {sorted(set(circles))[:10]}"


def test_the_package_has_no_relative_imports() -> None:
    """every_import_of reads absolute imports only; a relative one would hide an edge from it."""
    relative = [
        module
        for module, path in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.level
    ]
    assert not relative, relative
