"""Regroup the core of games/ by concern (issue #28): move modules with ``git mv`` and rewrite every
reference to them across the repository.

It works from a table of old -> new module paths, not from a list of files, so it also rewrites code it
has never seen (a branch merged after it was written): every tracked or new text file is read, and

- a Python ``from games import realtime, registry`` (also relative, also inside a function, also in
  parentheses over several lines) becomes one import per package (``from games.live import realtime``);
  when the module's own name changes (``parsing`` -> ``untrusted``), the name is changed wherever the
  file uses it, or imported ``as`` the old name if the file binds that name to something else too;
- every dotted name (``games.parsing``, ``"games.realtime.LocalChannelLayer"`` in settings,
  ``mock.patch("games.views.pages...")``, ``games.services.events`` in docs) and every path
  (``games/parsing.py``) is rewritten, whole names only (``games.kit.parsing`` is not ``games.parsing``).

Parts: ``core`` (the default) moves the ~35 flat core modules into packages whose folders show the
layers (tests/test_import_graph.py names them) and renames the core modules whose name a game module
also has (``parsing``, ``events``); ``apps`` renames each game app's ``forms.py`` (not a Django form:
the board's form as an action) to ``action_forms.py`` and ``view.py`` (not a Django view: what one seat
may see) to ``seat_view.py``. A game app is any package with an ``apps.py`` and a ``rules.py``.

Idempotent: a second run finds nothing to do. ``--check`` changes nothing and exits 1 if anything is
left to move or rewrite. After rewriting, ruff sorts the imports and formats the files it changed.

    python tools/regroup_core.py [--part core|apps|all] [--check]
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import shutil
import subprocess
import sys
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The new packages, lowest layer first, with what their __init__.py says (they import nothing, so that
# importing one module of a package costs nothing more).
PACKAGES: dict[str, str] = {
    "games.support": "Game-independent helpers any layer may use: translation and digits, compiled SQL, bounds "
    "on untrusted input, paces, metrics, deadlines.",
    "games.record": "The record of matches: ratings, the export, fair play's chained log, charts, takebacks. "
    "fairplay, takeback and charts are pure (the models use fairplay); ratings and export read the models.",
    "games.read": "The read side: what the pages and the live path show (queries, how a match ended, "
    "replays, the match page's context). Nothing here changes a match: games.services does.",
    "games.background": "Work outside requests: the computer players and their worker processes, the clock, "
    "mail and push, the post-game analysis.",
    "games.live": "The live path: announcing committed changes over the channel layer, the sockets, "
    "presence, and the socket routes.",
    "games.web": "The HTTP side: views, forms, invitations, context processors and middleware.",
}

# old module -> new module. Each name appears once: a value is never a key.
CORE: dict[str, str] = {
    # support
    "games.i18n": "games.support.i18n",
    "games.sql": "games.support.sql",
    "games.parsing": "games.support.untrusted",  # bounds untrusted input; games.kit.parsing reads actions
    "games.paces": "games.support.paces",
    "games.metrics": "games.support.metrics",
    "games.deadline": "games.support.deadline",
    # record
    "games.ratings": "games.record.ratings",
    "games.export": "games.record.export",
    "games.fairplay": "games.record.fairplay",
    "games.charts": "games.record.charts",
    "games.takeback": "games.record.takeback",
    # read
    "games.queries": "games.read.queries",
    "games.ending": "games.read.ending",
    "games.replay": "games.read.replay",
    "games.pages": "games.read.pages",
    # background
    "games.bots": "games.background.bots",
    "games.bot_worker": "games.background.bot_worker",
    "games.clock": "games.background.clock",
    "games.notify": "games.background.notify",
    "games.analysis": "games.background.analysis",
    # live
    "games.realtime": "games.live.realtime",
    "games.consumers": "games.live.consumers",
    "games.presence": "games.live.presence",
    "games.routing": "games.live.routing",
    # web
    "games.views": "games.web.views",
    "games.play_views": "games.web.play_views",
    "games.record_views": "games.web.record_views",
    "games.social_views": "games.web.social_views",
    "games.analysis_views": "games.web.analysis_views",
    "games.rules_pages": "games.web.rules_pages",
    "games.status": "games.web.status",
    "games.forms": "games.web.forms",
    "games.invitations": "games.web.invitations",
    "games.context_processors": "games.web.context_processors",
    "games.middleware": "games.web.middleware",
    # one name per concept: the services' signals are announcements (games.kit.events are a game's events)
    "games.services.events": "games.services.announcements",
}

# A game app's modules named like Django's parts but not them.
APP_RENAMES = {"forms": "action_forms", "view": "seat_view"}

# Never rewritten: this table, generated catalogues (their "#:" lines are rewritten by makemessages).
# A file that says so is left alone (a test of this script, whose old names are its data).
LEAVE_MARK = "regroup_core: leave"
SKIP_PARTS = {".git", ".venv", "node_modules", "__pycache__", "staticfiles", "locale", "locale_django"}
TEXT_SUFFIXES = {
    ".py",
    ".pyi",
    ".html",
    ".txt",
    ".md",
    ".rst",
    ".toml",
    ".cfg",
    ".ini",
    ".yml",
    ".yaml",
    ".json",
    ".js",
    ".css",
    ".sh",
    ".service",
    ".conf",
    ".env",
    ".example",
    ".in",
    ".tpl",
    ".py-tpl",
    ".html-tpl",
    ".md-tpl",
}
TEXT_NAMES = {"Makefile", "Dockerfile", "Procfile", "Caddyfile"}


def game_apps() -> list[tuple[str, Path]]:
    """(package, folder) of every game app: a package with an apps.py and a rules.py."""
    found = []
    for rules in sorted(ROOT.rglob("rules.py")):
        folder = rules.parent
        if SKIP_PARTS & set(folder.relative_to(ROOT).parts):
            continue
        if (folder / "apps.py").exists() and (folder / "__init__.py").exists():
            found.append((".".join(folder.relative_to(ROOT).parts), folder))
    return found


def table(parts: Iterable[str]) -> dict[str, str]:
    moves: dict[str, str] = {}
    if "core" in parts:
        moves.update(CORE)
    if "apps" in parts:
        for package, _folder in game_apps():
            for old, new in APP_RENAMES.items():
                moves[f"{package}.{old}"] = f"{package}.{new}"
    return moves


def module_path(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


# --- moving files -------------------------------------------------------------------------------------


def pending_moves(moves: dict[str, str]) -> list[tuple[Path, Path]]:
    todo = []
    for old, new in moves.items():
        source, target = module_path(old), module_path(new)
        if source.exists() and target.exists():
            raise SystemExit(
                f"Both {source.relative_to(ROOT)} and {target.relative_to(ROOT)} exist: merge them by hand."
            )
        if source.exists():
            todo.append((source, target))
    return todo


def pending_packages(moves: dict[str, str]) -> list[Path]:
    """The __init__.py files of new packages that moved modules need and that do not exist yet."""
    needed = []
    for new in moves.values():
        parts = new.split(".")[:-1]
        for n in range(2, len(parts) + 1):
            init = ROOT.joinpath(*parts[:n], "__init__.py")
            if not init.exists() and init not in needed:
                needed.append(init)
    return needed


def package_docstring(init: Path) -> str:
    name = ".".join(init.parent.relative_to(ROOT).parts)
    text = PACKAGES.get(name, f"The {name.rsplit('.', 1)[-1]} package.")
    words, lines, line = text.split(), [], ""
    for word in words:
        if len(line) + len(word) + 1 > 100:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return '"""' + "\n".join(lines) + '"""\n'


# --- rewriting references ------------------------------------------------------------------------------


def text_files() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    files = []
    for name in listed.split("\0"):
        if not name:
            continue
        path = ROOT / name
        if SKIP_PARTS & set(Path(name).parts) or path == Path(__file__).resolve():
            continue
        if (path.suffix in TEXT_SUFFIXES or path.name in TEXT_NAMES) and path.is_file():
            files.append(path)
    return files


def dotted_pattern(moves: dict[str, str]) -> re.Pattern[str]:
    names = sorted(moves, key=len, reverse=True)
    return re.compile(r"(?<![\w.])(" + "|".join(re.escape(n) for n in names) + r")(?!\w)")


def path_pattern(moves: dict[str, str]) -> tuple[re.Pattern[str], dict[str, str]]:
    paths = {old.replace(".", "/") + ".py": new.replace(".", "/") + ".py" for old, new in moves.items()}
    names = sorted(paths, key=len, reverse=True)
    return re.compile(r"(?<![\w./-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w])"), paths


def _binds(node: ast.AST, name: str) -> int:
    """How many times ``node`` itself binds ``name``."""
    if isinstance(node, ast.Name):
        return int(node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)))
    if isinstance(node, ast.arg):
        return int(node.arg == name)
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return sum(1 for a in node.names if (a.asname or a.name.split(".")[0]) == name)
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler)):
        return int(node.name == name)
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return int(name in node.names)
    return 0


def _bindings(tree: ast.AST, name: str) -> int:
    """How many times ``name`` is bound in the file (imports, assignments, arguments, loops...)."""
    return sum(_binds(node, name) for node in ast.walk(tree))


@dataclass
class Edits:
    """Byte-range replacements by line (ast columns are UTF-8 byte offsets)."""

    lines: list[str]
    by_line: dict[int, list[tuple[int, int, str]]] = field(default_factory=dict)
    whole: dict[int, tuple[int, str]] = field(default_factory=dict)  # first line -> (last line, new text)

    def replace(self, line: int, start: int, end: int, text: str) -> None:
        self.by_line.setdefault(line, []).append((start, end, text))

    def apply(self) -> str:
        out: list[str] = []
        index = 1
        while index <= len(self.lines):
            if index in self.whole:
                last, text = self.whole[index]
                out.append(text)
                index = last + 1
                continue
            line = self.lines[index - 1]
            if index in self.by_line:
                raw = line.encode()
                for start, end, text in sorted(self.by_line[index], reverse=True):
                    raw = raw[:start] + text.encode() + raw[end:]
                line = raw.decode()
            out.append(line)
            index += 1
        return "".join(out)


def rewrite_imports(source: str, path: Path, moves: dict[str, str], warnings: list[str]) -> str:
    """``from pkg import mod`` where ``pkg.mod`` moved: one import per new package, usages renamed."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    is_package = path.name == "__init__.py"
    edits = Edits(source.splitlines(keepends=True))
    renamed: dict[str, str] = {}  # local name -> new local name
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            anchor = module.split(".")
            anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
            base = ".".join([*anchor, base] if base else anchor)
        moved = [a for a in node.names if f"{base}.{a.name}" in moves]
        if not moved and not (node.level and base in moves):
            continue
        if node.level and not moved:
            # ``from .forms import x``: the module itself moved; write it absolute.
            edits.whole[node.lineno] = (
                node.end_lineno or node.lineno,
                _statements(node, edits.lines, [(moves[base], list(node.names))]),
            )
            continue
        kept = [a for a in node.names if a not in moved]
        statements: list[tuple[str, list[ast.alias]]] = []
        if kept:
            statements.append((base, kept))
        for alias in moved:
            new = moves[f"{base}.{alias.name}"]
            package, name = new.rsplit(".", 1)
            alias_name = alias.asname
            if alias.asname is None and name != alias.name:
                if _bindings(tree, alias.name) == 1:
                    renamed[alias.name] = name
                else:
                    alias_name = alias.name
                    warnings.append(
                        f"{path.relative_to(ROOT)}: {alias.name!r} is bound twice; imported as the old name"
                    )
            # One statement per package (as isort would merge them, keeping a line's noqa on each).
            same = next((names for pkg, names in statements if pkg == package), None)
            if same is None:
                statements.append((package, [ast.alias(name=name, asname=alias_name)]))
            else:
                same.append(ast.alias(name=name, asname=alias_name))
        edits.whole[node.lineno] = (node.end_lineno or node.lineno, _statements(node, edits.lines, statements))
    if renamed:
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in renamed and isinstance(node.ctx, ast.Load):
                if node.lineno in edits.whole:
                    continue
                edits.replace(node.lineno, node.col_offset, node.end_col_offset or 0, renamed[node.id])
    _rewrite_attributes(tree, edits, moves, path, warnings)
    if not edits.whole and not edits.by_line:
        return source
    return edits.apply()


