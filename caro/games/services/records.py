"""Games made from a list of moves: an imported record, and a game played on the player's device.

Both replay the moves through the engine (the kind adapter, or `caro.games.uploads`) before anything
is written, so a refused record stores nothing.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from caro.engine.errors import IllegalMove
from caro.games.display import printable
from caro.games.errors import GameError
from caro.games.kinds import KINDS, Played
from caro.games.models import FirstMover, Game, Move, Side
from caro.games.services.play import ENGINE_CODES
from caro.games.services.locking import refuse_banned
from caro.games.uploads import DeviceGame, UploadError, same_game

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


def find_played(record: DeviceGame) -> Game | None:
    """The game stored before under `record`'s id, or None (one query)."""
    return Game.objects.filter(upload_id=record.id).first()


def answer_repeat(game: Game, record: DeviceGame, user) -> Game:
    """`game`, stored before under `record`'s id, when `record` is that game sent again: by its
    owner, by a visitor with no user (`user` None; the record page is public either way), or by
    another user while the owner is a GUEST: the record's id is a random secret of the browser
    that played it, so whoever sends it again with the same moves is that browser, which lost the
    guest an earlier answer made (its session cookie never arrived: a page left mid-upload). Then
    `user` takes the game over, so it is in their "My games". Raises UploadError `id_taken` when the
    record is not the stored game, or when it belongs to an account and another user sends it."""
    squares = list(game.moves.order_by("ply").values_list("square", flat=True))
    if not same_game(game, record, squares):
        raise UploadError("id_taken")
    if user is not None and game.host_id != user.pk:
        owner = game.host
        if owner is None or not owner.is_guest:
            raise UploadError("id_taken")
        game.host = user
        if game.guest_id == owner.pk:  # one device: both seats were the lost guest's
            game.guest = user
        game.save(update_fields=["host", "guest"])
    return game


def store_played(record: DeviceGame, user) -> tuple[Game, bool]:
    """Store a game played on `user`'s own device (`caro.games.uploads.read` checked it) as a
    finished, never-rated game owned by `user`: against the computer, `user` hosts and the computer
    holds the guest seat at `record.level`; on one device `user` holds both seats. Returns `(game,
    created)`: exactly once per record id (`Game.upload_id` is unique), so the same record sent
    again, even at the same moment from two connections, is answered with the game stored first
    (`created` False; a guest's game sent again by the same browser under a new user moves to that
    user, `answer_repeat`). Raises GameError
    `banned` (a ban in force on `user`; nothing stored), UploadError `id_taken` (another user's
    record id, or another game under this id)."""
    refuse_banned(user)
    found = find_played(record)
    if found is not None:
        return answer_repeat(found, record, user), False
    host_side = record.host_side
    try:
        with transaction.atomic():
            game = Game.objects.create(
                kind=record.kind, rules=record.rules, host=user, guest=user if record.mode == "local" else None,
                host_side=host_side, host_mark=host_side,
                first_mover=FirstMover.HOST if host_side == Side.X else FirstMover.GUEST,
                bot_seat=record.bot_seat, bot_level=record.level, status=Game.Status.FINISHED,
                ply=len(record.plies), to_move=record.to_move, move_time_ms=0, rated=False,
                opening=record.opening, winner=record.winner, termination=record.termination,
                win_line=record.line, started_at=record.started_at, finished_at=record.finished_at,
                upload_id=record.id, start_moves=record.start_moves,
            )
            Move.objects.bulk_create(
                Move(game=game, ply=ply, side=side, square=square)
                for ply, (side, square) in enumerate(record.plies, start=1)
            )
    except IntegrityError:
        found = find_played(record)  # the same id stored meanwhile by another request: it waited for that one
        if found is None:
            raise
        return answer_repeat(found, record, user), False
    return game, True
