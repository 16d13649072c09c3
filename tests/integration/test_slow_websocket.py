"""A websocket whose client never reads is closed with 4408 ("too slow") once more than
`caro.webserver.SEND_BACKLOG_BYTES` wait for it in the web process, instead of the process
buffering every push for it without limit (attack-8, item 1: 60 such sockets took a web process
from 137 to 472 MB in 4 minutes). A socket that reads is not affected. A real Daphne (the web
process as `dev.py run` starts it), real PostgreSQL and Redis; the pushes are the live socket's
lobby list, sent to every `?lobby=all` socket each time a listed room opens."""

from __future__ import annotations

import asyncio
import base64
import os
import re
import socket
import struct
import subprocess
import threading
import time

import pytest
import websockets

from devstack.cli import daphne_argv
from tests.conftest import ROOT, _child_env, _stop, _wait_healthy, free_port
from tests.integration.lobby.builders import lobby_room

pytestmark = pytest.mark.django_db(transaction=True)

#: The backlog limit of the Daphne started here (a small one: the test fills it sooner), bytes.
LIMIT = 48 * 1024
#: How long the test waits for a condition at most (a loaded machine is slow), s.
PATIENCE_S = 240.0
#: tcpi_state values (linux/tcp.h).
TCP_ESTABLISHED = 1


@pytest.fixture
def daphne(django_db_blocker, tmp_path):
    env = _child_env()
    env["CARO_WS_SEND_BACKLOG_BYTES"] = str(LIMIT)
    for attempt in range(5):
        port = free_port()
        log = tmp_path / f"daphne-{attempt}.log"
        with open(log, "wb") as out:
            proc = subprocess.Popen(daphne_argv("127.0.0.1", port), cwd=ROOT, env=env, stdout=out,
                                    stderr=subprocess.STDOUT)
        if _wait_healthy(proc, f"http://127.0.0.1:{port}"):
            break
        _stop(proc)
    else:
        pytest.fail("daphne did not start")
    yield port, log
    _stop(proc)


def _silent_socket(port: int) -> socket.socket:
    """A live socket (`?lobby=all`) opened by hand, with a small receive buffer, that is never
    read after the handshake's answer."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws/live/?lobby=all HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                  f"Origin: http://127.0.0.1:{port}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)  # byte by byte: nothing past the head is read
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _ping_frame() -> bytes:
    """A masked text frame `{"type": "ping"}` (a client's frames are masked): the attacker's
    silent sockets sent one every 10 s, so Daphne's own pings (unanswered: they are never read)
    never timed them out."""
    payload, mask = b'{"type": "ping"}', os.urandom(4)
    return bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def _tcp_state(sock: socket.socket) -> int:
    return struct.unpack("B", sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[:1])[0]


def _server_send_queue(port: int, client_port: int) -> int | None:
    """The web process's kernel send queue for the connection from `client_port`, bytes (ss)."""
    out = subprocess.run(["ss", "-tnH", f"sport = :{port} and dport = :{client_port}"], capture_output=True,
                         text=True).stdout
    match = re.search(r"ESTAB\s+\d+\s+(\d+)", out)
    return int(match.group(1)) if match else None


class Reader(threading.Thread):
    """A live socket (`?lobby=all`) that reads every frame, in its own thread."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port, self.frames, self.closed, self.stop = port, 0, None, False
        self.opened = threading.Event()

    def run(self) -> None:
        asyncio.run(self._read())

    async def _read(self) -> None:
        url = f"ws://127.0.0.1:{self.port}/ws/live/?lobby=all"
        async with websockets.connect(url, origin=f"http://127.0.0.1:{self.port}", max_size=None) as ws:
            self.opened.set()
            while not self.stop:
                try:
                    await asyncio.wait_for(ws.recv(), 1)
                except asyncio.TimeoutError:
                    continue
                except websockets.ConnectionClosed as closed:
                    self.closed = closed.rcvd.code if closed.rcvd else -1
                    return
                self.frames += 1


def test_a_socket_that_never_reads_is_closed_and_a_reading_one_is_not(daphne):
    port, log = daphne
    reader = Reader(port)
    reader.start()
    assert reader.opened.wait(60)
    silent = _silent_socket(port)
    client_port = silent.getsockname()[1]
    deadline = time.monotonic() + PATIENCE_S
    made, pinged = 0, time.monotonic()
    # Each listed room sends the whole (growing) lobby list to both sockets.
    while _tcp_state(silent) == TCP_ESTABLISHED:
        assert time.monotonic() < deadline, f"the silent socket is still open after {made} rooms"
        lobby_room()
        made += 1
        if time.monotonic() - pinged > 5:  # keeps Daphne from timing it out (not a timing assertion)
            silent.sendall(_ping_frame())
            pinged = time.monotonic()
        queued = _server_send_queue(port, client_port)
        if queued is not None:  # the kernel's part is bounded by its own buffer; Twisted's by LIMIT
            assert queued < 8 * 1024 * 1024
    # It was closed by the web process: 4408 in its log, its connection gone from the server side.
    text = log.read_text(errors="replace")
    assert "closed 4408 (too slow)" in text, text[-3000:]
    waiting = int(re.search(r"closed 4408 \(too slow\): (\d+) bytes waiting", text).group(1))
    assert LIMIT < waiting < LIMIT + 256 * 1024  # one message over the limit at most
    silent.close()
    # The reading socket is still open and still gets the pushes.
    before = reader.frames
    while reader.frames <= before:
        assert reader.closed is None and time.monotonic() < deadline
        lobby_room()
        time.sleep(0.2)  # a pause between rooms, not an assertion on time
    reader.stop = True
    reader.join(30)
    assert reader.closed is None