def _rewrite_attributes(tree: ast.AST, edits: Edits, moves: dict[str, str], path: Path, warnings: list[str]) -> None:
    """``services.events.x`` where ``services`` is the package ``games.services`` (however it was imported,
    e.g. ``from games import services as match_services``): the renamed module's attribute follows."""
    packages: dict[str, str] = {}  # local name -> the module it is
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                packages[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    packages[alias.asname] = alias.name
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
            continue
        full = f"{packages.get(node.value.id, '')}.{node.attr}"
        if node.value.id not in packages or full not in moves or node.end_lineno != node.lineno:
            continue
        parent, leaf = moves[full].rsplit(".", 1)
        if parent != packages[node.value.id]:
            where = path.relative_to(ROOT)
            warnings.append(f"{where}:{node.lineno}: {node.value.id}.{node.attr} moved to another package; by hand")
            continue
        end = node.end_col_offset or 0
        edits.replace(node.lineno, end - len(node.attr.encode()), end, leaf)


def _statement(node: ast.ImportFrom, package: str, names: list[ast.alias]) -> str:
    listed = ", ".join(a.name if a.asname is None else f"{a.name} as {a.asname}" for a in names)
    return f"from {package} import {listed}"


def _statements(node: ast.ImportFrom, lines: list[str], statements: list[tuple[str, list[ast.alias]]]) -> str:
    first = lines[node.lineno - 1]
    indent = first[: len(first) - len(first.lstrip())]
    last = lines[(node.end_lineno or node.lineno) - 1].encode()
    rest = last[node.end_col_offset or len(last) :].decode().rstrip("\n")
    comment = rest.strip()
    if comment and not comment.startswith("#"):
        raise SystemExit(f"Cannot rewrite an import followed by more code on its line ({rest!r}).")
    out = []
    for index, (package, names) in enumerate(statements):
        line = indent + _statement(node, package, names)
        # A lint directive holds for each of the new statements; any other comment is said once.
        if comment and (index == 0 or comment.startswith("# noqa")):
            line += "  " + comment
        out.append(line + "\n")
    return "".join(out)


def rewrite_text(text: str, path: Path, moves: dict[str, str], warnings: list[str], apps: bool) -> str:
    original = text
    if path.suffix == ".py":
        text = rewrite_imports(text, path, moves, warnings)
    dotted = dotted_pattern(moves)
    text = dotted.sub(lambda m: moves[m.group(1)], text)
    pattern, paths = path_pattern(moves)
    text = pattern.sub(lambda m: paths[m.group(1)], text)
    if apps:
        text = rewrite_app_layout(text, path)
    if path.suffix == ".py" and text != original:
        text = keep_line_length(text, set(original.splitlines()))
    return text


MAX_LINE = 120  # ruff's line-length (pyproject.toml)


def keep_line_length(text: str, before: set[str]) -> str:
    """Lines the longer names pushed past the limit: a comment or docstring line is wrapped at a space;
    a line of code is left to ruff format, or, if it is one string, marked ``# noqa: E501``."""
    try:
        in_string = _lines_inside_strings(text)
    except (tokenize.TokenError, SyntaxError):
        return text
    out = []
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        body = line.rstrip("\n")
        if len(body) <= MAX_LINE or body in before:
            out.append(line)
            continue
        stripped = body.lstrip()
        indent = body[: len(body) - len(stripped)]
        if stripped.startswith("#"):
            out.append(_wrap(body, indent + "# "))
        elif number in in_string:
            out.append(_wrap(body, indent))
        elif "noqa" not in body and ('"' in stripped or "'" in stripped) and stripped.count(" ") <= 4:
            out.append(body + "  # noqa: E501\n")
        else:
            out.append(line)  # code: ruff format breaks it
    return "".join(out)


def _lines_inside_strings(text: str) -> set[int]:
    """Line numbers of docstring text: a multi-line string's lines past its first, and the first line of
    a triple-quoted string that starts its line."""
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type != tokenize.STRING:
            continue
        if token.end[0] > token.start[0]:
            lines.update(range(token.start[0] + 1, token.end[0] + 1))
        # A docstring's first line (a triple-quoted string alone on its line) is text too.
        if token.string.startswith(('"""', "'''")) and not token.line[: token.start[1]].strip():
            lines.add(token.start[0])
    return lines


def _wrap(body: str, continuation: str) -> str:
    """``body`` cut at the last space that keeps each line within the limit, continued by ``continuation``."""
    lines, rest = [], body
    while len(rest) > MAX_LINE:
        cut = rest.rfind(" ", len(continuation) + 1, MAX_LINE + 1)
        if cut <= len(continuation):
            break
        lines.append(rest[:cut].rstrip())
        rest = continuation + rest[cut + 1 :]
    lines.append(rest)
    return "\n".join(lines) + "\n"


def rewrite_app_layout(text: str, path: Path) -> str:
    """Where the game app's layout is listed by module name: docs (```forms.py```) and the tuples and sets
    of the registry and the pure-module test (a line naming ``"forms"`` beside another layout module)."""
    if path.suffix in {".md", ".rst", ".txt", ".html"} or path.name.endswith("-tpl"):
        for old, new in APP_RENAMES.items():
            text = re.sub(rf"`{old}\.py`", f"`{new}.py`", text)
    if path.suffix == ".py":
        layout = ("rules", "present", "apps", "models", "text", "bot", "analysis")
        out = []
        for line in text.splitlines(keepends=True):
            # A set or list of layout modules names two of them; a registry entry starts ("forms", "...
            # ("view" alone is too common a word to rewrite anywhere else.)
            if sum(f'"{name}"' in line for name in layout) >= 2:
                line = line.replace('"forms"', '"action_forms"')
            for old, new in APP_RENAMES.items():
                line = re.sub(rf'^(\s*)\("{old}", "', rf'\1("{new}", "', line)
            out.append(line)
        text = "".join(out)
    return text


def app_template_moves() -> list[tuple[Path, Path]]:
    """A scaffold's templates of a game app (``forms.py-tpl`` beside ``rules.py-tpl``) are renamed too."""
    todo = []
    for rules in sorted(ROOT.rglob("rules.py-tpl")):
        if SKIP_PARTS & set(rules.relative_to(ROOT).parts):
            continue
        for old, new in APP_RENAMES.items():
            source = rules.parent / f"{old}.py-tpl"
            if source.exists():
                todo.append((source, rules.parent / f"{new}.py-tpl"))
    return todo


# --- the run -------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=["core", "apps", "all"], default="core")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if anything is left to do")
    args = parser.parse_args(argv)
    parts = ["core", "apps"] if args.part == "all" else [args.part]
    apps = "apps" in parts
    moves = table(parts)
    files = pending_moves(moves) + (app_template_moves() if apps else [])
    inits = pending_packages(moves) if "core" in parts else []
    warnings: list[str] = []
    rewrites: dict[Path, str] = {}
    for path in text_files():
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        if LEAVE_MARK in text:
            continue
        new = rewrite_text(text, path, moves, warnings, apps)
        if new != text:
            rewrites[path] = new
    for warning in warnings:
        print("warning:", warning, file=sys.stderr)
    if args.check:
        for source, target in files:
            print(f"move {source.relative_to(ROOT)} -> {target.relative_to(ROOT)}")
        for init in inits:
            print(f"create {init.relative_to(ROOT)}")
        for path in sorted(rewrites):
            print(f"rewrite {path.relative_to(ROOT)}")
        return 1 if files or inits or rewrites else 0
    if not (files or inits or rewrites):
        print("Nothing to do.")
        return 0
    # Contents first (at the old paths), then the moves: git sees each move as a rename.
    for path, text in rewrites.items():
        path.write_text(text)
    for init in inits:
        init.parent.mkdir(parents=True, exist_ok=True)
        init.write_text(package_docstring(init))
        subprocess.run(["git", "add", str(init)], cwd=ROOT, check=True)
    for source, target in files:
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "mv", str(source), str(target)], cwd=ROOT, check=True)
    changed = sorted(
        {
            *(p for p in rewrites if p.suffix == ".py"),
            *inits,
            *(t for _s, t in files if t.suffix == ".py"),
        }
    )
    changed = [str(moved_to(p, files)) for p in changed]
    _ruff(changed)
    print(f"Moved {len(files)} files, created {len(inits)} packages, rewrote {len(rewrites)} files.")
    return 0


def moved_to(path: Path, files: list[tuple[Path, Path]]) -> Path:
    return next((target for source, target in files if source == path), path)


def _ruff(paths: list[str]) -> None:
    if not paths:
        return
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    if ruff is None:
        print("warning: ruff not found; run `ruff check --fix . && ruff format .`", file=sys.stderr)
        return
    subprocess.run([ruff, "check", "--fix", "--quiet", *paths], cwd=ROOT, check=False)
    subprocess.run([ruff, "format", "--quiet", *paths], cwd=ROOT, check=False)


if __name__ == "__main__":
    sys.exit(main())
