"""Websocket relay benchmark: N concurrent friend-room games played by bots over real sockets,
against this site and, side by side, against a bare relay of our own (bench/bare_relay.py).

    .venv/bin/python bench/ws_relay.py --games 50,200            # a running `dev.py run` (--url)
    .venv/bin/python bench/ws_relay.py --bare --games 50,500,1000  # own site + bare relay, interleaved
    .venv/bin/python bench/ws_relay.py --bare --find-capacity      # most games each carries, p99 < 100 ms
    .venv/bin/python bench/ws_relay.py --webs 1,2 --find-capacity  # 1 vs 2 web processes at equal p99
    .venv/bin/python bench/ws_relay.py --floor --games 50,500,1000 # bare relay vs the Channels floor relays

Load shape (every mode): for each game, two bot players open one websocket each and play `--moves`
moves (default 30) that never make a five (a two-row checkerboard); a bot answers the opponent's
move after a think time drawn from `--think-min-ms`..`--think-max-ms` (default 900-1100 ms: one
move per game per second); X's first move comes after a random delay up to the longest think time,
so the games' moves spread over the second instead of arriving in bursts. The sockets connect over
a ramp-up (`--ramp-s`, 10 s, at the earliest; at most `--connect-concurrency` handshakes in flight,
so they open at the server's pace instead of timing out and retrying in a storm), then all games
start together. On a site the bench starts, the games
(two guests with logged-in sessions, a room, a started game) are made before the ramp-up through
the site's service layer (bench/site_games.py: seconds for 1,000 games, no web process involved),
so set-up neither costs the web process nor lets clocks run; with `--url` (or
`--setup-over-http`) the players create and join a room through the real HTTP pages (guest
sessions, CSRF and all; the second seat is taken during the ramp-up, since that starts the clock).
On the bare relay a room is just a code. Set-up, socket opening and play each print a progress
line at least every 10 s, and a game the site ends itself (`game_over`: a clock ran out) or whose
socket never sends its first frame counts as an error at once instead of waiting for the game
timeout. Before the counted runs, a warm-up of two 4-move games on each target (whatever the think
time). CPU per move is counted from the first move to the end of the last game: set-up, opening
and closing the sockets are outside it.
Measured per move: relay latency = from the mover sending its `move` frame to the OPPONENT's socket
receiving the broadcast `move` event. Printed per run: moves relayed per second, p50/p95/p99/max
latency in ms, errors (error frames, timeouts, failed connects), the load average, per move the
CPU ms of each process (web, worker, PostgreSQL, Redis; bare relay, PostgreSQL) and Redis commands,
and, for a site the bench starts, the longest garbage-collection pause of its web processes while
the games were played, in wall time and in the CPU time the collection took (caro/gcpolicy.py logs
each pause to CARO_GC_LOG). `--think-s 5` plays one
move per game every 5 s (how people play; think 4.5-5.5 s) instead of one a second.

`--bare`: one site of its own (bench/stack.py: embedded PostgreSQL and Redis unless DATABASE_URL /
REDIS_URL are set, a fresh database, a Celery worker, limits off, `--web` Daphnes started as
`dev.py run --web N` does) and the bare relay as a subprocess on the same PostgreSQL database (its
own schema). First the memory of both with `--memory-games` games open and no move (RSS per live
game, its two players' sockets included, and per further open socket); then, per count of
`--games`, `--repeat` rounds of site and bare alternating in order (site, bare; bare, site; ...), and
the medians with the ratio site/bare of p99 (target <= 2). `--find-capacity` instead searches each
one's most games with median p99 < `--p99-ms` (doubling from `--capacity-start`, then bisecting to
`--capacity-resolution`; the two searches' runs interleave) and prints both and the ratio (target
>= 0.5).

`--webs 1,2`: a site of its own per count (all started first, so a change in the machine's load hits
every count alike), the two players of every game on different processes, memory first, then
`--ladder` (or, with `--find-capacity`, the search above) interleaved; prints the most moves/s with
median p99 under `--p99-ms` for each count and the ratio to the first (target: 2 processes >= 1.7x).
`--floor`: PostgreSQL and Redis of its own (stack.Backends; with `--site` a site as `--bare` starts
one), the bare relay and one process per floor relay variant (bench/floor_relay.py: a minimal
Channels consumer on Daphne or uvicorn, the same protocol and INSERT; `--floor-variants`, default
daphne-local, daphne-redis, daphne-pubsub and uvicorn-redis if uvicorn is installed), then per count
of `--games` the interleaved rounds of `--bare` over all of them, printing each one's medians, CPU ms
per move (relay process, PostgreSQL, Redis) and p99 over the bare relay's; or `--find-capacity`.
Every mode prints the core count and load average; everything it started is stopped at the end.
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
import secrets
import signal
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil
import websockets

HERE = Path(__file__).resolve().parent
LETTERS = "ABCDEFGHIJKLMNO"
# Rows 1 and 2 in order; X plays the even indexes: a checkerboard, so nobody ever makes five.
SEQUENCE = [f"{c}{r}" for r in (1, 2) for c in LETTERS]
GAME_TIMEOUT_S = 600
"""How long one game may take before the bench counts it as a `timeout` error."""
PROGRESS_S = 10.0
"""While a run sets up, opens sockets or plays, a progress line at least this often (a stall shows)."""
FIRST_FRAME_TIMEOUT_S = 60.0
"""A socket whose first frame (`state`) has not come after this long counts as a failed connect."""
GC_SLOW_MS = 20.0
"""A collection pause at least this long is counted apart (issue 27's bound on the longest)."""
DATA_DIR = Path(os.environ.get("CARO_DATA_DIR") or HERE.parent / ".data")
"""Where bench/stack.py keeps each site's logs (the collector's log goes there too)."""
LIMITS_OFF = {"CARO_ROOMS_PER_MINUTE_PER_ADDRESS": "0", "CARO_GUESTS_PER_MINUTE_PER_ADDRESS": "0",
              "CARO_WS_PER_ADDRESS": "0", "CARO_WS_PER_ADDRESS_ROOM": "0", "CARO_WS_PER_SESSION": "0",
              "CARO_WS_PER_SESSION_ROOM": "0"}
"""The site's per-address and per-session limits, off: every bot comes from one address."""


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


async def make_over_http(make, games: int, args, progress) -> list:
    """`games` results of `make()` (a game made through the pages), `--setup-threads` at once,
    with a progress line at most every PROGRESS_S seconds."""
    made: list = []
    t0 = last = time.perf_counter()
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(max_workers=args.setup_threads) as pool:
        for future in asyncio.as_completed([loop.run_in_executor(pool, make) for _ in range(games)]):
            made.append(await future)
            if time.perf_counter() - last >= PROGRESS_S or len(made) == games:
                last = time.perf_counter()
                progress(f"made {len(made)}/{games} games over HTTP in {last - t0:.1f} s")
    return made


def http_base(ws: str, origin: str) -> str:
    """The page origin a browser would send to the websocket base `ws` (scheme of `origin`)."""
    return origin.split("://", 1)[0] + "://" + ws.split("://", 1)[1]


def ws_base(url: str) -> str:
    parsed = urllib.parse.urlparse(url)
    return ("wss://" if parsed.scheme == "https" else "ws://") + parsed.netloc


class SiteTarget:
    """This site at `url`. `own` (one base URL per web process): X of game i connects to process
    i mod N and O to process i+1 mod N, so with N = 2 the two players of every game are on different
    processes. `pids`: the web processes (for memory); `probe`: what `probes` returns (CPU per move)."""

    def __init__(self, url: str, *, label: str = "site", own: list[str] | None = None,
                 pids: list[int] | None = None, probe: dict | None = None, env: dict | None = None) -> None:
        self.url, self.label = url.rstrip("/"), label
        self.bases = [ws_base(u) for u in own] if own else [ws_base(self.url)]
        self.pids, self.probe, self.env = list(pids or ()), probe, env

    async def make_all(self, games: int, args, progress) -> list:
        """`games` games ready to play. With `env` (a site this bench started: its database is
        reachable) through the site's service layer in a subprocess (bench/site_games.py: seconds
        for 1,000 games, nothing asked of the web processes; the games start at once with a clock
        of `--setup-clock-s` per move); else through the HTTP pages like a browser (`--setup-threads`
        at once; O takes the seat in `join`, just before the game is played)."""
        if self.env is None:
            return await make_over_http(lambda: make_game(self.url), games, args, progress)
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(HERE / "site_games.py"), str(games), "--move-time-s", str(args.setup_clock_s),
            env=self.env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, limit=2**20)

        async def relay_progress() -> list[str]:
            lines = []
            async for raw in proc.stderr:
                line = raw.decode().rstrip()
                lines.append(line)
                if line.startswith("made "):
                    progress(line)
            return lines

        progress_task = asyncio.create_task(relay_progress())
        made = [json.loads(line) async for line in proc.stdout]
        stderr = await progress_task
        if await proc.wait() != 0 or len(made) != games:
            raise RuntimeError(f"bench/site_games.py made {len(made)} of {games} games: " + "\n".join(stderr[-20:]))
        return [(g["code"], g["x"], g["o"]) for g in made]

    async def join(self, game) -> None:
        code, _x, o = game
        if isinstance(o, Player):  # a game made over HTTP: O takes the seat now (that starts X's clock)
            await asyncio.to_thread(o.post, f"/r/{code}/join")

    def socket(self, game, i: int, side: str | None) -> tuple[str, dict]:
        """(URL, headers) of game `i`'s socket for `side` ("X", "O"; None: a spectator)."""
        code, x, o = game
        base = self.bases[(i + (side == "O")) % len(self.bases)]
        headers = {"Origin": http_base(base, self.url)}
        if side:
            player = x if side == "X" else o
            headers["Cookie"] = player.cookie_header() if isinstance(player, Player) else player
        return f"{base}/ws/room/{code}/", headers


