"""Pure lifecycle predicates on a stored game: what may happen now, and who plays next.

Functions of the `Game` row alone (no queries, no clock reads unless `now` is passed), in the
spirit of Lichess's `abortable` / `resignable` on its stored game. Code that acts asks them first;
tests call them on unsaved `Game` objects without a database.
"""

from __future__ import annotations

from datetime import datetime

from caro.games.kinds import kind_of
from caro.games.models import Game, Seat, Side

#: A game ends as an abort (no winner, never rated) while fewer plies than this have been played:
#: not both players have made a move yet (docs/architecture.md, "Where time and endings live").
PLIES_BEFORE_BOTH_MOVED = 2


def is_active(game: Game) -> bool:
    return game.status == Game.Status.ACTIVE


def both_have_moved(game: Game) -> bool:
    return game.ply >= PLIES_BEFORE_BOTH_MOVED


def abortable(game: Game) -> bool:
    """An active game that would end as an abort rather than a loss: not both sides have moved."""
    return is_active(game) and not both_have_moved(game)


def resignable(game: Game) -> bool:
    """A player may resign (or, before both have moved, abort) any active game."""
    return is_active(game)


def deadline_passed(game: Game, now: datetime) -> bool:
    """The move clock of the player to move ran out at or before `now`."""
    return is_active(game) and game.deadline is not None and game.deadline <= now


def ending_on_time(game: Game) -> tuple[str, str]:
    """`(winner side, termination)` for a game whose clock ran out: the side to move loses, or an
    abort ("", "abort") while not both have moved."""
    if abortable(game):
        return "", Game.Termination.ABORT
    return Side.other(game.turn), Game.Termination.TIMEOUT


def ending_on_resign(game: Game, seat: str) -> tuple[str, str]:
    """`(winner side, termination)` when `seat` resigns: the other side wins, or an abort while not
    both have moved."""
    if abortable(game):
        return "", Game.Termination.ABORT
    return Side.other(game.side_of(seat)), Game.Termination.RESIGN


def loser_of(game: Game) -> str | None:
    """The seat that lost a finished game, or None for a draw, an abort or a game in progress."""
    if game.status != Game.Status.FINISHED or not game.winner:
        return None
    return game.seat_playing(Side.other(game.winner))


def first_seat_of_next(game: Game) -> str:
    """The seat that moves first in the next game between the same two seats: the loser of this
    one; after a draw or an abort, the seat that moved second this time (the first mover switches)."""
    return loser_of(game) or game.seat_playing(Side.O)


def bot_to_move(game: Game) -> bool:
    """The computer holds a seat and it is its turn in an active game."""
    return bool(game.bot_seat) and is_active(game) and game.turn == game.bot_side


def bot_may_move(game: Game, version: int) -> bool:
    """A computer move asked for at `event_version` `version` is still wanted: nothing happened since."""
    return bot_to_move(game) and game.event_version == version


def human_has_moved(game: Game) -> bool:
    """In a game against the computer: the person has a move on the board to take back.

    X always plays ply 1 and O ply 2 (Reversi's first reply is never a pass), so the ply count says it.
    """
    human_side = Side.other(game.bot_side)
    return game.ply >= (1 if human_side == Side.X else 2)


def may_undo(game: Game) -> bool:
    """The person may take back a move now: a game against the computer in progress, at a level
    whose kind allows it (caro: Easy and Medium; Reversi: every level), with a move of their own."""
    return (
        bool(game.bot_seat)
        and is_active(game)
        and kind_of(game).undo_allowed(game.bot_level)
        and human_has_moved(game)
    )


def open_seat(game: Game) -> str | None:
    """The seat (host first, then guest) that nobody, person or computer, holds yet, or None."""
    for seat in (Seat.HOST, Seat.GUEST):
        if game.player_id_in(seat) is None and game.bot_seat != seat:
            return seat
    return None


def both_seats_filled(game: Game) -> bool:
    return open_seat(game) is None
