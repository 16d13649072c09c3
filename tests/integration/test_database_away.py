"""A request that fails because PostgreSQL is away answers 503 with Retry-After, translated, never
the 500 page (caro.views.server_error, handler500); anything else stays a 500."""

import pytest
from django.db import OperationalError
from django.test import Client, override_settings
from django.urls import path
from psycopg_pool import PoolTimeout

from caro.views import DATABASE_AWAY_RETRY_S


def _raises(exc):
    def view(request):
        raise exc

    return view


urlpatterns = [
    path("pool/", _raises(PoolTimeout("couldn't get a connection after 10.00 sec"))),
    path("gone/", _raises(OperationalError("the database system is starting up"))),
    path("bug/", _raises(ZeroDivisionError("a bug"))),
    path("api/pool/", _raises(PoolTimeout("couldn't get a connection after 10.00 sec"))),
]
urlpatterns += __import__("caro.urls", fromlist=["urlpatterns"]).urlpatterns
handler500 = __import__("caro.urls", fromlist=["handler500"]).handler500  # the site's own

pytestmark = [pytest.mark.urls(__name__), pytest.mark.django_db]


@pytest.fixture
def client():
    return Client(raise_request_exception=False)


@pytest.mark.parametrize("url", ["/pool/", "/gone/"])
def test_a_page_whose_database_is_away_answers_503_with_retry_after_in_vietnamese(client, url):
    response = client.get(url)
    assert response.status_code == 503
    assert response["Retry-After"] == str(DATABASE_AWAY_RETRY_S)
    text = response.content.decode()
    assert "Máy chủ đang khởi động lại" in text and "Something went wrong" not in text


def test_the_same_in_english(client):
    response = client.get("/pool/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 503
    assert "Our server is restarting" in response.content.decode()


def test_the_api_answers_json(client):
    response = client.get("/api/pool/")
    assert response.status_code == 503 and response["Retry-After"] == str(DATABASE_AWAY_RETRY_S)
    assert response.json()["error"] == "unavailable"
    assert "Máy chủ đang khởi động lại" in response.json()["message"]


def test_any_other_failure_is_still_the_500_page(client):
    response = client.get("/bug/")
    assert response.status_code == 500 and not response.has_header("Retry-After")
    assert "Đã có lỗi xảy ra" in response.content.decode()