class BareTarget:
    """The bare relay (bench/bare_relay.py) at ws://127.0.0.1:`port`, process `pid`; also a floor
    relay (bench/floor_relay.py, the same protocol), then with its variant as `label`."""

    def __init__(self, port: int, pid: int, probe: dict | None = None, label: str = "bare") -> None:
        self.base, self.pids, self.probe, self.label = f"ws://127.0.0.1:{port}", [pid], probe, label

    async def make_all(self, games: int, args, progress) -> list:
        return [(secrets.token_hex(6).upper(), None, None) for _ in range(games)]

    async def join(self, game) -> None:
        return None

    def socket(self, game, i: int, side: str | None) -> tuple[str, dict]:
        return f"{self.base}/ws/room/{game[0]}/" + (f"?side={side}" if side else ""), {}


@contextlib.contextmanager
def bare_relay_process(database_url: str, log: Path):
    """Run bench/bare_relay.py on `database_url` in a process group of its own; yield (pid, port);
    stop it (it drops its schema) at the end."""
    with open(log, "ab") as err:
        proc = subprocess.Popen([sys.executable, str(HERE / "bare_relay.py"), "--database-url", database_url,
                                 "--schema", f"bare_relay_{secrets.token_hex(4)}"],
                                stdout=subprocess.PIPE, stderr=err, start_new_session=True, text=True)
    try:
        line = proc.stdout.readline()  # "listening PORT", or "" if it died
        if not line.startswith("listening "):
            raise RuntimeError(f"the bare relay did not start; see {log}")
        yield proc.pid, int(line.split()[1])
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(5)
        proc.stdout.close()


class Stats:
    def __init__(self, connect_concurrency: int = 0) -> None:
        self.connecting = asyncio.Semaphore(connect_concurrency) if connect_concurrency > 0 else contextlib.nullcontext()
        """At most this many socket handshakes (and first frames) in flight at once: the sockets open
        at the pace the server takes them, as players arriving would, not in a storm of retries."""
        self.latencies_ms: list[float] = []
        self.errors: list[str] = []
        self.moves = 0
        self.connect_retries = 0
        self.opened = 0
        self.finished = 0
        self.close = asyncio.Event()
        """Set once every game has played (or given up): the sockets close only then, so the CPU per
        move counted between `start` and the last game's end holds no socket close (closes are a
        socket's cost, not a move's; every target is measured the same way)."""


