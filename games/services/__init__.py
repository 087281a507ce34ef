"""The only code that changes a match. Every function runs in one transaction and announces after commit.

Checks run in a fixed order (who you are, the match is live, your page is current, you may act, the
move is allowed) and a rejection raises ``MatchError`` with a player-facing message and an
``ErrorCode``, writing nothing. The modules: ``matches`` (create, join, start, abort, rematch),
``moves`` (a person's or a computer's action), ``leaving`` (resign, deadlines, claims, substitutes),
``bot_turns`` (the bot runner's lease), ``takebacks`` (asking and answering, Reversi), ``challenges``,
``chat``, ``vacations``. What a player may do now (``games.services.predicates``) is asked by
the services and the pages alike; what waits for a person is read in ``games.read.queries``. Callers
write ``services.act(...)``.
"""

from games.services.bot_turns import BotTurn, claim_bot_turn, due_match_ids, release_bot_turn, retry_bot_turn_later
from games.services.chat import CHAT_BURST, CHAT_WINDOW, post_chat
from games.services.errors import ErrorCode, MatchError
from games.services.leaving import claim_win, reclaim_seat, resign, time_out, warn_deadline
from games.services.matches import abort, create_match, join_match, offer_rematch
from games.services.moves import Moved, act, bot_act, move
from games.services.vacations import end_vacation, start_vacation, vacation_days_left

__all__ = [
    "CHAT_BURST",
    "CHAT_WINDOW",
    "BotTurn",
    "ErrorCode",
    "MatchError",
    "Moved",
    "abort",
    "act",
    "bot_act",
    "claim_bot_turn",
    "claim_win",
    "create_match",
    "due_match_ids",
    "end_vacation",
    "join_match",
    "move",
    "offer_rematch",
    "post_chat",
    "reclaim_seat",
    "release_bot_turn",
    "resign",
    "retry_bot_turn_later",
    "start_vacation",
    "time_out",
    "vacation_days_left",
    "warn_deadline",
]
