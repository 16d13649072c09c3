"""Scale-out (issue 17): two real Daphne processes started the way `dev.py run --web 2` starts
them (devstack/webs.py: one shared SO_REUSEPORT port plus a port of its own each). The two players of
one game sit on different processes and a spectator comes through the shared port: a whole game is
relayed to everyone, in order, to its end; and connections to the shared port reach both processes."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import time
import uuid

import psutil
import pytest

from devstack.cli import daphne_argv
from devstack.webs import bind_web_sockets
from tests.conftest import ROOT, _child_env, _stop, _wait_healthy
from tests.integration.test_lifecycle_daphne import TIMEOUT_S, _friend_room, _next, _open

pytestmark = [pytest.mark.django_db(transaction=True)]
START_TIMEOUT_S = 120
"""Generous: two Djangos importing at once on a loaded 2-core machine."""


@pytest.fixture(scope="module")
def web_group(django_db_setup, django_db_blocker, tmp_path_factory):
    """{"front": base URL of the shared port, "own": [base URL of each process], "pids": [...]}."""
    with django_db_blocker.unblock():
        env = _child_env()
    group = bind_web_sockets("127.0.0.1", 0, 2)
    folder = tmp_path_factory.mktemp("webs")
    procs = []
    try:
        for i in range(2):
            with open(folder / f"web{i + 1}.log", "wb") as out:
                procs.append(subprocess.Popen(daphne_argv("127.0.0.1", group.port, fds=group.fds(i)), cwd=ROOT, env=env,
                                              stdout=out, stderr=subprocess.STDOUT, pass_fds=group.fds(i)))
        group.close()  # the processes hold their own copies
        for i, (proc, port) in enumerate(zip(procs, group.own_ports)):
            if not _wait_healthy(proc, f"http://127.0.0.1:{port}", timeout=START_TIMEOUT_S):
                pytest.fail(f"web{i + 1} did not start:\n" + (folder / f"web{i + 1}.log").read_text(errors="replace")[-3000:])
        yield {"front": f"http://127.0.0.1:{group.port}", "own": [f"http://127.0.0.1:{p}" for p in group.own_ports],
               "pids": [p.pid for p in procs], "port": group.port}
    finally:
        group.close()
        for proc in procs:
            _stop(proc)


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


def _served_by(pid: int, port: int) -> int:
    """How many established connections process `pid` holds on its local `port`."""
    return sum(1 for c in psutil.Process(pid).net_connections(kind="tcp")
               if c.status == psutil.CONN_ESTABLISHED and c.laddr and c.laddr.port == port)


@pytest.mark.asyncio
async def test_a_whole_game_relays_between_players_on_two_processes(web_group):
    a, b = web_group["own"]
    room, x_cookie, o_cookie = await _friend_room()
    x, sx = await _open(a, room.code, x_cookie)
    o, so = await _open(b, room.code, o_cookie)
    watcher, sw = await _open(web_group["front"], room.code, "django_language=en")
    sockets = [x, o, watcher]
    try:
        assert (sx["you"], so["you"], sw["you"]) == ("X", "O", None)
        x_squares, o_squares = ["H8", "I8", "J8", "K8", "L8"], ["H9", "I9", "J9", "K9"]
        order = [("X", s) for s in x_squares]
        order = [m for pair in zip(order, [("O", s) for s in o_squares] + [None]) for m in pair if m]
        for ply, (side, square) in enumerate(order, start=1):
            mover, opponent = (x, o) if side == "X" else (o, x)
            move_id = str(uuid.uuid4())
            await mover.send(json.dumps({"type": "move", "square": square, "ply": ply, "id": move_id}))
            for ws in (opponent, watcher, mover):  # everyone hears it, the mover too, in ply order
                seen = await _next(ws, "move", ply=ply)
                assert (seen["side"], seen["square"], seen["id"]) == (side, square, move_id)
        for ws in sockets:
            over = await _next(ws, "game_over")
            assert (over["winner"], over["termination"], over["status"]) == ("X", "five", "finished")
            assert over["line"] == x_squares
    finally:
        for ws in sockets:
            await ws.close()


@pytest.mark.asyncio
async def test_connections_to_the_shared_port_reach_both_processes(web_group):
    """The kernel spreads connections by a hash of their ports: with 24 connections, all on one of
    two processes has odds of 2 in 2^24."""
    port, pids = web_group["port"], web_group["pids"]
    conns = [socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_S) for _ in range(24)]
    try:
        deadline = time.monotonic() + TIMEOUT_S
        while True:  # accepted asynchronously by each process's event loop
            counts = [_served_by(pid, port) for pid in pids]
            if sum(counts) == len(conns) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        assert sum(counts) == len(conns), counts
        assert all(counts), f"every process accepted some connections: {counts}"
    finally:
        for conn in conns:
            conn.close()
