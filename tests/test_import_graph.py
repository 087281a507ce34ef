"""The import graph of the project's Python packages has no circles, and the core names no game.

Built from the source with ``ast`` (nothing is imported): every ``import`` statement counts, also one
inside a function (a late import hides a circle, it does not remove it), except those under
``if TYPE_CHECKING:``. Importing ``a.b.c`` runs ``a/b/__init__.py`` first, so it counts as importing
the package too.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "accounts", "tournaments")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files() -> dict[str, Path]:
    return {
        module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
    }


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported_names(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Dotted names this module imports (a ``from x import y`` gives ``x.y`` and ``x``)."""
    names: set[str] = set()
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
        todo.extend(ast.iter_child_nodes(node))
    return names


def import_graph() -> dict[str, set[str]]:
    files = source_files()
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        targets: set[str] = set()
        for name in imported_names(ast.parse(path.read_text()), module, path.name == "__init__.py"):
            parts = name.split(".")
            # The module itself, and each package on the way that it is not already inside.
            for n in range(1, len(parts) + 1):
                candidate = ".".join(parts[:n])
                if candidate in files and candidate != module and not module.startswith(candidate + "."):
                    targets.add(candidate)
        graph[module] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports, as the list of modules around it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def game_packages() -> set[str]:
    """Every game is a Django app of its own under games/ (a package with an apps.py)."""
    return {f"games.{path.parent.name}" for path in (ROOT / "games").glob("*/apps.py")}


def test_the_import_graph_has_no_circles() -> None:
    assert find_cycle(import_graph()) is None


def test_the_core_imports_no_game_package() -> None:
    games = game_packages()
    assert games, "no game packages found"
    offenders = {
        module: sorted(t for t in targets if any(t == g or t.startswith(g + ".") for g in games))
        for module, targets in import_graph().items()
        if module.startswith("games") and not any(module == g or module.startswith(g + ".") for g in games)
    }
    assert {module: targets for module, targets in offenders.items() if targets} == {}


def test_the_core_imports_no_tournament_code() -> None:
    """Tournaments are built on matches: they listen to the core's signals; the core names them not."""
    offenders = {
        module: sorted(t for t in targets if t == "tournaments" or t.startswith("tournaments."))
        for module, targets in import_graph().items()
        if module.startswith(("games", "accounts"))
    }
    assert {module: targets for module, targets in offenders.items() if targets} == {}


def test_the_cycle_finder_finds_a_circle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
