"""Back Alley's HTML forms: a bid or a card posted as plain form fields.

The board's forms post ``type=bid`` with ``bid=pass|board|<number>``, or ``type=play`` with
``card=<code>``: readable without JavaScript, and no JSON inside HTML attributes. A form field is
always a string, so a bid made of digits becomes the JSON int the engine expects ("3" -> 3). A JSON
``action`` field (scripts, the API's form fallback) is passed through as is.
"""

from __future__ import annotations

import re

from django.http import QueryDict

from games import registry
from games.engine import Action

_NUMBER = re.compile(r"[0-9]{1,2}")


def parse_form(data: QueryDict) -> Action:
    action = registry.parse_form(data)
    if "action" in data:
        return action
    bid = action.get("bid")
    if action.get("type") == "bid" and isinstance(bid, str) and _NUMBER.fullmatch(bid):
        action["bid"] = int(bid)
    return action