async def play_game(target, game, i: int, stats: Stats, args, start: asyncio.Event,
                    opened: asyncio.Event | None = None, play: bool = True) -> None:
    """Game `i` of a run on `target`. `opened`, when given, is awaited after both sockets are open
    (the memory measurement happens then) and before `start`; without `play` the sockets then close."""
    sockets = {}
    sent_at: dict[str, float] = {}
    pending: set[asyncio.Task] = set()
    done = asyncio.Event()
    think = (args.think_min_ms / 1000, args.think_max_ms / 1000)
    sequence = SEQUENCE[:args.moves]
    await target.join(game)
    for side in ("X", "O"):
        url, headers = target.socket(game, i, side)
        for attempt in range(3):  # like the page, a client retries a failed connect
            try:
                async with stats.connecting:
                    ws = await websockets.connect(url, additional_headers=headers, open_timeout=60, max_queue=None)
                    sockets[side] = ws
                    first = json.loads(await asyncio.wait_for(ws.recv(), FIRST_FRAME_TIMEOUT_S))
                assert first["type"] == "state", first  # (a socket that never sends one: a failed game)
                break
            except (OSError, asyncio.TimeoutError, websockets.exceptions.InvalidMessage,
                    websockets.exceptions.InvalidHandshake):
                stats.connect_retries += 1
                stale = sockets.pop(side, None)
                if stale is not None:
                    await stale.close()
                if attempt == 2:
                    raise
                await asyncio.sleep(1 + attempt)
    if opened is not None:
        stats.opened += 1
        await opened.wait()
    await start.wait()
    if not play:
        for ws in sockets.values():
            await ws.close()
        return

    async def send_move(side: str, ply: int, delay: float) -> None:
        await asyncio.sleep(delay)
        move_id = str(uuid.uuid4())
        sent_at[move_id] = time.perf_counter()
        await sockets[side].send(json.dumps({"type": "move", "square": sequence[ply - 1], "ply": ply, "id": move_id}))

    async def listen(side: str) -> None:
        ws = sockets[side]
        async for raw in ws:
            frame = json.loads(raw)
            if frame["type"] == "error":
                stats.errors.append(frame["code"])
                done.set()
                return
            if frame["type"] == "game_over":  # ended by the site (a clock ran out, ...): never waited for
                stats.errors.append(f"game_over:{frame.get('termination')}")
                done.set()
                return
            if frame["type"] != "move":
                continue
            if frame["side"] != side:  # the opponent's move reached me: relay latency
                t0 = sent_at.pop(frame["id"], None)
                if t0 is not None:
                    stats.latencies_ms.append((time.perf_counter() - t0) * 1000)
                    stats.moves += 1
                if frame["ply"] >= len(sequence):
                    done.set()
                    return
                # Keep a reference: the event loop holds tasks weakly, and a collected task's move is lost.
                task = asyncio.create_task(send_move(side, frame["ply"] + 1, random.uniform(*think)))
                pending.add(task)
                task.add_done_callback(pending.discard)

    listeners = [asyncio.create_task(listen(s)) for s in ("X", "O")]
    try:
        await send_move("X", 1, random.uniform(0, think[1]))
        await asyncio.wait_for(done.wait(), timeout=args.game_timeout_s)
    except asyncio.TimeoutError:
        stats.errors.append("timeout")
    finally:
        for task in [*listeners, *pending]:
            task.cancel()
        stats.finished += 1
        with contextlib.suppress(asyncio.CancelledError):
            await stats.close.wait()
        for ws in sockets.values():
            await ws.close()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


async def run_load(target, games: int, args, *, play: bool = True, memory: bool = False) -> dict:
    """One load run: `games` games on `target`, two sockets each, `--moves` moves a game.

    With `memory`, the summed RSS of `target.pids` is read before the sockets open, once all
    players' sockets are open, and again after one more (spectator) socket per game, giving bytes per
    live game (its two players' sockets included) and per extra open socket. Without `play` no move
    is made (a memory measurement only). With `target.probe` (from `probes`) the CPU seconds of each
    part and the Redis commands are counted over the played part, per move. Returns the numbers."""
    label = f"  [{target.label} games={games}] "
    t0 = time.perf_counter()
    made = await target.make_all(games, args, lambda line: print(label + line, flush=True))
    setup_s = time.perf_counter() - t0
    stats = Stats(args.connect_concurrency)
    start, opened = asyncio.Event(), asyncio.Event()
    pids = target.pids if memory else None
    rss0 = rss(pids)
    tasks = []
    for i, game in enumerate(made):
        tasks.append(asyncio.create_task(play_game(target, game, i, stats, args, start, opened, play)))
        await asyncio.sleep(args.ramp_s / max(1, games))  # players arrive over the ramp-up time
    deadline = time.monotonic() + 120 + games * 0.5  # at worst a few sockets a second: a stuck server
    last = time.monotonic()
    while stats.opened + sum(t.done() for t in tasks) < games and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        if time.monotonic() - last >= PROGRESS_S:
            last = time.monotonic()
            print(f"{label}sockets open for {stats.opened}/{games} games ({stats.connect_retries} connect retries)",
                  flush=True)
    if stats.opened < games:
        print(f"{label}playing with {stats.opened}/{games} games' sockets open "
              f"({sum(t.done() for t in tasks)} failed before)", flush=True)
    await asyncio.sleep(2.0)
    rss1 = rss(pids)
    spectators = []
    if pids:
        for i, game in enumerate(made):
            url, headers = target.socket(game, i, None)
            spectators.append(await websockets.connect(url, additional_headers=headers, open_timeout=60))
            await spectators[-1].recv()  # its state frame: the socket is set up
        await asyncio.sleep(2.0)
    rss2 = rss(pids)
    for ws in spectators:
        await ws.close()
    probe = target.probe if play else None
    idle = await idle_cpu(probe, args.idle_s, label) if probe and args.idle_s > 0 else {}
    opened.set()
    before = {k: cpu_seconds(v) for k, v in probe["pids"].items()} if probe else {}
    pg_before = pg_split_ms = None
    if probe and "postgres" in probe["pids"]:
        _pg_owner_names.clear()
        _pg_owner_names.update({k: list(v) for k, v in probe["pids"].items() if k not in ("postgres", "redis")})
        pg_before = pg_parts(probe["pids"]["postgres"][0])
    commands = redis_commands(probe["redis_url"]) if probe and probe["redis_url"] else 0
    t1, wall1 = time.perf_counter(), time.time()
    start.set()
    # Every game has played (or failed) once `finished` counts them all; a task that raised before
    # its `finally` is done without counting, so both are watched.
    last = time.monotonic()
    while sum(1 for t in tasks if t.done()) + stats.finished < len(tasks):
        await asyncio.sleep(0.05)
        if time.monotonic() - last >= PROGRESS_S:
            last = time.monotonic()
            print(f"{label}{stats.moves} moves, {stats.finished}/{games} games done, {len(stats.errors)} errors "
                  f"{sorted(set(stats.errors))[:5]} after {time.perf_counter() - t1:.0f} s; load average {loadavg()}",
                  flush=True)
    elapsed = time.perf_counter() - t1
    wall2 = time.time()
    per_move = {}
    if probe and stats.moves:
        per_move = {k: (cpu_seconds(v) - before[k]) * 1000 / stats.moves for k, v in probe["pids"].items()}
        if pg_before is not None:
            pg_split_ms = pg_split(pg_before, pg_parts(probe["pids"]["postgres"][0]), stats.moves)
        if probe["redis_url"]:
            per_move["redis_commands"] = (redis_commands(probe["redis_url"]) - commands) / stats.moves
    stats.close.set()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    pauses = gc_pauses(probe.get("gc_log") if probe else None, wall1, wall2)
    cpu_pauses = [cpu for _ms, cpu in pauses or () if cpu is not None]
    stats.errors += [f"failed: {type(o).__name__}" for o in outcomes if isinstance(o, BaseException)]
    lat = stats.latencies_ms
    ok = not stats.errors and stats.moves == (games * args.moves if play else 0)
    return {
        "target": target.label, "games": games, "setup_s": setup_s, "moves": stats.moves, "elapsed_s": elapsed,
        "moves_per_s": stats.moves / max(elapsed, 1e-9), "p50": percentile(lat, 50), "p95": percentile(lat, 95),
        "p99": percentile(lat, 99), "max": max(lat) if lat else float("nan"),
        "mean": statistics.fmean(lat) if lat else float("nan"), "errors": stats.errors,
        "retries": stats.connect_retries, "ok": ok, "load": os.getloadavg(),
        "per_game_kib": (rss1 - rss0) / games / 1024 if pids else None,
        "per_socket_kib": (rss2 - rss1) / games / 1024 if pids else None, "per_move": per_move,
        "pg_split": pg_split_ms, "idle_ms_per_s": idle,
        "gc_max_ms": max((ms for ms, _cpu in pauses), default=0.0) if pauses is not None else None,
        "gc_max_cpu_ms": max(cpu_pauses, default=0.0) if pauses is not None else None,
        "gc_slow": sum(1 for ms, _cpu in pauses or () if ms >= GC_SLOW_MS) if pauses is not None else None,
    }

