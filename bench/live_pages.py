"""Server time of the pages that show the site's life (issue 30), with 10,000 live games between
people and 100,000 players stored: the home page (who is here, the featured game's frame), the
lobby of open rooms, the watch page, and the counts the home page polls (target: <= 30 ms each).

Run:  .venv/bin/python bench/live_pages.py [--players 100000] [--live 10000] [--lobby 200] [--requests 200]

Embedded PostgreSQL and Redis are started for it (bench/stack.py) unless DATABASE_URL / REDIS_URL
are set. A throw-away database is migrated, then filled in bulk: `--players` registered players
with a caro rating each (a bell-shaped pool), `--live` active games between them, each in its room
and on the live list (`lobby.models.LiveGame`), `--lobby` friend rooms waiting in the lobby with
their host present, and the online set filled with every player. The requests go through the
Django test client (URL routing, middleware, ORM, templates) in this process; it prints per page
the wall-clock p50/p95/max, the CPU time p50 of this process (what survives a loaded machine), the
SQL statements of one request, the p50 of the time the request's statements took as the driver
sees them (their round trips: on a loaded machine mostly the wait for PostgreSQL's process to get a
core), the p50 of PostgreSQL's own planning and execution time of the same statements
(`EXPLAIN ANALYZE`, run again: what they cost the database), and the server time of a request:
this process's CPU time p50 plus PostgreSQL's time p50 (what a request costs the server; the wall
clock of a loaded machine adds the time it waited for a core). The target is checked on that
server time. Also the
cost of one recount of who is here (`lobby.counts.recount`, which the beat runs every 2 s and pages
never pay while the counts are fresh), and of what each web process renders once per change for
the live sockets that get the counts and the watch list pushed (`lobby.consumers._Pushes`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "caro.settings")
os.environ.setdefault("DEBUG", "1")

from pages import percentile  # noqa: E402 - bench/pages.py

TARGET_MS = 30.0


def fill(players: int, live_count: int, lobby_count: int) -> None:
    """Store the players, the live games and the lobby's rooms (bulk inserts)."""
    from django.db import connection
    from django.utils import timezone

    from accounts.models import User
    from caro.games.models import Connection, Game, Seat
    from caro.rooms.models import Room
    from caro.rooms.models import CODE_ALPHABET

    def code_of(n: int) -> str:  # distinct codes (random ones collide among 10,000 rooms: a birthday)
        digits = []
        for _ in range(6):
            n, digit = divmod(n, len(CODE_ALPHABET))
            digits.append(CODE_ALPHABET[digit])
        return "".join(digits)
    from lobby import counts
    from lobby.models import LiveGame
    from ranking import categories

    start = time.perf_counter()
    User.objects.bulk_create([User(username=f"p{i:06d}", password="!", display_name=f"Player {i}")
                              for i in range(players)], batch_size=5000)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO ranking_rating (user_id, category, value, games, wins, draws, losses, peak,"
            " last_played_at, listed, established, updated_at)"
            " SELECT id, 'caro', v, g, g / 2, g / 10, g - g / 2 - g / 10, v + 40, now(), true, g >= 10, now()"
            " FROM (SELECT id, (1500 + 250 * (random() + random() + random() - 1.5) * 2)::int AS v,"
            " (random() * 300)::int AS g FROM accounts_user WHERE username LIKE 'p%%') u", [])
    ids = list(User.objects.filter(username__startswith="p").order_by("pk").values_list("pk", flat=True))
    with connection.cursor() as cursor:
        cursor.execute("SELECT user_id, value FROM ranking_rating")
        ratings = dict(cursor.fetchall())
    now = timezone.now()
    rules = categories.CARO.rules
    games = Game.objects.bulk_create([
        Game(kind="caro", rules=rules, host_id=ids[2 * i], guest_id=ids[2 * i + 1], status=Game.Status.ACTIVE,
             rated=True, ply=20, started_at=now, deadline=now + timezone.timedelta(minutes=5),
             absence_rule="forfeit")
        for i in range(live_count)], batch_size=2000)
    rooms = Room.objects.bulk_create([Room(code=code_of(i), created_by_id=g.host_id, current_game=g, watchable=True)
                                      for i, g in enumerate(games)], batch_size=2000)
    LiveGame.objects.bulk_create([
        LiveGame(game=g, room_code=r.code, kind="caro", rated=True, watchable=True,
                 rating=(ratings[g.host_id] + ratings[g.guest_id]) // 2, host_rating=ratings[g.host_id],
                 guest_rating=ratings[g.guest_id], host_provisional=False, guest_provisional=False, started_at=now)
        for g, r in zip(games, rooms)], batch_size=2000)
    hosts = ids[2 * live_count:2 * live_count + lobby_count]
    waiting = Game.objects.bulk_create([Game(kind="caro", rules=rules, host_id=h) for h in hosts])
    Room.objects.bulk_create([Room(code=code_of(live_count + i), created_by_id=g.host_id, current_game=g,
                                   listed=True, lobby_since=now - timezone.timedelta(seconds=i))
                              for i, g in enumerate(waiting)])
    Connection.objects.bulk_create([Connection(channel=f"bench.{g.pk}", game=g, seat=Seat.HOST, user_id=g.host_id,
                                               seen_at=now) for g in waiting])
    counts._redis().delete(counts.ONLINE_KEY)
    stamp = time.time()
    for chunk in range(0, len(ids), 10_000):
        counts.seen(*(f"u{uid}" for uid in ids[chunk:chunk + 10_000]), now=stamp)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"stored {players:,} players, {live_count:,} live games, {lobby_count} rooms in the lobby "
          f"in {time.perf_counter() - start:.0f} s")


