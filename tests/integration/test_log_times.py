"""Log lines carry their time in UTC, ISO 8601 with `Z` (caro/logformat.py), not in TIME_ZONE (UTC+7):
the web processes' lines through settings.LOGGING (Daphne's access log too, caro/webserver.py), a
real Celery worker's through its own layout."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.conf import settings

from caro.logformat import UTCFormatter, utc_times
from devstack.cli import daphne_argv
from tests.conftest import _child_env, _stop, _wait_healthy, free_port

ROOT = Path(__file__).resolve().parents[2]
#: 2026-12-01T22:30:05.123Z
STAMP = r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3})Z"


def _near_now(stamp: str) -> bool:
    when = datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%f").replace(tzinfo=UTC)
    return abs(datetime.now(UTC) - when) < timedelta(minutes=10)


def test_a_web_process_line_starts_with_the_utc_time_and_its_zone():
    """A fresh process with the site's settings (as Daphne loads them): TIME_ZONE is UTC+7, the line says UTC."""
    assert settings.TIME_ZONE == "Asia/Ho_Chi_Minh"
    code = ("import django, logging; django.setup(); "
            "logging.getLogger('caro.logcheck').warning('a line to read')")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "DJANGO_SETTINGS_MODULE": "caro.settings"})
    line = next(ln for ln in out.stderr.splitlines() if "a line to read" in ln)
    match = re.match(STAMP + r" WARNING caro\.logcheck \[\d+\] a line to read$", line)
    assert match, line
    assert _near_now(match.group(1)), line


def test_the_formatter_prints_a_known_instant_in_utc():
    """1 Jan 2027 00:00:00.250 UTC is 07:00 in Ho Chi Minh City; the line says 00:00:00.250Z."""
    formatter = logging.Formatter()
    record = logging.LogRecord("caro.x", logging.INFO, __file__, 1, "hello", None, None)
    record.created = datetime(2027, 1, 1, tzinfo=UTC).timestamp() + 0.25
    record.msecs = 250.0
    assert UTCFormatter("%(asctime)s %(message)s").format(record) == "2027-01-01T00:00:00.250Z hello"
    utc_times(formatter)  # what Celery's formatters get (caro/celery.py)
    assert formatter.formatTime(record) == "2027-01-01T00:00:00.250Z"


@pytest.mark.django_db(transaction=True)
def test_a_real_celery_worker_logs_utc_times(celery_worker_process, tmp_path):
    """The worker keeps Celery's layout (`[time: LEVEL/process] text`) with the time in UTC and `Z`."""
    log = (tmp_path / "celery.log").read_text(errors="replace")
    stamps = re.findall(r"^\[" + STAMP + r": (?:INFO|WARNING)/MainProcess\]", log, re.M)
    assert stamps, log[-2000:]
    assert all(_near_now(s) for s in stamps), log[-2000:]


@pytest.mark.django_db(transaction=True)
def test_daphne_started_as_devstack_starts_it_logs_requests_in_utc(django_db_blocker, tmp_path):
    """Daphne's access log (an HTTP request, a websocket's connect and close) in the same layout and
    UTC time as the application's lines, not Daphne's own local-time `[02/Dec/2026:08:40:05]`."""
    import websockets.sync.client

    with django_db_blocker.unblock():
        env = _child_env()
    port, log = free_port(), tmp_path / "web.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(daphne_argv("127.0.0.1", port), cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        assert _wait_healthy(proc, f"http://127.0.0.1:{port}"), log.read_text(errors="replace")[-3000:]
        with websockets.sync.client.connect(f"ws://127.0.0.1:{port}/ws/nowhere/", origin=f"http://127.0.0.1:{port}",
                                            open_timeout=60):
            pass  # the site closes an unknown path at once (4404); connecting is what gets logged
    finally:
        _stop(proc)
    text = log.read_text(errors="replace")
    lines = [ln for ln in text.splitlines() if "caro.access" in ln]
    entry = STAMP + r" INFO caro\.access \[" + str(proc.pid) + r"\] 127\.0\.0\.1:\d+ - - "
    healthz = [re.match(entry + r'"GET /healthz" 200 \d+$', ln) for ln in lines]
    assert any(healthz), text[-3000:]
    assert any(re.match(entry + r'"WSCONNECT /ws/nowhere/" - -$', ln) for ln in lines), text[-3000:]
    assert all(_near_now(m.group(1)) for m in healthz if m)
    assert not re.search(r"\[\d\d/\w{3}/\d{4}:", text), "a line in Daphne's own local-time layout"