async def idle_cpu(probe: dict, seconds: float, label: str) -> dict:
    """CPU ms per second of each part of `probe` over `seconds` with every socket open and no move
    (`--idle-s`): the fixed cost of the open sockets (the server's timers, lease renewals, the
    collector's looks, keepalives), which weighs on each move in proportion to 1 / moves per second."""
    before = {k: cpu_seconds(v) for k, v in probe["pids"].items()}
    t0 = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - t0
    idle = {k: (cpu_seconds(v) - before[k]) * 1000 / elapsed for k, v in probe["pids"].items()}
    print(f"{label}idle, all sockets open, no move, {elapsed:.0f} s: CPU ms per second "
          + ", ".join(f"{k} {v:.2f}" for k, v in idle.items()) + f"; load average {loadavg()}", flush=True)
    return idle


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


PG_BACKGROUND = ("checkpointer", "background writer", "walwriter", "autovacuum", "io worker",
                 "logical replication", "archiver", "stats")
"""PostgreSQL's own processes, named by the titles they set (`postgres: walwriter`, ...)."""


def pg_parts(postmaster: int) -> dict[int, tuple[str, float]]:
    """pid -> (part, CPU seconds so far) for every process of the PostgreSQL server `postmaster`:
    a backend is named by the process at the other end of its connection (`web`, `worker`,
    `relay`, `bench` for this process, or `other`), a background process by its title
    (`walwriter`, `io worker`, `autovacuum`, ...); `postmaster` itself and the children it
    reaped (their CPU, gone from /proc) as `postmaster`."""
    # Only the named processes' sockets are read (psutil.net_connections() of the whole machine
    # walks every process's descriptors: seconds with thousands of sockets open, with this
    # process's loop stopped meanwhile, long enough for the sockets' keepalive to fail).
    port = postmaster_port(postmaster)
    names = {os.getpid(): "bench"}
    for name, pids in _pg_owner_names.items():
        for pid in pids:
            names[pid] = name
            with contextlib.suppress(psutil.Error):
                names.update({child.pid: name for child in psutil.Process(pid).children(recursive=True)})
    owners = {}
    for pid in names:
        with contextlib.suppress(psutil.Error):
            for c in psutil.Process(pid).net_connections(kind="tcp"):
                if c.laddr and c.raddr and c.raddr.port == port:
                    owners[c.laddr.port] = pid
    parts = {}
    try:
        root = psutil.Process(postmaster)
        t = root.cpu_times()
        parts[postmaster] = ("postmaster", t.user + t.system + t.children_user + t.children_system)
        children = root.children()
    except psutil.Error:
        return parts
    for child in children:
        try:
            title = " ".join(child.cmdline())
            t = child.cpu_times()
        except psutil.Error:
            continue
        part = next((b for b in PG_BACKGROUND if b in title), None)
        if part is None:
            found = re.search(r"\((\d+)\)", title)
            owner = owners.get(int(found.group(1))) if found else None
            part = "backends of " + names.get(owner, "other")
        parts[child.pid] = (part, t.user + t.system)
    return parts


_pg_owner_names: dict[str, list[int]] = {}
"""Names for the processes whose PostgreSQL backends `pg_parts` reports (set by `probes`)."""


def postmaster_port(pid: int) -> int | None:
    """The TCP port the PostgreSQL server `pid` listens on."""
    try:
        return next(c.laddr.port for c in psutil.Process(pid).net_connections(kind="tcp") if c.status == psutil.CONN_LISTEN)
    except (psutil.Error, StopIteration):
        return None


def pg_split(before: dict, after: dict, moves: int) -> dict[str, float]:
    """PostgreSQL's CPU ms per move by part between two `pg_parts` readings."""
    split: dict[str, float] = {}
    for pid, (part, cpu) in after.items():
        split[part] = split.get(part, 0.0) + (cpu - before.get(pid, (part, 0.0))[1]) * 1000 / moves
    return dict(sorted(split.items(), key=lambda kv: -kv[1]))


