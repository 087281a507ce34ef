"""tools/regroup_core.py rewrites code it has never seen, from its table: imports in every form, names
used, dotted strings and paths; and a second pass changes nothing."""

# regroup_core: leave (this file's old names are its test data)

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import regroup_core  # noqa: E402

MOVES = regroup_core.table(["core"])
FAKE = ROOT / "games" / "never_seen.py"


def rewrite(text: str, path: Path = FAKE) -> tuple[str, list[str]]:
    warnings: list[str] = []
    done = regroup_core.rewrite_text(text, path, MOVES, warnings, apps=False)
    again = regroup_core.rewrite_text(done, path, MOVES, [], apps=False)
    assert again == done, "a second pass changed something"
    return done, warnings


def test_an_import_of_several_moved_modules_becomes_one_per_package_and_names_follow() -> None:
    source = (
        "from games import (\n"
        "    parsing,\n"
        "    realtime,\n"
        "    presence,\n"
        "    registry,\n"
        ")\n"
        "\n"
        "def f(body):\n"
        "    from games.services import events  # noqa: F401\n"
        "    events.on_commit(events.user_changed)\n"
        "    return parsing.loads(body), realtime.announce, presence\n"
    )
    done, warnings = rewrite(source)
    assert warnings == []
    assert "from games import registry\n" in done
    assert "from games.support import untrusted\n" in done
    assert "from games.live import realtime, presence\n" in done
    assert "    from games.services import announcements  # noqa: F401\n" in done
    assert "announcements.on_commit(announcements.user_changed)" in done
    assert "return untrusted.loads(body), realtime.announce, presence" in done
    assert "parsing" not in done and "events" not in done


def test_a_name_bound_twice_keeps_its_old_name_as_an_alias() -> None:
    source = "from games.services import events\n\nevents.on_commit(1)\nfor events in []:\n    pass\n"
    done, warnings = rewrite(source)
    assert done.startswith("from games.services import announcements as events\n")
    assert "events.on_commit(1)" in done
    assert warnings and "bound twice" in warnings[0]


def test_dotted_names_and_paths_are_rewritten_whole() -> None:
    source = (
        'patch("games.views.pages.render_fragment")\n'
        'BACKEND = "games.realtime.LocalChannelLayer"\n'
        "# see games/parsing.py, not games/kit/parsing.py nor games.kit.parsing nor games.parsing_extra\n"
        "import games.i18n as i18n\n"
    )
    done, _ = rewrite(source)
    assert 'patch("games.web.views.pages.render_fragment")' in done
    assert '"games.live.realtime.LocalChannelLayer"' in done
    assert "games/support/untrusted.py, not games/kit/parsing.py nor games.kit.parsing nor games.parsing_extra" in done
    assert "import games.support.i18n as i18n" in done


def test_a_renamed_module_reached_through_its_package_follows() -> None:
    source = "from games import services as match_services\n\nmatch_services.events.match_finished.receivers = []\n"
    done, _ = rewrite(source)
    assert "match_services.announcements.match_finished.receivers = []" in done


def test_a_relative_import_of_a_moved_module_is_written_absolute() -> None:
    done, _ = rewrite("from .parsing import loads\nfrom . import sql\n", ROOT / "games" / "never_seen.py")
    assert done == "from games.support.untrusted import loads\nfrom games.support import sql\n"


def test_a_rewritten_comment_past_the_line_limit_is_wrapped() -> None:
    comment = "# " + "word " * 12 + "see games.bots and games.realtime for the rest of it."
    assert len(comment) <= regroup_core.MAX_LINE
    done, _ = rewrite(comment + "\nx = 1\n")
    lines = done.splitlines()
    assert all(len(line) <= regroup_core.MAX_LINE for line in lines)
    assert lines[1].startswith("# ") and "games.live.realtime" in done


def test_the_game_apps_part_renames_their_modules_and_the_layout_lists() -> None:
    moves = regroup_core.table(["apps"])
    assert moves["games.dos.forms"] == "games.dos.action_forms" and moves["games.dos.view"] == "games.dos.seat_view"
    source = (
        "from games.dos.forms import parse_form\n"
        'SIDE = {"apps", "models", "forms", "present"}\n'
        '    ("forms", "parse_form", "parse_form", False),\n'
        'context = {"view": view}\n'
    )
    done = regroup_core.rewrite_text(source, FAKE, moves, [], apps=True)
    assert "from games.dos.action_forms import parse_form" in done
    assert '"action_forms", "present"}' in done and '    ("action_forms", "parse_form"' in done
    assert 'context = {"view": view}' in done


def test_the_table_moves_each_module_once() -> None:
    assert not set(regroup_core.CORE) & set(regroup_core.CORE.values())
    assert len(set(regroup_core.CORE.values())) == len(regroup_core.CORE)


@pytest.mark.parametrize("package", sorted(regroup_core.PACKAGES))
def test_every_new_package_is_a_layer_of_the_import_graph_test(package: str) -> None:
    from tests import test_import_graph

    assert any(package in prefixes for _name, prefixes in test_import_graph.LAYERS)
