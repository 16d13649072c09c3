"""Websocket relay benchmark: N concurrent friend-room games played by bots over real sockets.

Run against a running stack (`python3 dev.py run` in another terminal):

    .venv/bin/python bench/ws_relay.py --games 50
    .venv/bin/python bench/ws_relay.py --games 500 --url http://127.0.0.1:8000

For each game, two bot players create and join a room through the real HTTP pages (guest sessions,
CSRF and all; the second seat is taken during the ramp-up, since that starts the 1-minute clock),
open one websocket each, and play 30 moves that never make a five (a two-row
checkerboard). The sockets connect over a ramp-up (default 10 s), then all games start together; a
bot answers the opponent's move after a random think time (default 100-300 ms).
Measured per move: relay latency = from the mover sending its `move` frame to the OPPONENT's socket
receiving the broadcast `move` event (service transaction, Redis channel layer and both sockets
included). Printed: p50/p95/p99/max latency in ms, moves relayed per second, errors.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import random
import re
import statistics
import sys
import time
import urllib.parse
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor

import websockets

LETTERS = "ABCDEFGHIJKLMNO"
# Rows 1 and 2 in order; X plays the even indexes: a checkerboard, so nobody ever makes five.
SEQUENCE = [f"{c}{r}" for r in (1, 2) for c in LETTERS]


class Player:
    """One bot with its own cookie jar (its own guest session)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.jar if c.name == name), "")

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as r:
            return r.read().decode()

    def post(self, path: str) -> str:
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": self.cookie("csrftoken")}).encode()
        req = urllib.request.Request(self.base + path, data=data, headers={"Referer": self.base + "/"})
        with self.opener.open(req, timeout=30) as r:
            return r.geturl()

    def cookie_header(self) -> str:
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


def make_game(base: str) -> tuple[str, Player, Player]:
    """Create a room as X and open it as O through the HTTP pages; return (code, x, o).

    O takes the seat later (`join`), just before the game is played: taking it starts X's clock.
    """
    x, o = Player(base), Player(base)
    x.get("/")
    url = x.post("/rooms/new")
    code = re.search(r"/r/([A-Z0-9]{6})/", url).group(1)
    o.get(f"/r/{code}/")
    return code, x, o


class Stats:
    def __init__(self) -> None:
        self.latencies_ms: list[float] = []
        self.errors: list[str] = []
        self.moves = 0
        self.connect_retries = 0


async def play_game(base_ws: str, origin: str, code: str, x: Player, o: Player, stats: Stats,
                    think: tuple[float, float], start: asyncio.Event) -> None:
    sockets = {}
    sent_at: dict[str, float] = {}
    done = asyncio.Event()
    await asyncio.to_thread(o.post, f"/r/{code}/join")
    for side, player in (("X", x), ("O", o)):
        for attempt in range(3):  # like the page, a client retries a failed connect
            try:
                sockets[side] = await websockets.connect(
                    f"{base_ws}/ws/room/{code}/",
                    additional_headers={"Cookie": player.cookie_header(), "Origin": origin},
                    open_timeout=60, max_queue=None,
                )
                break
            except (OSError, websockets.exceptions.InvalidMessage, websockets.exceptions.InvalidHandshake):
                stats.connect_retries += 1
                if attempt == 2:
                    raise
                await asyncio.sleep(1 + attempt)
    for ws in sockets.values():  # initial state frames
        first = json.loads(await ws.recv())
        assert first["type"] == "state", first
    await start.wait()

    async def send_move(side: str, ply: int) -> None:
        await asyncio.sleep(random.uniform(*think))
        move_id = str(uuid.uuid4())
        sent_at[move_id] = time.perf_counter()
        await sockets[side].send(json.dumps({"type": "move", "square": SEQUENCE[ply - 1], "ply": ply, "id": move_id}))

    async def listen(side: str) -> None:
        ws = sockets[side]
        async for raw in ws:
            frame = json.loads(raw)
            if frame["type"] == "error":
                stats.errors.append(frame["code"])
                done.set()
                return
            if frame["type"] != "move":
                continue
            if frame["side"] != side:  # the opponent's move reached me: relay latency
                t0 = sent_at.pop(frame["id"], None)
                if t0 is not None:
                    stats.latencies_ms.append((time.perf_counter() - t0) * 1000)
                    stats.moves += 1
                if frame["ply"] >= len(SEQUENCE):
                    done.set()
                    return
                asyncio.create_task(send_move(side, frame["ply"] + 1))

    listeners = [asyncio.create_task(listen(s)) for s in ("X", "O")]
    await send_move("X", 1)
    try:
        await asyncio.wait_for(done.wait(), timeout=600)
    except asyncio.TimeoutError:
        stats.errors.append("timeout")
    for task in listeners:
        task.cancel()
    for ws in sockets.values():
        await ws.close()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


async def main_async(args) -> int:
    base = args.url.rstrip("/")
    parsed = urllib.parse.urlparse(base)
    base_ws = ("wss://" if parsed.scheme == "https" else "ws://") + parsed.netloc
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=args.setup_threads) as pool:
        games = list(pool.map(lambda _: make_game(base), range(args.games)))
    setup_s = time.perf_counter() - t0
    print(f"setup: {args.games} rooms created over HTTP in {setup_s:.1f} s (seats taken during the ramp-up)")
    stats = Stats()
    start = asyncio.Event()
    think = (args.think_min_ms / 1000, args.think_max_ms / 1000)
    tasks = []
    for code, x, o in games:
        tasks.append(asyncio.create_task(play_game(base_ws, base, code, x, o, stats, think, start)))
        await asyncio.sleep(args.ramp_s / max(1, len(games)))  # players arrive over the ramp-up time
    await asyncio.sleep(2.0)
    t1 = time.perf_counter()
    start.set()
    await asyncio.gather(*tasks, return_exceptions=False)
    elapsed = time.perf_counter() - t1
    lat = stats.latencies_ms
    print(f"games={args.games} sockets={2 * args.games} think={args.think_min_ms}-{args.think_max_ms} ms "
          f"moves/game={len(SEQUENCE)}")
    print(f"moves relayed: {stats.moves} in {elapsed:.1f} s = {stats.moves / elapsed:.1f} moves/s")
    print(f"relay latency ms: p50={percentile(lat, 50):.1f} p95={percentile(lat, 95):.1f} "
          f"p99={percentile(lat, 99):.1f} max={max(lat) if lat else float('nan'):.1f} "
          f"mean={statistics.fmean(lat) if lat else float('nan'):.1f}")
    print(f"errors: {len(stats.errors)} {sorted(set(stats.errors))}; connect retries: {stats.connect_retries}")
    return 0 if not stats.errors and stats.moves == args.games * (len(SEQUENCE)) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="base URL of the running site")
    parser.add_argument("--games", type=int, default=50, help="concurrent games (2 sockets each)")
    parser.add_argument("--think-min-ms", type=int, default=100)
    parser.add_argument("--think-max-ms", type=int, default=300)
    parser.add_argument("--setup-threads", type=int, default=16)
    parser.add_argument("--ramp-s", type=float, default=10.0, help="seconds over which the sockets connect")
    args = parser.parse_args()
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
