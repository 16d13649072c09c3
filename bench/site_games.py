"""Games made through the site's own service layer, for the load benches: no HTTP page, no
per-request middleware, a few statements per hundred games, so that making 1,000 games takes
seconds even on a loaded machine and costs the web processes nothing.

    DATABASE_URL=... REDIS_URL=... DJANGO_SETTINGS_MODULE=caro.settings \\
        .venv/bin/python bench/site_games.py 1000 --move-time-s 600

Prints one JSON line per game on stdout, `{"code": ROOM, "game": ID, "x": COOKIE, "o": COOKIE}`
(each cookie a `sessionid=...` header value of a guest's logged-in session: X is the host, who
moves first), and progress lines on stderr ("made 200/1000 games in 1.3 s"). The games are
started (both seats filled) and wait for X's first move; each has a clock of `--move-time-s` per
move (default 600 s: long enough that X's first move comes before it runs out however long the
bench takes to open its sockets; a move's cost does not depend on the clock's length).

What is made, per chunk of CHUNK games, in one transaction: the guests (one INSERT, as
`accounts.guests.create_guest` makes them: unusable password, a display name), their sessions
(one INSERT, the session data Django's login writes: user id, backend, session hash), and the rooms
with their started games (`caro.rooms.services.create_match_rooms`: one INSERT of the games, one
of the rooms). The rules are the site's default preset, as a room made from the home page.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHUNK = 200
"""Games made per transaction."""
PRESET = "caro-vn"
"""The rules of every game: the site's default preset (the home page's room)."""


def session_cookie_values(users) -> list[tuple[object, str]]:
    """(unsaved Session row, `sessionid=KEY` cookie) of a logged-in session for each of `users`."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    store = SessionStore()
    expires = timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE)
    made = []
    for user in users:
        key = secrets.token_hex(16)
        data = store.encode({SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
                             HASH_SESSION_KEY: user.get_session_auth_hash()})
        made.append((Session(session_key=key, session_data=data, expire_date=expires),
                     f"{settings.SESSION_COOKIE_NAME}={key}"))
    return made


def make_games(count: int, move_time_ms: int, out=sys.stdout, progress=sys.stderr) -> None:
    """Make `count` started games (see the module's docstring); a JSON line each on `out`."""
    from django.contrib.sessions.models import Session
    from django.db import transaction

    from accounts.guests import generate_guest_name
    from accounts.models import User
    from caro.games.kinds import kind_for_choice
    from caro.rooms.services import create_match_rooms

    kind = kind_for_choice(PRESET)
    rules = kind.rules_for(PRESET, None, None)
    rules = rules.to_dict() if hasattr(rules, "to_dict") else rules
    t0 = time.perf_counter()
    made = 0
    while made < count:
        n = min(CHUNK, count - made)
        users = []
        for _ in range(2 * n):
            user = User(username=f"guest-{secrets.token_hex(6)}", display_name=generate_guest_name(), is_guest=True)
            user.set_unusable_password()
            users.append(user)
        with transaction.atomic():
            users = User.objects.bulk_create(users)
            sessions = session_cookie_values(users)
            Session.objects.bulk_create([row for row, _cookie in sessions])
            rooms = create_match_rooms([
                {"host": users[2 * i], "guest": users[2 * i + 1], "kind": kind.name, "rules": rules,
                 "first_mover": "host", "move_time_ms": move_time_ms, "preset": PRESET} for i in range(n)])
        for i, room in enumerate(rooms):
            out.write(json.dumps({"code": room.code, "game": room.current_game_id,
                                  "x": sessions[2 * i][1], "o": sessions[2 * i + 1][1]}) + "\n")
        out.flush()
        made += n
        progress.write(f"made {made}/{count} games in {time.perf_counter() - t0:.1f} s\n")
        progress.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("count", type=int)
    parser.add_argument("--move-time-s", type=float, default=600.0, help="each game's clock per move, s")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "caro.settings")
    import django

    django.setup()
    make_games(args.count, int(args.move_time_s * 1000))
    return 0


if __name__ == "__main__":
    sys.exit(main())
