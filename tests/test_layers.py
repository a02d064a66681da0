"""The package's shape: data flows one way through the layers, and no two modules import each other.

    base (errors, limits, checking, the registry, batch) -> rules -> importers, exporters -> encodings -> solver
    -> generator -> report / render / bench -> api -> serve -> commands -> cli

Every import of every module is read from its source (function-level imports included; imports under
`if TYPE_CHECKING:` are for type checkers only and are left out), so a late import cannot hide an edge.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "twisty"

LAYERS = [
    ("twisty", "twisty.errors", "twisty.limits", "twisty.checking", "twisty.games", "twisty.batch"),
    ("twisty.rules",),
    ("twisty.importers", "twisty.exporters"),
    ("twisty.encodings",),
    ("twisty.solver",),
    ("twisty.generator",),
    ("twisty.report", "twisty.render", "twisty.bench"),
    ("twisty.api",),
    ("twisty.serve",),
    ("twisty.commands",),
    ("twisty.cli",),
]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> int:
    best, level = -1, None
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, level = len(prefix), index
    assert level is not None, f"{module} is in no layer: add it to LAYERS"
    return level


def _type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports_of(path: Path) -> set[str]:
    """The twisty modules a module imports at run time, wherever in it the import stands."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if _type_checking_block(node):
            skipped.update(id(inner) for inner in ast.walk(node))
    found: set[str] = set()
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            found.add(base)
            # `from twisty.solver import passages_search` imports a module, not a name
            for alias in node.names:
                if (PACKAGE.parent / (base + "." + alias.name).replace(".", "/")).with_suffix(".py").exists() or (
                    PACKAGE.parent / (base + "." + alias.name).replace(".", "/") / "__init__.py"
                ).exists():
                    found.add(f"{base}.{alias.name}")
    return {name for name in found if name == "twisty" or name.startswith("twisty.")}


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
GRAPH = {
    module: {target for target in imports_of(path) if target in MODULES and target != module}
    for module, path in MODULES.items()
}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_imports_from_a_layer_above_it(module: str) -> None:
    mine = layer_of(module)
    upward = sorted(target for target in GRAPH[module] if layer_of(target) > mine)
    assert not upward, f"{module} (layer {mine}) imports from layers above it: {upward}"


def test_no_import_circles() -> None:
    """Tarjan's strongly connected components: every component must be a single module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = [0]

    def visit(module: str) -> None:
        index[module] = low[module] = counter[0]
        counter[0] += 1
        stack.append(module)
        on_stack.add(module)
        for target in GRAPH[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(GRAPH):
        if module not in index:
            visit(module)
    assert not circles, f"import circles: {circles}"


def test_every_registry_entry_names_code_that_exists() -> None:
    """The registry names code by dotted path: every path must resolve, in the layer it belongs to."""
    from twisty.games import GAMES, resolve

    expected_layer = {
        "loader": "twisty.rules",
        "checker": "twisty.report",
        "generator": "twisty.generator",
        "bench": "twisty.bench",
        "renderer": "twisty.render",
    }
    for game in GAMES.values():
        for part, prefix in expected_layer.items():
            target = getattr(game, part)
            if target is not None:
                assert resolve(target) is not None
                assert target.startswith(prefix), f"{game.name}.{part} = {target} is not in {prefix}"
        for engine in game.engines:
            assert engine.module.startswith(("twisty.solver", "twisty.rules")), engine.module
            assert engine.available() or engine.name == "search", f"{game.name} engine {engine.name} does not load"
