"""What clients see of a game: the full `state` frame and the fields of a `move` event
(docs/protocol.md). Spectators and players receive the same dicts; the consumer adds `you`.

Sides key everything here ("X"/"O"): the protocol speaks of the stones on the board, whoever holds
which seat.
"""

from __future__ import annotations

from django.utils import timezone

from caro.games import clock, signals, state
from caro.games.kinds import Played, kind_of
from caro.games.models import Game, Move, Side
from caro.games.openings import view as opening_view


def board_for(game: Game, moves: list[Move] | None = None):
    """Rebuild the engine board of `game` from its stored moves (ordered by ply).

    Shape: a `caro.engine.caro.Board` or `caro.engine.reversi.Board` (by `game.kind`). Raises
    nothing for stored games: every stored move was validated by the engine when it was played.
    """
    squares = [m.square for m in (moves if moves is not None else game.moves.order_by("ply"))]
    return kind_of(game).board(game.rules, squares)


#: Separates the ply from the board in `Game.position` ("12|X....").
POSITION_SEPARATOR = "|"


def board_now(game: Game):
    """The engine board of `game` as it stands, to play its next move on, without reading the
    moves when it can: the position stored at the game's current ply (`Game.position`, written by
    `keep_position` with every move and opening step), the start position at ply 0 (no query), and
    otherwise (a game stored before the field, a take-back, a game continued from a position) the
    board rebuilt from the stored moves (`board_for`, one query).

    Shape as `board_for`, except that a board read from the stored position has `moves` empty
    (its `ply` counts only moves played on it): fit for playing and for the move event, not for
    the computer's search or a record. Raises nothing for stored games."""
    kind = kind_of(game)
    if game.ply == 0:  # `ply` counts the stored moves: none yet
        return kind.board(game.rules, [])
    ply, _sep, text = (game.position or "").partition(POSITION_SEPARATOR)
    if text and ply == str(game.ply):
        try:
            return kind.board_at(game.rules, text)
        except ValueError:  # not readable (e.g. the rules changed shape): rebuild below
            pass
    return board_for(game)


def position_stored(game: Game) -> bool:
    """Whether `board_now` reads `game`'s board without a query: at ply 0, or with the position
    stored at the game's current ply."""
    ply, _sep, text = (game.position or "").partition(POSITION_SEPARATOR)
    return game.ply == 0 or (bool(text) and ply == str(game.ply))


def keep_position(game: Game, board) -> None:
    """Store `board` (the position after `game.ply` moves) as `Game.position` on the in-memory
    `game`; the caller's save writes it with the move."""
    game.position = f"{game.ply}{POSITION_SEPARATOR}{kind_of(game).position(board)}"


def board_size(game: Game) -> int:
    """Squares per side: 8 for Reversi, the rule set's size for caro."""
    return kind_of(game).size(game.rules)


def remaining_ms(game: Game, now=None) -> int | None:
    """Milliseconds left on the clock of the player to move, or None without a running clock."""
    if game.is_over:
        return None
    return clock.remaining_ms(game.deadline, now or timezone.now())


def deadline_ms(game: Game) -> int | None:
    """The deadline of the player to move as Unix time in ms, or None without a running clock."""
    return None if game.is_over else clock.unix_ms(game.deadline)


def public_state(game: Game) -> dict:
    """The full public state of a game, as sent in a `state` frame (docs/protocol.md)."""
    # only the moves `game` counts: one committed after the row was read belongs to a later
    # version, and comes to the page as its own `move` event (else it would be shown twice)
    moves = list(game.moves.filter(ply__lte=game.ply).order_by("ply"))
    kind = kind_of(game)
    board = board_for(game, moves)
    active = state.is_active(game)
    now = timezone.now()
    return {
        "game_id": game.pk,
        "kind": game.kind,
        "version": game.event_version,
        "status": game.status,
        "rules": game.rules,
        "size": board_size(game),
        "moves": [[m.square, m.side] for m in moves],
        "stones": kind.stones(board),
        "legal": kind.legal_hints(board) if active else [],
        "legal_flips": kind.legal_flips(board) if active else {},
        "ply": game.ply,
        "turn": game.turn if active else None,
        "players": {side: seat_info(game, game.seat_playing(side)) for side in (Side.X, Side.O)},
        "bot": {"side": game.bot_side, "level": game.bot_level} if game.bot_seat else None,
        "local": game.is_local,
        "move_time_ms": game.move_time_ms,
        "bank_ms": game.bank_ms,
        "increment_ms": game.increment_ms,
        "banks": clock.banks_now(game, now),
        "remaining_ms": remaining_ms(game, now),
        "deadline_ms": deadline_ms(game),
        "marks": {side: game.mark_of(side) for side in (Side.X, Side.O)},
        "throws": [{game.side_of("host"): host, game.side_of("guest"): guest} for host, guest in game.throws],
        "presence": presence(game),
        "absence": absence(game),
        "draw_offer": _side_or_none(game, game.draw_offer),
        "draw_again": draw_again(game),
        "undo_request": _side_or_none(game, game.undo_request),
        "rematch_offer": _side_or_none(game, game.rematch_offer),
        "winner": game.winner or None,
        "termination": game.termination or None,
        "left": _side_or_none(game, game.left_seat),
        "line": list(game.win_line or []),
        "fouls": kind.fouls(board) if active else {},
        "crowd": spectators(game),
        "opening": opening_view(game),
        # Fields other apps add: to a game that is over, the rating changes (signals.game_over_fields);
        # to a rated game in play, what each result would change (signals.game_state_fields).
        **(signals.over_fields(game) if game.is_over else signals.state_fields(game)),
    }


