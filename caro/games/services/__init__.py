"""The game service: the ONLY code that changes a game (docs/architecture.md, "A move, end to end").

Every state change runs in one database transaction that locks the game row
(`SELECT ... FOR UPDATE`), re-checks the deadline, validates the action with the pure engine and
the lifecycle predicates (`caro.games.state`), writes the new state and bumps
`Game.event_version`. Endings go through `caro.games.finish.finish`; events and tasks leave only
after commit (`caro.games.outbox`). Errors are `GameError` with a machine code and a translated
message. Times are in milliseconds unless a name says otherwise.

Entry points, by job: `seating` (create a game, take a seat, who moves first), `play` (moves,
resigning, leaving the table), `time` (enforcing move deadlines), `opening` (the steps of the RIF and Swap2 opening procedures), `offers` (draws, take-backs by agreement, rematch and its refusal), `presence` (sockets, absence and its
grace period).
"""

from caro.games.services.opening import step as opening_step
from caro.games.services.offers import (
    answer_draw, answer_undo, create_rematch, decline_rematch, offer_draw, request_undo,
)
from caro.games.services.play import MoveResult, leave, play_move, play_move_on_loop, resign
from caro.games.services.presence import decide_absence
from caro.games.services.seating import create_game, take_seat
from caro.games.services.time import enforce_deadline, expired_game_ids

__all__ = [
    "MoveResult", "answer_draw", "opening_step", "answer_undo", "create_game", "create_rematch", "decide_absence",
    "decline_rematch", "enforce_deadline", "expired_game_ids", "leave", "offer_draw", "play_move",
    "play_move_on_loop", "request_undo", "resign", "take_seat",
]
