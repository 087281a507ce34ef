"""What the services announce once a change is committed, as Django signals.

The services know no listener: the push to browsers (``games.realtime``) and the bot runner's wake-up
(``games.bots``) connect in ``games.signals``. So the services import neither, and neither's imports
lead back here in a circle.
"""

from __future__ import annotations

from functools import partial

from django.db import transaction
from django.dispatch import Signal

# A match changed: ``match`` and its ``seats`` as committed; ``moved``: an action was taken.
match_changed = Signal()
# A computer seat's move fell due.
bot_move_due = Signal()
# A line was added to a match's chat: ``match_id``.
chat_posted = Signal()
# Something a player's inbox or badge shows changed: ``user_id``.
user_changed = Signal()
# A match ended (finished, by play or forfeit), after the commit: ``match_id``. Apps built on matches
# (tournaments) listen; the core names none of them.
match_finished = Signal()
# The clock work ran at ``now`` (``games.clock.tick``, in every worker): scheduled work of apps built
# on matches rides on it. A receiver returns a dict of counts for the tick's report.
clock_ticked = Signal()


def on_commit(signal: Signal, **kwargs: object) -> None:
    """Send ``signal`` with ``kwargs`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(signal.send, sender=None, **kwargs))
