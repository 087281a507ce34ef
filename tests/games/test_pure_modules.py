"""The games' pure modules (docs/engine-conventions.md, "Layout"): free of Django, and every refusal they
raise is a message id ready for translation.

A pure module is every module of a game package except its Django side (``apps``, ``models``,
``forms``, ``present``, ``text``, and a game's own pages: ``views``, ``urls``), plus ``games.engine``
and ``games.kit``. A game added later is covered once its package has a ``rules.py``.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# game.py is the definition: lazy texts (gettext_lazy) beside the parts it names.
DJANGO_SIDE = {"apps", "game", "models", "action_forms", "present", "text", "views", "urls"}
# The computer players' modules: their refusals never reach a player (they raise none today).
BOT_MODULES = {"bot", "montecarlo", "novice", "endgame", "book", "symmetry", "bitboard"}
REFUSALS = {"IllegalAction", "InvalidAction"}
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def pure_modules() -> list[str]:
    names = ["games.engine", *(f"games.kit.{p.stem}" for p in sorted((ROOT / "games" / "kit").glob("*.py")))]
    for rules in sorted((ROOT / "games").glob("*/rules.py")):
        for path in sorted(rules.parent.glob("*.py")):
            if path.stem not in DJANGO_SIDE:
                names.append(f"games.{rules.parent.name}.{path.stem}")
    return names


def test_every_pure_module_imports_with_django_blocked() -> None:
    modules = pure_modules()
    assert {"games.kit.events", "games.dos.rules", "games.reversi.bot"} <= set(modules)
    script = f"""
import importlib, sys

class RefuseDjango:
    def find_spec(self, name, path=None, target=None):
        if name == "django" or name.startswith("django."):
            raise ImportError("pure modules must not import " + name)
        return None

sys.meta_path.insert(0, RefuseDjango())
for name in {modules!r}:
    importlib.import_module(name)
assert not any(m == "django" or m.startswith("django.") for m in sys.modules)
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_django_blocker_would_catch_an_import() -> None:
    script = "import sys\nclass R:\n    def find_spec(self, n, p=None, t=None):\n"
    script += "        if n.startswith('django'): raise ImportError(n)\nsys.meta_path.insert(0, R())\n"
    script += "import games.support.untrusted"
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "ImportError: django" in done.stderr


def message_id(node: ast.expr) -> list[str] | None:
    """The message ids of ``_("literal")`` (or ``_("a") if c else _("b")``); None for anything else."""
    if isinstance(node, ast.IfExp):
        body, orelse = message_id(node.body), message_id(node.orelse)
        return None if body is None or orelse is None else body + orelse
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "_"
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return [node.args[0].value]
    return None


def problems(source: str, where: str) -> list[str]:
    """What keeps the refusals and sentences of one module from being translated."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or not node.args:
            continue
        name = node.func.id
        first = node.args[0]
        if name == "_":
            if message_id(node) is None:
                found.append(f"{where}:{node.lineno}: _() takes one string literal")
            continue
        if name not in REFUSALS and name != "Text":
            continue
        ids = message_id(first)
        if ids is None:
            # A sentence built elsewhere (a Text, or a marked id such as SUIT_NAMES[0]) may be passed on;
            # a plain, formatted or concatenated string may not.
            formatted = isinstance(first, ast.Call) and getattr(first.func, "id", "") in {"str", "repr", "format"}
            if isinstance(first, ast.Name | ast.Attribute | ast.Subscript | ast.Call) and not formatted:
                continue
            found.append(f'{where}:{node.lineno}: {name}() needs _("message id") as its first argument')
            continue
        for message in ids:
            if re.search(r"%(?!\(\w+\)s|%)", message):
                found.append(f"{where}:{node.lineno}: use named %(name)s placeholders in {message!r}")
        if len(node.args) > 1 and isinstance(node.args[1], ast.Dict):
            keys = {k.value for k in node.args[1].keys if isinstance(k, ast.Constant)}
            named = [set(PLACEHOLDER.findall(message)) for message in ids]
            if not all(n <= keys for n in named) or set().union(*named) != keys:
                found.append(f"{where}:{node.lineno}: {ids!r} and its parameters {sorted(keys)} differ")
    return found


@pytest.mark.parametrize("module", [m for m in pure_modules() if m.rpartition(".")[2] not in BOT_MODULES])
def test_every_refusal_is_a_message_id_with_named_placeholders(module: str) -> None:
    path = ROOT / (module.replace(".", "/") + ".py")
    assert problems(path.read_text(), module) == []


@pytest.mark.parametrize(
    "source",
    [
        'raise IllegalAction("You do not hold it.")',
        'raise IllegalAction(f"You do not hold {card}.")',
        'raise IllegalAction("You do not hold " + card)',
        "raise InvalidAction(str(exc))",
        'raise IllegalAction(_("You do not hold %s."), {"card": card})',
        'raise IllegalAction(_("You do not hold %(card)s."), {"code": card})',
        "raise IllegalAction(_(message))",
        'why = Text(f"Lead {suit}.")',
    ],
)
def test_the_scan_would_catch_an_untranslatable_refusal(source: str) -> None:
    assert problems(source, "example") != []


def test_the_scan_accepts_message_ids() -> None:
    source = (
        'raise IllegalAction(_("You do not hold %(card)s."), {"card": card})\n'
        'raise IllegalAction(_("Too few.") if few else _("Too many."))\n'
        "raise IllegalAction(rule.reason)\n"
        'why = Text(_("You must follow suit: %(suit)s were led."), {"suit": Text(SUIT_NAMES[0])})\n'
    )
    assert problems(source, "example") == []
