"""Rough edges found by a new-user trial and an attacker run (polish-8): the games admin says how a
game ended and whether it counted, once; action pages offer only what has something to do; an
oversized import logs one line; a game's first move on the clock is said in the room."""

from __future__ import annotations

import io
import logging
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.guests import create_guest
from caro.games.models import Game
from moderation.models import AuditEntry
from tests.integration.moderation_helpers import moderator

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


# ---------------------------------------------------------------- 4. an oversized import, one log line

def _console_handler() -> logging.Handler:
    """The site's own log handler (settings.LOGGING "console", on the root logger)."""
    handlers = [h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler]
    assert handlers, logging.getLogger().handlers
    return handlers[0]


def test_an_import_over_the_request_limit_is_413_and_logged_in_one_line_without_a_traceback():
    """Attacker run: a paste over DATA_UPLOAD_MAX_MEMORY_SIZE got the right 413, and the log a
    ~250-line RequestDataTooBig traceback (django.security's error, raised in the CSRF check).
    What the site's handler prints for it now: one line, no traceback."""
    handler = _console_handler()
    out = io.StringIO()
    previous = handler.setStream(out)
    try:
        client = Client(enforce_csrf_checks=True)
        client.get("/en/game/import/")
        paste = "H8 I9 " + "Q7Z9 " * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 5 + 1)
        response = client.post("/en/game/import/", {"csrfmiddlewaretoken": client.cookies["csrftoken"].value,
                                                     "text": paste, "rules": "caro-vn", "size": "15"})
    finally:
        handler.setStream(previous)
    assert response.status_code == 413
    printed = out.getvalue()
    assert "Traceback" not in printed and "Q7Z9" not in printed, printed[:3000]
    lines = printed.strip().splitlines()
    assert len(lines) == 1, printed[:3000]
    assert "DATA_UPLOAD_MAX_MEMORY_SIZE" in lines[0] and "POST /en/game/import/: 413" in lines[0], lines


# ---------------------------------------------------------------- 1. the games admin: how it ended, whether it counted

def _mod():
    from accounts.models import User

    return User.objects.filter(username="mod").first() or moderator()


def _games_list(lang: str = "en") -> str:
    return _client(_mod()).get(reverse("admin:games_game_changelist"), HTTP_ACCEPT_LANGUAGE=lang).content.decode()


def _row(page: str, game) -> str:
    href = reverse("admin:games_game_change", args=[game.pk])
    return page.split(f'href="{href}"', 1)[1].split("</tr>", 1)[0]


def _aborted_ranked_game():
    """A ranked game aborted before both players moved (X resigned before moving): never rated."""
    from caro.games import services
    from tests.integration.ranking.builders import account, rated_game

    game = rated_game(account(display_name="Lan"), account(display_name="Minh"), moves=0)
    services.resign(game.pk, game.host)
    game.refresh_from_db()
    assert (game.status, game.termination, game.rated) == ("aborted", "abort", True)
    return game


