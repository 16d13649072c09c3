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
import contextlib
import http.cookiejar
import json
import os
import random
import re
import statistics
import sys
import time
import urllib.parse
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
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
        self.opened = 0


def http_base(ws: str, origin: str) -> str:
    """The page origin a browser would send to the websocket base `ws` (scheme of `origin`)."""
    return origin.split("://", 1)[0] + "://" + ws.split("://", 1)[1]


def ws_base(url: str) -> str:
    parsed = urllib.parse.urlparse(url)
    return ("wss://" if parsed.scheme == "https" else "ws://") + parsed.netloc


async def play_game(base_ws: str | tuple[str, str], origin: str, code: str, x: Player, o: Player, stats: Stats,
                    think: tuple[float, float], start: asyncio.Event, opened: asyncio.Event | None = None,
                    play: bool = True) -> None:
    """One game. `base_ws` is the websocket base of both players, or (X's, O's) to put them on
    different web processes. `opened`, when given, is awaited after both sockets are open (the
    memory measurement happens then) and before `start`; without `play` the sockets then close."""
    sockets = {}
    sent_at: dict[str, float] = {}
    pending: set[asyncio.Task] = set()
    done = asyncio.Event()
    bases = dict(zip("XO", (base_ws, base_ws) if isinstance(base_ws, str) else base_ws))
    await asyncio.to_thread(o.post, f"/r/{code}/join")
    for side, player in (("X", x), ("O", o)):
        for attempt in range(3):  # like the page, a client retries a failed connect
            try:
                sockets[side] = await websockets.connect(
                    f"{bases[side]}/ws/room/{code}/",
                    additional_headers={"Cookie": player.cookie_header(), "Origin": http_base(bases[side], origin)},
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
    if opened is not None:
        stats.opened += 1
        await opened.wait()
    await start.wait()
    if not play:
        for ws in sockets.values():
            await ws.close()
        return

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
                # Keep a reference: the event loop holds tasks weakly, and a collected task's move is lost.
                task = asyncio.create_task(send_move(side, frame["ply"] + 1))
                pending.add(task)
                task.add_done_callback(pending.discard)

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


async def run_load(base: str, games: int, args, own: list[str] | None = None, pids: list[int] | None = None,
                   play: bool = True, probe: dict | None = None) -> dict:
    """One load run: `games` rooms made through `base`'s pages, two sockets each, 30 moves a game.

    `own` (one base URL per web process): X of game i connects to process i mod N and O to process
    i+1 mod N, so with N = 2 the two players of every game are on different processes. `pids` (the
    web processes): their summed RSS is read before the sockets open, once all players' sockets are
    open, and again after one more (spectator) socket per game, giving bytes per live game (its two
    players' sockets included) and per extra open socket. Without `play` no move is made (a memory
    measurement only). `probe` (from `probes`): CPU seconds of each part and Redis commands are
    counted over the played part, per move. Returns the measured numbers."""
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=args.setup_threads) as pool:
        made = list(pool.map(lambda _: make_game(base), range(games)))
    setup_s = time.perf_counter() - t0
    stats = Stats()
    start, opened = asyncio.Event(), asyncio.Event()
    think = (args.think_min_ms / 1000, args.think_max_ms / 1000)
    bases = [ws_base(u) for u in own] if own else [ws_base(base)]
    rss0 = rss(pids)
    tasks = []
    for i, (code, x, o) in enumerate(made):
        pair = (bases[i % len(bases)], bases[(i + 1) % len(bases)])
        tasks.append(asyncio.create_task(play_game(pair, base, code, x, o, stats, think, start, opened, play)))
        await asyncio.sleep(args.ramp_s / max(1, games))  # players arrive over the ramp-up time
    deadline = time.monotonic() + 120
    while stats.opened < games and time.monotonic() < deadline and not any(t.done() for t in tasks):
        await asyncio.sleep(0.2)
    await asyncio.sleep(2.0)
    rss1 = rss(pids)
    spectators = []
    if pids:
        for i, (code, _x, _o) in enumerate(made):
            spectators.append(await websockets.connect(f"{bases[i % len(bases)]}/ws/room/{code}/",
                                                       additional_headers={"Origin": http_base(bases[i % len(bases)], base)},
                                                       open_timeout=60))
            await spectators[-1].recv()  # its state frame: the consumer is set up
        await asyncio.sleep(2.0)
    rss2 = rss(pids)
    for ws in spectators:
        await ws.close()
    opened.set()
    before = {k: cpu_seconds(v) for k, v in probe["pids"].items()} if probe else {}
    commands = redis_commands(probe["redis_url"]) if probe else 0
    t1 = time.perf_counter()
    start.set()
    await asyncio.gather(*tasks, return_exceptions=False)
    elapsed = time.perf_counter() - t1
    per_move = {}
    if probe and stats.moves:
        per_move = {k: (cpu_seconds(v) - before[k]) * 1000 / stats.moves for k, v in probe["pids"].items()}
        per_move["redis_commands"] = (redis_commands(probe["redis_url"]) - commands) / stats.moves
    lat = stats.latencies_ms
    ok = not stats.errors and stats.moves == (games * len(SEQUENCE) if play else 0)
    return {
        "games": games, "setup_s": setup_s, "moves": stats.moves, "elapsed_s": elapsed,
        "moves_per_s": stats.moves / max(elapsed, 1e-9), "p50": percentile(lat, 50), "p95": percentile(lat, 95),
        "p99": percentile(lat, 99), "max": max(lat) if lat else float("nan"),
        "mean": statistics.fmean(lat) if lat else float("nan"), "errors": stats.errors,
        "retries": stats.connect_retries, "ok": ok, "load": os.getloadavg(),
        "per_game_kib": (rss1 - rss0) / games / 1024 if pids else None,
        "per_socket_kib": (rss2 - rss1) / games / 1024 if pids else None, "per_move": per_move,
    }


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by `pids`, their children, and reaped children."""
    total = 0.0
    for pid in pids:
        try:
            proc = psutil.Process(pid)
            procs = [proc, *proc.children(recursive=True)]
            t = proc.cpu_times()
            total += t.children_user + t.children_system
            for each in procs:
                t = each.cpu_times()
                total += t.user + t.system
        except psutil.Error:
            continue
    return total


def listener(port: int) -> int | None:
    """The pid listening on TCP `port` on this machine (needs the rights to see it)."""
    return next((c.pid for c in psutil.net_connections(kind="tcp")
                 if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port and c.pid), None)


def probes(site) -> dict:
    """What to watch during a run of `site` (bench/stack.py): pids per part, and the Redis URL."""
    parts = {"web": list(site.web_pids), "worker": [site.procs["worker"].pid]}
    for name, url in (("postgres", site.env["DATABASE_URL"]), ("redis", site.env["REDIS_URL"])):
        pid = listener(urllib.parse.urlsplit(url).port)
        if pid:
            parts[name] = [pid]
    return {"pids": parts, "redis_url": site.env["REDIS_URL"]}


def redis_commands(url: str) -> int:
    import redis

    client = redis.Redis.from_url(url)
    try:
        return int(client.info("stats")["total_commands_processed"])
    finally:
        client.close()


def rss(pids: list[int] | None) -> int:
    """Summed resident memory (bytes) of `pids` (0 without pids)."""
    return sum(psutil.Process(pid).memory_info().rss for pid in pids or ())


def show(result: dict, label: str = "") -> None:
    load = " ".join(f"{v:.2f}" for v in result["load"])
    print(f"{label}games={result['games']} sockets={2 * result['games']} moves={result['moves']} "
          f"in {result['elapsed_s']:.1f} s = {result['moves_per_s']:.1f} moves/s; relay ms p50={result['p50']:.1f} "
          f"p95={result['p95']:.1f} p99={result['p99']:.1f} max={result['max']:.1f}; errors={len(result['errors'])} "
          f"{sorted(set(result['errors']))} retries={result['retries']}; setup {result['setup_s']:.1f} s; "
          f"load average {load}", flush=True)
    if result["per_move"]:
        pm = result["per_move"]
        cpu = ", ".join(f"{k} {v:.2f}" for k, v in pm.items() if k != "redis_commands")
        print(f"{label}per move: CPU ms {cpu}; Redis commands {pm['redis_commands']:.1f}", flush=True)
    if result["per_game_kib"] is not None:
        print(f"{label}memory: {result['per_game_kib']:.0f} KiB per live game (its two sockets included), "
              f"{result['per_socket_kib']:.0f} KiB per further open socket (web processes' RSS)", flush=True)


async def main_async(args) -> int:
    base = args.url.rstrip("/")
    result = await run_load(base, args.games, args)
    print(f"think={args.think_min_ms}-{args.think_max_ms} ms moves/game={len(SEQUENCE)}")
    show(result)
    return 0 if result["ok"] else 1


async def compare_webs(args) -> int:
    """`--webs 1,2`: a site of its own per count (bench/stack.py, limits off; all started first, so a
    change in the machine's load hits every count alike), then the ladder of game counts with the
    counts interleaved at each step (`--repeat` rounds, alternating the order); a count leaves the
    ladder after a step whose median p99 is over `--p99-ms`. Prints the most moves/s with median
    p99 at or under it for each count and the ratio to the first count."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from stack import Site

    counts = [int(v) for v in args.webs.split(",")]
    ladder = [int(v) for v in args.ladder.split(",")]
    limits_off = {"CARO_ROOMS_PER_MINUTE_PER_ADDRESS": "0", "CARO_GUESTS_PER_MINUTE_PER_ADDRESS": "0",
                  "CARO_WS_PER_ADDRESS": "0", "CARO_WS_PER_ADDRESS_ROOM": "0", "CARO_WS_PER_SESSION": "0",
                  "CARO_WS_PER_SESSION_ROOM": "0"}
    print(f"cores: {os.cpu_count()} (client, PostgreSQL, Redis and the web processes share them); "
          f"think={args.think_min_ms}-{args.think_max_ms} ms, moves/game={len(SEQUENCE)}, "
          f"target p99 <= {args.p99_ms:.0f} ms, {args.repeat} round(s) per step", flush=True)
    best: dict[int, dict | None] = {n: None for n in counts}
    peak: dict[int, float] = {n: 0.0 for n in counts}  # the most moves/s of any step, whatever its p99
    failed = False
    with contextlib.ExitStack() as stack:
        sites = {}
        for n in counts:
            sites[n] = stack.enter_context(Site(f"bench-ws-relay-{n}", worker=True, extra_env=limits_off, webs=n))
            if len(sites) == 1:  # the others use the same PostgreSQL (a database each) and Redis (a db number each)
                first_site = sites[n]
                os.environ.setdefault("DATABASE_URL", first_site._admin_url)
                os.environ.setdefault("REDIS_URL", first_site.env["REDIS_URL"])
            limits_off = {**limits_off, "REDIS_URL": first_site.env["REDIS_URL"].rsplit("/", 1)[0] + f"/{len(sites)}"}
        own = {n: site.web_urls if n > 1 else None for n, site in sites.items()}
        for n, site in sites.items():
            await run_load(site.url, 2, args, own[n])  # warm-up: imports, pools, templates
        if args.memory_games:
            for n, site in sites.items():
                memory = await run_load(site.url, args.memory_games, args, own[n], site.web_pids, play=False)
                print(f"webs={n} memory, {args.memory_games} games open (no moves): {memory['per_game_kib']:.0f} KiB "
                      f"per live game (its two players' sockets included), {memory['per_socket_kib']:.0f} KiB per "
                      f"further open socket (RSS of the web processes; load average "
                      f"{' '.join(f'{v:.2f}' for v in memory['load'])})", flush=True)
        going = list(counts)
        for games in ladder:
            runs: dict[int, list[dict]] = {n: [] for n in going}
            for round_ in range(args.repeat):
                for n in (going if round_ % 2 == 0 else going[::-1]):
                    result = await run_load(sites[n].url, games, args, own[n], probe=probes(sites[n]))
                    show(result, f"webs={n} ")
                    failed |= not result["ok"]
                    runs[n].append(result)
            for n in list(going):
                p99 = statistics.median(r["p99"] for r in runs[n])
                rate = statistics.median(r["moves_per_s"] for r in runs[n])
                print(f"webs={n} games={games}: median {rate:.1f} moves/s, median p99 {p99:.1f} ms", flush=True)
                peak[n] = max(peak[n], rate)
                if p99 > args.p99_ms or not all(r["ok"] for r in runs[n]):
                    going.remove(n)
                elif best[n] is None or rate > best[n]["moves_per_s"]:
                    best[n] = {"games": games, "moves_per_s": rate, "p99": p99}
            if not going:
                break
    first = best[counts[0]]
    for n in counts:
        print(f"webs={n}: most moves/s of any step (saturation when the ladder went past it): {peak[n]:.1f} "
              f"= {peak[n] / peak[counts[0]]:.2f}x webs={counts[0]}" if peak[counts[0]] else f"webs={n}: no step ran")
    print(f"load average now: {' '.join(f'{v:.2f}' for v in os.getloadavg())}; cores: {os.cpu_count()}")
    for n in counts:
        b = best[n]
        if b is None:
            print(f"webs={n}: no step of the ladder had p99 <= {args.p99_ms:.0f} ms")
            continue
        ratio = (f"{b['moves_per_s'] / first['moves_per_s']:.2f}x webs={counts[0]}" if first
                 else f"no ratio: webs={counts[0]} had no step under that p99")
        print(f"webs={n}: most load with p99 <= {args.p99_ms:.0f} ms: {b['games']} games, {b['moves_per_s']:.1f} moves/s "
              f"(p99 {b['p99']:.1f} ms) = {ratio}")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="base URL of the running site")
    parser.add_argument("--games", type=int, default=50, help="concurrent games (2 sockets each)")
    parser.add_argument("--webs", help="e.g. 1,2: start a site of its own with that many web processes, each in "
                                       "turn, run --ladder on each and compare (ignores --url and --games)")
    parser.add_argument("--ladder", default="5,10,20,40,80,160", help="game counts tried with --webs, in order")
    parser.add_argument("--memory-games", type=int, default=300,
                        help="with --webs: games opened (not played) to measure memory per game and socket (0: skip)")
    parser.add_argument("--repeat", type=int, default=2, help="with --webs: rounds per ladder step")
    parser.add_argument("--p99-ms", type=float, default=100.0, help="the p99 at which --webs compares moves/s")
    parser.add_argument("--think-min-ms", type=int, default=100)
    parser.add_argument("--think-max-ms", type=int, default=300)
    parser.add_argument("--setup-threads", type=int, default=16)
    parser.add_argument("--ramp-s", type=float, default=10.0, help="seconds over which the sockets connect")
    args = parser.parse_args()
    return asyncio.run(compare_webs(args) if args.webs else main_async(args))


if __name__ == "__main__":
    sys.exit(main())
