"""Server time and query count of the moderators' admin pages with 20,000 users and 100,000 games.

Run (starts its own throw-away site, bench/stack.py; embedded PostgreSQL and Redis unless
DATABASE_URL / REDIS_URL are set):

    .venv/bin/python bench/admin_pages.py [--users 20000] [--games 100000] [--requests 30]

Users and games are inserted with SQL (every game between two random users, 40 moves stored for
the game whose page is timed, reports and audit entries against one player), then each page is
requested through the Django test client as a member of the Moderators group: URL routing,
middleware, admin, ORM and templates in this process. Prints p50/p95/max in ms and the number of
SQL queries per page, and whether every p95 meets TARGET_MS.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from stack import Site  # noqa: E402

#: An admin page a moderator waits for should answer well within this (p95, server time).
TARGET_MS = 150.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def fill(users: int, games: int) -> dict:
    import json

    from django.db import connection

    from caro.games.kinds import KINDS

    start = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO accounts_user (password, is_superuser, username, first_name, last_name, email, is_staff,"
            " is_active, date_joined, display_name, is_guest, banned_forever, ban_reason, mute_reason,"
            " queue_ban_reason, fairplay_strikes, fairplay_good_games, queue_bans)"
            " SELECT '!', false, 'player' || g, '', '', 'player' || g || '@example.com', false, true,"
            " now() - g * interval '1 minute', 'Player ' || g, g %% 3 = 0, false, '', '', '', 0, 0, 0"
            " FROM generate_series(1, %s) g", [users])
        cursor.execute("SELECT min(id), max(id) FROM accounts_user")
        low, high = cursor.fetchone()
        cursor.execute(
            "INSERT INTO games_game (kind, rules, host_id, guest_id, host_side, status, ply, to_move, move_time_ms,"
            " winner, termination, win_line, event_version, bot_seat, bot_level, rated, rematch_offer, imported,"
            " bank_ms, increment_ms, host_bank_ms, guest_bank_ms, first_mover, throws, host_mark, absence_rule,"
            " takeback, absent_seat, absence_expired, absence_waited, lapsed_seat, draw_offer, undo_request,"
            " left_seat, annulled, annul_reason, created_at, started_at, finished_at)"
            " SELECT 'caro', %s::jsonb, %s + (g::bigint * 7919) %% (%s - %s), %s + (g::bigint * 104729 + 1) %% (%s - %s), 'X',"
            " CASE WHEN g %% 50 = 0 THEN 'active' ELSE 'finished' END, 40, 'X', 60000, 'O', 'resign', '[]', 41,"
            " '', '', g %% 2 = 0, '', '{}', 0, 0, 0, 0, 'host', '[]', 'X', 'forfeit', 'none', '', false, false,"
            " '', '', '', '', false, '', now() - g * interval '1 minute', now(), now()"
            " FROM generate_series(1, %s) g",
            [json.dumps(KINDS["caro"].rules_for("caro-vn")), low, high, low, low, high, low, games])
        cursor.execute("SELECT id, host_id FROM games_game ORDER BY id DESC LIMIT 1")
        game_id, player_id = cursor.fetchone()
        squares = [f"{c}{r}" for r in range(1, 5) for c in "ACEGIKMOQS"[:10]]
        cursor.execute(
            "INSERT INTO games_move (game_id, ply, side, square, client_id, think_ms, created_at)"
            " SELECT %s, m.ply, CASE WHEN m.ply %% 2 = 1 THEN 'X' ELSE 'O' END, m.square, gen_random_uuid(),"
            " 1000, now() FROM unnest(%s::text[]) WITH ORDINALITY AS m(square, ply)", [game_id, squares[:40]])
        cursor.execute("ANALYZE accounts_user; ANALYZE games_game; ANALYZE games_move")
    print(f"stored {users} users and {games} games in {time.perf_counter() - start:.1f} s")
    return {"game": game_id, "player": player_id}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=20_000)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=30, help="timed requests per page")
    args = parser.parse_args()
    with Site("bench-admin", extra_env={"DEBUG": "1"}) as site:
        site.django()
        from django.conf import settings
        from django.db import connection
        from django.test import Client
        from django.urls import reverse
        from django.utils import timezone

        from accounts.models import User
        from caro.games.models import Game
        from moderation import services
        from moderation.models import Report

        settings.ALLOWED_HOSTS = ["*"]
        # As Django's test client in tests: keep the connection between requests (production pools
        # its connections), so every query of a request is counted on the same connection.
        from django.core.signals import request_finished, request_started
        from django.db import close_old_connections

        request_started.disconnect(close_old_connections)
        request_finished.disconnect(close_old_connections)
        ids = fill(args.users, args.games)
        from django.contrib.auth.models import Group

        mod = User.objects.create_user(username="bench-mod", password="x-12345678", is_staff=True)
        mod.groups.add(Group.objects.get(name="Moderators"))
        player = User.objects.get(pk=ids["player"])
        for game in Game.objects.of_player(player).order_by("-id")[:15]:
            other = game.guest if game.host_id == player.pk else game.host
            Report.objects.get_or_create(reporter=other, game=game, defaults={"reported": player, "reason": "insults"})
        for i in range(15):
            services.mute(mod, player, until=timezone.now() + timezone.timedelta(hours=1), reason=f"bench {i}")
        client = Client()
        client.force_login(mod, backend="django.contrib.auth.backends.ModelBackend")
        games = reverse("admin:games_game_changelist")
        users = reverse("admin:accounts_user_changelist")
        pages = [
            (games, "game list"),
            (games + "?status=finished&rated__exact=1", "game list: finished, rated"),
            (games + f"?player={ids['player']}", "game list: one player"),
            (games + "?q=player123", "game list: search a player"),
            (reverse("admin:games_game_change", args=[ids["game"]]), "game page (board, 40 moves)"),
            (users, "user list"),
            (users + "?q=player1234", "user list: search"),
            (reverse("admin:accounts_user_change", args=[ids["player"]]), "user page (games, reports, history)"),
            (reverse("admin:moderation_report_changelist"), "report list"),
            (reverse("admin:moderation_auditentry_changelist"), "audit log"),
        ]
        ok = True
        print(f"{'page':40} {'queries':>7} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
        for url, label in pages:
            assert client.get(url).status_code == 200, url
            queries = []

            def count(execute, sql, params, many, context):
                queries.append(sql)
                return execute(sql, params, many, context)

            with connection.execute_wrapper(count):
                client.get(url)
            times = []
            for _ in range(args.requests):
                start = time.perf_counter()
                response = client.get(url)
                times.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200
            p95 = percentile(times, 0.95)
            ok &= p95 <= TARGET_MS
            print(f"{label:40} {len(queries):>7} {statistics.median(times):>8.1f} {p95:>8.1f}"
                  f" {max(times):>8.1f}")
        print(f"target p95 <= {TARGET_MS:.0f} ms: {'met' if ok else 'NOT met'}")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
