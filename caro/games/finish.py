"""The one way a game ends (in the spirit of Lichess's Finisher): every ending, whatever its cause,
is one call of `finish` (or of `finish_many`, the same for a batch of games that ran out of time
at once).

It marks the locked game over, saves it, announces it with `signals.game_ended` inside the same
transaction (so a receiver's writes, e.g. a rating change, commit or roll back with the result),
and publishes the `game_over` event after commit.
"""

from __future__ import annotations

from django.db.models import F
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
    event = _conclude(game, winner, termination, line, left)
    game.save()
    signals.game_ended.send(sender=Game, game=game)
    event.update(signals.over_fields(game))
    outbox.publish(game, [*before, event])
    return event


def finish_many(endings: list[tuple[Game, str, str]]) -> list[dict]:
    """End several games at once, each exactly as `finish(game, winner=..., termination=...)`
    would (no line, nothing left, no earlier events), with one UPDATE per distinct result (at
    most three for timeouts: X won, O won, aborted) instead of one per game.

    `endings` are `(game, winner, termination)` of games locked by the caller's transaction and
    not changed since they were read (only the columns an ending changes are written; the event
    version is incremented in the database as in memory). Sends `game_ended` for each, queues each
    game's `game_over` for after commit, returns the events in order. Raises ValueError when a
    game is already over (then nothing is written)."""
    now = timezone.now()
    events = [_conclude(game, winner, termination, (), "", now) for game, winner, termination in endings]
    groups: dict[tuple[str, str, str], list[int]] = {}
    for game, _winner, _termination in endings:
        groups.setdefault((game.status, game.winner, game.termination), []).append(game.pk)
    for (status, winner, termination), ids in groups.items():
        Game.objects.filter(pk__in=ids).update(
            status=status, winner=winner, termination=termination, win_line=[], deadline=None,
            absence_deadline=None, draw_offer="", undo_request="", left_seat="", finished_at=now,
            event_version=F("event_version") + 1,
        )
    for (game, _w, _t), event in zip(endings, events):
        signals.game_ended.send(sender=Game, game=game)
        event.update(signals.over_fields(game))
        outbox.publish(game, [event])
    return events


def _conclude(game: Game, winner: str, termination: str, line, left: str, now=None) -> dict:
    """Mark `game` over in memory and return its `game_over` event (see `finish`)."""
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
    game.finished_at = now or timezone.now()
    game.event_version += 1
    return {
        "type": "game_over",
        "version": game.event_version,
        "status": game.status,
        "winner": winner or None,
        "termination": termination,
        "line": list(game.win_line),
        "left": game.side_of(left) if left else None,
        "absent": game.side_of(game.absent_seat) if game.absent_seat else None,
    }
