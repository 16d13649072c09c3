"""PostgreSQL's own CPU for the site's one-statement move (caro/games/services/lean.py), side by side
with the same statement when the game row's UPDATE can be a HOT update (issue 27).

    .venv/bin/python bench/pg_move.py [--games 50] [--moves 28] [--rounds 3]

A fresh database with the site's schema (migrated), `--games` active games; then rounds of every
game playing `--moves` moves, each move the exact statement of the loop path (`lean._write`:
`WITH game AS (UPDATE ...) , move AS (INSERT ...) SELECT ...`, prepared, server-side binding) on one
connection, alternating two table layouts:

- `as migrated`: games_game with its 13 indexes; `deadline` changes with every move and is in two
  of them, so no UPDATE of the row can be HOT and each inserts into all 13 indexes;
- `HOT`: the same without the two indexes on `deadline` (everything else identical): the UPDATE
  changes no indexed column, so PostgreSQL writes the new row version on the same page without
  touching an index (what a layout that keeps the deadline index off the game row would get).

Prints PostgreSQL's CPU ms per move for each (the whole server: backend, autovacuum, WAL writer,
checkpointer; counted until SETTLE_S after the round's last move), the HOT share of the updates,
and the load average. The games and moves are dropped with the database.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

SEQUENCE = [f"{c}{r}" for r in (1, 2) for c in "ABCDEFGHIJKLMNO"]
SETTLE_S = 5.0
"""Seconds after a round's last move before PostgreSQL's CPU is read (its background work)."""
DEADLINE_INDEXES = ("games_game_status_040d39_idx", "games_game_deadline_6382dfcd")


def server_cpu_s(database_url: str) -> float:
    """CPU seconds used so far by the PostgreSQL server of `database_url`: the postmaster and
    every child (backends, autovacuum, checkpointer, WAL writer), as bench/ws_relay.py counts it."""
    import urllib.parse

    from ws_relay import cpu_seconds, listener

    return cpu_seconds([listener(urllib.parse.urlsplit(database_url).port)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=28)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from stack import Backends

    with Backends("bench-pg-move") as backends:
        env = {**os.environ, "DATABASE_URL": backends.database_url, "REDIS_URL": backends.redis_url,
               "SECRET_KEY": "bench", "CARO_ALLOW_DEV_SECRET": "1", "DJANGO_SETTINGS_MODULE": "caro.settings"}
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        os.environ.update(env)
        import django

        django.setup()
        import psycopg
        from django.db import connection

        from caro.games.services import lean
        from caro.games.services.play import advance
        from accounts.guests import create_guest

        print(f"cores: {os.cpu_count()}; load average {' '.join(f'{v:.2f}' for v in os.getloadavg())}; "
              f"{args.games} games x {args.moves} moves per round, {args.rounds} round(s) per layout", flush=True)
        dsn = connection.get_connection_params()
        results: dict[str, list[float]] = {"as migrated": [], "HOT": []}
        for round_ in range(args.rounds):
            for layout in (["as migrated", "HOT"] if round_ % 2 == 0 else ["HOT", "as migrated"]):
                with psycopg.connect(**{k: v for k, v in dsn.items() if k != "cursor_factory"}, autocommit=True) as conn:
                    for name in DEADLINE_INDEXES:
                        conn.execute(f"DROP INDEX IF EXISTS {name}")
                    if layout == "as migrated":
                        conn.execute("CREATE INDEX games_game_status_040d39_idx ON games_game (status, deadline)")
                        conn.execute("CREATE INDEX games_game_deadline_6382dfcd ON games_game (deadline)")
                    # HOT needs room on the row's page: new games' pages keep 30 % free.
                    conn.execute(f"ALTER TABLE games_game SET (fillfactor = {70 if layout == 'HOT' else 100})")
                ids = _started_games([(create_guest(), create_guest()) for _ in range(args.games)])
                hot0 = _updates(dsn)
                with psycopg.connect(**{k: v for k, v in dsn.items() if k != "cursor_factory"}, autocommit=True) as conn:
                    state = {}
                    for game_id in ids:
                        state[game_id] = lean.read(game_id)
                    cpu0, moves = server_cpu_s(backends.database_url), 0
                    wrapper = lean.loop_wrapper()
                    for ply in range(1, args.moves + 1):
                        for game_id in ids:
                            game, xmin = state[game_id]
                            step = advance(game, "X" if ply % 2 else "O", SEQUENCE[ply - 1], uuid.uuid4())
                            sql, params = lean._write(game, step.move, step.changed(), ply - 1, xmin, wrapper)
                            row = conn.execute(sql, params, prepare=True).fetchone()
                            assert row is not None, "the optimistic check failed"
                            state[game_id] = (game, row[0])
                            moves += 1
                    time.sleep(SETTLE_S)  # what the moves left to autovacuum is counted too
                    cpu = server_cpu_s(backends.database_url) - cpu0
                hot1 = _updates(dsn)
                per_move = cpu * 1000 / moves
                results[layout].append(per_move)
                updates, hot = hot1[0] - hot0[0], hot1[1] - hot0[1]
                print(f"round {round_ + 1} {layout:<12} PostgreSQL CPU {per_move:.3f} ms per move over {moves} moves; "
                      f"HOT updates {hot} of {updates}; load average {os.getloadavg()[0]:.2f}", flush=True)
        import statistics

        for layout, values in results.items():
            print(f"{layout:<12} median PostgreSQL CPU per move {statistics.median(values):.3f} ms "
                  f"({', '.join(f'{v:.3f}' for v in values)})")
        print(f"load average now {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
    return 0


def _updates(dsn: dict) -> tuple[int, int]:
    """(updates, HOT updates) of games_game so far (after the statistics' flush)."""
    import psycopg

    time.sleep(1.5)
    with psycopg.connect(**{k: v for k, v in dsn.items() if k != "cursor_factory"}, autocommit=True) as conn:
        return conn.execute("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'games_game'").fetchone()


def _started_games(pairs) -> list[int]:
    """Active caro games between each (host, guest), host X, a 60-s clock (as a friend room's)."""
    from django.utils import timezone

    from caro.engine.caro import PRESETS
    from caro.games import clock
    from caro.games.models import Game

    ids = []
    rules = PRESETS["caro-vn"].rules.to_dict()
    for host, guest in pairs:
        game = Game(kind="caro", rules=rules, host=host, guest=guest, host_side="X", status=Game.Status.ACTIVE,
                    to_move="X", move_time_ms=60_000, started_at=timezone.now())
        clock.start_turn(game, timezone.now())
        game.save()
        ids.append(game.pk)
    return ids


if __name__ == "__main__":
    sys.exit(main())
