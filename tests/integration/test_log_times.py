"""Log lines carry their time in UTC, ISO 8601 with `Z` (caro/logformat.py), not in TIME_ZONE (UTC+7):
the web processes' lines through settings.LOGGING, a real Celery worker's through its own layout."""

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
