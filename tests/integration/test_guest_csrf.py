"""Becoming a guest in one tab leaves the other tabs' forms valid (the CSRF token is kept), while
a real sign-in still rotates it."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.guests import create_guest
from caro.rooms import services as rooms

pytestmark = pytest.mark.django_db


def _form_token(client: Client, url: str) -> str:
    html = client.get(url).content.decode()
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def test_a_second_tab_still_posts_after_the_first_became_a_guest():
    room = rooms.create_room(create_guest())
    browser = Client(enforce_csrf_checks=True)  # one cookie jar: two tabs of one browser
    page = reverse("room", kwargs={"code": room.code})
    first_tab, second_tab = _form_token(browser, page), _form_token(browser, page)
    before = browser.cookies["csrftoken"].value
    response = browser.post(reverse("room_chat_name", kwargs={"code": room.code}),
                            {"csrfmiddlewaretoken": first_tab})
    assert response.status_code == 302 and "_auth_user_id" in browser.session  # a guest now
    assert browser.cookies["csrftoken"].value == before
    # The second tab's form, rendered before, still posts: it takes the free seat.
    response = browser.post(reverse("room_join", kwargs={"code": room.code}), {"csrfmiddlewaretoken": second_tab})
    assert response.status_code == 302
    room.refresh_from_db()
    assert room.current_game.guest_id == int(browser.session["_auth_user_id"])


def test_an_out_of_date_form_gets_the_translated_page_not_djangos():
    room = rooms.create_room(create_guest())
    browser = Client(enforce_csrf_checks=True)
    _form_token(browser, reverse("room", kwargs={"code": room.code}))
    response = browser.post(reverse("room_join", kwargs={"code": room.code}), {"csrfmiddlewaretoken": "x" * 64})
    assert response.status_code == 403
    html = response.content.decode()
    assert "Trang này đã cũ" in html
    assert "CSRF" not in html
