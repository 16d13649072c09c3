"""What the room page's pings cost the server: CPU per `ping` of one web process and of PostgreSQL,
for the full heartbeat (presence and the game's version, one database round trip) and for a `light`
ping (the page's liveness probe, answered on the event loop), and what the page's cadence costs per
1,000 open room sockets.

    nice -n 10 .venv/bin/python bench/ws_ping.py                        # a site of its own (bench/stack.py)
    nice -n 10 .venv/bin/python bench/ws_ping.py --sockets 400 --rate 400 --seconds 20

A site of its own is started (embedded PostgreSQL and Redis unless DATABASE_URL / REDIS_URL are set,
limits off). `--games` friend rooms are made through the real pages and `--sockets` room sockets are
opened over them (two players a room, the rest spectators). Then, in interleaved phases of
`--seconds` each, repeated `--repeat` times: IDLE (the sockets open, nobody sends anything), FULL
and LIGHT (the sockets together send `--rate` full or light pings a second, spread evenly, each
answered by a `pong`). Per phase it reads the CPU time of the web process and of PostgreSQL (user +
system, psutil) and the pong round trips. Printed per kind: CPU ms per ping of the web process and
of PostgreSQL (the phase minus IDLE, over the pings answered) and pong round trip p50/p99; then what
1,000 open sockets cost at the page's cadence (a ping after `--every` s of silence, a full one at
least every `--heartbeat` s) and, for comparison, with full pings only at the intervals of
`--intervals`; with the load average. CPU time is the figure that survives a loaded machine; the
round trips do not.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import statistics
import sys
import time
from pathlib import Path

import websockets

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from ws_relay import cpu_seconds, loadavg, make_game, percentile, probes, start_site  # noqa: E402


async def open_sockets(site, games: list, count: int) -> list:
    """`count` room sockets over `games` (X, O, then spectators, round robin), each past its `state`."""
    sockets = []
    base = site.ws_url
    plan = []
    for i in range(count):
        code, x, o = games[i % len(games)]
        lap = i // len(games)
        who = x if lap == 0 else o if lap == 1 else None
        headers = {"Origin": site.url}
        if who is not None:
            headers["Cookie"] = who.cookie_header()
        plan.append((f"{base}/ws/room/{code}/", headers))
    for url, headers in plan:
        ws = await websockets.connect(url, additional_headers=headers, open_timeout=60, max_queue=None)
        while json.loads(await ws.recv())["type"] != "state":
            pass
        sockets.append(ws)
    return sockets


async def drain(ws, rtts: list, stop: asyncio.Event) -> None:
    """Read everything from `ws`; a pong's round trip (from its echoed `t`, perf_counter ms) to `rtts`."""
    while not stop.is_set():
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
        except asyncio.TimeoutError:
            continue
        except websockets.exceptions.ConnectionClosed:
            return
        frame = json.loads(raw)
        if frame.get("type") == "pong" and isinstance(frame.get("t"), (int, float)):
            rtts.append(time.perf_counter() * 1000 - frame["t"])


async def phase(sockets: list, pids: dict, seconds: float, rate: float, light: bool = False) -> dict:
    """One phase: `rate` pings a second over all sockets (0: idle; `light` ones or full) for
    `seconds`; CPU seconds per part."""
    rtts: list[float] = []
    stop = asyncio.Event()
    readers = [asyncio.create_task(drain(ws, rtts, stop)) for ws in sockets]
    before = {part: cpu_seconds(p) for part, p in pids.items()}
    start = time.perf_counter()
    sent = 0
    if rate > 0:
        gap = 1 / rate
        while time.perf_counter() - start < seconds:
            ws = sockets[sent % len(sockets)]
            frame = {"type": "ping", "t": time.perf_counter() * 1000}
            if light:
                frame["light"] = True
            await ws.send(json.dumps(frame))
            sent += 1
            delay = start + sent * gap - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
    else:
        await asyncio.sleep(seconds)
    await asyncio.sleep(1.0)  # the last pongs
    elapsed = time.perf_counter() - start
    after = {part: cpu_seconds(p) for part, p in pids.items()}
    stop.set()
    await asyncio.gather(*readers)
    return {"sent": sent, "answered": len(rtts), "rtts": rtts, "elapsed": elapsed,
            "cpu": {part: after[part] - before[part] for part in pids}}


