"""Real games played through the game service, for the record tests (integration and e2e)."""

from __future__ import annotations

import uuid

from accounts.guests import create_guest
from caro.games import services
from caro.games.kinds import KINDS
from caro.games.snapshot import board_for


def play_game(squares, *, kind="caro", rules=None, move_time_ms=60_000, names=("", "")):
    """A game between two new guests (host plays X) with `squares` played in turn by whoever is
    to move (Reversi passes included). Returns (game, x_user, o_user)."""
    x, o = create_guest(), create_guest()
    for user, name in zip((x, o), names):
        if name:
            user.display_name = name
            user.save(update_fields=["display_name"])
    game = services.create_game(kind=kind, rules=rules, host=x, move_time_ms=move_time_ms)
    services.take_seat(game.pk, o)
    for square in squares:
        game.refresh_from_db()
        user = x if KINDS[kind].turn(board_for(game)) == "X" else o
        services.play_move(game.pk, user, square, game.ply + 1, uuid.uuid4())
    game.refresh_from_db()
    return game, x, o
