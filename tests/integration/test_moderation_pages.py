"""The admin's moderation action pages as a moderator meets them: the ban form's help agrees with
its checks, each refusal shows once, the pages use the admin's own form markup and breadcrumbs."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.guests import create_guest
from moderation.models import AuditEntry
from tests.integration.moderation_helpers import moderator

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def _local(moment) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


def test_the_ban_help_says_to_tick_the_box_and_an_empty_end_unticked_is_refused_once():
    target = create_guest()
    client = _client(moderator())
    url = reverse("admin:accounts_user_ban", args=[target.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Leave empty for a permanent ban" not in page
    assert "tick “Ban permanently”" in page
    refused = client.post(url, {"reason": "spam"}, HTTP_ACCEPT_LANGUAGE="en")
    text = refused.content.decode()
    assert refused.status_code == 200
    assert text.count("Choose when the ban ends, or tick “Ban permanently”.") == 1, text
    target.refresh_from_db()
    assert not target.banned_forever and target.banned_until is None and not AuditEntry.objects.exists()
    # Vietnamese: the help and the refusal say the same thing, once.
    vi = client.post(url, {"reason": "spam"}, HTTP_ACCEPT_LANGUAGE="vi").content.decode()
    assert vi.count("Hãy chọn lúc hết cấm, hoặc đánh dấu “Cấm vĩnh viễn”.") == 1
    assert "Để trống nếu cấm vĩnh viễn" not in vi and "đánh dấu “Cấm vĩnh viễn”" in vi


@pytest.mark.parametrize("case, message", [
    ("past", "The end must be in the future."),
    ("both", "Choose an end or a permanent ban, not both."),
])
def test_a_past_end_or_an_end_with_the_box_ticked_is_refused_once(case, message):
    target = create_guest()
    client = _client(moderator())
    data = {"reason": "spam"}
    if case == "past":
        data["until"] = _local(timezone.now() - timedelta(hours=1))
    else:
        data.update(until=_local(timezone.now() + timedelta(days=2)), forever="on")
    text = client.post(reverse("admin:accounts_user_ban", args=[target.pk]), data,
                       HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert text.count(message) == 1, text
    target.refresh_from_db()
    assert not target.banned_forever and target.banned_until is None


def test_a_ticked_box_bans_permanently_and_an_end_bans_until_then():
    first, second = create_guest(), create_guest()
    client = _client(moderator())
    done = client.post(reverse("admin:accounts_user_ban", args=[first.pk]), {"reason": "spam", "forever": "on"})
    assert done.status_code == 302
    end = timezone.now() + timedelta(days=2)
    done = client.post(reverse("admin:accounts_user_ban", args=[second.pk]), {"reason": "spam", "until": _local(end)})
    assert done.status_code == 302
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.banned_forever and not second.banned_forever
    assert abs((second.banned_until - end).total_seconds()) < 60


def test_unbanning_a_player_who_is_not_banned_says_so_once():
    target = create_guest()
    client = _client(moderator())
    response = client.post(reverse("admin:accounts_user_unban", args=[target.pk]), {"reason": "appeal"},
                           HTTP_ACCEPT_LANGUAGE="vi")
    text = response.content.decode()
    assert response.status_code == 200 and text.count("Người chơi này không bị cấm.") == 1, text
    assert not AuditEntry.objects.exists()


def test_an_action_page_uses_the_admin_s_form_markup_and_breadcrumbs():
    target = create_guest()
    client = _client(moderator())
    text = client.get(reverse("admin:accounts_user_ban", args=[target.pk]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(r'admin/css/forms\.(\w+\.)?css', text)
    assert re.search(r'<fieldset class="module aligned', text)
    for name in ("reason", "until", "forever"):
        assert f'class="form-row field-{name}"' in text, name
    assert 'class="help"' in text and "checkbox-row" in text
    crumbs = re.search(r'<div class="breadcrumbs">(.*?)</div>', text, re.S).group(1)
    links = re.findall(r'<a href="([^"]+)">([^<]+)</a>', crumbs)
    assert [href for href, _name in links] == [
        reverse("admin:index"), reverse("admin:app_list", args=["accounts"]),
        reverse("admin:accounts_user_changelist"), reverse("admin:accounts_user_change", args=[target.pk]),
    ]
    assert links[2][1] == "Users" and links[3][1] == str(target)
    assert crumbs.rstrip().endswith("Ban")


# ---------------------------------------------------------------------- a report's own page

def _open_report():
    from moderation.reports import file_report
    from tests.integration.ranking.builders import account, won_by

    winner, loser = account(), account()
    game = won_by(winner, loser)
    return file_report(loser, game, reason="insults", note="rude in chat")


@pytest.mark.parametrize("name, status, action", [
    ("resolve", "resolved", AuditEntry.Action.REPORT_RESOLVED),
    ("dismiss", "dismissed", AuditEntry.Action.REPORT_DISMISSED),
])
def test_a_report_is_decided_from_its_own_page_with_a_note_kept_in_the_report_and_the_audit_log(name, status, action):
    from moderation.models import Report

    report = _open_report()
    mod = moderator()
    client = _client(mod)
    change = reverse("admin:moderation_report_change", args=[report.pk])
    action_url = reverse(f"admin:moderation_report_{name}", args=[report.pk])
    page = client.get(change, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="{action_url}"' in page
    form = client.get(action_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="note"' in form and 'class="form-row field-note"' in form
    # No note: refused, nothing changes.
    refused = client.post(action_url, {"note": "  "}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 200 and Report.objects.get(pk=report.pk).status == "open"
    assert not AuditEntry.objects.exists()
    done = client.post(action_url, {"note": "Warned the player; chat muted for a day."})
    assert done.status_code == 302 and done["Location"] == change
    report.refresh_from_db()
    assert (report.status, report.decision_note, report.decided_by) == (
        status, "Warned the player; chat muted for a day.", mod)
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.reason, entry.details) == (action, "Warned the player; chat muted for a day.",
                                                           {"report": report.pk})
    # Decided: the page offers no decision any more, and a second one shows the decision, once, no form.
    decided = client.get(change, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert action_url not in decided and "Warned the player" in decided
    again = client.post(action_url, {"note": "again"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert again.count("This report is already decided") == 1 and 'name="note"' not in again
    assert AuditEntry.objects.count() == 1


def test_deciding_a_report_needs_the_permission():
    from moderation.models import Report

    report = _open_report()
    client = _client(moderator("weak", in_group=False))
    response = client.post(reverse("admin:moderation_report_resolve", args=[report.pk]), {"note": "x"},
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code in (302, 403)
    assert Report.objects.get(pk=report.pk).status == "open" and not AuditEntry.objects.exists()


def test_the_bulk_decision_takes_a_note_for_all_the_selected_reports():
    from moderation.models import Report

    first, second = _open_report(), _open_report()
    client = _client(moderator())
    url = reverse("admin:moderation_report_changelist")
    listing = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="note"' in listing
    client.post(url, {"action": "dismiss", "_selected_action": [first.pk, second.pk],
                      "note": "Both about the same game: no insult in the chat."})
    for report in (first, second):
        report.refresh_from_db()
        assert (report.status, report.decision_note) == ("dismissed", "Both about the same game: no insult in the chat.")
    assert set(AuditEntry.objects.values_list("reason", flat=True)) == {"Both about the same game: no insult in the chat."}


def test_a_players_recent_games_on_their_admin_page_name_the_computer_and_one_device_games():
    import uuid

    from caro.games.models import Game
    from tests.integration.ranking.builders import account

    lan = account(display_name="Lan")
    finished = {"status": Game.Status.FINISHED, "winner": "X", "termination": Game.Termination.FIVE}
    Game.objects.create(host=lan, bot_seat="guest", bot_level="medium", upload_id=uuid.uuid4(), **finished)
    Game.objects.create(host=lan, guest=lan, upload_id=uuid.uuid4(), **finished)
    text = _client(moderator()).get(reverse("admin:accounts_user_change", args=[lan.pk]),
                                    HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<td>Lan – Computer (Medium)</td>" in text
    assert "<td>Lan (two players, one device)</td>" in text and "Lan / Lan" not in text


def test_the_games_list_names_the_player_drawn_x_first_after_a_rematch_as_the_room_does():
    """After a rematch the loser moves first (side X) but keeps their mark O: the admin's
    "X – O" column follows the marks, as the room shows them, not who moves first."""
    from caro.games.models import Game
    from caro.rooms import services as rooms
    from moderation.admin import _players

    host, guest = create_guest(), create_guest()
    room = rooms.create_room(host)
    rooms.join(room, guest)
    game = Game.objects.get(pk=room.current_game_id)
    assert game.mark_of(game.side_of("host")) == "X"
    assert _players(game) == f"{host} – {guest}"
    game.host_side, game.host_mark = "O", "X"  # the guest lost game 1: moves first, keeps O
    assert _players(game) == f"{host} – {guest}"
