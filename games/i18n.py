"""Engine sentences (``engine.Text``) in the viewer's language.

Engines stay free of Django, so they hand over an English message id and its parameters; the
translation happens here, where a page, a refusal or a push is rendered, under the language active
for that viewer.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.engine import Text


def localize(text: Text | str) -> str:
    """``text`` translated into the active language, its parameters filled in (and translated too)."""
    if isinstance(text, str):
        return gettext(text) if text else text
    params = {key: _param(value) for key, value in text.params.items()}
    message = gettext(text.message)
    return message % params if params else message


def _param(value: Any) -> Any:
    if isinstance(value, Text):
        return localize(value)
    return value
