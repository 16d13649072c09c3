"""Rated games between accounts, played and ended through the real game service."""

from __future__ import annotations

import itertools
import uuid

from accounts.models import User
from caro.games import services
from caro.games.models import Game

_names = itertools.count(1)


def account(name: str | None = None, display_name: str = "") -> User:
    """A registered (non-guest) user."""
    name = name or f"player{next(_names)}_{uuid.uuid4().hex[:6]}"
    return User.objects.create_user(username=name, password=None, display_name=display_name)


def rated_game(host: User, guest: User, *, kind: str = "caro", rules=None, rated: bool = True,
               moves: int = 2) -> Game:
    """A started game (host plays X) marked `rated`, with `moves` moves played (2: both have moved,
    so resigning loses instead of aborting)."""
    game = services.create_game(kind=kind, rules=rules, host=host, guest=guest)
    Game.objects.filter(pk=game.pk).update(rated=rated)
    squares = ["H8", "H9", "I8", "I9"] if kind == "caro" else ["f5", "d6", "c3", "d3"]
    for ply, square in enumerate(squares[:moves], start=1):
        services.play_move(game.pk, host if ply % 2 else guest, square, ply, uuid.uuid4())
    game.refresh_from_db()
    return game


def won_by(winner: User, loser: User, **options) -> Game:
    """A rated game `winner` (host, X) wins by `loser`'s resignation."""
    game = rated_game(winner, loser, **options)
    services.resign(game.pk, loser)
    game.refresh_from_db()
    return game


def drawn(host: User, guest: User, **options) -> Game:
    """A rated game drawn by agreement."""
    game = rated_game(host, guest, **options)
    services.offer_draw(game.pk, host)
    services.answer_draw(game.pk, guest, True)
    game.refresh_from_db()
    return game
