"""Log line format: every line starts with its time in UTC, ISO 8601 with an explicit `Z`.

The site's TIME_ZONE is Asia/Ho_Chi_Minh (UTC+7) and Django sets the process's local time zone to
it, so the standard `%(asctime)s` would print local times without saying which zone they are in.
`UTCFormatter` prints `2026-12-01T22:30:05.123Z` instead, whatever the process's zone: the same
instant reads the same in the web, worker and beat processes and in the server's own logs.
"""

from __future__ import annotations

import logging
import time

#: The layout of one log line (settings.LOGGING's formatter): UTC time, level, logger, process, text.
LINE_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(process)d] %(message)s"
#: `%(asctime)s` without a `datefmt`: seconds by strftime on UTC, then milliseconds and `Z`.
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S"
MSEC_FORMAT = "%s.%03dZ"


class UTCFormatter(logging.Formatter):
    """A logging.Formatter whose `%(asctime)s` is ISO 8601 in UTC to the millisecond, with `Z`
    (`YYYY-MM-DDTHH:MM:SS.mmmZ`). A `datefmt`, if given, is applied to UTC time as well."""

    converter = time.gmtime
    default_time_format = TIME_FORMAT
    default_msec_format = MSEC_FORMAT


def utc_times(formatter: logging.Formatter) -> None:
    """Make an existing formatter (e.g. one of Celery's, whose layout we keep) print `%(asctime)s`
    as UTCFormatter does. Changes `formatter` in place; returns nothing."""
    formatter.converter = time.gmtime
    formatter.default_time_format = TIME_FORMAT
    formatter.default_msec_format = MSEC_FORMAT


class NoClientErrorTraceback(logging.Filter):
    """On `django.request`: a refused request (a status under 500: a malformed multipart body, a
    PermissionDenied in the admin) is logged as its one line, without the traceback Django attaches
    (`log_response(exception=...)`): the visitor sent something wrong, the site did nothing wrong,
    and a traceback per bad request buried the real errors. 5xx records keep theirs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", 500) < 500:
            record.exc_info = None
            record.exc_text = None
        return True


class RefusedBodyOneLine(NoClientErrorTraceback):
    """On `django.security.RequestDataTooBig` and the other request-body limits: Django logs the
    refusal there (and not again on `django.request`) as an ERROR with the whole traceback of
    where the body was read (~250 lines: the CSRF check, the view), though the answer is a 4xx
    (the import page's 413). This writes it as one line, with the method, path and status:
    "Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE. (POST /en/game/import/: 413)"."""

    def filter(self, record: logging.LogRecord) -> bool:
        super().filter(record)
        request = getattr(record, "request", None)
        if record.exc_info is None and request is not None:
            path = request.path.encode("unicode_escape").decode("ascii")  # as Django's log_response
            record.msg = f"{record.getMessage()} ({request.method} {path}: {getattr(record, 'status_code', '?')})"
            record.args = ()
        return True