def listener(port: int) -> int | None:
    """The pid listening on TCP `port` on this machine (needs the rights to see it)."""
    return next((c.pid for c in psutil.net_connections(kind="tcp")
                 if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port and c.pid), None)


def gc_pauses(path, since: float, until: float) -> list[tuple[float, float | None]] | None:
    """The collection pauses the web processes logged between Unix times `since` and `until`
    (caro/gcpolicy.py writes those of at least 1 ms to CARO_GC_LOG), as (wall ms, CPU ms of the
    collecting thread, None in an older log without it), or None without a log."""
    if not path:
        return None
    try:
        lines = Path(path).read_text().splitlines()
    except OSError:
        return []
    pauses = []
    for line in lines:
        try:
            at, _generation, ms, *cpu = line.split()
            if since <= float(at) <= until:
                pauses.append((float(ms), float(cpu[0]) if cpu else None))
        except ValueError:
            continue
    return pauses


def probes(site) -> dict:
    """What to watch during a run of `site` (bench/stack.py): pids per part, and the Redis URL."""
    parts = {"web": list(site.web_pids), "worker": [site.procs["worker"].pid]}
    for name, url in (("postgres", site.env["DATABASE_URL"]), ("redis", site.env["REDIS_URL"])):
        pid = listener(urllib.parse.urlsplit(url).port)
        if pid:
            parts[name] = [pid]
    return {"pids": parts, "redis_url": site.env["REDIS_URL"], "gc_log": site.env.get("CARO_GC_LOG")}


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


def bare_probes(pid: int, database_url: str, redis_url: str | None = None, name: str = "bare") -> dict:
    """What to watch during a run of a relay: its process (as `name`), PostgreSQL's and, given
    `redis_url` (a relay through a Redis channel layer), Redis's with its command count."""
    parts = {name: [pid]}
    for part, url in (("postgres", database_url), ("redis", redis_url)):
        found = listener(urllib.parse.urlsplit(url).port) if url else None
        if found:
            parts[part] = [found]
    return {"pids": parts, "redis_url": redis_url}


def loadavg() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def show(result: dict, label: str = "") -> None:
    load = " ".join(f"{v:.2f}" for v in result["load"])
    print(f"{label}games={result['games']} sockets={2 * result['games']} moves={result['moves']} "
          f"in {result['elapsed_s']:.1f} s = {result['moves_per_s']:.1f} moves/s; relay ms p50={result['p50']:.1f} "
          f"p95={result['p95']:.1f} p99={result['p99']:.1f} max={result['max']:.1f}; errors={len(result['errors'])} "
          f"{sorted(set(result['errors']))} retries={result['retries']}; setup {result['setup_s']:.1f} s; "
          f"load average {load}", flush=True)
    if result.get("gc_max_ms") is not None:
        print(f"{label}longest collection pause in the web process(es) while playing: {result['gc_max_ms']:.1f} ms "
              f"({result['gc_slow']} of {GC_SLOW_MS:.0f} ms or more); the most CPU one took: "
              f"{result['gc_max_cpu_ms']:.1f} ms", flush=True)
    if result["per_move"]:
        pm = result["per_move"]
        cpu = ", ".join(f"{k} {v:.2f}" for k, v in pm.items() if k != "redis_commands")
        redis_part = f"; Redis commands {pm['redis_commands']:.1f}" if "redis_commands" in pm else ""
        print(f"{label}per move: CPU ms {cpu}{redis_part}", flush=True)
    if result.get("pg_split"):
        print(f"{label}PostgreSQL's CPU ms per move by process: {describe_split(result['pg_split'])}", flush=True)


def describe_split(split: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:.3f}" for k, v in split.items() if abs(v) >= 0.0005) or "-"


def show_memory(result: dict, label: str) -> None:
    print(f"{label}memory, {result['games']} games open (no moves): {result['per_game_kib']:.0f} KiB per live game "
          f"(its two players' sockets included), {result['per_socket_kib']:.0f} KiB per further open socket "
          f"(RSS of the serving processes; load average {' '.join(f'{v:.2f}' for v in result['load'])})", flush=True)


def median_of(runs: list[dict]) -> dict:
    """The medians of a step's runs: moves/s, p50, p95, p99, max and each per-move CPU figure;
    errors summed; ok if every run was."""
    keys = sorted({k for r in runs for k in r.get("per_move") or {}})
    return {"games": runs[0]["games"], "moves_per_s": statistics.median(r["moves_per_s"] for r in runs),
            **{p: statistics.median(r[p] for r in runs) for p in ("p50", "p95", "p99", "max")},
            "errors": sum(len(r["errors"]) for r in runs), "ok": all(r["ok"] for r in runs),
            "gc_max_ms": max((r["gc_max_ms"] for r in runs if r.get("gc_max_ms") is not None), default=None),
            "gc_max_cpu_ms": max((r["gc_max_cpu_ms"] for r in runs if r.get("gc_max_cpu_ms") is not None),
                                 default=None),
            "per_move": {k: statistics.median(r["per_move"][k] for r in runs if k in (r.get("per_move") or {}))
                         for k in keys},
            "pg_split": {k: statistics.median(r["pg_split"].get(k, 0.0) for r in runs if r.get("pg_split"))
                         for k in sorted({k for r in runs for k in r.get("pg_split") or {}})}}


def describe(m: dict) -> str:
    pause = f", longest gc pause {m['gc_max_ms']:.1f} ms" if m.get("gc_max_ms") is not None else ""
    return (f"{m['moves_per_s']:.1f} moves/s, p50 {m['p50']:.1f} ms, p95 {m['p95']:.1f} ms, p99 {m['p99']:.1f} ms, "
            f"{m['errors']} errors{pause}")


def header(args, what: str, compared: bool = True) -> None:
    rounds = f", {args.repeat} round(s) per step, p99 bound {args.p99_ms:.0f} ms" if compared else ""
    print(f"cores: {os.cpu_count()} (the load client, PostgreSQL, Redis, the worker and the relays share them); "
          f"load average {loadavg()}; {what}; think={args.think_min_ms}-{args.think_max_ms} ms, "
          f"moves/game={args.moves}{rounds}", flush=True)


