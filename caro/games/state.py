"""Pure lifecycle predicates on a stored game: what may happen now, and who plays next.

Functions of the `Game` row alone (no queries, no clock reads unless `now` is passed), in the
spirit of Lichess's `abortable` / `resignable` on its stored game. Code that acts asks them first;
tests call them on unsaved `Game` objects without a database.
"""

from __future__ import annotations

from datetime import datetime

from caro.games.kinds import kind_of
from caro.games.models import AbsenceRule, Game, Seat, Side, Takeback

#: A game ends as an abort (no winner, never rated) while fewer plies than this have been played:
#: not both players have made a move yet (docs/architecture.md, "Where time and endings live").
PLIES_BEFORE_BOTH_MOVED = 2
#: After offering a draw, a player may offer again only this many plies later.
DRAW_OFFER_EVERY_PLIES = 20
#: After a take-back request is refused, that player may ask again only this many plies later
#: (shared/reference/caro-rules-5phut.txt §5: taking back only with the opponent's agreement).
UNDO_AFTER_REFUSAL_PLIES = 10
#: A player whose last connection closed has this long to come back (s); then the absence rule of
#: the game applies (shared/reference/caro-rules-cocaro.txt, "Thua vì hết giờ, rời bàn hoặc chịu thua").
ABSENCE_GRACE_S = 60


def is_active(game: Game) -> bool:
    return game.status == Game.Status.ACTIVE


def opening_running(game: Game) -> bool:
    """The game has an opening procedure (RIF, Swap2) that is not over yet: its steps, not
    ordinary moves, come next (caro.games.services.opening)."""
    return bool(game.opening) and "plies" not in game.opening


def opening_plies(game: Game) -> int:
    """The stones the opening procedure placed (0 without one, or while it runs: none is final)."""
    return game.opening.get("plies", 0) if game.opening else 0


def both_have_moved(game: Game) -> bool:
    """Both seats have acted. With an opening procedure, a step of each seat counts (the first
    seat places several stones before the second acts: RIF §4, Swap2); otherwise a move of each."""
    if game.opening:
        return len({entry.get("seat") for entry in game.opening.get("log", [])}) >= 2
    return game.ply >= PLIES_BEFORE_BOTH_MOVED


def has_move_after_opening(game: Game, side: str) -> bool:
    """`side` has a stone played as an ordinary move (after the opening, if the game has one):
    X plays the first ordinary ply after a free opening; after RIF or Swap2 the side to move at
    its end does. Opening stones are never taken back."""
    if opening_running(game):
        return False
    base = opening_plies(game)
    first_after = Side.X if base % 2 == 0 else Side.O
    return game.ply >= base + (1 if side == first_after else 2)


def abortable(game: Game) -> bool:
    """An active game that would end as an abort rather than a loss: not both sides have moved."""
    return is_active(game) and not both_have_moved(game)


def annullable(game: Game) -> bool:
    """A moderator may annul the game: finished, rated and not annulled yet (its rating changes
    are then reverted: `caro.games.services.moderation.annul`)."""
    return game.status == Game.Status.FINISHED and game.rated and not game.annulled


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


def ending_on_leave(game: Game, seat: str) -> tuple[str, str]:
    """`(winner side, termination)` when `seat` leaves the table: the other side wins ("left"), or
    an abort while not both have moved (caro-rules-cocaro.txt: leaving the table loses)."""
    if abortable(game):
        return "", Game.Termination.ABORT
    return Side.other(game.side_of(seat)), Game.Termination.LEFT


def loser_of(game: Game) -> str | None:
    """The seat that lost a finished game, or None for a draw, an abort or a game in progress."""
    if game.status != Game.Status.FINISHED or not game.winner:
        return None
    return game.seat_playing(Side.other(game.winner))


def first_seat_of_next(game: Game) -> str:
    """The seat that moves first in the next game between the same two seats.

    Caro: the loser of this one; after a draw or an abort, the seat that moved second this time
    (caro-rules-cocaro.txt, "Ai đi trước"). Reversi: the colours swap at every rematch
    (reversi-rules-ttakji.txt). The kind says which (`kinds.*.next_first_mover`).
    """
    second = game.seat_playing(Side.O)
    if kind_of(game).next_first_mover == "alternate":
        return second
    return loser_of(game) or second


def open_seat(game: Game) -> str | None:
    """The seat (host first, then guest) that nobody, person or computer, holds yet, or None."""
    for seat in (Seat.HOST, Seat.GUEST):
        if game.player_id_in(seat) is None and game.bot_seat != seat:
            return seat
    return None


def both_seats_filled(game: Game) -> bool:
    return open_seat(game) is None


def between_people(game: Game) -> bool:
    """Two different people hold the seats (no computer, not one device): offers and presence apply."""
    return not game.bot_seat and game.host_id is not None and game.guest_id is not None and not game.is_local


