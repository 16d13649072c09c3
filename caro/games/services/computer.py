"""The computer's side of a game: what it must think about, playing its move, and taking back."""

from __future__ import annotations

import uuid
from datetime import timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from caro.games import state
from caro.games.errors import GameError
from caro.games.models import Game, Side
from caro.games.services.locking import lock, player_action
from caro.games.services.offers import take_back_from
from caro.games.services.play import MoveResult, apply_move
from caro.games.snapshot import board_for

#: The computer has been to move this long without playing: its task was lost; ask again (s).
STALLED_BOT_TURN_S = 8.0
#: The most stalled games one sweep re-asks for.
STALLED_SWEEP_LIMIT = 500


def bot_turn(game_id: int, version: int):
    """What the computer must think about: `(board, level)`, or None when the request is stale.

    `version` is the game's `event_version` when the computer's turn began; any later event
    (a move, an undo, a resignation) makes the request stale. Reads without locking: the move is
    checked again under the lock by `apply_bot_move`.
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not state.bot_may_move(game, version) or state.opening_running(game):
        return None  # (opening steps: services.opening.bot_opening_turn)
    return board_for(game), game.bot_level


def apply_bot_move(game_id: int, version: int, square: str) -> MoveResult | None:
    """Play the computer's `square` if the game is still where it was at `version`.

    Returns the MoveResult, or None for a stale request (nothing changes). An illegal square
    raises `GameError` (a bot bug; nothing changes).
    """
    with transaction.atomic():
        game = lock(game_id)
        if not state.bot_may_move(game, version) or state.opening_running(game):
            return None
        return apply_move(game, game.bot_side, square, uuid.uuid4())


def stalled_bot_turns(older_than_s: float = STALLED_BOT_TURN_S) -> list[tuple[int, int]]:
    """`(game_id, event_version)` of active games where the computer has been to move for more
    than `older_than_s` seconds (its task was lost): the sweep asks again."""
    cutoff = timezone.now() - timedelta(seconds=older_than_s)
    games = (
        Game.objects.active().against_the_computer()
        .annotate(last_move_at=Max("moves__created_at"))
        .only("pk", "ply", "host_side", "to_move", "bot_seat", "status", "event_version", "started_at")
    )
    stalled = []
    for game in games[:STALLED_SWEEP_LIMIT]:
        if state.bot_to_move(game) and (game.last_move_at or game.started_at) <= cutoff:
            stalled.append((game.pk, game.event_version))
    return stalled


def undo(game_id: int, user) -> int:
    """Take back the player's last move and everything after it: the computer's reply (in Reversi,
    possibly several replies after a pass), or nothing while the computer is still thinking.
    Returns how many moves were removed.

    Raises `GameError` `not_a_player`, `not_started`, `game_over`, `timeout`, `undo_refused` (not
    a computer game, or a level without undo), `undo_opening` (no move of the player's after the
    opening procedure yet: its stones stay) or `undo_nothing` (no move of the player's yet); see
    `state.undo_refusal`.
    """

    def take_back(game: Game, seat: str) -> int:
        refusal = state.undo_refusal(game)
        if refusal is not None:
            raise GameError(refusal)
        return take_back_from(game, Side.other(game.bot_side))

    return player_action(game_id, user, take_back)
