"""PostgreSQL's own CPU for the site's one-statement move (caro/games/services/lean.py) under five
layouts of the game row, side by side in one run, and what each costs the deadline timer with
100,000 live games (issue 27).

    .venv/bin/python bench/pg_move.py [--games 100] [--moves 28] [--rounds 3] [--live 100000]

A fresh database with the site's schema (migrated), `--live` active games in the background (each
with a deadline 10-70 minutes ahead, so none falls due while the bench runs), then rounds in which
`--games` new games play `--moves` moves each, every move the exact statement of the loop path
(`lean._write`: `WITH game AS (UPDATE ...), move AS (INSERT ...) SELECT ...`, prepared,
server-side binding) on one connection, the layouts alternating (order reversed every other
round). Layouts of games_game (everything else identical):

- `before`: as migrated before this layout (main at a4abb9d): `deadline`, which every move
  changes, in two btree indexes, fillfactor 100; no UPDATE of the row can be HOT, so each move
  inserts an entry into every index of the row;
- `brin`: a BRIN (summarising) index on `deadline` instead, fillfactor 80: PostgreSQL 16+
  updates it without giving up HOT, but BRIN cannot give the minimum, so the timer's
  look-ups read every active game;
- `live table`: `deadline` copied to a narrow table of its own (`game_id` primary key,
  `deadline` indexed) that the move's statement updates too (one more CTE): the game row's
  UPDATE is HOT, the narrow row's is not;
- `wake_at` (what migration 0014 makes, the site's layout): no index on `deadline`; the timer
  finds the nearest deadline through `wake_at`, a lower bound of it kept by a trigger and indexed
  for active games only, which a move does not change; the timer moves it on to the deadline
  when it passes (one UPDATE per game per clock period, measured apart below);
- `wake_at no fk`: the same without games_move's foreign key to games_game (what PostgreSQL's
  referential-integrity trigger costs each INSERT: a look-up of the game row and a key-share lock
  on it); put back (NOT VALID) for the other layouts;
- `wake_at 10 conns`: `wake_at`, the moves sent round-robin over 10 connections instead of one
  (what a pool that hands out its least recently used connection does: psycopg_pool's own
  order, before the site's loop pool handed out the most recently used first);
- `wake_at generic`: `wake_at` on a connection with `plan_cache_mode = force_generic_plan` (the
  prepared statement planned once instead of a custom plan per execution);
- `bare insert`: not the site's statement but the bare relay's (bench/bare_relay.py): one INSERT
  of (game, ply, square, side) into a table with a primary key and one unique index, no game
  row: the floor of "one autocommitted statement" at the same rate on the same server.

`--rate N` paces the moves at N a second (the site's 50-game run plays about 50 a second, one
move each 20 ms, so PostgreSQL's backend sleeps between two statements and is woken for each);
without it they go back to back (the backend never sleeps).

Prints per layout: PostgreSQL's CPU ms per move (the whole server: backend, autovacuum, WAL
writer, checkpointer; counted until SETTLE_S after the round's last move; and split by process), the HOT share of the
game row's updates, and the deadline timer's two look-ups on the `--live` games (the nearest
deadline, and the due games' batch), PostgreSQL's execution time (EXPLAIN ANALYZE, median of
LOOKUPS), with the plan's first node; for `wake_at` also PostgreSQL's CPU per game moved on by
`time.advance_wakeups` and what that adds per move at one move per game per second and every
5 s (60-s clocks). The load average is printed with every line. The database is dropped at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
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
LOOKUPS = 30
"""Times each timer look-up is run per layout (the median is printed)."""
CLOCK_S = 60.0
"""The games' move clock (a friend room's default): how often `wake_at` is moved on per game."""
WAKE_GAMES = 5_000
"""Live games whose `wake_at` is set in the past to measure `advance_wakeups`."""
LAYOUTS = ("before", "brin", "live table", "wake_at", "wake_at no fk", "wake_at 10 conns", "wake_at generic",
           "bare insert", "wake_at back to back", "wake_at few indexes", "wake_at no client index",
           "wake_at unprepared")
#: Layouts whose moves go back to back whatever `--rate` (beside paced ones in the same run).
UNPACED = ("wake_at back to back",)
CONNECTIONS = {"wake_at 10 conns": 10}
"""Layouts whose moves go round-robin over that many connections (default one): as a FIFO pool
(psycopg_pool's) hands out the least recently used of its idle connections."""
TRIGGER = "games_game_wake_at"
BEFORE_INDEXES = ("CREATE INDEX games_game_status_040d39_idx ON games_game (status, deadline)",
                  "CREATE INDEX games_game_deadline_6382dfcd ON games_game (deadline)")
FILLFACTOR = {"before": 100, "brin": 80, "live table": 80, "wake_at": 80, "wake_at no fk": 80, "wake_at 10 conns": 80,
              "wake_at generic": 80, "bare insert": 80, "wake_at back to back": 80, "wake_at few indexes": 80,
              "wake_at no client index": 80, "wake_at unprepared": 80}
#: games_game's indexes `wake_at few indexes` keeps; games_move's index `wake_at no client index` drops.
FEW_INDEXES_KEEP = ("games_game_pkey", "game_wake_active", "game_absence_active")
CLIENT_INDEX = "move_unique_client_id"
#: Settings of the moves' connection per layout (default none).
SESSION_SQL = {"wake_at generic": "SET plan_cache_mode = force_generic_plan"}
#: The bare relay's table and statement (bench/bare_relay.py), for the `bare insert` layout.
BARE_TABLE_SQL = ("CREATE TABLE IF NOT EXISTS bench_bare_move (id bigserial PRIMARY KEY, game text NOT NULL, "
                  "ply integer NOT NULL, square text NOT NULL, side char(1) NOT NULL, "
                  "played_at timestamptz NOT NULL DEFAULT now(), UNIQUE (game, ply))")
BARE_INSERT_SQL = "INSERT INTO bench_bare_move (game, ply, square, side) VALUES (%s, %s, %s, %s)"
#: The timer's look-ups per layout: (the nearest deadline, the due games' batch of 50).
LOOKUP_SQL = {
    "before": ("SELECT min(deadline) FROM games_game WHERE status = 'active'",
               "SELECT id FROM games_game WHERE status = 'active' AND deadline <= now() ORDER BY deadline LIMIT 50"),
    "brin": ("SELECT min(deadline) FROM games_game WHERE status = 'active'",
             "SELECT id FROM games_game WHERE status = 'active' AND deadline <= now() ORDER BY deadline LIMIT 50"),
    "live table": ("SELECT min(deadline) FROM games_live",
                   "SELECT game_id FROM games_live WHERE deadline <= now() ORDER BY deadline LIMIT 50"),
    "wake_at": ("SELECT min(wake_at) FROM games_game WHERE status = 'active'",
                "SELECT id FROM games_game WHERE status = 'active' AND wake_at <= now() AND deadline <= now() "
                "ORDER BY wake_at LIMIT 50"),
}
LOOKUP_SQL["wake_at no fk"] = LOOKUP_SQL["wake_at 10 conns"] = LOOKUP_SQL["wake_at"]
for _layout in LAYOUTS:
    LOOKUP_SQL.setdefault(_layout, LOOKUP_SQL["wake_at"])
_DROPPED: dict[str, str] = {}
"""Index or constraint name -> the SQL that puts it back, for what a layout dropped."""
_FOREIGN_KEYS: list[tuple[str, str]] = []
"""(name, definition) of games_move's foreign key to games_game, as migrated (read once)."""


def server_cpu_s(database_url: str) -> float:
    """CPU seconds used so far by the PostgreSQL server of `database_url`: the postmaster and
    every child (backends, autovacuum, checkpointer, WAL writer), as bench/ws_relay.py counts it."""
    import urllib.parse

    from ws_relay import cpu_seconds, listener

    return cpu_seconds([listener(urllib.parse.urlsplit(database_url).port)])


def load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def set_layout(conn, layout: str) -> None:
    """Turn games_game (and games_live) into `layout` (module docstring)."""
    for name in ("games_game_status_040d39_idx", "games_game_deadline_6382dfcd", "games_game_deadline_brin",
                 "game_wake_active"):
        conn.execute(f"DROP INDEX IF EXISTS {name}")
    conn.execute("DROP TABLE IF EXISTS games_live")
    if not _FOREIGN_KEYS:
        _FOREIGN_KEYS.extend(conn.execute(
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'games_move'::regclass "
            "AND confrelid = 'games_game'::regclass AND contype = 'f'").fetchall())
    present = {name for (name,) in conn.execute(
        "SELECT conname FROM pg_constraint WHERE conrelid = 'games_move'::regclass AND contype = 'f'")}
    for name, definition in _FOREIGN_KEYS:  # `wake_at no fk`: without it (PostgreSQL's RI trigger and its row lock)
        if layout == "wake_at no fk" and name in present:
            conn.execute(f'ALTER TABLE games_move DROP CONSTRAINT "{name}"')
        elif layout != "wake_at no fk" and name not in present:
            conn.execute(f'ALTER TABLE games_move ADD CONSTRAINT "{name}" {definition} NOT VALID')
    for name, sql in list(_DROPPED.items()):  # what the last layout dropped, back as migrated
        conn.execute(sql)
        del _DROPPED[name]
    if layout == "wake_at few indexes":
        for name, definition, constraint in conn.execute(
                "SELECT i.relname, pg_get_indexdef(i.oid), c.conname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid "
                "LEFT JOIN pg_constraint c ON c.conindid = i.oid AND c.conrelid = x.indrelid "
                "WHERE x.indrelid = 'games_game'::regclass").fetchall():
            if name in FEW_INDEXES_KEEP or name in ("game_wake_active",):
                continue
            if constraint:
                defn = conn.execute("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = %s "
                                    "AND conrelid = 'games_game'::regclass", (constraint,)).fetchone()[0]
                conn.execute(f'ALTER TABLE games_game DROP CONSTRAINT "{constraint}"')
                _DROPPED[name] = f'ALTER TABLE games_game ADD CONSTRAINT "{constraint}" {defn}'
            else:
                conn.execute(f'DROP INDEX "{name}"')
                _DROPPED[name] = definition
    if layout == "wake_at no client index":
        defn = conn.execute("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = %s",
                            (CLIENT_INDEX,)).fetchone()[0]
        conn.execute(f'ALTER TABLE games_move DROP CONSTRAINT "{CLIENT_INDEX}"')
        _DROPPED[CLIENT_INDEX] = f'ALTER TABLE games_move ADD CONSTRAINT "{CLIENT_INDEX}" {defn}'
    wake = layout.startswith("wake_at")
    conn.execute(f"ALTER TABLE games_game {'ENABLE' if wake else 'DISABLE'} TRIGGER {TRIGGER}")
    if layout == "before":
        for sql in BEFORE_INDEXES:
            conn.execute(sql)
    elif layout == "brin":
        conn.execute("CREATE INDEX games_game_deadline_brin ON games_game USING brin (deadline)")
    elif layout == "live table":
        conn.execute("CREATE TABLE games_live (game_id bigint PRIMARY KEY, deadline timestamptz)")
        conn.execute("INSERT INTO games_live SELECT id, deadline FROM games_game WHERE status = 'active'")
        conn.execute("CREATE INDEX games_live_deadline ON games_live (deadline)")
    else:
        conn.execute("UPDATE games_game SET wake_at = deadline WHERE status = 'active'")
        conn.execute("CREATE INDEX game_wake_active ON games_game (wake_at) WHERE status = 'active'")
    conn.execute(f"ALTER TABLE games_game SET (fillfactor = {FILLFACTOR[layout]})")
    conn.execute("VACUUM ANALYZE games_game")
    if layout == "live table":
        conn.execute("VACUUM ANALYZE games_live")


def statement(layout: str, sql: str) -> str:
    """The move's statement under `layout`: the site's, plus for `live table` the narrow row's
    UPDATE as one more CTE (run only when the game's UPDATE was)."""
    if layout != "live table":
        return sql
    return sql.replace(
        "RETURNING xmin::text AS version), ",
        "RETURNING xmin::text AS version, id, deadline), live AS (UPDATE games_live SET deadline = game.deadline "
        "FROM game WHERE games_live.game_id = game.id), ", 1)


def lookups(conn, layout: str) -> list[str]:
    """The timer's look-ups under `layout`: 'name median ms (plan's first node)' each."""
    import json

    out = []
    for name, sql in zip(("nearest", "due batch"), LOOKUP_SQL[layout]):
        times, node = [], ""
        for _ in range(LOOKUPS):
            plan = conn.execute(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}").fetchone()[0]
            plan = plan if isinstance(plan, list) else json.loads(plan)
            times.append(plan[0]["Execution Time"])
            top = plan[0]["Plan"]
            while top.get("Plans") and top["Node Type"] in ("Result", "Limit", "Aggregate", "Sort", "Gather"):
                top = top["Plans"][0]
            node = top["Node Type"] + (f" on {top['Index Name']}" if "Index Name" in top else "")
        out.append(f"{name} {statistics.median(times):.3f} ms ({node})")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games playing in each round")
    parser.add_argument("--moves", type=int, default=28, help=f"moves a game per round (2-{len(SEQUENCE)})")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per layout")
    parser.add_argument("--live", type=int, default=100_000, help="live games in the background")
    parser.add_argument("--layouts", default=",".join(LAYOUTS), help=f"some of {', '.join(LAYOUTS)}")
    parser.add_argument("--rate", type=float, default=0.0,
                        help="moves a second, paced (0: back to back); the site's 50-game run plays ~50")
    args = parser.parse_args()
    layouts = [v.strip() for v in args.layouts.split(",") if v.strip()]
    if any(v not in LAYOUTS for v in layouts) or not 2 <= args.moves <= len(SEQUENCE):
        parser.error(f"--layouts: some of {LAYOUTS}; --moves 2-{len(SEQUENCE)}")
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

        print(f"cores: {os.cpu_count()}; load average {load()}; {args.games} games x {args.moves} moves per round, "
              f"{args.rounds} round(s) per layout; {args.live:,} live games in the background; "
              f"{f'{args.rate:g} moves a second' if args.rate else 'moves back to back'}", flush=True)
        dsn = {k: v for k, v in connection.get_connection_params().items() if k != "cursor_factory"}
        import urllib.parse

        from ws_relay import describe_split, listener, pg_parts, pg_split

        postmaster = listener(urllib.parse.urlsplit(backends.database_url).port)
        with psycopg.connect(**dsn, autocommit=True) as conn:
            conn.execute(BARE_TABLE_SQL)
            template = _started_games([(create_guest(), create_guest())])[0]
            columns = [name for (name,) in conn.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'games_game' "
                "AND column_name NOT IN ('id', 'wake_at') ORDER BY ordinal_position")]
            chosen = {"deadline": "now() + (600 + random() * 3600) * interval '1 second'", "turn_started_at": "now()"}
            conn.execute(f"INSERT INTO games_game ({', '.join(columns)}) SELECT "
                         f"{', '.join(chosen.get(name, name) for name in columns)} "
                         "FROM games_game, generate_series(1, %s) WHERE id = %s", (args.live, template))
        results: dict[str, list[float]] = {v: [] for v in layouts}
        hot_share: dict[str, list[tuple[int, int]]] = {v: [] for v in layouts}
        found: dict[str, list[str]] = {}
        for round_ in range(args.rounds):
            for layout in (layouts if round_ % 2 == 0 else layouts[::-1]):
                with psycopg.connect(**dsn, autocommit=True) as conn:
                    set_layout(conn, layout)
                    if layout not in found:
                        found[layout] = lookups(conn, layout)
                ids = _started_games([(create_guest(), create_guest()) for _ in range(args.games)])
                if layout == "live table":
                    with psycopg.connect(**dsn, autocommit=True) as conn:
                        conn.execute("INSERT INTO games_live SELECT id, deadline FROM games_game WHERE id = ANY(%s)",
                                     (ids,))
                hot0 = _updates(dsn)
                with contextlib.ExitStack() as conns:
                    moves_dsn = {**dsn, "prepare_threshold": None if layout == "wake_at unprepared"
                                 else lean.PREPARE_THRESHOLD}
                    pool = [conns.enter_context(psycopg.connect(**moves_dsn, autocommit=True))
                            for _ in range(CONNECTIONS.get(layout, 1))]
                    for conn in pool:
                        if layout in SESSION_SQL:
                            conn.execute(SESSION_SQL[layout])
                    state = {game_id: lean.read(game_id) for game_id in ids}
                    cpu0, moves = server_cpu_s(backends.database_url), 0
                    parts0 = pg_parts(postmaster)
                    wrapper = lean.loop_wrapper()
                    started = time.monotonic()
                    for ply in range(1, args.moves + 1):
                        for game_id in ids:
                            game, xmin = state[game_id]
                            step = advance(game, "X" if ply % 2 else "O", SEQUENCE[ply - 1], uuid.uuid4())
                            sql, params = lean._write(game, step.move, step.changed(), ply - 1, xmin, wrapper)
                            conn = pool[moves % len(pool)]
                            if args.rate and layout not in UNPACED:
                                time.sleep(max(0.0, started + moves / args.rate - time.monotonic()))
                            if layout == "bare insert":
                                conn.execute(BARE_INSERT_SQL, (f"r{round_}-{game_id}", ply, SEQUENCE[ply - 1],
                                                               "X" if ply % 2 else "O"), prepare=True)
                                row = (xmin,)
                            else:
                                row = conn.execute(statement(layout, sql), params, prepare=True).fetchone()
                            assert row is not None, "the optimistic check failed"
                            state[game_id] = (game, row[0])
                            moves += 1
                    plans = pool[0].execute("SELECT sum(generic_plans), sum(custom_plans) FROM pg_prepared_statements").fetchone()
                    checkxmin = pool[0].execute("SELECT string_agg(indexrelid::regclass::text, ',') FROM pg_index "
                                                "WHERE indcheckxmin AND indrelid IN ('games_game'::regclass, "
                                                "'games_move'::regclass)").fetchone()[0]
                    time.sleep(SETTLE_S)  # what the moves left to autovacuum is counted too
                    cpu = server_cpu_s(backends.database_url) - cpu0
                    split = pg_split(parts0, pg_parts(postmaster), moves)
                hot1 = _updates(dsn)
                per_move = cpu * 1000 / moves
                results[layout].append(per_move)
                updates, hot = hot1[0] - hot0[0], hot1[1] - hot0[1]
                hot_share[layout].append((hot, updates))
                print(f"round {round_ + 1} {layout:<11} PostgreSQL CPU {per_move:.3f} ms per move over {moves} moves; "
                      f"HOT updates of the game row {hot} of {updates}; prepared statements' plans: generic "
                      f"{plans[0]}, custom {plans[1]}; indexes with indcheckxmin: {checkxmin or 'none'}; "
                      f"by process: {describe_split(split)}; "
                      f"load average {load()}", flush=True)
        wake = _advance_cost(dsn, backends.database_url, args.live) if "wake_at" in layouts else None
        print(f"summary (medians of {args.rounds} round(s); {args.live:,} live games; load average now {load()}):")
        for layout in layouts:
            hot = sum(h for h, _u in hot_share[layout])
            updates = sum(u for _h, u in hot_share[layout])
            print(f"  {layout:<11} PostgreSQL CPU per move {statistics.median(results[layout]):.3f} ms "
                  f"({', '.join(f'{v:.3f}' for v in results[layout])}); HOT {hot} of {updates}; "
                  f"timer look-ups: {'; '.join(found[layout])}")
        if wake is not None:
            print(f"  wake_at: moving wake_at on costs PostgreSQL {wake:.3f} ms per game (time.advance_wakeups, "
                  f"{WAKE_GAMES} games); with {CLOCK_S:.0f}-s clocks that is one per game every ~{CLOCK_S:.0f} s: "
                  f"+{wake / CLOCK_S:.4f} ms per move at one move per game per second, "
                  f"+{wake * 5 / CLOCK_S:.4f} ms at one every 5 s")
    return 0