def may_offer_draw(game: Game, seat: str) -> bool:
    """`seat` may offer a draw: a game between people in progress, no offer of its own pending, and
    DRAW_OFFER_EVERY_PLIES plies since its last offer."""
    if not (is_active(game) and between_people(game)) or game.draw_offer == seat or game.absent_seat:
        return False  # (nobody to offer it to while the opponent is away)
    last = game.seat_field("draw_ply", seat)
    return last is None or game.ply - last >= DRAW_OFFER_EVERY_PLIES


def may_answer_draw(game: Game, seat: str) -> bool:
    """The opponent of `seat` has a draw offer pending."""
    return is_active(game) and game.draw_offer == Seat.other(seat)


def own_moves(game: Game, seat: str) -> bool:
    """`seat` has a stone of its own on the board that may be taken back (X plays ply 1, O ply 2;
    after an opening procedure only ordinary moves count)."""
    return has_move_after_opening(game, game.side_of(seat))


def may_request_undo(game: Game, seat: str) -> bool:
    """`seat` may ask to take back its last move: the game allows it by agreement, no request is
    pending, it has a move to take back, and UNDO_AFTER_REFUSAL_PLIES since its last refusal."""
    if game.takeback != Takeback.AGREEMENT or not (is_active(game) and between_people(game)):
        return False
    if game.undo_request or not own_moves(game, seat):
        return False
    refused = game.seat_field("undo_refused_ply", seat)
    return refused is None or game.ply - refused >= UNDO_AFTER_REFUSAL_PLIES


def may_answer_undo(game: Game, seat: str) -> bool:
    return is_active(game) and game.undo_request == Seat.other(seat)


def absence_ended(game: Game, now: datetime) -> bool:
    """The absent player's grace period has run out and nothing was decided yet."""
    return is_active(game) and bool(game.absent_seat) and not game.absence_expired and (
        game.absence_deadline is not None and game.absence_deadline <= now
    )


def ending_on_absence(game: Game) -> tuple[str, str] | None:
    """`(winner side, termination)` when the absence ran out, or None when the opponent chooses.

    An abort while not both have moved; under the forfeit rule (quick and ranked games) the absent
    player loses; in friend rooms (AbsenceRule.OPPONENT_CHOOSES) the opponent decides."""
    if abortable(game):
        return "", Game.Termination.ABORT
    if game.absence_rule == AbsenceRule.FORFEIT:
        return Side.other(game.side_of(game.absent_seat)), Game.Termination.ABSENCE
    return None


def may_decide_absence(game: Game, seat: str) -> bool:
    """`seat` may claim the win or call a draw: its opponent's grace period ran out."""
    return is_active(game) and game.absence_expired and game.absent_seat == Seat.other(seat)


def may_wait_longer(game: Game, seat: str) -> bool:
    """`seat` may give its absent opponent one more grace period (once per game)."""
    return may_decide_absence(game, seat) and not game.absence_waited


def choices_for(game: Game, seat: str | None) -> list[str]:
    """The actions the holder of `seat` may take now (none for a spectator), as protocol names."""
    if seat is None or not is_active(game):
        return []
    return _choices(game, seat, between_people(game))


def choices_of_both(game: Game) -> dict[str, list[str]]:
    """`{"host": choices_for(game, "host"), "guest": choices_for(game, "guest")}`, reading what
    the two share (the game is active, between people) once: this runs for every move event."""
    if not is_active(game):
        return {Seat.HOST: [], Seat.GUEST: []}
    people = between_people(game)
    return {Seat.HOST: _choices(game, Seat.HOST, people), Seat.GUEST: _choices(game, Seat.GUEST, people)}


def _choices(game: Game, seat: str, people: bool) -> list[str]:
    """`choices_for` of an active game, `people` being `between_people(game)`: each predicate
    once, in the protocol's order: resign, leave, offer_draw, accept_draw, decline_draw,
    request_undo, accept_undo, decline_undo, wait, claim_win, claim_draw (the predicates below,
    with what they share of an active game between people read once)."""
    choices = ["resign"]  # resignable: any active game
    if people:
        choices.append("leave")
    answer_draw = game.draw_offer == Seat.other(seat)  # may_answer_draw
    if answer_draw:
        choices += ("accept_draw", "decline_draw")
    elif people and game.draw_offer != seat and not game.absent_seat:  # may_offer_draw
        last = game.seat_field("draw_ply", seat)
        if last is None or game.ply - last >= DRAW_OFFER_EVERY_PLIES:
            choices.append("offer_draw")
    if people and may_request_undo(game, seat):
        choices.append("request_undo")
    if game.undo_request == Seat.other(seat):  # may_answer_undo
        choices += ("accept_undo", "decline_undo")
    if game.absence_expired and game.absent_seat == Seat.other(seat):  # may_decide_absence
        choices += ("wait", "claim_win", "claim_draw") if not game.absence_waited else ("claim_win", "claim_draw")
    return choices
