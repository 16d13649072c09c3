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
