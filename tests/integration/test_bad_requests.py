"""Requests Django itself refuses (a body too large, a malformed multipart body, a Host header the
site does not serve) get the site's translated 400 page in the visitor's language, never Django's
plain English "Bad Request (400)"; under /api/ the API's JSON. And every 429 says when to try
again (Retry-After)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db

WORDS = {"vi": "Trang web không đọc được yêu cầu này", "en": "The site could not read this request"}
DJANGO_PLAIN = "Bad Request (400)"


def _client(lang: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.cookies["django_language"] = lang
    return client


def _is_our_page(response, lang: str, status: int = 400) -> None:
    assert response.status_code == status
    body = response.content.decode()
    assert WORDS[lang] in body and DJANGO_PLAIN not in body, body[:300]
    assert f'<html lang="{lang}">' in body


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_a_body_over_the_upload_limit_gets_the_translated_page(lang):
    too_big = "x=" + "a" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    response = _client(lang).post("/i18n/setlang/", data=too_big, content_type="application/x-www-form-urlencoded")
    _is_our_page(response, lang, 413)


@pytest.mark.parametrize("lang", ["vi", "en"])
@pytest.mark.parametrize("path", ["/no-such-page/", "/report/1/", "/en/game/1/report/"])
def test_a_body_over_the_limit_with_a_csrf_cookie_gets_413_not_500(lang, path):
    """A browser always has the `csrftoken` cookie: Django's 404 view checked the token, which
    reads the body, and the refusal escaped as a 500 (attack-8). A report over the limit was a 400."""
    client = Client(HTTP_ACCEPT_LANGUAGE=lang, enforce_csrf_checks=True)
    client.cookies["django_language"] = lang
    client.cookies[settings.CSRF_COOKIE_NAME] = "a" * 32
    too_big = "x=" + "a" * (3 * 1024 * 1024)
    response = client.post(path, data=too_big, content_type="application/x-www-form-urlencoded")
    _is_our_page(response, lang, 413)
    small = client.post("/no-such-page/", data="x=1", content_type="application/x-www-form-urlencoded")
    assert small.status_code in (403, 404)  # an ordinary refusal, not a 500
    fields = "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    _is_our_page(client.post("/no-such-page/", data=fields, content_type="application/x-www-form-urlencoded"), lang)


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_too_many_fields_and_a_malformed_multipart_body_get_the_translated_page(lang):
    fields = "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    _is_our_page(_client(lang).post("/i18n/setlang/", data=fields, content_type="application/x-www-form-urlencoded"),
                 lang)
    not_ascii = "multipart/form-data; boundary=bàn-cờ"  # a header Django cannot read as multipart
    _is_our_page(_client(lang).post("/i18n/setlang/", data=b"language=en", content_type=not_ascii), lang)
    long_boundary = "multipart/form-data; boundary=" + "b" * 300  # over the 200 characters RFC 2046 allows
    _is_our_page(_client(lang).post("/i18n/setlang/", data=b"language=en", content_type=long_boundary), lang)
    no_boundary = _client(lang).post("/i18n/setlang/", data=b"language=en", content_type="multipart/form-data")
    _is_our_page(no_boundary, lang)


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_a_host_header_the_site_does_not_serve_gets_the_translated_page(lang):
    _is_our_page(_client(lang).get("/", HTTP_HOST="elsewhere.example"), lang)


def test_under_api_a_bad_request_is_json_with_a_translated_message():
    response = _client("vi").post("/api/local-games/", data=b"{}", content_type="application/json",
                                  HTTP_HOST="elsewhere.example")
    assert response.status_code == 400 and response["Content-Type"] == "application/json"
    assert response.json()["error"] == "bad_request"
    assert response.json()["message"].startswith("Máy chủ không đọc được yêu cầu này")


def test_every_429_says_when_to_try_again():
    """The site's middleware gives a 429 without its own Retry-After the limits' minute (the records
    upload's limit is checked end to end in records/test_device_uploads.py, the log-in lockout's
    cool-off in test_accounts.py); one that says its own keeps it; other answers get none."""
    from django.http import HttpResponse
    from django.test import RequestFactory

    from caro.middleware import RATE_WINDOW_S, RetryAfterMiddleware

    request = RequestFactory().get("/")
    assert RetryAfterMiddleware(lambda r: HttpResponse(status=429))(request)["Retry-After"] == str(RATE_WINDOW_S)
    own = HttpResponse(status=429)
    own["Retry-After"] = "900"
    assert RetryAfterMiddleware(lambda r: own)(request)["Retry-After"] == "900"
    assert not RetryAfterMiddleware(lambda r: HttpResponse(status=400))(request).has_header("Retry-After")


# ------------------------------------------------------------------ found by the attacker run


def test_an_admin_action_on_an_id_that_is_not_a_number_is_a_404():
    """/admin/accounts/user/abc/ban/ and the other moderation pages: "abc", "0x10", "1/2" are not
    ids: 404, not a ValueError's 500."""
    from tests.integration.moderation_helpers import moderator

    client = Client()
    client.force_login(moderator())
    admin = "/" + settings.ADMIN_URL
    for action in ("accounts/user/{}/ban/", "accounts/user/{}/mute/", "games/game/{}/annul/", "rooms/room/{}/close/"):
        for bad in ("abc", "0x10", "1/2"):
            url = admin + action.format(bad)
            assert client.get(url).status_code == 404, url
            assert client.post(url, {"reason": "x"}).status_code == 404, url


def test_an_empty_import_post_is_a_form_error_and_over_the_limit_the_translated_429(settings):
    """An empty POST to the import page binds the form (it was unbound: adding the limit's error to
    it was a 500)."""
    from caro.records import limits

    limits.reset()
    settings.CARO_IMPORTS_PER_WINDOW = 1
    client = _client("en")
    assert client.post("/en/game/import/").status_code == 400  # nothing to import: the form says so
    response = client.post("/en/game/import/")
    assert response.status_code == 429 and "You have imported many records" in response.content.decode()
    limits.reset()


def test_a_log_in_with_a_name_over_255_characters_is_an_ordinary_failed_log_in():
    """django-axes stores the attempted name in a varchar(255): a longer one is cut, not a DataError."""
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = client.post("/tai-khoan/login/", {"login": "n" * 300, "password": "wrong-password"})
    assert response.status_code == 200
    from axes.models import AccessAttempt

    assert AccessAttempt.objects.get().username == "n" * 255
