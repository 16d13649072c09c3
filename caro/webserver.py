"""`python -m caro.webserver [Daphne's arguments]`: Daphne's own command line (the same options
and defaults as `daphne`), whose access log goes through Python logging instead of its own stream,
on uvloop, with the collector tuned for a long-lived server and a bounded answer to every request.

- **uvloop** (pinned in pyproject.toml) is the event loop: Daphne installs Twisted's asyncio
  reactor on `asyncio.new_event_loop()` when `daphne.server` is imported, so the policy is set
  here before that import (`CARO_UVLOOP=0` keeps asyncio's own loop).
- **The collector** (`caro.gcpolicy`): thresholds for a server whose start-up objects live for
  ever, and `gc.freeze()` of what lives long (start-up, then the open sockets' objects) every few
  seconds. Frozen objects must be freed by their reference counts when they die, so two reference
  cycles every closed websocket used to leave are broken here: autobahn resolves a protocol's
  `is_closed` future with the protocol itself (`CollectableWebSocketProtocol` replaces it once the
  connection is lost), and Twisted's HTTP channel kept the request that Daphne upgraded to a
  websocket in its list of requests, the request pointing back at the channel
  (`BoundedHTTPChannel` drops it as the connection is handed over).
- **Oversized requests** get an answer, not a dropped connection (`BoundedHTTPChannel`): Twisted
  closes the connection without a word when a line of the request head is longer than its
  `MAX_LENGTH` (16 KiB; `LineReceiver.lineLengthExceeded`), and answers a bare 400 to a head
  over `totalHeadersSize` or with too many header lines. Here a request line that is too long
  gets **414**, a header line or a head that is too big (or too many header lines) **431**,
  anything else malformed **400**, each with a short text body and `Connection: close`; the
  connection then reads and drops what the client still sends (so the answer is not lost to a
  TCP reset) until the client closes or REFUSED_LINGER_S passes.
- **No terminal styling per frame**: autobahn's per-frame debug-log values are not built
  (`plain_debug_values`).
- **A frame is written at once**: a websocket frame goes to the socket in the call that sends it
  when nothing is waiting to be written before it (`write_now`), instead of Twisted's buffer, a
  writer registered with the event loop, a turn of the loop and the writer removed again for
  every frame.
- **A socket whose client does not read is closed, not buffered for ever** (`SEND_BACKLOG_BYTES`):
  Twisted buffers without limit what the kernel does not take, so a client that never reads (or
  reads far slower than the site pushes: the live socket's counts and watch list) made the web
  process grow by every frame sent to it. Before a message goes out, the bytes already waiting
  for its socket in Twisted's buffers are looked at; over the limit, the socket is closed with
  `CLOSE_TOO_SLOW` (4408, "too slow") instead, and what it held is dropped once autobahn's close
  handshake times out (1 s: the connection is aborted). Messages for a socket that is closing are
  dropped. Every websocket of the site goes through here (docs/protocol.md, "Close codes"); the
  pages reconnect after 4408 as after any drop.

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

import asyncio
import logging
import os

if os.environ.get("CARO_UVLOOP", "1") != "0":  # before daphne.server makes the reactor's loop
    import uvloop

    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())

from daphne import server as daphne_server  # noqa: E402
from daphne.access import AccessLogGenerator  # noqa: E402
from daphne.cli import CommandLineInterface  # noqa: E402
from daphne.http_protocol import HTTPFactory  # noqa: E402
from daphne.server import Server  # noqa: E402
from daphne.ws_protocol import WebSocketFactory, WebSocketProtocol  # noqa: E402
from twisted.web import http  # noqa: E402
import txaio  # noqa: E402

from caro import gcpolicy  # noqa: E402

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


#: Seconds a refused connection keeps reading (and dropping) what the client still sends after
#: the answer, before it is closed.
REFUSED_LINGER_S = 2.0
REFUSALS = {
    400: b"400 Bad Request",
    414: b"414 URI Too Long",
    431: b"431 Request Header Fields Too Large",
}


class BoundedHTTPChannel(http.HTTPChannel):
    """Twisted's HTTP channel with an answer for every request head it refuses (the module
    docstring): 414, 431 or 400, never a silent close."""

    refused = False

    def dataReceived(self, data: bytes) -> None:
        if self.refused:  # the answer is out: drop the rest until the client closes
            return
        super().dataReceived(data)

    def lineReceived(self, line: bytes):
        if self.refused:
            return True  # a true answer stops LineReceiver at once (the rest of this chunk too)
        answer = super().lineReceived(line)
        return True if self.refused else answer

    def rawDataReceived(self, data: bytes) -> None:
        if not self.refused:
            super().rawDataReceived(data)

    def allContentReceived(self) -> None:
        """Twisted's, then: a request that Daphne upgraded to a websocket (it took the connection
        over and set the request's transport to None) leaves this channel's list of requests. The
        channel never hears of that connection again, and the request and the channel referred to
        each other: a reference cycle per socket, which only the collector could free (caro.gcpolicy
        freezes the sockets' objects, so it never would)."""
        super().allContentReceived()
        if any(request.transport is None for request in self.requests):
            self.requests = [request for request in self.requests if request.transport is not None]

    def lineLengthExceeded(self, line: bytes) -> None:
        """A line of the head longer than MAX_LENGTH: the request line (414) or a header (431)."""
        self.refuse(414 if getattr(self, "_HTTPChannel__first_line", 0) else 431)

    def _respondToBadRequestAndDisconnect(self) -> None:
        too_big = (self._receivedHeaderSize > self.totalHeadersSize
                   or getattr(self, "_receivedHeaderCount", 0) > self.maxHeaders)
        self.refuse(431 if too_big else 400)

    def refuse(self, status: int) -> None:
        """Answer `status` with a short body, close the writing side, drop what still comes."""
        if self.refused:
            return
        self.refused = True
        body = REFUSALS[status] + b"\n"
        self.transport.write(b"HTTP/1.1 " + REFUSALS[status] + b"\r\nContent-Type: text/plain\r\n"
                             b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body)
        try:
            self.transport.loseWriteConnection()
        except Exception:  # noqa: BLE001 - a transport without half-close: close it (after the write)
            self.transport.loseConnection()
        self.callLater(REFUSED_LINGER_S, self.transport.abortConnection)


def _bounded_protocol(factory) -> http._GenericHTTPChannelProtocol:
    return http._GenericHTTPChannelProtocol(BoundedHTTPChannel())


def write_now(transport, data: bytes) -> bool:
    """Write `data` to the socket of Twisted TCP `transport` now, if nothing it holds must go
    first: True when `data` is all written or handed to the transport (a part the kernel did not
    take is written through `transport.write`, in order, which pauses a registered producer if
    its buffer fills, as ever); False, having written nothing, when the transport must have it
    (data buffered before it, TLS, a paused producer, a connection closing, anything unusual):
    the caller then writes it as usual.

    Twisted's `write` only buffers and registers the socket as a writer with the event loop
    (an `epoll_ctl`), which writes it on the loop's next turn and removes the writer again (a
    second `epoll_ctl`): for a few hundred bytes into an empty kernel buffer, that is most of
    what sending a frame costs the web process (issue 27, phase 7). An error of the socket (a
    connection reset) is left to the transport, whose own write then finds it and reports the
    connection lost, as before."""
    skt = getattr(transport, "socket", None)
    if (skt is None or not getattr(transport, "connected", False) or getattr(transport, "disconnecting", True)
            or getattr(transport, "_writeDisconnected", True) or getattr(transport, "TLS", True)
            or getattr(transport, "producerPaused", True) or getattr(transport, "dataBuffer", b"x")
            or getattr(transport, "_tempDataBuffer", True)):
        return False
    try:
        sent = skt.send(data)
    except (BlockingIOError, InterruptedError):
        return False
    except OSError:
        return False
    if sent < len(data):
        transport.write(data[sent:])
    return True


#: Bytes that may wait in Twisted's buffers for one websocket (what its kernel buffer did not take)
#: before the next message closes it with CLOSE_TOO_SLOW instead of adding to them: a few
#: seconds of the busiest pushes (the watch list, 25 KB a second) for a slow phone, bounded.
#: `CARO_WS_SEND_BACKLOG_BYTES` sets another (the tests use a small one).
SEND_BACKLOG_BYTES = int(os.environ.get("CARO_WS_SEND_BACKLOG_BYTES") or 256 * 1024)
#: The close code of a socket whose client does not read what is sent (docs/protocol.md).
CLOSE_TOO_SLOW = 4408
slow_log = logging.getLogger("caro.websocket")


def send_backlog(transport) -> int:
    """Bytes waiting in Twisted TCP `transport`'s write buffers (`FileDescriptor.dataBuffer`
    past `offset`, and the list `_tempDataBuffer` of `_tempDataLen` bytes); 0 for a transport
    without them."""
    buffered = getattr(transport, "dataBuffer", b"")
    return max(0, len(buffered) - getattr(transport, "offset", 0)) + getattr(transport, "_tempDataLen", 0)


class CollectableWebSocketProtocol(WebSocketProtocol):
    """Daphne's websocket protocol, freed by reference counting once its connection is lost
    (caro.gcpolicy): autobahn resolves `is_closed` with the protocol itself (protocol -> future ->
    protocol, a cycle), so the resolved future is replaced by one that holds nothing. Its frames
    are written at once when they can be (`write_now`)."""

    def connectionLost(self, reason) -> None:
        super().connectionLost(reason)
        self.is_closed = txaio.create_future_success(None)

    def serverSend(self, content, binary=False) -> None:
        """Daphne's `serverSend` (one message of the application), unless the socket is closing
        (dropped: autobahn would raise) or more than SEND_BACKLOG_BYTES already wait for it: then
        the socket is closed with CLOSE_TOO_SLOW and the message dropped (module docstring)."""
        if self.state in (WebSocketProtocol.STATE_CLOSING, WebSocketProtocol.STATE_CLOSED):
            return
        if self.state == WebSocketProtocol.STATE_OPEN:
            waiting = send_backlog(self.transport)
            if waiting > SEND_BACKLOG_BYTES:
                slow_log.warning("websocket %s closed %d (too slow): %d bytes waiting for it",
                                 getattr(self, "client_addr", None), CLOSE_TOO_SLOW, waiting)
                self.sendClose(code=CLOSE_TOO_SLOW, reason="too slow")
                return
        super().serverSend(content, binary)

    def sendData(self, data: bytes, sync: bool = False, chopsize: int | None = None) -> None:
        """autobahn's `sendData`, whose plain case (no chopping, nothing queued: it calls
        `transport.write(data)`) writes with `write_now` when it can, and counts the bytes as
        autobahn does."""
        if chopsize or sync or self.send_queue or self.logOctets or not write_now(self.transport, data):
            return super().sendData(data, sync, chopsize)
        if self.state == WebSocketProtocol.STATE_OPEN:
            self.trafficStats.outgoingOctetsWireLevel += len(data)
        elif self.state in (WebSocketProtocol.STATE_CONNECTING, WebSocketProtocol.STATE_PROXY_CONNECTING):
            self.trafficStats.preopenOutgoingOctetsWireLevel += len(data)


class CollectableWebSocketFactory(WebSocketFactory):
    """Daphne's websocket factory, building `CollectableWebSocketProtocol`s."""

    protocol = CollectableWebSocketProtocol


class BoundedHTTPFactory(HTTPFactory):
    """Daphne's HTTP factory, building `BoundedHTTPChannel`s."""

    protocol = _bounded_protocol


def _unformatted(value, *_args, **_kwargs):
    """`value` itself: what autobahn's debug-log highlighters become here (`plain_debug_values`)."""
    return value


def plain_debug_values() -> None:
    """Stop autobahn from building its terminal-coloured debug values for every frame.

    autobahn's websocket protocol passes `hltype(...)` and `hlval(...)` (the qualified name of a
    method, the peer, the byte count, each styled for a terminal through click) as arguments of a
    `log.debug` call on every frame it receives and every frame it sends, so they are computed
    even though nothing logs at debug level: about 7 string-formatting calls per frame, ~5 % of
    the web process's CPU per move (a profile of bench/ws_relay.py at 50 games). Replaced in the
    two modules that call them per frame by `_unformatted`, a debug line (if ever switched on)
    shows the same values, unstyled."""
    from autobahn.twisted import websocket as twisted_websocket
    from autobahn.websocket import protocol as websocket_protocol

    for module in (twisted_websocket, websocket_protocol):
        module.hltype = module.hlval = _unformatted


class LoggingServer(Server):
    """Daphne's server with `AccessLog` wherever Daphne's command line would have given it its
    own access log (at verbosity 1 or more, or with `--access-log`), serving through
    `BoundedHTTPFactory` and `CollectableWebSocketFactory`, with the collector policy applied
    and the database pool connecting before the port listens (`caro.gcpolicy`, `open_database_pool`)."""

    def __init__(self, *args, action_logger=None, **kwargs) -> None:
        super().__init__(*args, action_logger=AccessLog() if action_logger is not None else None, **kwargs)

    def run(self) -> None:
        # Server.run makes its factory from the name in daphne.server's namespace.
        daphne_server.HTTPFactory = BoundedHTTPFactory
        daphne_server.WebSocketFactory = CollectableWebSocketFactory
        from twisted.internet import reactor

        plain_debug_values()
        open_database_pool()
        # The first freeze (a full collection of what start-up made) before the port listens, so
        # that a port that accepts is a process that serves: done once the reactor ran, it held
        # back the first sockets of a restarted process (0.6-0.8 s at load 25 on 2 cores).
        gcpolicy.apply()
        reactor.callWhenRunning(gcpolicy.schedule, reactor.callLater, reactor.callFromThread)
        super().run()


def open_database_pool() -> None:
    """Start connecting the default database's pool (Django's psycopg pool, shared by the
    process's threads) before the port listens, instead of on the first page or socket. It
    connects in its own threads and does not wait: a PostgreSQL that is away does not hold the
    server back (its pages answer 503 meanwhile, as they would). Nothing without a pool."""
    from django.db import connection

    pool = getattr(connection, "pool", None)
    if pool is not None:
        pool.open(wait=False)


class WebCommandLine(CommandLineInterface):
    """`daphne`'s command line, serving through `LoggingServer`."""

    server_class = LoggingServer


if __name__ == "__main__":
    WebCommandLine.entrypoint()
