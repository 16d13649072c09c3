"""Log noise found by an attacker run: a refused request (status under 500) is one log line without
a traceback (a multipart body Django cannot parse, a 403 in the admin), and the import page's 429
does not send the pasted text back."""

from __future__ import annotations

import logging
import random

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
