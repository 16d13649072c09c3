"""Games made from a list of moves: an imported record, and a game that continues a position.

Both replay the moves through the kind adapter (the engine validates every one) before anything is
written, so a refused record stores nothing.
"""

from __future__ import annotations

import uuid

from django.db import transaction
from django.utils import timezone

from caro.engine.errors import IllegalMove
from caro.games import outbox
from caro.games.display import printable
from caro.games.errors import GameError
from caro.games.kinds import KINDS, Played
from caro.games.models import FirstMover, Game, Move, Side
from caro.games.services.play import ENGINE_CODES
from caro.games.services.seating import create_game

#: Longest name kept from a record's header (GGF PB/PW).
NAME_LENGTH = 40
#: A thinking time read from a file is kept up to a day (ms): PSQ allows absurd numbers.
MAX_THINK_MS = 86_400_000


def _replay(kind_name: str, rules: dict, squares: list[str]) -> tuple[list[tuple[str, str]], Played | None, str]:
    """Play `squares` from the start: `([(side, square)], last Played, side to move)`.

    Raises GameError (the engine's refusal mapped by ENGINE_CODES) for an illegal move."""
    kind = KINDS[kind_name]
    board = kind.board(rules, [])
    played, last = [], None
    for square in squares:
        side = kind.turn(board)
        if last is not None and last.finished:
            raise GameError("game_over")
        try:
            last = kind.play(board, square, side)
        except IllegalMove as exc:
            raise GameError(ENGINE_CODES.get(exc.reason, "illegal")) from None
        played.append((side, last.square))
    return played, last, kind.turn(board)


def store_imported(kind: str, rules: dict, squares: list[str], times: list[int], *, fmt: str,
                   names: dict[str, str] | None = None) -> Game:
    """Store a record read from a file as a finished, unrated game with nobody seated.

    `rules` is a `Game.rules` dict, `squares` the moves (X first), `times` the thinking time of
    each move in ms (0 if unknown; kept within 0..MAX_THINK_MS), `fmt` the format slug it was
    read as, `names` the players' names by side from the file (control and format characters
    removed, cut to NAME_LENGTH). When the
    record ends the game (five, full board, disc count) the result is stored; a record that
    stops earlier has no winner and no termination. Raises GameError for an illegal move or a
    move after the end (nothing stored),
    ValueError when `times` does not have one entry per move.
    """
    if len(times) != len(squares):
        raise ValueError("one time per move")
    played, last, to_move = _replay(kind, rules, squares)
    names = {side: printable(str((names or {}).get(side, "")))[:NAME_LENGTH].strip() for side in (Side.X, Side.O)}
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind, rules=rules, status=Game.Status.FINISHED, ply=len(played), to_move=to_move,
            move_time_ms=0, rated=False, imported={"format": fmt, "names": names},
            winner=last.winner if last and last.finished else "",
            termination=last.termination if last and last.finished else "",
            win_line=list(last.line) if last and last.finished else [],
            finished_at=now,
        )
        Move.objects.bulk_create(
            Move(game=game, ply=ply, side=side, square=square, think_ms=min(MAX_THINK_MS, max(0, int(ms))))
            for ply, ((side, square), ms) in enumerate(zip(played, times), start=1)
        )
    return game


def create_from_position(*, kind: str, rules: dict, squares: list[str], host, host_side: str,
                         bot_seat: str = "", bot_level: str = "", guest=None, move_time_ms: int = 0) -> Game:
    """A new game that starts from the position after `squares` (X first), seats as in
    `create_game`; the side to move plays next (the computer at once if it is its turn).

    Call inside the caller's transaction when the game belongs to a room. Raises GameError
    `game_over` when the position is already over, or the engine's code for an illegal move.
    """
    played, last, to_move = _replay(kind, rules, squares)
    if last is not None and last.finished:
        raise GameError("game_over")
    with transaction.atomic():
        first = FirstMover.HOST if host_side == Side.X else FirstMover.GUEST
        game = create_game(kind=kind, rules=rules, host=host, guest=guest, first_mover=first,
                           bot_seat=bot_seat, bot_level=bot_level, move_time_ms=move_time_ms)
        Move.objects.bulk_create(
            Move(game=game, ply=ply, side=side, square=square, client_id=uuid.uuid4())
            for ply, (side, square) in enumerate(played, start=1)
        )
        game.ply = len(played)
        game.to_move = to_move
        game.event_version += 1  # any computer move asked for at creation is now stale
        game.save(update_fields=["ply", "to_move", "event_version"])
        outbox.publish(game, [])
    return game
