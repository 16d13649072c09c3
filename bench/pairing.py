"""Matchmaking benchmark: seekers over real seek sockets, a real Daphne, worker and beat.

    .venv/bin/python bench/pairing.py                    # 2,000 seekers over 10 s, then the pass timings
    .venv/bin/python bench/pairing.py --seekers 400 --waiting 2000

Starts a throw-away site (bench/stack.py: embedded PostgreSQL and Redis, Daphne, a Celery worker and
beat). Part 1: `--seekers` guests (sessions made through the ORM) open a seek socket each before the
ramp, then send `seek` at a random moment of `--ramp-s` seconds, each for one of `--choices`
quick-match choices. For every game made, the latency is from the moment a compatible partner was
present (the later of the two `seek` frames sent) to the moment BOTH sockets had received `paired`.
Printed: p50/p95/p99/max in ms, games, players left waiting, and players paired twice (must be 0:
counted from the sockets' `paired` events and from the stored pairings).

Part 2 (in this process, against the same database, the beat stopped): `--waiting` live ranked
seeks in one category, then the time of one pass over them when none can pair (ratings farther
apart than any window: the cost of reading and windowing them all), of arrivals while they wait
(`pairing.arrive`: a ranked one, a quick one waiting alone, a quick one making its game; time and
query count), and of one pass when all can pair (it makes at most PASS_PAIR_LIMIT games).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import websockets  # noqa: E402

from bench.stack import Site  # noqa: E402

SITE_ENV = {"CARO_WS_PER_ADDRESS": "0", "CARO_WS_PER_ADDRESS_ROOM": "0", "CARO_WS_PER_SESSION": "0",
            "CARO_WS_PER_SESSION_ROOM": "0"}  # 0: that limit is off
CHOICES = ["caro-15-blocked", "caro-15", "caro-19-blocked", "reversi"]


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))]


def make_sessions(n: int) -> list[tuple[int, str]]:
    """n guests signed in: [(user id, sessionid)]. The guests are made as `accounts.guests` makes
    them and their sessions written as `django.contrib.auth.login` writes them, in bulk (signing
    2,000 guests in one by one through the test client took minutes on a busy machine)."""
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone

    from accounts.guests import generate_guest_name
    from accounts.models import User

    users = []
    for _ in range(n):
        user = User(username=f"guest-{secrets.token_hex(6)}", display_name=generate_guest_name(), is_guest=True)
        user.set_unusable_password()
        users.append(user)
    users = User.objects.bulk_create(users)
    store, expires = SessionStore(), timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE)
    sessions = [Session(session_key=secrets.token_hex(16), expire_date=expires, session_data=store.encode({
        SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
        HASH_SESSION_KEY: user.get_session_auth_hash()})) for user in users]
    Session.objects.bulk_create(sessions)
    return [(user.pk, session.session_key) for user, session in zip(users, sessions)]


class Seeker:
    def __init__(self, user_id: int, session: str, choice: str, at: float) -> None:
        self.user_id, self.session, self.choice, self.at = user_id, session, choice, at
        self.sent = None      # perf_counter when `seek` was sent
        self.heard = []       # (perf_counter, game_id) of every `paired`
        self.errors = []


async def run_seeker(ws_url: str, origin: str, seeker: Seeker, t0: float, ready: asyncio.Event,
                     connected: list, done: asyncio.Event, gate: asyncio.Semaphore) -> None:
    headers = {"Origin": origin, "Cookie": f"sessionid={seeker.session}"}
    async with gate:  # the sockets open a few at a time, before the ramp (that is not what is measured)
        for attempt in range(10):
            try:
                socket = await websockets.connect(ws_url + "/ws/seek/", additional_headers=headers,
                                                  open_timeout=60, max_queue=None)
                await asyncio.wait_for(socket.recv(), 60)  # the hello: the server has taken the socket
                break
            except Exception as error:  # noqa: BLE001 - a loaded server may refuse a few; retry
                if attempt == 9:
                    seeker.errors.append(f"connect: {error}")
                    connected.append(1)
                    return
                await asyncio.sleep(1 + attempt)
    connected.append(1)
    async with socket:
        async def listen():
            async for raw in socket:
                frame = json.loads(raw)
                if frame["type"] == "paired":
                    seeker.heard.append((time.perf_counter(), frame["game_id"]))
                elif frame["type"] == "error":
                    seeker.errors.append(frame["code"])

        listener = asyncio.create_task(listen())
        await ready.wait()
        await asyncio.sleep(max(0.0, t0 + seeker.at - time.perf_counter()))
        seeker.sent = time.perf_counter()
        await socket.send(json.dumps({"type": "seek", "mode": "quick", "choice": seeker.choice}))

        async def pinger():
            while True:
                await asyncio.sleep(10)
                await socket.send(json.dumps({"type": "ping"}))

        pings = asyncio.create_task(pinger())
        await done.wait()
        pings.cancel()
        listener.cancel()


async def part1(site: Site, args) -> int:
    sessions = await asyncio.to_thread(make_sessions, args.seekers)
    rng = random.Random(args.seed)
    seekers = [Seeker(uid, sid, rng.choice(CHOICES[: args.choices]), rng.uniform(0, args.ramp_s))
               for uid, sid in sessions]
    ready, done = asyncio.Event(), asyncio.Event()
    connected: list = []
    gate = asyncio.Semaphore(args.connect_at_once)
    opened = time.perf_counter()
    tasks = [asyncio.create_task(run_seeker(site.ws_url, site.url, s, 0, ready, connected, done, gate))
             for s in seekers]
    while len(connected) < len(seekers):
        await asyncio.sleep(0.2)
    print(f"        ({time.perf_counter() - opened:.0f} s to open the sockets)")
    print(f"part 1: {len(seekers)} seek sockets open; seeking over {args.ramp_s:.0f} s, "
          f"{args.choices} choices")
    t0, wall0 = time.perf_counter(), time.time()
    for s in seekers:
        s.at += t0
    # `at` is now absolute (run_seeker is given t0 = 0)
    ready.set()
    await asyncio.sleep(args.ramp_s)
    # Then until no socket has heard of a new game for settle_s (at most max_wait_s in all).
    last, heard = time.perf_counter(), 0
    while time.perf_counter() - t0 < args.max_wait_s:
        now_heard = sum(len(s.heard) for s in seekers)
        if now_heard != heard:
            last, heard = time.perf_counter(), now_heard
        elif heard and time.perf_counter() - last > args.settle_s:
            break
        await asyncio.sleep(0.5)
    seeks_sent = [s.sent for s in seekers if s.sent is not None]
    print(f"        the last seek frame left {max(seeks_sent) - t0:.1f} s after the start; "
          f"waited {time.perf_counter() - t0:.0f} s in all")
    done.set()
    await asyncio.gather(*tasks, return_exceptions=True)

    by_user = {s.user_id: s for s in seekers}
    from ranking.seeks import Pairing

    rows = await asyncio.to_thread(lambda: list(Pairing.objects.values_list("game_id", "host_id", "guest_id",
                                                                            "created_at")))
    pairings = [row[:3] for row in rows]
    latencies, missing = [], 0
    for game_id, host, guest, created_at in rows:
        a, b = by_user.get(host), by_user.get(guest)
        if a is None or b is None:
            continue
        heard_a = [t for t, g in a.heard if g == game_id]
        heard_b = [t for t, g in b.heard if g == game_id]
        if not heard_a or not heard_b or a.sent is None or b.sent is None:
            missing += 1
            made_s = created_at.timestamp() - (wall0 - t0)  # on the perf_counter scale
            print(f"        game {game_id} not heard by {'host' if not heard_a else ''} {'guest' if not heard_b else ''}: "
                  f"made {made_s - t0:.1f} s after the start, seeks sent at "
                  f"{(a.sent or t0) - t0:.1f} / {(b.sent or t0) - t0:.1f} s")
            continue
        latencies.append((max(heard_a[0], heard_b[0]) - max(a.sent, b.sent)) * 1000)
    seated = [uid for _g, h, gu in pairings for uid in (h, gu)]
    twice_db = len(seated) - len(set(seated))
    twice_sockets = sum(1 for s in seekers if len({g for _t, g in s.heard}) > 1)
    waiting = sum(1 for s in seekers if not s.heard)
    errors = [e for s in seekers for e in s.errors]
    unconnected = sum(1 for s in seekers if s.sent is None)
    print(f"games: {len(pairings)}; players still waiting at the end: {waiting} "
          f"(an odd one per choice is expected); games a socket never heard of: {missing}")
    print(f"partner present -> both sockets told, ms: p50={percentile(latencies, 50):.0f} "
          f"p95={percentile(latencies, 95):.0f} p99={percentile(latencies, 99):.0f} "
          f"max={max(latencies) if latencies else float('nan'):.0f} "
          f"mean={statistics.fmean(latencies) if latencies else float('nan'):.0f} (target p99 <= 1000)")
    print(f"players paired twice: {twice_db} (stored pairings), {twice_sockets} (sockets); errors: {len(errors)} "
          f"{sorted(set(errors))[:5]}; seekers whose socket never opened: {unconnected}")
    return 0 if twice_db == 0 and twice_sockets == 0 and missing == 0 and not unconnected else 1


def part2(site: Site, args) -> None:
    from datetime import timedelta

    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from accounts.models import User
    from ranking import pairing
    from ranking.seeks import Seek

    # The beat would pass over the same seeks (and hold the choice's pass lock): part 2 times alone.
    site.stop("beat")
    Seek.objects.all().delete()
    now = timezone.now()
    n = args.waiting
    users = User.objects.bulk_create([User(username=f"bench-wait-{i}", is_guest=False) for i in range(n)])
    window_max = pairing.RATING_WINDOW_START + pairing.RATING_WINDOW_WIDEN_MAX
    # Apart: ratings farther than any window (no pairs); the scan, lock and windowing of every seek.
    Seek.objects.bulk_create([
        Seek(user=u, mode="ranked", choice="caro", rating=i * (window_max + 1), queued_at=now, seen_at=now,
             joined_at=now - timedelta(minutes=1), sockets=1)
        for i, u in enumerate(users)])
    times = []
    for _ in range(5):
        t = time.perf_counter()
        made = pairing.run_pass("ranked", "caro", now=now)
        times.append((time.perf_counter() - t) * 1000)
        assert not made
    print(f"part 2: one pass over {n} waiting ranked seeks that cannot pair: "
          f"median {statistics.median(times):.0f} ms (min {min(times):.0f})")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE ranking_seek")
    # Arrivals while they all wait: a ranked one among them (its window holds nobody), and a quick
    # pair in another choice (the second arrival makes the game).
    timings = {"ranked, nobody in its window": [], "quick, waiting alone": [], "quick, makes the game": []}
    queries = {}
    for i in range(7):
        a, b, c = User.objects.bulk_create([User(username=f"bench-arrive-{i}-{k}", is_guest=False) for k in "abc"])
        Seek.objects.filter(user=c).delete()
        for what, user, mode, choice in (("ranked, nobody in its window", c, "ranked", "caro"),
                                         ("quick, waiting alone", a, "quick", "caro-15-blocked"),
                                         ("quick, makes the game", b, "quick", "caro-15-blocked")):
            with CaptureQueriesContext(connection) as captured:
                t = time.perf_counter()
                _seek, made = pairing.arrive(user, mode, choice, now=now)
                timings[what].append((time.perf_counter() - t) * 1000)
            queries[what] = len(captured)
            assert (made is not None) == (what == "quick, makes the game"), what
        Seek.objects.filter(user=c).delete()
    for what, values in timings.items():
        print(f"        an arrival ({what}; {n} ranked seeks waiting): median {statistics.median(values):.0f} ms "
              f"(min {min(values):.0f}), {queries[what]} queries")
    # A batch of arrivals (what one web process sends while its previous batch was in PostgreSQL):
    # BATCH_MAX quick seeks of two choices, half of them making games with the other half.
    batch_times, batch_queries = [], 0
    for i in range(5):
        users = User.objects.bulk_create([User(username=f"bench-batch-{i}-{k}", is_guest=False)
                                          for k in range(pairing.BATCH_MAX)])
        requests = [(u, "quick", ("caro-15-blocked", "reversi")[k % 2], True) for k, u in enumerate(users)]
        with CaptureQueriesContext(connection) as captured:
            t = time.perf_counter()
            answers = pairing.arrive_many(requests, now=now)
            batch_times.append((time.perf_counter() - t) * 1000)
        batch_queries = len(captured)
        assert sum(1 for _seek, made in answers if made is not None) == len(requests)
    print(f"        a batch of {pairing.BATCH_MAX} quick arrivals making {pairing.BATCH_MAX // 2} games "
          f"({n} ranked seeks waiting): median {statistics.median(batch_times):.0f} ms "
          f"(min {min(batch_times):.0f}), {batch_queries} queries")
    # Close: every seek can pair; one pass makes at most PASS_PAIR_LIMIT games (the next pass goes on).
    with transaction.atomic():
        Seek.objects.filter(mode="ranked").update(rating=1500)
    t = time.perf_counter()
    made = pairing.run_pass("ranked", "caro", now=now)
    elapsed = (time.perf_counter() - t) * 1000
    print(f"        one pass over {n} waiting ranked seeks that can all pair: {elapsed:.0f} ms for {len(made)} games "
          f"({elapsed / max(1, len(made)):.1f} ms per game)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seekers", type=int, default=2000)
    parser.add_argument("--ramp-s", type=float, default=10.0, help="seconds over which the seekers join")
    parser.add_argument("--settle-s", type=float, default=10.0,
                        help="after the ramp, stop once no socket heard of a game for this long")
    parser.add_argument("--max-wait-s", type=float, default=180.0, help="longest run of part 1 from the ramp's start")
    parser.add_argument("--choices", type=int, default=4, choices=range(1, len(CHOICES) + 1))
    parser.add_argument("--waiting", type=int, default=10_000, help="waiting seeks for the pass timings")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--connect-at-once", type=int, default=8, help="sockets opening at the same time")
    parser.add_argument("--webs", type=int, default=1,
                        help="Daphne processes sharing the port (SO_REUSEPORT, as `dev.py run --web N`)")
    parser.add_argument("--skip-part2", action="store_true", help="part 1 only")
    parser.add_argument("--skip-part1", action="store_true", help="part 2 only")
    args = parser.parse_args()
    with Site("bench-pairing", worker=True, beat=True, extra_env=SITE_ENV, webs=args.webs) as site:
        site.django()
        print(f"site: {args.webs} web process(es), one Celery worker, one beat; load average at start "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        code = 0
        if not args.skip_part1:
            code = asyncio.run(part1(site, args))
            print(f"        load average after part 1: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        if not args.skip_part2:
            part2(site, args)
            print(f"        load average after part 2: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return code


if __name__ == "__main__":
    sys.exit(main())
