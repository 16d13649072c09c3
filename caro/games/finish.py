"""The one way a game ends (in the spirit of Lichess's Finisher): every ending, whatever its cause,
is one call of `finish`.

It marks the locked game over, saves it, announces it with `signals.game_ended` inside the same
transaction (so a receiver's writes, e.g. a rating change, commit or roll back with the result),
and publishes the `game_over` event after commit.
"""

from __future__ import annotations

from django.utils import timezone

from caro.games import outbox, signals
from caro.games.models import Game


def finish(game: Game, *, winner: str, termination: str, line=(), before: list[dict] = (),
           left: str = "") -> dict:
    """End `game` (locked with SELECT ... FOR UPDATE by the caller, inside its transaction).

    `winner` is the winning side ("X"/"O") or "" for a draw or an abort; `termination` a
    `Game.Termination` value (ABORT, ABANDONED and MODERATOR make the game ABORTED, anything else FINISHED); `line` the
    squares of a winning run. `before` are events of the same change to publish first (the move
    that ended the game). `left` is the seat that left the table (termination "left"). Saves the row, sends `game_ended`, queues the events for after commit,
    and returns the `game_over` event. Raises ValueError when the game is already over.
    """
    if game.is_over:
        raise ValueError(f"game {game.pk} is already over")
    aborted = termination in (Game.Termination.ABORT, Game.Termination.ABANDONED, Game.Termination.MODERATOR)
    game.status = Game.Status.ABORTED if aborted else Game.Status.FINISHED
    game.winner = winner
    game.termination = termination
    game.win_line = list(line or [])
    game.deadline = None
    game.absence_deadline = None
    game.draw_offer = game.undo_request = ""
    game.left_seat = left
    game.finished_at = timezone.now()
    game.event_version += 1
    event = {
        "type": "game_over",
        "version": game.event_version,
        "status": game.status,
        "winner": winner or None,
        "termination": termination,
        "line": list(game.win_line),
        "left": game.side_of(left) if left else None,
        "absent": game.side_of(game.absent_seat) if game.absent_seat else None,
    }
    game.save()
    signals.game_ended.send(sender=Game, game=game)
    outbox.publish(game, [*before, event])
    return event