def timed(client, url: str, requests: int) -> dict[str, float]:
    """Per request: the wall clock, this process's CPU time, and the time its SQL statements took
    (ms); returns the wall p50/p95/max, the CPU p50 and the SQL p50."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    assert client.get(url).status_code == 200, url  # warm up
    wall, cpu, sql = [], [], []
    for _ in range(requests):
        with CaptureQueriesContext(connection) as captured:
            start, start_cpu = time.perf_counter(), time.process_time()
            response = client.get(url)
            wall.append((time.perf_counter() - start) * 1000)
            cpu.append((time.process_time() - start_cpu) * 1000)
        assert response.status_code == 200, url
        sql.append(sum(float(q["time"]) for q in captured.captured_queries) * 1000)
    return {"p50": percentile(wall, 0.5), "p95": percentile(wall, 0.95), "max": max(wall),
            "cpu": percentile(cpu, 0.5), "sql": percentile(sql, 0.5)}


def pg_time(client, url: str, repeat: int = 30) -> float:
    """PostgreSQL's own time (planning + execution, ms, p50 of `repeat` runs) for the SELECT
    statements of one request to `url`, each run again under EXPLAIN ANALYZE."""
    import json

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from lobby import counts

    counts.recount()  # fresh, as the beat keeps them: the page's own statements only
    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    statements = [q["sql"] for q in captured.captured_queries if q["sql"].lstrip().upper().startswith("SELECT")]
    totals = []
    with connection.cursor() as cursor:
        for _ in range(repeat):
            total = 0.0
            for sql in statements:
                cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)
                plan = cursor.fetchone()[0]
                plan = (json.loads(plan) if isinstance(plan, str) else plan)[0]
                total += plan["Planning Time"] + plan["Execution Time"]
            totals.append(total)
    return percentile(totals, 0.5)


def queries(client, url: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    return len(captured.captured_queries)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--live", type=int, default=10_000, help="live games between people")
    parser.add_argument("--lobby", type=int, default=200, help="rooms waiting in the lobby")
    parser.add_argument("--requests", type=int, default=200, help="timed requests per page")
    args = parser.parse_args()
    site = None
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        from stack import Site  # bench/stack.py, beside this file (on sys.path above)

        site = Site("bench-live-pages")
        db_url, redis_url = site._services()
        os.environ["DATABASE_URL"], os.environ["REDIS_URL"] = db_url, redis_url
    try:
        return run(args)
    finally:
        if site is not None:
            for service in reversed(site.services):
                service.stop()


def run(args) -> int:
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = f"bench_live_{os.getpid()}"
    settings.ALLOWED_HOSTS = ["*"]
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        from django.utils import timezone

        from accounts.models import User
        from caro.games.models import Connection
        from lobby import counts, live

        fill(args.players, args.live, args.lobby)
        start, start_cpu = time.perf_counter(), time.process_time()
        made = counts.recount()
        print(f"recount (beat, every {counts.COUNTS_FRESH_S} s): {(time.perf_counter() - start) * 1000:.1f} ms wall, "
              f"{(time.process_time() - start_cpu) * 1000:.1f} ms CPU; online {made['online']:,}, "
              f"playing {made['playing']:,}")
        # What a web process pays per change for its live sockets (lobby.consumers._Pushes): the
        # counts fragment and the watch list rendered once per language, whatever the sockets.
        from lobby.consumers import render_counts, render_games

        for name, make in (("counts fragment", lambda: render_counts(counts.current(), "vi")),
                           ("watch list", lambda: render_games("", "vi"))):
            make()
            spent = []
            for _ in range(20):
                start_cpu = time.process_time()
                make()
                spent.append((time.process_time() - start_cpu) * 1000)
            print(f"live socket push, {name} rendered once per process and change: "
                  f"{percentile(spent, 0.5):.1f} ms CPU p50")
        visitor = Client()
        member = Client()
        member.force_login(User.objects.get(username=f"p{args.players - 1:06d}"), backend="django.contrib.auth.backends.ModelBackend")
        pages = [("home, a new visitor's browser", visitor, "/", None),
                 ("home, signed in", member, "/", None),
                 ("lobby", visitor, "/sanh/", None),
                 ("lobby, signed in", member, "/sanh/", None),
                 ("watch", visitor, "/xem/", None),
                 ("watch, caro only (htmx)", visitor, "/xem/?kind=caro", {"HTTP_HX_REQUEST": "true"}),
                 ("counts (htmx poll)", visitor, "/song/so-nguoi/", {"HTTP_HX_REQUEST": "true"})]
        load = os.getloadavg()
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {args.requests} requests per page")
        Connection.objects.filter(channel__startswith="bench.").update(seen_at=timezone.now())
        shown = len(live.open_rooms()), len(live.live_games())
        print(f"the lobby lists {shown[0]} rooms, the watch page {shown[1]} games")
        print(f"{'page':34} {'queries':>7} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'CPU p50':>8} {'SQL p50':>8}"
              f" {'PG p50':>8} {'server':>8}")
        ok = True
        for name, client, url, headers in pages:
            counts.recount()  # the beat keeps them fresh; a page never pays the recount
            # the lobby's hosts are on their room pages: their sockets' heartbeats keep them fresh
            Connection.objects.filter(channel__startswith="bench.").update(seen_at=timezone.now())
            n = queries(client, url)
            if headers:
                client.defaults.update(headers)
            t = timed(client, url, args.requests)
            pg = pg_time(client, url)
            for key in headers or {}:
                client.defaults.pop(key)
            # the server time (this process's CPU + PostgreSQL's own time): the wall clock of a
            # loaded machine measures its queue too
            server = t["cpu"] + pg
            ok &= server <= TARGET_MS
            print(f"{name:34} {n:>7} {t['p50']:8.2f} {t['p95']:8.2f} {t['max']:8.2f} {t['cpu']:8.2f} {t['sql']:8.2f}"
                  f" {pg:8.2f} {server:8.2f}")
        print(f"\n{'meets' if ok else 'MISSES'} the {TARGET_MS:.0f} ms target (server time: CPU p50 + PostgreSQL p50) on every page")
        load = os.getloadavg()
        print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
        return 0 if ok else 1
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())
