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
