"""Log noise found by an attacker run: a refused request (status under 500) is one log line without
a traceback (a multipart body Django cannot parse, a 403 in the admin), and the import page's 429
does not send the pasted text back."""

from __future__ import annotations

import asyncio
import logging
import random
import uuid

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tests.integration.moderation_helpers import moderator

pytestmark = pytest.mark.django_db


def _request_records(caplog):
    return [r for r in caplog.records if r.name == "django.request"]


def test_a_multipart_upload_with_a_huge_filename_is_a_400_logged_without_a_traceback(caplog):
    boundary = "XyZboundary"
    body = (f"--{boundary}\r\n"
            f'Content-Disposition: form-data; name="file"; filename="{"a" * 5000}.psq"\r\n'
            "Content-Type: text/plain\r\n\r\nH8 I9\r\n"
            f"--{boundary}--\r\n").encode()
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = Client().post("/van/nhap/", body, content_type=f"multipart/form-data; boundary={boundary}")
    assert response.status_code == 400
    records = _request_records(caplog)
    assert records and all(r.exc_info is None for r in records), [r.getMessage() for r in records]
    assert "Traceback" not in caplog.text


def test_a_403_in_the_admin_is_logged_without_a_traceback(caplog):
    client = Client()
    client.force_login(moderator(), backend="django.contrib.auth.backends.ModelBackend")
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get(reverse("admin:moderation_auditentry_add"))
    assert response.status_code == 403
    records = _request_records(caplog)
    assert records and all(r.exc_info is None for r in records)
    assert "Traceback" not in caplog.text


def test_a_server_error_keeps_its_traceback(caplog):
    """The filter drops tracebacks of refusals only: a 500's record keeps its exc_info."""
    from caro.logformat import NoClientErrorTraceback

    try:
        raise RuntimeError("boom")
    except RuntimeError:
        import sys
        exc_info = sys.exc_info()
    for status, kept in ((500, True), (403, False)):
        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "x", (), exc_info)
        record.status_code = status
        assert NoClientErrorTraceback().filter(record)
        assert (record.exc_info is not None) is kept


@override_settings(CARO_IMPORTS_PER_WINDOW=1)
def test_the_import_page_s_429_does_not_send_the_paste_back():
    # An address of this test alone: the import counts live in Redis, beyond the test's transaction.
    client = Client(REMOTE_ADDR=f"203.0.113.{random.randint(1, 254)}")
    client.post("/en/game/import/", {"text": "H8", "rules": "caro-vn", "size": "15"})  # the one import allowed
    paste = "H8 I9 " + "Q7Z9-paste-marker " * 20_000
    response = client.post("/en/game/import/", {"text": paste, "rules": "caro-vn", "size": "15"})
    html = response.content.decode()
    assert response.status_code == 429 and "Wait a few minutes" in html
    assert "Q7Z9-paste-marker" not in html and len(html) < 100_000


# ---------------------------------------------------------------- the socket limits and a Redis restart


def _limits_records(caplog):
    return [r for r in caplog.records if r.name == "caro.rooms.limits"]


async def _slot(address: str):
    from caro.rooms.limits import SocketSlot

    slot = SocketSlot(f"test.{uuid.uuid4().hex}", address, None, "live")
    assert await slot.acquire()
    return slot


@pytest.mark.asyncio
async def test_a_lease_renewed_after_a_redis_restart_is_sent_again_on_a_fresh_connection(caplog, monkeypatch):
    """Attacker run: after a Redis restart every open socket logged a full traceback "could not
    renew a lease" (its pooled connection was dead and the renewal was not sent again): 2,000
    tracebacks for 2,000 sockets. Redis drops the limits' connections (CLIENT KILL, as a restart
    does) and empties the counts: the next renewal puts the socket back, with nothing logged."""
    import redis as redis_sync
    from django.conf import settings

    from caro.rooms import limits

    monkeypatch.setattr(limits, "WS_LEASE_RENEW_S", 0.1)
    address = f"198.51.100.{random.randint(1, 254)}"
    key = f"{limits.WS_KEY_PREFIX}:addr:{address}"
    store = redis_sync.Redis.from_url(settings.REDIS_URL)
    loop = asyncio.get_running_loop()
    with caplog.at_level(logging.WARNING, logger="caro.rooms.limits"):
        slot = await _slot(address)
        try:
            pool = limits._client().connection_pool
            connections = list(pool._available_connections) + list(pool._in_use_connections)
            ports = [conn._writer.get_extra_info("sockname")[1] for conn in connections if conn.is_connected]
            assert ports  # the acquire's connection, kept in the pool
            for port in ports:
                store.client_kill_filter(addr=f"127.0.0.1:{port}")
            store.delete(key, f"{key}:live")  # what a restart leaves
            deadline = loop.time() + 30
            while store.zscore(key, slot.member) is None:
                assert loop.time() < deadline, "the renewal never counted the socket again"
                await asyncio.sleep(0.05)
        finally:
            await slot.release()
            store.close()
    assert _limits_records(caplog) == [], [r.getMessage() for r in _limits_records(caplog)]


@pytest.mark.asyncio
async def test_renewals_that_fail_while_redis_is_away_are_one_line_without_a_traceback(caplog, monkeypatch):
    """Redis away for good (a port nothing listens on): the renewals of several sockets, round
    after round, are one warning line with no traceback (FAILURE_LOG_S apart), not one each."""
    import socket

    import redis.asyncio as aioredis
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    from caro.rooms import limits

    slots = [await _slot(f"198.51.100.{random.randint(1, 254)}") for _ in range(3)]  # on the real Redis
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        dead_port = free.getsockname()[1]
    loop = asyncio.get_running_loop()
    monkeypatch.setitem(limits._clients, loop, aioredis.Redis(host="127.0.0.1", port=dead_port, socket_timeout=5,
                                                              socket_connect_timeout=5, driver_info=None,
                                                              retry=Retry(NoBackoff(), 0)))
    monkeypatch.setattr(limits, "WS_LEASE_RENEW_S", 0.05)
    monkeypatch.setattr(limits, "RENEW_FAILURES", limits._Failures("could not renew a lease"))
    with caplog.at_level(logging.WARNING, logger="caro.rooms.limits"):
        for slot in slots:  # renewers started with the real WS_LEASE_RENEW_S: started again
            slot._renewer.cancel()
            slot._renewer = asyncio.ensure_future(slot._renew())
        deadline = loop.time() + 60
        while limits.RENEW_FAILURES.count < 3 * len(slots):  # several rounds of every socket failed
            assert loop.time() < deadline, limits.RENEW_FAILURES.count
            await asyncio.sleep(0.05)
        for slot in slots:
            slot._renewer.cancel()
            slot._renewer = None
    records = [r for r in _limits_records(caplog) if "renew" in r.getMessage()]
    assert len(records) == 1, [r.getMessage() for r in records]
    assert records[0].exc_info is None and "ConnectionError" in records[0].getMessage()
    assert "Traceback" not in caplog.text
