"""`python -m caro.webserver [Daphne's arguments]`: Daphne's own command line (the same options
and defaults as `daphne`), whose access log goes through Python logging instead of its own stream.

Daphne writes its access log (`daphne.access.AccessLogGenerator`, on by default at verbosity 1)
straight to stdout with `datetime.now()`, the process's local time (UTC+7 here: Django sets the
process's zone to TIME_ZONE) and no zone. Through the logger `caro.access` each line gets
settings.LOGGING's layout and time (caro/logformat.py: UTC, ISO 8601 with `Z`), like every other
line of the web process:

    2026-12-02T01:40:05.123Z INFO caro.access [4242] 10.0.0.7:51234 - - "GET /healthz" 200 2

Daphne's command line creates its server through the class attribute `server_class`: this module
only gives it a subclass whose access log is `AccessLog`. The lines follow the `caro` logger's
level (LOG_LEVEL, INFO by default); `--access-log FILE` turns the log on as in Daphne, but the
lines go where settings.LOGGING sends them, not to FILE; `-v 0` turns it off.
"""

from __future__ import annotations

import logging

from daphne.access import AccessLogGenerator
from daphne.cli import CommandLineInterface
from daphne.server import Server

#: The logger of the access log's lines (a child of `caro`, so settings.LOGGING's `caro` level applies).
ACCESS_LOGGER = "caro.access"


class AccessLog(AccessLogGenerator):
    """Daphne's access log (its entries: HTTP requests completed, websockets connecting,
    connected, rejected, disconnected) as INFO records of `ACCESS_LOGGER`, with the fields of
    Daphne's NCSA-like line but without its local-time stamp: the record's own time is the line's."""

    def __init__(self, logger: logging.Logger | None = None) -> None:
        super().__init__(stream=None)
        self.logger = logger or logging.getLogger(ACCESS_LOGGER)

    def write_entry(self, host, date, request, status=None, length=None, ident=None, user=None) -> None:
        """One entry: `host` ("address:port"), `request` (e.g. "GET /path", "WSCONNECT /ws/..."),
        HTTP `status` and response `length` (bytes) when known; `date` (Daphne's local time) is
        not used."""
        self.logger.info('%s %s %s "%s" %s %s', host, ident or "-", user or "-", request,
                         status or "-", length or "-")


class LoggingServer(Server):
    """Daphne's server with `AccessLog` wherever Daphne's command line would have given it its
    own access log (at verbosity 1 or more, or with `--access-log`)."""

    def __init__(self, *args, action_logger=None, **kwargs) -> None:
        super().__init__(*args, action_logger=AccessLog() if action_logger is not None else None, **kwargs)


class WebCommandLine(CommandLineInterface):
    """`daphne`'s command line, serving through `LoggingServer`."""

    server_class = LoggingServer


if __name__ == "__main__":
    WebCommandLine.entrypoint()