def _advance_cost(dsn: dict, database_url: str, live: int) -> float:
    """PostgreSQL CPU ms per game moved on by `time.advance_wakeups` (the wake_at layout): the
    `wake_at` of WAKE_GAMES live games set in the past, then moved on in the timer's batches."""
    import psycopg
    from django.utils import timezone

    from caro.games.services import time as deadlines

    with psycopg.connect(**dsn, autocommit=True) as conn:
        set_layout(conn, "wake_at")
        conn.execute("UPDATE games_game SET wake_at = now() - interval '1 second' WHERE id IN "
                     "(SELECT id FROM games_game WHERE status = 'active' AND deadline > now() + interval '60 second' "
                     "LIMIT %s)", (min(WAKE_GAMES, live),))
    time.sleep(SETTLE_S)  # the UPDATE's own background work is not counted
    cpu0, moved = server_cpu_s(database_url), 0
    now = timezone.now()
    while True:
        count = deadlines.advance_wakeups(now)
        moved += count
        if count < deadlines.WAKE_BATCH:
            break
    time.sleep(SETTLE_S)
    return (server_cpu_s(database_url) - cpu0) * 1000 / max(1, moved)


def _updates(dsn: dict) -> tuple[int, int]:
    """(updates, HOT updates) of games_game so far (after the statistics' flush)."""
    import psycopg

    time.sleep(1.5)
    with psycopg.connect(**dsn, autocommit=True) as conn:
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
                    to_move="X", move_time_ms=int(CLOCK_S * 1000), started_at=timezone.now())
        clock.start_turn(game, timezone.now())
        game.save()
        ids.append(game.pk)
    return ids


if __name__ == "__main__":
    sys.exit(main())