async def run(args) -> int:
    print(f"ws_ping: {args.sockets} sockets over {args.games} rooms, {args.rate:g} pings/s, "
          f"{args.seconds:g} s phases (idle, full, light) x {args.repeat}; cores {os.cpu_count()}, load {loadavg()}")
    with contextlib.ExitStack() as stack:
        site = start_site(stack, "bench-ws-ping", webs=1)
        pids = {part: p for part, p in probes(site)["pids"].items() if part in ("web", "postgres")}
        games = [await asyncio.to_thread(make_game, site.url) for _ in range(args.games)]
        for code, _x, o in games:
            await asyncio.to_thread(o.post, f"/r/{code}/join")
        sockets = await open_sockets(site, games, args.sockets)
        await asyncio.sleep(2)
        idle, runs = [], {"full": [], "light": []}
        for _ in range(args.repeat):
            idle.append(await phase(sockets, pids, args.seconds, 0))
            runs["full"].append(await phase(sockets, pids, args.seconds, args.rate))
            runs["light"].append(await phase(sockets, pids, args.seconds, args.rate, light=True))
        for ws in sockets:
            await ws.close()
    cost = {}
    for kind, busy in runs.items():
        per_ping = {}
        for part in pids:
            extra = [b["cpu"][part] / b["elapsed"] - i["cpu"][part] / i["elapsed"] for i, b in zip(idle, busy)]
            rates = [b["answered"] / b["elapsed"] for b in busy]
            per_ping[part] = statistics.median(e / r * 1000 for e, r in zip(extra, rates))
        rtts = [r for b in busy for r in b["rtts"]]
        lost = sum(b["sent"] - b["answered"] for b in busy)
        cost[kind] = sum(per_ping.values())
        print(f"  {kind:5s} ping: web {per_ping['web']:.3f} CPU ms, PostgreSQL {per_ping.get('postgres', 0):.3f} CPU ms; "
              f"pong round trip p50 {percentile(rtts, 50):.1f} ms, p99 {percentile(rtts, 99):.1f} ms, "
              f"max {max(rtts, default=float('nan')):.1f} ms; unanswered {lost}")
    for part in pids:
        share = statistics.median(i["cpu"][part] / i["elapsed"] for i in idle)
        print(f"  idle with the sockets open, {part}: {share * 100:.2f} % of a core")
    full_rate = 1000 / args.heartbeat
    light_rate = 1000 / args.every - full_rate
    page = (full_rate * cost["full"] + light_rate * cost["light"]) / 1000
    print(f"  per 1,000 open room sockets (web + PostgreSQL), the page's cadence (a ping after {args.every:g} s of "
          f"silence, a full one every {args.heartbeat:g} s): {full_rate:.0f} full + {light_rate:.0f} light pings/s, "
          f"{page * 100:.1f} % of a core")
    for interval in args.intervals:
        print(f"    full pings only, every {interval:g} s: {1000 / interval:.0f} pings/s, "
              f"{1000 / interval * cost['full'] / 1000 * 100:.1f} % of a core")
    print(f"  load after: {loadavg()}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=50, help="friend rooms (two players each)")
    parser.add_argument("--sockets", type=int, default=200, help="room sockets open (players, then spectators)")
    parser.add_argument("--rate", type=float, default=200, help="pings a second, over all sockets, in a PING phase")
    parser.add_argument("--seconds", type=float, default=15, help="length of each phase")
    parser.add_argument("--repeat", type=int, default=3, help="IDLE/PING phase pairs")
    parser.add_argument("--intervals", type=lambda s: [float(v) for v in s.split(",")], default=[15, 1.6],
                        help="full-ping intervals (s) to price per 1,000 sockets, for comparison")
    parser.add_argument("--every", type=float, default=1.6, help="the page's ping after this much silence (s)")
    parser.add_argument("--heartbeat", type=float, default=15, help="the page's full ping at least this often (s)")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
