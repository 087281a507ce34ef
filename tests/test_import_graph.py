"""The import graph of the project's Python packages has no circles, keeps to its layers, and the core
names no game.

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

# The layers, lowest first: a module may import its own layer and those below, never one above (a
# lower module that needs something from above gets it as an argument or through a signal). A module
# belongs to the layer of the longest name below that is it or a package holding it; a module named by
# none fails ``test_every_module_has_a_layer``, so a new module is placed on purpose. Single modules are
# named where a package spans layers, and each package is named too so that what is added to it later
# is placed (tools/regroup_core.py rewrites the module names here when it moves them).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "engine, kit and support",
        (
            # The package games itself (its __init__ imports nothing). A flat module of games/ named
            # nowhere below is not placed by this (see ``test_every_module_has_a_layer``).
            "games",
            "games.engine",
            "games.kit",
            "games.support",
            "games.support.i18n",
            "games.support.sql",
            "games.support.untrusted",
            "games.support.paces",
            "games.support.metrics",
            "games.support.deadline",
            "games.record.fairplay",
            "games.record.takeback",
            "games.record.charts",
            "games.background.bot_worker",
            "games.templatetags",
        ),
    ),
    # Accounts sit below games: their models, sessions, mail and push know no match (games.background.notify hands
    # push the payload it sends). Only their pages, which show a person's matches, sit with the web.
    ("accounts", ("accounts",)),
    # Every game app sits here too (``layer_of``): the registry names no game, each game declares itself.
    ("registry and models", ("games.definition", "games.registry", "games.models")),
    # The record: ratings and the export read the models; fair play's chained log, takebacks and charts
    # are pure (above: the models use fair play).
    ("record", ("games.record", "games.record.ratings", "games.record.export")),
    ("services", ("games.services",)),
    ("read", ("games.read", "games.read.queries", "games.read.pages", "games.read.ending", "games.read.replay")),
    (
        "background",
        (
            "games.background",
            "games.background.bots",
            "games.background.clock",
            "games.background.notify",
            "games.background.analysis",
        ),
    ),
    ("live", ("games.live", "games.live.realtime", "games.live.consumers", "games.live.presence")),
    (
        "web",
        (
            "games.web",
            "games.web.views",
            "games.web.play_views",
            "games.web.record_views",
            "games.web.social_views",
            "games.web.analysis_views",
            "games.web.rules_pages",
            "games.web.status",
            "games.web.forms",
            "games.web.invitations",
            "games.web.context_processors",
            "games.web.middleware",
            "accounts.views",
            "accounts.urls",
            "accounts.admin_site",
        ),
    ),
    (
        "wiring",
        (
            "games.apps",
            "games.signals",
            "games.urls",
            "games.live.routing",
            "games.admin",
            "games.management",
        ),
    ),
    # Apps built on matches: the core names none of them (test_the_core_imports_no_tournament_code).
    ("apps built on matches", ("tournaments",)),
)


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


def placing(module: str, games: set[str]) -> tuple[str, int] | None:
    """The name in ``LAYERS`` that places ``module`` (the longest that is it or holds it) and its layer's
    index; a game app's modules are placed by the app, in the registry's layer."""
    if game := next((g for g in games if module == g or module.startswith(g + ".")), None):
        return game, next(i for i, (name, _) in enumerate(LAYERS) if name == "registry and models")
    best: tuple[str, int] | None = None
    for index, (_name, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > len(best[0])):
                best = (prefix, index)
    return best


def layer_of(module: str, games: set[str]) -> int | None:
    """The index in ``LAYERS`` of the layer ``module`` belongs to, or None."""
    found = placing(module, games)
    return None if found is None else found[1]


def empty_packages(graph: dict[str, set[str]]) -> set[str]:
    """Packages whose ``__init__`` imports nothing: importing one of their modules runs nothing more, so
    the package itself is no dependency (games.record holds modules of two layers)."""
    return {name for name, targets in graph.items() if not targets and any(m.startswith(name + ".") for m in graph)}


def upward_imports(graph: dict[str, set[str]], games: set[str]) -> list[str]:
    """Every import of a module from a layer above its own, as "a (layer) imports b (layer)"."""
    found = []
    empty = empty_packages(graph)
    for module, targets in sorted(graph.items()):
        own = layer_of(module, games)
        for target in sorted(targets - empty):
            theirs = layer_of(target, games)
            if own is not None and theirs is not None and theirs > own:
                found.append(f"{module} ({LAYERS[own][0]}) imports {target} ({LAYERS[theirs][0]})")
    return found


def test_every_module_has_a_layer() -> None:
    """Placed by a name of its own or of a package below games/, not only by being inside games/."""
    games = game_packages()
    unplaced = []
    for module in sorted(source_files()):
        found = placing(module, games)
        if found is None or (found[0] == "games" and module != "games"):
            unplaced.append(module)
    assert unplaced == []


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    assert upward_imports(import_graph(), game_packages()) == []


def test_the_layer_check_reports_an_upward_import() -> None:
    """The real graph with one import added that goes up (the models importing a view): it is reported."""
    games = game_packages()
    graph = import_graph()
    low = next(m for m in sorted(graph) if layer_of(m, games) == 2 and not any(m.startswith(g) for g in games))
    high = next(m for m in sorted(graph) if LAYERS[layer_of(m, games) or 0][0] == "web")
    graph[low] = {*graph[low], high}
    reported = upward_imports(graph, games)
    assert len(reported) == 1
    assert reported[0].startswith(f"{low} (registry and models) imports {high} (web)")
    # And an import downwards, or within a layer, is not.
    assert upward_imports({high: {low}, low: set()}, games) == []


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