def draw_again(game: Game) -> dict[str, int | None]:
    """`{"X": ply, "O": ply}`: the ply from which each side may offer a draw again, its last offer's
    ply + `state.DRAW_OFFER_EVERY_PLIES` (None: it never offered one), so the page can say why
    "Offer a draw" is gone after an offer was declined or lapsed, and until when."""
    return {game.side_of(seat): _again_ply(game.seat_field("draw_ply", seat)) for seat in ("host", "guest")}


def _again_ply(last: int | None) -> int | None:
    return None if last is None else last + state.DRAW_OFFER_EVERY_PLIES


def state_for(game: Game, user) -> dict:
    """`public_state` with what is the receiver's own: `you` (their side, None for a spectator) and
    `choices` (the actions they may take now, `state.choices_for`)."""
    you = game.side_of_user(user)
    seat = game.seat_of(user)
    return public_state(game) | {"you": you, "choices": state.choices_for(game, seat)}


def with_choices(game: Game, event: dict) -> dict:
    """`event` with `choices` per side (`{"X": [...], "O": [...]}`): the consumer passes each socket
    only its own side's list, so one event serves every receiver."""
    both = state.choices_of_both(game)
    return event | {"choices": {side: both[game.seat_playing(side)] for side in (Side.X, Side.O)}}


def presence(game: Game) -> dict[str, bool] | None:
    """Whether each side's player has a page open, for games between two people (else None)."""
    if not state.between_people(game):
        return None
    seats = set(game.connections.exclude(seat="").values_list("seat", flat=True).distinct())
    return {game.side_of(seat): seat in seats for seat in ("host", "guest")}


def absence(game: Game) -> dict | None:
    """The absent player's side, when their grace period ends (Unix ms), how long a grace period is
    (`grace_ms`, so a browser whose clock is a little off never shows more than that), whether it
    ran out, and whether the opponent already waited once more; None when nobody is away."""
    if not game.absent_seat or game.is_over:
        return None
    return {
        "side": game.side_of(game.absent_seat),
        "deadline_ms": clock.unix_ms(game.absence_deadline),
        "grace_ms": state.ABSENCE_GRACE_S * 1000,
        "expired": game.absence_expired,
        "waited": game.absence_waited,
    }


def spectators(game: Game) -> int:
    """How many spectators' sockets watch the game now."""
    return game.connections.filter(seat="").count()


def _side_or_none(game: Game, seat: str) -> str | None:
    return game.side_of(seat) if seat else None


def move_event(game: Game, move: Move, played: Played, board, now) -> dict:
    """The `move` event of `move` (already applied to `game` and `board`). A move that did not end
    the game also carries the new turn, clock, legal squares and kind-specific hints."""
    event = {
        "type": "move",
        "version": game.event_version,
        "ply": move.ply,
        "side": move.side,
        "square": played.square,
        "id": str(move.client_id),
        **played.extra,
    }
    if not played.finished:
        event["turn"] = game.turn
        event["remaining_ms"] = remaining_ms(game, now)
        event["deadline_ms"] = deadline_ms(game)
        event["banks"] = clock.banks_now(game, now)
        event["draw_offer"] = _side_or_none(game, game.draw_offer)
        event["undo_request"] = _side_or_none(game, game.undo_request)
        event["legal"] = kind_of(game).legal_hints(board)
        event.update(kind_of(game).after_move(board, played.square))
        event = with_choices(game, event)
    return event


def seat_info(game: Game, seat: str) -> dict | None:
    """Who holds `seat`: `{"name", "guest"}` for a person, `{"name": None, "guest": False, "bot":
    level}` for the computer, None for an open seat."""
    if game.bot_seat == seat:
        return {"name": None, "guest": False, "bot": game.bot_level}
    return player_info(game.player_in(seat))


def player_info(user) -> dict | None:
    if user is None:
        return None
    return {"name": user.public_name, "guest": user.is_guest}