def test_an_aborted_ranked_game_says_aborted_once_and_not_rated_in_the_list_and_on_its_page():
    """New-user trial: the list said "Aborted: Aborted" and "rated" for a ranked game that
    was aborted (its result never counted)."""
    from tests.integration.ranking.builders import account, won_by

    aborted = _aborted_ranked_game()
    counted = won_by(account(), account())
    page = _games_list()
    row = _row(page, aborted)
    assert "Aborted: Aborted" not in row and row.count("Aborted") == 1, row
    assert "Aborted before both players had moved" in row and "ranked, not counted" in row, row
    assert ">rated<" not in row
    won = _row(page, counted)
    assert "Finished: Resignation" in won and ">rated<" in won, won
    change = _client(_mod()).get(reverse("admin:games_game_change", args=[aborted.pk]),
                                           HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Aborted: Aborted" not in change and "Aborted before both players had moved" in change
    assert "ranked, not counted" in change and "Lan – Minh" in change
    assert 'class="form-row field-rated"' not in change and 'class="form-row field-termination"' not in change
    vi = _row(_games_list("vi"), aborted)
    assert "Đã hủy trước khi cả hai người đi" in vi and "xếp hạng, không tính điểm" in vi, vi


def test_a_waiting_game_shows_its_host_waiting_not_dashes():
    from caro.rooms import services as rooms
    from tests.integration.ranking.builders import account

    host = account(display_name="Lan")
    room = rooms.create_room(host)
    game = Game.objects.get(pk=room.current_game_id)
    row = _row(_games_list(), game)
    assert "Lan, waiting for an opponent" in row and "– –" not in row, row
    assert "casual" in row
    vi = _row(_games_list("vi"), game)
    assert "Lan, đang chờ đối thủ" in vi, vi


def test_a_ranked_game_in_play_is_not_called_rated_yet():
    from tests.integration.ranking.builders import account, rated_game

    game = rated_game(account(), account())
    assert "ranked, in play" in _row(_games_list(), game)


# ---------------------------------------------------------------- 2. action pages offer only what has something to do

def test_unban_and_unmute_are_offered_only_to_a_banned_or_muted_player():
    from moderation import services

    player = create_guest()
    mod = moderator()
    client = _client(mod)
    change = reverse("admin:accounts_user_change", args=[player.pk])
    unban, unmute = (reverse(f"admin:accounts_user_{name}", args=[player.pk]) for name in ("unban", "unmute"))
    ban, mute = (reverse(f"admin:accounts_user_{name}", args=[player.pk]) for name in ("ban", "mute"))
    page = client.get(change, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="{ban}"' in page and f'href="{mute}"' in page
    assert f'href="{unban}"' not in page and f'href="{unmute}"' not in page
    # Opened by its address anyway: it says there is nothing to do, and has no form.
    idle = client.get(unban, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="action-idle"' in idle and "This player is not banned." in idle and 'name="reason"' not in idle
    idle_vi = client.get(unmute, HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert "Người chơi này không bị khóa chat." in idle_vi and 'name="reason"' not in idle_vi
    services.ban(mod, player, reason="spam", until=timezone.now() + timedelta(days=1))
    services.mute(mod, player, reason="spam", until=timezone.now() + timedelta(days=1))
    page = client.get(change, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="{unban}"' in page and f'href="{unmute}"' in page
    assert 'name="reason"' in client.get(unban).content.decode()
    assert client.post(unban, {"reason": "appeal"}).status_code == 302
    assert f'href="{unban}"' not in client.get(change).content.decode()


def test_a_decided_report_s_action_pages_show_the_decision_and_offer_no_second_one():
    from moderation.models import Report
    from moderation.reports import file_report
    from tests.integration.ranking.builders import account, won_by

    winner, loser = account(), account()
    report = file_report(loser, won_by(winner, loser), reason="insults", note="rude in chat")
    mod = moderator()
    client = _client(mod)
    resolve, dismiss = (reverse(f"admin:moderation_report_{name}", args=[report.pk]) for name in ("resolve", "dismiss"))
    assert 'name="note"' in client.get(resolve).content.decode()
    assert client.post(resolve, {"note": "Warned the player."}).status_code == 302
    for url in (resolve, dismiss):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert 'data-testid="action-idle"' in page and 'name="note"' not in page, page
        assert "This report is already decided: Resolved by mod" in page and "Note: Warned the player." in page
        again = client.post(url, {"note": "again"}, HTTP_ACCEPT_LANGUAGE="en")
        assert again.status_code == 200 and 'name="note"' not in again.content.decode()
    vi = client.get(dismiss, HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert "Báo cáo này đã được quyết định: Đã xử lý" in vi, vi
    report.refresh_from_db()
    assert (report.status, report.decision_note) == (Report.Status.RESOLVED, "Warned the player.")
    assert AuditEntry.objects.count() == 1


def test_annul_and_stop_are_offered_only_where_they_apply():
    from tests.integration.ranking.builders import account, rated_game, won_by

    client = _client(moderator())
    finished, live, aborted = won_by(account(), account()), rated_game(account(), account()), _aborted_ranked_game()
    links = {}
    for game in (finished, live, aborted):
        page = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
        links[game.pk] = {name for name in ("annul", "abort")
                          if f'href="{reverse(f"admin:games_game_{name}", args=[game.pk])}"' in page}
    assert links == {finished.pk: {"annul"}, live.pk: {"abort"}, aborted.pk: set()}
