"""Fixes from the new-user trial of 2026-12-06 (trial-8): a muted player's chat box is disabled with
the reason from the start and when the mute arrives live."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.guests import create_guest
from accounts.models import User
from caro.rooms import services as rooms
from moderation import services
from tests.integration.moderation_helpers import moderator


def _client(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def _room_page(user, room, lang: str) -> str:
    client = _client(user)
    client.cookies["django_language"] = lang
    return client.get(reverse("room", kwargs={"code": room.code})).content.decode()


def _chat_form(page: str) -> str:
    start = page.index('data-role="chat-form"')
    return page[start:page.index("</form>", start)]


def _chat_note(page: str) -> str:
    start = page.index('data-role="chat-note"')
    return page[page.index(">", start) + 1:page.index("</p>", start)]


@pytest.mark.django_db
@pytest.mark.parametrize("lang, says", [("vi", "Bạn không thể chat đến"), ("en", "You cannot chat until")])
def test_a_muted_player_s_chat_box_is_disabled_with_the_reason_from_the_start(lang, says):
    x, o = create_guest(), create_guest()
    room = rooms.create_room(x)
    rooms.join(room, o)
    free = _room_page(x, room, lang)
    assert " disabled" not in _chat_form(free) and _chat_note(free).strip() == ""
    services.mute(moderator("mod8"), User.objects.get(pk=x.pk), until=timezone.now() + timedelta(hours=2),
                  reason="spam")
    page = _room_page(x, room, lang)
    form = _chat_form(page)
    assert form.count(" disabled") == 2, form  # the input and the Send button
    assert says in _chat_note(page) and "spam" in _chat_note(page)
    # The opponent's box is untouched.
    assert " disabled" not in _chat_form(_room_page(o, room, lang))


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_mute_given_or_lifted_live_reaches_the_player_s_open_room(close_db_connections):
    from tests.integration.test_moderation_live import _connected, _room

    room, people = await _room()
    x, _ = await _connected(room, people["x"], lang="en")
    until = timezone.now() + timedelta(hours=2)
    await sync_to_async(services.mute)(people["mod"], people["x"], until=until, reason="spam")
    frame = await x.until("chat_mute")
    assert "You cannot chat until" in frame["message"] and "spam" in frame["message"]
    assert frame["until_ms"] == int(until.timestamp() * 1000)
    await sync_to_async(services.unmute)(people["mod"], people["x"], reason="ok")
    frame = await x.until("chat_mute")
    assert frame == {"type": "chat_mute", "message": None, "until_ms": None}
    await x.disconnect()


@pytest.mark.parametrize("lang, says", [
    ("vi", "Tài khoản của bạn bị cấm đến 10:00 ngày 9/12/2026."),
    ("en", "Your account is banned until Dec. 9, 2026, 10 a.m."),
])
def test_the_end_of_a_ban_or_mute_reads_naturally_inside_the_sentence(lang, says):
    from datetime import datetime

    from accounts.restrictions import Restriction, ban_message, mute_message

    until = timezone.make_aware(datetime(2026, 12, 9, 10, 0))
    with translation.override(lang):
        assert ban_message(Restriction("", until)) == says
        assert "Ngày" not in mute_message(Restriction("", until))


def _record_rating(game, side: str, lang_prefix: str = "/en/game") -> str:
    import re

    html = Client().get(f"{lang_prefix}/{game.pk}/").content.decode()
    line = re.search(rf'data-testid="rating-{side}"[^>]*>([^<]+)<span class="delta">([^<]+)</span>', html)
    return f"{line[1].strip()} {line[2]}"


@pytest.mark.django_db
def test_the_record_shows_a_provisional_rating_with_its_mark_as_the_room_does_until_the_tenth_game():
    from ranking.elo import PROVISIONAL_GAMES
    from ranking.models import RatingChange
    from tests.integration.ranking.builders import account, won_by

    winner, loser = account(display_name="Lan"), account(display_name="Minh")
    games = [won_by(winner, loser) for _ in range(PROVISIONAL_GAMES)]
    for n, game in enumerate(games, start=1):
        change = RatingChange.objects.get(game=game, user=winner)
        mark = "?" if n < PROVISIONAL_GAMES else ""
        assert _record_rating(game, "X") == f"{change.after}{mark} (+{change.delta})", n
    assert _record_rating(games[0], "X", "/van").endswith("?" + " (+" + str(RatingChange.objects.get(game=games[0], user=winner).delta) + ")")


# ---------------------------------------------------------------- 7. the admin's user and game pages

def _admin_page(url: str, lang: str) -> str:
    client = _client(moderator("mod7") if not User.objects.filter(username="mod7").exists()
                     else User.objects.get(username="mod7"))
    client.cookies["django_language"] = lang
    return client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("lang, rule", [("en", "3 to 20 characters: letters (Vietnamese ones too)"),
                                        ("vi", "Từ 3 đến 20 ký tự: chữ cái (kể cả chữ tiếng Việt có dấu)")])
def test_the_admin_user_page_states_the_site_s_username_rule_not_django_s(lang, rule):
    player = User.objects.create_user("LanAnh", password="pw-12345678")
    page = _admin_page(reverse("admin:accounts_user_change", args=[player.pk]), lang)
    assert rule in page
    username_row = page.split("field-username")[1].split("form-row")[0]
    assert rule in username_row and "150" not in username_row  # not Django's "150 characters or fewer..."


@pytest.mark.django_db
@pytest.mark.parametrize("name, ok", [("Lan_Anh", True), ("a" * 21, False), ("a" * 150, False), ("lan anh", False),
                                      ("Admin", False)])
def test_the_admin_refuses_a_username_the_site_s_rule_refuses(name, ok):
    from django.forms.models import model_to_dict

    from accounts.admin import PlayerChangeForm

    player = User.objects.create_user("LanAnh", password="pw-12345678")
    data = {**model_to_dict(player), "username": name}
    data = {k: v for k, v in data.items() if v is not None}
    form = PlayerChangeForm(data=data, instance=player)
    form.is_valid()
    assert ("username" not in form.errors) is ok, form.errors


@pytest.mark.django_db
def test_a_guest_s_own_username_is_kept_when_the_admin_saves_other_fields():
    from django.forms.models import model_to_dict

    from accounts.admin import PlayerChangeForm

    guest = create_guest()
    data = {k: v for k, v in model_to_dict(guest).items() if v is not None}
    form = PlayerChangeForm(data=data, instance=guest)
    form.is_valid()
    assert "username" not in form.errors, form.errors


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["a" * 21, "a" * 150])
def test_sign_up_refuses_a_username_longer_than_the_site_s_rule(name):
    from tests.integration.test_accounts import _client as visitor, _signup

    response = _signup(visitor(), username=name, email="long@example.com")
    assert response.status_code == 200 and not User.objects.filter(email="long@example.com").exists()
    assert "Tên dài tối đa 20 ký tự" in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "vi"])
def test_a_finished_game_s_admin_page_leaves_out_the_live_fields_and_the_programmer_notes(lang):
    import uuid

    from caro.games import services as games
    from caro.games.models import Game

    x, o = create_guest(), create_guest()
    room = rooms.create_room(x)
    rooms.join(room, o)
    live = Game.objects.get(pk=room.current_game_id)
    games.play_move(live.pk, x, "H8", 1, uuid.uuid4())
    url = reverse("admin:games_game_change", args=[live.pk])
    page = _admin_page(url, lang)
    side_to_move, whose_turn = {"en": ("Side to move", "whose turn it is now"),
                                "vi": ("Bên đến lượt", "bên đang đến lượt đi")}[lang]
    assert side_to_move in page and whose_turn in page  # a game in play: whose turn, its deadline
    for note in ("trigger", "caro.games.timer", "wake_at", "decides host_side", "Reversi passes"):
        assert note not in page, note
    games.resign(live.pk, o)
    page = _admin_page(url, lang)
    for gone in (side_to_move, whose_turn, "trigger", "caro.games.timer", "Deadline timer", "deadline timer"):
        assert gone not in page, gone
