"""Opening steps (RIF, Swap2): placing the opening stones, swapping, choosing a colour, offering
and selecting the 5th move (docs/protocol.md, frame `opening`).

Every step goes through the engine's machine (`caro.games.openings.machine_for`), which refuses
a bad step with a reason; the step is then stored: the stones it placed as `Move` rows, the step
itself in `Game.opening["log"]`, the colours in `host_side`, and the seat that acts next as the
side to move (`Game.to_move` is the side the acting seat holds, so clocks and one-device play
follow the acting person). When the opening ends, the side to move is the
board's. A refused step changes nothing.
"""

from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction
from django.utils import timezone

from caro.engine.errors import IllegalMove
from caro.engine.openings import Step
from caro.games import clock, outbox, state
from caro.games.errors import GameError
from caro.games.models import Game, Move, Side
from caro.games.openings import actor_seat, host_side_of, machine_for, machine_seat, new_opening
from caro.games.services.locking import player_action
from caro.games.snapshot import keep_position

#: Engine reason codes of a refused opening step, mapped to the service's error codes.
OPENING_CODES = {
    "wrong_turn": "not_your_turn",
    "occupied": "occupied",
    "out_of_board": "out_of_board",
    "bad_square": "bad_square",
    "foul": "foul",
    "opening_step": "opening_step",
    "opening_over": "opening_over",
    "not_central": "not_in_area",
    "offer_count": "offer_count",
    "equivalent_fifth": "equivalent_fifth",
    "not_offered": "not_offered",
    "bad_color": "bad_color",
}
#: The action kinds a client may send in an `opening` frame.
ACTION_KINDS = ("place", "swap", "keep", "choose", "offer", "select")


def begin(game: Game) -> None:
    """The game starts (both seats filled, colours tentative): the seat playing X is the machine's
    "first" seat. Nothing to do without an opening procedure."""
    if game.opening:
        game.opening = {**new_opening(game.opening["kind"]), "first": game.seat_playing(Side.X)}


def step(game_id: int, user, action: dict, client_id: uuid.UUID | None = None) -> dict:
    """Apply one opening step for `user`: `action` is an engine action dict (`{"kind": "swap"}`,
    `{"kind": "offer", "squares": ["J9", "G9"]}`, ...; caro.engine.openings). Returns the event.

    Raises `GameError` `not_a_player`, `not_started`, `game_over`, `timeout`, `opening_over` (no
    procedure, or it has ended), `not_your_turn`, `opening_step` (not this step), `not_in_area`,
    `offer_count`, `equivalent_fifth`, `not_offered`, `bad_color`, `occupied`, `bad_square`,
    `out_of_board` or `foul`. A refused step changes nothing.
    """
    return player_action(game_id, user, lambda game, seat: apply_step(game, seat, action, client_id)[1][0])


def place_or_select(game: Game, seat: str, square: str, client_id: uuid.UUID) -> tuple[Move | None, list[dict]]:
    """A `move` frame during the opening: the next opening stone, or (RIF, while White selects)
    the offered 5th move on that square. Same errors as `step`."""
    machine = machine_for(game)
    kind = "select" if machine.state == Step.SELECT_5 else "place"
    return apply_step(game, seat, {"kind": kind, "square": square}, client_id, machine=machine)


def apply_step(game: Game, seat: str, action: dict, client_id: uuid.UUID | None = None,
               machine=None) -> tuple[Move | None, list[dict]]:
    """Apply `action` for `seat` in the locked, active `game`; store it and publish the event.

    Returns `(the last stone placed or None, [event])`. Errors: see `step`."""
    if not state.opening_running(game):
        raise GameError("opening_over")
    if not isinstance(action, dict) or action.get("kind") not in ACTION_KINDS:
        raise GameError("opening_step")
    machine = machine if machine is not None else machine_for(game)
    before, was = machine.board.ply, machine.state
    try:
        machine.apply(action, seat=machine_seat(game, seat))
    except IllegalMove as exc:
        raise GameError(OPENING_CODES.get(exc.reason, "illegal"), detail=exc.foul) from None
    now = timezone.now()
    used = clock.charge(game, seat, now)
    done = machine.actions[-1].to_dict()
    placed = machine.board.moves[before:]
    last = None
    try:
        with transaction.atomic():
            for k, square in enumerate(placed):
                ply = before + k + 1
                last = Move.objects.create(
                    game=game, ply=ply, side=Side.X if ply % 2 else Side.O, square=square,
                    client_id=client_id if (client_id and k == 0) else uuid.uuid4(), think_ms=used if k == 0 else 0,
                )
    except IntegrityError:  # an id reused with a newer ply
        raise GameError("stale") from None
    log = [*game.opening.get("log", []),
           {**done, "seat": seat, "step": was.value, "plies": list(range(before + 1, machine.board.ply + 1))}]
    game.opening = {**game.opening, "log": log}
    game.ply = machine.board.ply
    keep_position(game, machine.board)  # the machine's board holds every stone placed so far
    game.host_side = host_side_of(game, machine)
    if machine.finished:
        game.opening["plies"] = game.ply
        game.to_move = machine.board.turn
    else:
        game.to_move = game.side_of(actor_seat(game, machine))
    if game.lapsed_seat == seat:
        game.lapsed_seat = ""
    game.undo_request = ""
    clock.start_turn(game, now)
    game.event_version += 1
    game.save()
    event = {"type": "state_changed", "version": game.event_version, "reason": "opening",
             "step": machine.state.value, "action": done, "by": game.side_of(seat)}
    outbox.publish(game, [event])
    return last, [event]

