"""The web process as started by `dev.py run` and compose (`python -m caro.webserver`): a bounded
answer to every request head it refuses (issue 27: a 100,000-character query string used to get
its connection closed with no answer), uvloop as the loop, and the collector policy applied."""

from __future__ import annotations

import socket
import time

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

#: How long a test waits for an answer on a loaded machine, s.
ANSWER_S = 30.0


def _raw(url: str, request: bytes) -> bytes:
    """Send `request` (bytes as written) to the server at `url`; everything it answers until it
    closes (or ANSWER_S passes)."""
    host, port = url.split("//", 1)[1].split(":")
    with socket.create_connection((host, int(port)), timeout=ANSWER_S) as sock:
        try:
            sock.sendall(request)
        except OSError:  # the server may stop reading once it has answered
            pass
        chunks = []
        deadline = time.monotonic() + ANSWER_S
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


def _status(answer: bytes) -> int:
    assert answer.startswith(b"HTTP/1.1 "), answer[:200]
    return int(answer.split(b" ", 2)[1])


@pytest.mark.parametrize("length", [17_000, 100_000])
def test_an_oversized_request_line_gets_414(live_server_url, length):
    answer = _raw(live_server_url, b"GET /?q=" + b"a" * length + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert _status(answer) == 414 and b"Connection: close" in answer


def test_an_oversized_header_line_gets_431(live_server_url):
    answer = _raw(live_server_url, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"b" * 20_000 + b"\r\n\r\n")
    assert _status(answer) == 431


def test_a_head_too_big_in_many_lines_gets_431(live_server_url):
    headers = b"".join(b"X-H%d: %s\r\n" % (i, b"c" * 900) for i in range(30))  # 27 KB in lines of 1 KB
    answer = _raw(live_server_url, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + b"\r\n")
    assert _status(answer) == 431


def test_a_malformed_request_line_gets_400(live_server_url):
    assert _status(_raw(live_server_url, b"NONSENSE\r\n\r\n")) == 400


def test_a_normal_request_still_gets_its_page_after_the_refusals(live_server_url):
    answer = _raw(live_server_url, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert _status(answer) == 200


def test_the_web_process_runs_on_uvloop_with_the_collector_policy(tmp_path):
    """In a fresh interpreter, importing caro.webserver (as `python -m caro.webserver` does) makes
    Twisted's reactor run on uvloop; `gcpolicy.apply` sets the thresholds and freezes start-up."""
    import subprocess
    import sys

    code = (
        "import caro.webserver, asyncio, gc\n"
        "from twisted.internet import reactor\n"
        "print(type(reactor._asyncioEventloop).__module__)\n"
        "from caro import gcpolicy\n"
        "gcpolicy.apply()\n"
        "print(gc.get_threshold() == gcpolicy.THRESHOLDS, gc.get_freeze_count() > 10000)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["uvloop", "True", "True"], out.stdout


def test_a_frame_is_written_at_once_only_when_nothing_waits_before_it():
    """`write_now` (a websocket frame straight to the socket): written at once, in order, when the
    transport holds nothing; refused (nothing written) when earlier data waits in Twisted's
    buffers or the connection is closing; a part the kernel did not take goes to the transport's
    own `write`, after what was written. In a fresh interpreter, as the web process imports it."""
    import subprocess
    import sys

    code = (
        "import socket\n"
        "from caro.webserver import write_now\n"
        "class T:\n"
        "    connected, disconnecting, _writeDisconnected, TLS, producerPaused = 1, False, False, False, False\n"
        "    def __init__(self, s):\n"
        "        self.socket, self.dataBuffer, self._tempDataBuffer, self.written = s, b'', [], []\n"
        "    def write(self, data):\n"
        "        self.written.append(bytes(data))\n"
        "a, b = socket.socketpair()\n"
        "a.setblocking(False); b.setblocking(False)\n"
        "t = T(a)\n"
        "print(write_now(t, b'one'), write_now(t, b'two'), b.recv(100) == b'onetwo', t.written == [])\n"
        "t._tempDataBuffer = [b'earlier']\n"
        "print(write_now(t, b'x'), t.written == [])\n"
        "t._tempDataBuffer, t.disconnecting = [], True\n"
        "print(write_now(t, b'x'), t.written == [])\n"
        "t.disconnecting = False\n"
        "big = bytes(range(256)) * 40000\n"
        "print(write_now(t, big), len(t.written) == 1)\n"
        "got = b''\n"
        "while True:\n"
        "    try:\n"
        "        chunk = b.recv(1 << 20)\n"
        "    except BlockingIOError:\n"
        "        break\n"
        "    got += chunk\n"
        "print(got + t.written[0] == big, 0 < len(got) < len(big))\n"
        "b.close()\n"
        "print(write_now(t, b'after the peer closed'), len(t.written) == 1)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True", "True", "True", "False", "True", "False", "True",
                                  "True", "True", "True", "True", "False", "True"], out.stdout
