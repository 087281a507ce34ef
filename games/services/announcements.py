"""What the services announce once a change is committed, as Django signals.

The services know no listener: the push to browsers (``games.live.realtime``) and the bot runner's wake-up
(``games.background.bots``) connect in ``games.signals``. So the services import neither, and neither's imports
lead back here in a circle.
"""

from __future__ import annotations

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
# The clock work ran at ``now`` (``games.background.clock.tick``, in every worker): scheduled work of apps built
# on matches rides on it. A receiver returns a dict of counts for the tick's report.
clock_ticked = Signal()


class Announcement:
    """What the receivers of one signal sent after a commit returned, once it has been sent.

    ``replies`` stays empty until the commit, and for good when the transaction that commits is an outer
    one the caller does not end (a test's, a batch's): a caller that wants a reply must then do without.
    """

    __slots__ = ("replies", "sent")

    def __init__(self) -> None:
        self.replies: list[object] = []
        self.sent = False

    def send(self, signal: Signal, kwargs: dict[str, object]) -> None:
        self.replies = [reply for _receiver, reply in signal.send(sender=None, **kwargs)]
        self.sent = True


def on_commit(signal: Signal, **kwargs: object) -> Announcement:
    """Send ``signal`` with ``kwargs`` once the current transaction commits (at once outside one).

    The returned :class:`Announcement` holds the receivers' replies once sent, so that a service can
    hand its caller what a receiver made of the change (the mover's render) as a return value.
    """
    announcement = Announcement()
    transaction.on_commit(lambda: announcement.send(signal, kwargs))
    return announcement
