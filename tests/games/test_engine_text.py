"""Engine sentences carry a message id and parameters, translated where they are shown."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine import IllegalAction, Text, gettext_noop
from games.support.i18n import localize


def test_illegal_action_keeps_english_message_and_the_text() -> None:
    exc = IllegalAction(gettext_noop("You do not hold %(card)s."), {"card": "R7"})
    assert exc.message == "You do not hold R7."
    assert str(exc) == "You do not hold R7."
    assert exc.text == Text("You do not hold %(card)s.", {"card": "R7"})


def test_a_plain_message_still_works() -> None:
    exc = IllegalAction("It is over.")
    assert exc.message == "It is over."
    assert localize(exc.text) == "It is over."


def test_nested_texts_are_localized_too() -> None:
    inner = Text("%(count)s cards", {"count": 3})
    outer = Text("You must play %(what)s.", {"what": inner})
    assert str(outer) == "You must play 3 cards."
    assert localize(outer) == "You must play 3 cards."


@pytest.mark.parametrize("language", ["en", "as", "ne"])
def test_localize_goes_through_gettext(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    def fake_gettext(message: str) -> str:
        seen.append(message)
        return "<" + message + ">"

    monkeypatch.setattr("games.support.i18n.gettext", fake_gettext)
    with translation.override(language):
        assert localize(Text("Hello %(name)s.", {"name": "Ann"})) == "<Hello Ann.>"
    assert seen == ["Hello %(name)s."]