async def interleaved(targets: dict, games: int, args) -> dict[str, dict]:
    """`--repeat` rounds of one run per target at `games`, the order reversed every other round;
    returns the medians per target label."""
    runs: dict[str, list[dict]] = {name: [] for name in targets}
    for round_ in range(args.repeat):
        for name in (list(targets) if round_ % 2 == 0 else list(targets)[::-1]):
            try:
                result = await run_load(targets[name], games, args)
            except Exception as error:  # noqa: BLE001 - e.g. the pages timing out while making rooms
                print(f"{name} games={games}: the run failed before its moves: {error!r}", flush=True)
                nan = float("nan")
                result = {"games": games, "moves_per_s": 0.0, "p50": nan, "p95": nan, "p99": nan, "max": nan,
                          "errors": [type(error).__name__], "ok": False, "per_move": {}}
            else:
                show(result, f"{name} ")
            runs[name].append(result)
    return {name: median_of(r) for name, r in runs.items()}


def next_count(good: dict | None, bad: int | None, args) -> int | None:
    """The next game count of a capacity search (None: done). `good`: the largest step under the
    bound so far; `bad`: the smallest over it. Doubles until a step fails, then bisects until the
    gap is within `--capacity-resolution` of the good count."""
    if bad is None:
        nxt = good["games"] * 2 if good else args.capacity_start
        return nxt if nxt <= args.capacity_max else None
    if good is None:
        return bad // 2 or None
    if bad - good["games"] <= max(1, good["games"] * args.capacity_resolution):
        return None
    return (good["games"] + bad) // 2


async def find_capacity(targets: dict, args) -> dict[str, dict | None]:
    """For each target, the most games (and their moves/s) with median p99 < `--p99-ms` and no
    error, searched by `next_count`; the targets' steps interleave (one step of each in turn, the
    order reversed every other step). Returns the best step per target label (None: not even 1)."""
    good: dict[str, dict | None] = {name: None for name in targets}
    bad: dict[str, int | None] = {name: None for name in targets}
    nxt: dict[str, int | None] = {name: args.capacity_start for name in targets}
    step = 0
    while active := [name for name in targets if nxt[name] is not None]:
        for name in (active if step % 2 == 0 else active[::-1]):
            games = nxt[name]
            m = await interleaved({name: targets[name]}, games, args)
            m = m[name]
            under = m["ok"] and m["p99"] < args.p99_ms
            print(f"{name} capacity step games={games}: median {describe(m)} -> "
                  f"{'under' if under else 'over'} the bound (p99 < {args.p99_ms:.0f} ms, no error)", flush=True)
            if under and (good[name] is None or games > good[name]["games"]):
                good[name] = m
            elif not under and (bad[name] is None or games < bad[name]):
                bad[name] = games
            nxt[name] = next_count(good[name], bad[name], args)
            if nxt[name] is None and bad[name] is None:
                print(f"{name}: still under the bound at --capacity-max {args.capacity_max} games", flush=True)
        step += 1
    return good


def print_capacity(best: dict[str, dict | None], first: str, args, target_ratio: str) -> None:
    print(f"cores: {os.cpu_count()}; load average now {loadavg()}", flush=True)
    base = best[first]
    for name, b in best.items():
        if b is None:
            print(f"{name}: no game count had median p99 < {args.p99_ms:.0f} ms without errors", flush=True)
            continue
        ratio = (f" = {b['moves_per_s'] / base['moves_per_s']:.2f}x {first}'s moves/s, "
                 f"{b['games'] / base['games']:.2f}x its games" if base and name != first else "")
        print(f"{name}: most load with p99 < {args.p99_ms:.0f} ms: {b['games']} games, {b['moves_per_s']:.1f} moves/s "
              f"(p99 {b['p99']:.1f} ms){ratio}", flush=True)
    print(f"(target: {target_ratio})", flush=True)


def start_site(stack: contextlib.ExitStack, name: str, webs: int, redis_db: int | None = None):
    """A site of its own (bench/stack.py) with a worker, limits off and `webs` web processes; the
    first one started sets DATABASE_URL / REDIS_URL so later ones share its PostgreSQL and Redis
    (a database each, Redis db number `redis_db`)."""
    sys.path.insert(0, str(HERE))
    from stack import Site

    extra = dict(LIMITS_OFF)
    extra["CARO_GC_LOG"] = str((DATA_DIR / name / "gc-web.log").absolute())  # the web processes' pauses
    if redis_db is not None and os.environ.get("REDIS_URL"):
        extra["REDIS_URL"] = os.environ["REDIS_URL"].rsplit("/", 1)[0] + f"/{redis_db}"
    site = stack.enter_context(Site(name, worker=True, extra_env=extra, webs=webs))
    os.environ.setdefault("DATABASE_URL", site._admin_url)
    os.environ.setdefault("REDIS_URL", site.env["REDIS_URL"])
    return site


def site_target(site, label: str, args) -> SiteTarget:
    """A site this bench started: its games made through its service layer (bench/site_games.py),
    unless `--setup-over-http`."""
    return SiteTarget(site.url, label=label, own=site.web_urls if site.webs > 1 else None, pids=site.web_pids,
                      probe=probes(site), env=None if args.setup_over_http else site.env)


async def warm_up(targets: dict, args) -> None:
    """Two short games on each target (imports, pools, templates), whatever the run's think time:
    4 moves a second apart at most, so a `--think-s 5` run does not spend minutes here."""
    quick = argparse.Namespace(**{**vars(args), "moves": 4, "think_min_ms": 50, "think_max_ms": 150, "idle_s": 0.0})
    for name, target in targets.items():
        result = await run_load(target, 2, quick)
        print(f"warm-up {name}: {result['moves']} moves, {len(result['errors'])} errors, setup {result['setup_s']:.1f} s; "
              f"load average {loadavg()}", flush=True)


async def main_async(args) -> int:
    """Against a running site (`--url`): one run per count of `--games`."""
    header(args, f"against {args.url}", compared=False)
    target = SiteTarget(args.url)
    ok = True
    for games in parse_counts(args.games):
        result = await run_load(target, games, args)
        show(result)
        ok &= result["ok"]
    return 0 if ok else 1


