"""Small builders for integration tests (real PostgreSQL rows, no mocks)."""

import threading
import uuid

from django.db import connection
from django.test import Client

from accounts.guests import create_guest
from caro.games import services
from caro.games.kinds import kind_for_choice
from caro.games.models import FirstMover, Game, Seat, Side
from caro.games.openings import procedure_of
from caro.games.services.seating import build_game
from caro.rooms.models import Room
from caro.rooms.services import new_code


def legacy_room(user, kind: str, preset: str = "caro-vn", *, level: str = "easy", side: str = Side.X,
                size: int | None = None, win_length: int | None = None) -> Room:
    """A computer room (`kind` "computer": `user` plays `side` against the computer at `level`) or a
    one-device room ("local": `user` holds both seats) with its first game started, no clock, as
    the server made them before issue 26. Such games are played in the page now and the server
    makes no such room; rooms and games of those kinds stay in the database, and the room page
    and the game service still serve them."""
    rules = kind_for_choice(preset).rules_for(preset, size, win_length)
    seats = ({"guest": user} if kind == Room.Kind.LOCAL else
             {"first_mover": FirstMover.HOST if side == Side.X else FirstMover.GUEST,
              "bot_seat": Seat.GUEST, "bot_level": level})
    game = build_game(kind=kind_for_choice(preset).name, rules=rules, host=user, move_time_ms=0,
                      opening=procedure_of(preset), **seats)
    game.save(force_insert=True)
    return Room.objects.create(code=new_code(), created_by=user, preset=preset, move_time_ms=0, kind=kind,
                               current_game=game)


def two_players():
    return create_guest(), create_guest()


def started_game(move_time_ms: int = 60_000) -> tuple[Game, object, object]:
    """A caro game with both seats taken: (game, x_user, o_user); the host plays X."""
    x, o = two_players()
    game = services.create_game(host=x, move_time_ms=move_time_ms)
    services.take_seat(game.pk, o)
    game.refresh_from_db()
    return game, x, o


def play(game, user, square, ply=None):
    """Play one move as `user` with a fresh client id; ply defaults to the next one."""
    if ply is None:
        game.refresh_from_db()
        ply = game.ply + 1
    return services.play_move(game.pk, user, square, ply, uuid.uuid4())


def play_sequence(game, x, o, squares):
    """Alternate X and O through `squares`; returns the last MoveResult."""
    result = None
    for i, sq in enumerate(squares):
        result = play(game, x if i % 2 == 0 else o, sq)
    return result


def session_cookie(user) -> bytes:
    """A `sessionid=...` cookie of `user` signed in (for websocket tests), as bytes."""
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def at_once(funcs):
    """Run each function in its own thread (own database connection), released together; their
    results in order (an exception is returned, not raised)."""
    barrier = threading.Barrier(len(funcs))
    results = [None] * len(funcs)

    def run(i, func):
        barrier.wait()
        try:
            results[i] = func()
        except Exception as error:  # noqa: BLE001 - returned to the test
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, func)) for i, func in enumerate(funcs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results
