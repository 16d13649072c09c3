"""Abuse benchmark: a player's relay latency with and without spectators flooding move frames.

Run (loopback only; bounded by --max-seconds, stops by itself):

    .venv/bin/python bench/abuse.py                       # 40 spectators x 10 frames/s
    .venv/bin/python bench/abuse.py --spectators 80 --games 6

It starts its own site (bench/stack.py): the embedded PostgreSQL and Redis unless DATABASE_URL /
REDIS_URL are set, a throw-away database (migrated, dropped at the end), and one
Daphne on a free loopback port with no move clock and the per-address limits off (the spectators
stand for 40 different attackers; one address would hit CARO_WS_PER_ADDRESS_ROOM first).

Three phases, each `--games` friend-room games of 30 moves (bench/ws_relay.py's checkerboard: no
five) between two bot players with a think time of --think-min-ms to --think-max-ms:
- quiet: nobody else in the room;
- watched: `--spectators` anonymous sockets in the room that only read (every move now goes to
  42 sockets);
- flood: the same spectators each also send a `move` frame every 1/--rate s.
The spectators run in a separate process, so they do not slow the measuring client.
Relay latency = from the mover sending `move` to the opponent's socket receiving the broadcast.
Prints p50/p95/p99/max (ms) per phase, the spectators' answers by error code, and whether
p99 with flood <= TARGET_RATIO x p99 without.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from stack import Site  # noqa: E402
from ws_relay import SEQUENCE, Player, percentile  # noqa: E402

#: The issue's target: p99 with the flood at most this many times p99 without.
TARGET_RATIO = 1.5


# ---------------------------------------------------------------- the site


#: The site for this bench: no move clock (no deadline tasks left in the broker) and the per-address
#: limits off (the spectators stand for 40 different attackers on one loopback address).
SITE_ENV = {
    "CARO_FRIEND_MOVE_TIME_MS": "0", "CARO_WS_PER_ADDRESS": "0", "CARO_WS_PER_ADDRESS_ROOM": "0",
    "CARO_ROOMS_PER_MINUTE_PER_ADDRESS": "0", "CARO_GUESTS_PER_MINUTE_PER_ADDRESS": "0",
}


# ---------------------------------------------------------------- the flood (another process)


def flood_process(url: str, code: str, spectators: int, rate: float, seconds: float, ready, stop, result) -> None:
    """Open `spectators` anonymous sockets in room `code`; each sends `rate` move frames per second
    until `stop` is set or `seconds` have passed."""
    result.put(asyncio.run(_flood(url, code, spectators, rate, seconds, ready, stop)))


async def _flood(url: str, code: str, spectators: int, rate: float, seconds: float, ready, stop) -> dict:
    answers: Counter = Counter()
    ws_url = url.replace("http://", "ws://") + f"/ws/room/{code}/"
    sockets = [await websockets.connect(ws_url, additional_headers={"Origin": url}, open_timeout=60,
                                        max_queue=None) for _ in range(spectators)]
    ready.set()
    stop_at = time.monotonic() + seconds

    async def reader(ws) -> None:
        async for raw in ws:
            frame = json.loads(raw)
            answers[frame.get("code") or frame["type"]] += 1

    async def sender(ws) -> None:
        if rate <= 0:  # a silent spectator: only watches
            while time.monotonic() < stop_at and not stop.is_set():
                await asyncio.sleep(0.1)
            return
        await asyncio.sleep(random.uniform(0, 1 / rate))
        while time.monotonic() < stop_at and not stop.is_set():
            await ws.send(json.dumps({"type": "move", "square": "H8", "ply": 1, "id": str(uuid.uuid4())}))
            answers["sent"] += 1
            await asyncio.sleep(1 / rate)

    readers = [asyncio.create_task(reader(ws)) for ws in sockets]
    await asyncio.gather(*(sender(ws) for ws in sockets), return_exceptions=True)
    for ws in sockets:
        await ws.close()
    for task in readers:
        task.cancel()
    return dict(answers)


# ---------------------------------------------------------------- the measured game


async def play_one(url: str, code: str, x: Player, o: Player, think: tuple[float, float],
                   latencies: list[float], errors: list[str]) -> None:
    ws_base = url.replace("http://", "ws://")
    sockets = {}
    for side, player in (("X", x), ("O", o)):
        sockets[side] = await websockets.connect(
            f"{ws_base}/ws/room/{code}/", additional_headers={"Cookie": player.cookie_header(), "Origin": url},
            open_timeout=60, max_queue=None)
        assert json.loads(await sockets[side].recv())["type"] == "state"
    sent_at: dict[str, float] = {}
    done = asyncio.Event()

    async def send_move(side: str, ply: int) -> None:
        await asyncio.sleep(random.uniform(*think))
        move_id = str(uuid.uuid4())
        sent_at[move_id] = time.perf_counter()
        await sockets[side].send(json.dumps({"type": "move", "square": SEQUENCE[ply - 1], "ply": ply, "id": move_id}))

    async def listen(side: str) -> None:
        async for raw in sockets[side]:
            frame = json.loads(raw)
            if frame["type"] == "error":
                errors.append(frame["code"])
                done.set()
                return
            if frame["type"] != "move" or frame["side"] == side:
                continue
            t0 = sent_at.pop(frame["id"], None)
            if t0 is not None:
                latencies.append((time.perf_counter() - t0) * 1000)
            if frame["ply"] >= len(SEQUENCE):
                done.set()
                return
            asyncio.create_task(send_move(side, frame["ply"] + 1))

    listeners = [asyncio.create_task(listen(s)) for s in ("X", "O")]
    await send_move("X", 1)
    try:
        await asyncio.wait_for(done.wait(), timeout=300)
    except asyncio.TimeoutError:
        errors.append("timeout")
    for task in listeners:
        task.cancel()
    for ws in sockets.values():
        await ws.close()


def new_game(url: str) -> tuple[str, Player, Player]:
    x, o = Player(url), Player(url)
    x.get("/")
    code = x.post("/rooms/new").rstrip("/").rsplit("/", 1)[-1]
    o.get(f"/r/{code}/")
    o.post(f"/r/{code}/join")
    return code, x, o


def phase(url: str, args, spectators: int, rate: float) -> tuple[list[float], list[str], dict]:
    """Play --games games with `spectators` sockets in each room sending `rate` frames/s each."""
    latencies: list[float] = []
    errors: list[str] = []
    answers: Counter = Counter()
    think = (args.think_min_ms / 1000, args.think_max_ms / 1000)
    for _ in range(args.games):
        code, x, o = new_game(url)
        proc = None
        if spectators:
            ctx = multiprocessing.get_context("spawn")
            ready, stop, result = ctx.Event(), ctx.Event(), ctx.Queue()
            # A bound only: the flood stops when the game is over (or after this, by itself).
            seconds = 60 + len(SEQUENCE) * (args.think_max_ms / 1000 + 1.0)
            proc = ctx.Process(target=flood_process, args=(url, code, spectators, rate, seconds, ready, stop, result))
            proc.start()
            if not ready.wait(120):
                raise SystemExit("the spectators could not connect")
            time.sleep(1.0)  # let the flood reach its rate before the first move
        asyncio.run(play_one(url, code, x, o, think, latencies, errors))
        if proc is not None:
            stop.set()
            answers.update(result.get(timeout=seconds + 120))
            proc.join(30)
    return latencies, errors, dict(answers)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process `pid` so far, seconds (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def report(name: str, latencies: list[float]) -> float:
    p99 = percentile(latencies, 99)
    print(f"{name:>8}: moves={len(latencies)} p50={percentile(latencies, 50):.1f} p95={percentile(latencies, 95):.1f} "
          f"p99={p99:.1f} max={max(latencies) if latencies else float('nan'):.1f} ms")
    return p99


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spectators", type=int, default=40)
    parser.add_argument("--rate", type=float, default=10.0, help="move frames per second per spectator")
    parser.add_argument("--games", type=int, default=4, help="games of 30 moves per phase")
    parser.add_argument("--think-min-ms", type=int, default=50)
    parser.add_argument("--think-max-ms", type=int, default=150)
    parser.add_argument("--max-seconds", type=float, default=600, help="the whole run stops after this")
    args = parser.parse_args()

    started = time.monotonic()
    with Site("bench-abuse", extra_env=SITE_ENV) as site:
        url = site.url
        daphne = site.procs["web"]
        print(f"site: {url} (Daphne log {site.logs / 'web.log'}); {args.spectators} spectators x {args.rate:g} "
              f"frames/s; {args.games} games x {len(SEQUENCE)} moves per phase")

        def over_time() -> None:
            if time.monotonic() - started > args.max_seconds:
                raise SystemExit(f"stopped after --max-seconds {args.max_seconds:g}")

        results = {}
        for name, spectators, rate in (("quiet", 0, 0.0), ("watched", args.spectators, 0.0),
                                       ("flood", args.spectators, args.rate)):
            over_time()
            t0, cpu0 = time.monotonic(), cpu_seconds(daphne.pid)
            latencies, errors, answers = phase(url, args, spectators, rate)
            results[name] = (latencies, errors, answers, cpu_seconds(daphne.pid) - cpu0, time.monotonic() - t0)
        p99 = {}
        for name, (latencies, errors, answers, cpu, wall) in results.items():
            p99[name] = report(name, latencies)
            print(f"{'':>8} Daphne CPU {cpu:.1f} s in {wall:.0f} s; player errors: {errors or 'none'}")
        answers = results["flood"][2]
        extra_cpu = results["flood"][3] - results["watched"][3]
        print(f"spectators' frames (flood): {answers}; about {1e6 * extra_cpu / max(1, answers.get('sent', 0)):.0f} "
              f"µs of Daphne CPU per refused frame; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        ratio = p99["flood"] / p99["quiet"] if p99["quiet"] else float("inf")
        ratio_watched = p99["flood"] / p99["watched"] if p99["watched"] else float("inf")
        ok = ratio <= TARGET_RATIO and not any(r[1] for r in results.values())
        print(f"p99 flood / p99 quiet = {ratio:.2f} (target <= {TARGET_RATIO}): {'met' if ok else 'NOT met'}; "
              f"p99 flood / p99 watched by silent spectators = {ratio_watched:.2f}")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