async def compare_bare(args) -> int:
    """`--bare`: this site (`--web` processes) and the bare relay on the same load client, interleaved."""
    header(args, f"site ({args.web} web process(es)) against the bare relay on the same PostgreSQL")
    with contextlib.ExitStack() as stack:
        site = start_site(stack, "bench-ws-relay-bare", args.web)
        pid, port = stack.enter_context(bare_relay_process(site.env["DATABASE_URL"], site.logs / "bare.log"))
        targets = {"site": site_target(site, "site", args), "bare": BareTarget(port, pid, bare_probes(pid, site.env["DATABASE_URL"]))}
        await warm_up(targets, args)
        if args.memory_games:
            for name, target in targets.items():
                show_memory(await run_load(target, args.memory_games, args, play=False, memory=True), f"{name} ")
        if args.find_capacity:
            best = await find_capacity(targets, args)
            print_capacity(best, "bare", args, "the site's games at least 0.50x the bare relay's")
            return 0
        failed = False
        summary = []
        for games in parse_counts(args.games):
            m = await interleaved(targets, games, args)
            failed |= not all(v["ok"] for v in m.values())
            line = (f"games={games} ({2 * games} sockets): site {describe(m['site'])}; bare {describe(m['bare'])}; "
                    f"p99 site/bare = {m['site']['p99'] / m['bare']['p99']:.2f} (target <= 2); load average {loadavg()}")
            print(line, flush=True)
            summary.append(line)
    print(f"summary (medians of {args.repeat} round(s); cores: {os.cpu_count()}; load average now {loadavg()}):")
    for line in summary:
        print("  " + line)
    return 1 if failed else 0


async def compare_webs(args) -> int:
    """`--webs 1,2`: a site of its own per count (bench/stack.py, limits off; all started first, so a
    change in the machine's load hits every count alike), then the ladder of game counts with the
    counts interleaved at each step (`--repeat` rounds, alternating the order); a count leaves the
    ladder after a step whose median p99 is over `--p99-ms`. With `--find-capacity`, the capacity
    search instead of the ladder. Prints the most moves/s with median p99 under the bound for each
    count and the ratio to the first count."""
    counts = [int(v) for v in args.webs.split(",")]
    header(args, f"web process counts {counts}, the two players of every game on different processes")
    failed = False
    with contextlib.ExitStack() as stack:
        sites = {n: start_site(stack, f"bench-ws-relay-{n}", n, redis_db=i or None) for i, n in enumerate(counts)}
        targets = {f"webs={n}": site_target(site, f"webs={n}", args) for n, site in sites.items()}
        await warm_up(targets, args)
        if args.memory_games:
            for name, target in targets.items():
                show_memory(await run_load(target, args.memory_games, args, play=False, memory=True), f"{name} ")
        if args.find_capacity:
            best = await find_capacity(targets, args)
            print_capacity(best, f"webs={counts[0]}", args, "2 web processes at least 1.7x the moves/s of 1")
            return 0
        best: dict[str, dict | None] = {name: None for name in targets}
        peak = {name: 0.0 for name in targets}  # the most moves/s of any step, whatever its p99
        going = list(targets)
        for games in parse_counts(args.ladder):
            m = await interleaved({name: targets[name] for name in going}, games, args)
            for name in list(going):
                print(f"{name} games={games}: median {describe(m[name])}", flush=True)
                peak[name] = max(peak[name], m[name]["moves_per_s"])
                failed |= not m[name]["ok"]
                if m[name]["p99"] >= args.p99_ms or not m[name]["ok"]:
                    going.remove(name)
                elif best[name] is None or m[name]["moves_per_s"] > best[name]["moves_per_s"]:
                    best[name] = m[name]
            if not going:
                break
    first = f"webs={counts[0]}"
    for name in peak:
        print(f"{name}: most moves/s of any step (saturation when the ladder went past it): {peak[name]:.1f}"
              + (f" = {peak[name] / peak[first]:.2f}x {first}" if peak[first] else ""))
    print_capacity(best, first, args, "2 web processes at least 1.7x the moves/s of 1")
    return 1 if failed else 0


def floor_variants(args) -> list[str]:
    """`--floor-variants`, or the default: the three Daphne variants, and uvicorn-redis when the
    optional `bench` extra (uvicorn) is installed."""
    if args.floor_variants:
        return [v.strip() for v in args.floor_variants.split(",") if v.strip()]
    import importlib.util

    found = importlib.util.find_spec("uvicorn") is not None
    return ["daphne-local", "daphne-redis", "daphne-pubsub", *(["uvicorn-redis"] if found else [])]


def describe_floor(m: dict, bare: dict) -> str:
    """One target's medians for the --floor table: latencies, errors, CPU ms per move, p99 / bare."""
    cpu = ", ".join(f"{k} {v:.2f}" for k, v in m["per_move"].items() if k != "redis_commands")
    commands = f", Redis commands {m['per_move']['redis_commands']:.1f}" if "redis_commands" in m["per_move"] else ""
    pause = (f"; longest gc pause {m['gc_max_ms']:.1f} ms (CPU {m['gc_max_cpu_ms']:.1f} ms)"
             if m.get("gc_max_ms") is not None else "")
    split = f"; PostgreSQL by process: {describe_split(m['pg_split'])}" if m.get("pg_split") else ""
    return (f"{m['moves_per_s']:.1f} moves/s, p50 {m['p50']:.1f} / p95 {m['p95']:.1f} / p99 {m['p99']:.1f} / "
            f"max {m['max']:.1f} ms, {m['errors']} errors; CPU ms per move: {cpu or '-'}{commands}; "
            f"p99 / bare's = {m['p99'] / bare['p99']:.2f}{pause}{split}")


async def compare_floor(args) -> int:
    """`--floor`: the bare relay, the floor relays of `--floor-variants` (bench/floor_relay.py: a
    minimal Channels consumer on Daphne or uvicorn, the same protocol and INSERT) and, with `--site`,
    this site, all on one PostgreSQL (and Redis) and one load client, interleaved like `--bare`."""
    sys.path.insert(0, str(HERE))
    from floor_relay import floor_relay_process, parse_variant
    from stack import Backends

    variants = floor_variants(args)
    for v in variants:
        parse_variant(v)
    header(args, f"the bare relay against the floor relays {', '.join(variants)}"
                 + (f" and the site ({args.web} web process(es))" if args.site else ""))
    failed = False
    summary = []
    with contextlib.ExitStack() as stack:
        if args.site:
            site = start_site(stack, "bench-ws-relay-floor", args.web)
            database_url, redis_url, logs = site.env["DATABASE_URL"], site.env["REDIS_URL"], site.logs
        else:
            backends = stack.enter_context(Backends("bench-ws-relay-floor"))
            database_url, redis_url, logs = backends.database_url, backends.redis_url, backends.logs
        pid, port = stack.enter_context(bare_relay_process(database_url, logs / "bare.log"))
        targets = {"bare": BareTarget(port, pid, bare_probes(pid, database_url, name="relay"))}
        for v in variants:
            pid, port = stack.enter_context(floor_relay_process(v, database_url, redis_url, logs / f"{v}.log"))
            layer_url = redis_url if parse_variant(v)["layer"] != "local" else None
            targets[v] = BareTarget(port, pid, bare_probes(pid, database_url, layer_url, name="relay"), label=v)
        if args.site:
            targets["site"] = site_target(site, "site", args)
        await warm_up(targets, args)
        if args.memory_games:
            for name, target in targets.items():
                show_memory(await run_load(target, args.memory_games, args, play=False, memory=True), f"{name} ")
        if args.find_capacity:
            best = await find_capacity(targets, args)
            print_capacity(best, "bare", args, "the site's games at least 0.50x the bare relay's; the floor's "
                                               "ratios bound what any Channels app can reach")
            return 0
        for games in parse_counts(args.games):
            m = await interleaved(targets, games, args)
            failed |= not all(v["ok"] for v in m.values())
            lines = [f"games={games} ({2 * games} sockets), medians of {args.repeat} round(s), "
                     f"load average {loadavg()}:"]
            lines += [f"  {name:<22} {describe_floor(m[name], m['bare'])}" for name in m]
            print("\n".join(lines), flush=True)
            summary += lines
    print(f"summary (cores: {os.cpu_count()}; load average now {loadavg()}; CPU ms per move: relay = the relay "
          "process (web = the site's Daphnes), postgres and redis = those servers):")
    for line in summary:
        print("  " + line)
    return 1 if failed else 0


def parse_counts(text: str) -> list[int]:
    return [int(v) for v in str(text).split(",") if v.strip()]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="base URL of a running site (no --bare/--webs)")
    parser.add_argument("--games", default="50", help="game counts, e.g. 50,500,1000 (2 sockets a game)")
    parser.add_argument("--bare", action="store_true",
                        help="start a site of its own and the bare relay, and run --games on both, interleaved")
    parser.add_argument("--web", type=int, default=1, help="with --bare or --floor --site: the site's web processes")
    parser.add_argument("--floor", action="store_true",
                        help="start the bare relay and the floor relays (bench/floor_relay.py) on PostgreSQL and "
                             "Redis of their own and run --games (or --find-capacity) on all, interleaved")
    parser.add_argument("--floor-variants",
                        help="with --floor: floor relay variants, e.g. daphne-local,daphne-redis,daphne-pubsub "
                             "(the default, plus uvicorn-redis if uvicorn is installed); see bench/floor_relay.py")
    parser.add_argument("--site", action="store_true", help="with --floor: this site too (its own, as --bare starts)")
    parser.add_argument("--webs", help="e.g. 1,2: start a site of its own with that many web processes for each "
                                       "count, run --ladder (or --find-capacity) on each and compare")
    parser.add_argument("--find-capacity", action="store_true",
                        help="with --bare, --floor or --webs: search each one's most games with p99 under --p99-ms")
    parser.add_argument("--capacity-start", type=int, default=10, help="the search's first game count")
    parser.add_argument("--capacity-max", type=int, default=4000, help="the search doubles no further")
    parser.add_argument("--capacity-resolution", type=float, default=0.1,
                        help="the search stops when the gap between under and over is within this share")
    parser.add_argument("--ladder", default="5,10,20,40,80,160", help="game counts tried with --webs, in order")
    parser.add_argument("--memory-games", type=int, default=300,
                        help="with --bare/--webs: games opened (not played) to measure memory per game and socket (0: skip)")
    parser.add_argument("--idle-s", type=float, default=0.0,
                        help="seconds to measure each part's CPU per second with all sockets open and no move, "
                             "before the moves (0: skip)")
    parser.add_argument("--repeat", type=int, default=2, help="with --bare/--webs: rounds per step")
    parser.add_argument("--p99-ms", type=float, default=100.0, help="the p99 bound of --find-capacity and --webs")
    parser.add_argument("--moves", type=int, default=len(SEQUENCE), help=f"moves per game (2-{len(SEQUENCE)})")
    parser.add_argument("--think-min-ms", type=int, default=900)
    parser.add_argument("--think-max-ms", type=int, default=1100)
    parser.add_argument("--think-s", type=float,
                        help="one move per game every THINK_S seconds (think THINK_S ± 10 %%; e.g. 5, how people "
                             "play); overrides --think-min-ms/--think-max-ms")
    parser.add_argument("--setup-threads", type=int, default=16,
                        help="games made over HTTP at once (--url, or --setup-over-http)")
    parser.add_argument("--setup-over-http", action="store_true",
                        help="a site the bench starts: make its games through the pages (as before) instead of "
                             "its service layer (bench/site_games.py)")
    parser.add_argument("--setup-clock-s", type=float, default=600.0,
                        help="games made through the service layer: the clock per move (they start at once, so "
                             "X's first move must come before it runs out)")
    parser.add_argument("--game-timeout-s", type=float, default=GAME_TIMEOUT_S,
                        help="a game not finished after this many seconds counts as a `timeout` error (a lost move)")
    parser.add_argument("--ramp-s", type=float, default=10.0,
                        help="seconds over which the games' sockets start connecting (at the earliest)")
    parser.add_argument("--connect-concurrency", type=int, default=16,
                        help="socket handshakes in flight at once, at most (0: no bound; the sockets then open "
                             "over --ramp-s whatever the server's pace)")
    args = parser.parse_args()
    if not 2 <= args.moves <= len(SEQUENCE):
        parser.error(f"--moves must be 2-{len(SEQUENCE)}")
    if args.think_s:
        args.think_min_ms, args.think_max_ms = int(args.think_s * 900), int(args.think_s * 1100)
    if args.floor:
        return asyncio.run(compare_floor(args))
    if args.bare:
        return asyncio.run(compare_bare(args))
    return asyncio.run(compare_webs(args) if args.webs else main_async(args))


if __name__ == "__main__":
    sys.exit(main())
