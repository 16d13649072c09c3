"""Moderation without sockets: permissions, annulment, reports, fair-play bars, the audit log and
the admin pages (query counts on many rows), all on the real PostgreSQL."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from accounts.guests import create_guest
from accounts.models import User
from accounts.restrictions import ban_of, mute_of, queue_ban_of
from caro.games import services as games
from caro.games import uploads
from caro.games.models import AbsenceRule, Game, Move
from caro.games.services.records import store_played
from caro.games.signals import game_annulled
from caro.rooms import chat
from caro.rooms import services as rooms
from caro.rooms.models import ChatMessage, Room
from moderation import fairplay, services
from moderation.models import AuditEntry, Report
from moderation.reports import ReportError, file_report
from tests.integration.records.device import CARO_FIVE, record
from tests.integration.helpers import play_sequence, started_game
from tests.integration.moderation_helpers import GROUP_MIGRATION, moderator, moderators_group, staff_with

pytestmark = pytest.mark.django_db

FUTURE = timedelta(days=2)


def _finished_rated_game():
    game, x, o = started_game()
    Game.objects.filter(pk=game.pk).update(rated=True)
    play_sequence(game, x, o, ["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4", "L8"])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game, x, o


# ---------------------------------------------------------------------- the group and permissions

def test_the_moderators_group_holds_exactly_the_moderation_powers():
    group = moderators_group()
    held = set(group.permissions.values_list("content_type__app_label", "codename"))
    assert held == set(GROUP_MIGRATION.PERMISSIONS)
    assert not any(code.startswith(("change_", "delete_", "add_")) for _app, code in held)


def _every_action(by, user, game, live, room, message, report):
    until = timezone.now() + FUTURE
    return [
        ("ban", lambda: services.ban(by, user, reason="r", until=until)),
        ("unban", lambda: services.unban(by, user, reason="r")),
        ("mute", lambda: services.mute(by, user, reason="r", until=until)),
        ("unmute", lambda: services.unmute(by, user, reason="r")),
        ("annul", lambda: services.annul(by, game, reason="r")),
        ("abort", lambda: services.abort(by, live, reason="r")),
        ("close", lambda: services.close_room(by, room, reason="r")),
        ("hide", lambda: services.hide_message(by, message)),
        ("decide", lambda: services.decide_report(by, report, status="resolved")),
    ]


def _targets():
    game, x, o = _finished_rated_game()
    User.objects.filter(pk=x.pk).update(banned_until=timezone.now() + FUTURE, muted_until=timezone.now() + FUTURE)
    x.refresh_from_db()
    host = create_guest()
    room = rooms.create_room(host)
    rooms.join(room, create_guest())
    live = Game.objects.get(pk=room.current_game_id)
    message = ChatMessage.objects.get(pk=chat.say(room.code, host, "hi")["id"])
    report = file_report(o, game, reason="insults")
    return x, game, live, room, message, report


def _snapshot(x, game, live, room, message, report):
    x = User.objects.get(pk=x.pk)
    return ((x.banned_until, x.banned_forever, x.muted_until), Game.objects.get(pk=game.pk).annulled,
            Game.objects.get(pk=live.pk).status, Room.objects.get(pk=room.pk).closed_at,
            ChatMessage.objects.get(pk=message.pk).hidden, Report.objects.get(pk=report.pk).status,
            AuditEntry.objects.count())


@pytest.mark.parametrize("who", ["no_permission", "not_staff", "other_permission"])
def test_a_moderator_without_the_permission_is_refused_every_action_and_nothing_changes(who):
    targets = _targets()
    if who == "no_permission":
        by = moderator("nobody", in_group=False)
    elif who == "not_staff":
        by = User.objects.create_user(username="plain", password="pw-12345678")
        by.groups.add(moderators_group())
        by = User.objects.get(pk=by.pk)
    else:
        by = staff_with("viewer", "decide_report")
    before = _snapshot(*targets)
    for name, action in _every_action(by, *targets):
        if who == "other_permission" and name == "decide":
            continue
        with pytest.raises(services.ModerationError) as exc:
            action()
        assert exc.value.code == "forbidden", name
        assert exc.value.message
    assert _snapshot(*targets) == before


def test_a_moderator_with_the_group_can_do_every_action_each_audited():
    targets = _targets()
    by = moderator()
    for name, action in _every_action(by, *targets):
        if name == "ban":  # the target was banned and muted already by the setup: lift first
            continue
        action()
    services.ban(by, targets[0], reason="again", forever=True)
    actions = list(AuditEntry.objects.order_by("pk").values_list("action", "actor_id"))
    assert [a for a, _ in actions] == ["unban", "mute", "unmute", "annul", "abort", "close", "hide",
                                       "report_resolved", "ban"]
    assert {actor for _, actor in actions} == {by.pk}


# ---------------------------------------------------------------------- bans and mutes

def test_a_ban_until_an_afternoon_reads_with_one_period_before_the_reason():
    """English dates end "8:39 p.m." and the sentence added its own period: "p.m.. Reason"."""
    from datetime import datetime

    from django.utils import translation

    from accounts.restrictions import Restriction, ban_message, mute_message

    until = timezone.make_aware(datetime(2026, 12, 6, 20, 39))
    with translation.override("en"):
        text = ban_message(Restriction("spam", until))
        assert ".." not in text and "p.m. Reason: spam" in text, text
        assert ".." not in mute_message(Restriction("", until))
    with translation.override("vi"):
        text = ban_message(Restriction("spam", until))
        assert ".." not in text and "Lý do: spam" in text, text


def test_ban_until_a_date_and_permanently_then_unban():
    by, player = moderator(), create_guest()
    now = timezone.now()
    services.ban(by, player, reason="abuse", until=now + FUTURE)
    player.refresh_from_db()
    assert ban_of(player, now).reason == "abuse"
    assert ban_of(player, now + FUTURE + timedelta(seconds=1)) is None  # it ends by itself
    assert queue_ban_of(player, now) is not None and mute_of(player, now) is not None
    services.ban(by, player, reason="again", forever=True)
    player.refresh_from_db()
    assert ban_of(player, now + timedelta(days=3650)).until is None
    services.unban(by, player, reason="appeal accepted")
    player.refresh_from_db()
    assert ban_of(player, now) is None
    entry = AuditEntry.objects.filter(user=player, action="ban").first()
    assert entry.details["forever"] is True and entry.reason == "again"


@pytest.mark.parametrize("kwargs, code", [
    ({"reason": "", "forever": True}, "reason_required"),
    ({"reason": "x" * 301, "forever": True}, "reason_required"),
    ({"reason": "r"}, "until_required"),
    ({"reason": "r", "until": timezone.now() - timedelta(minutes=1)}, "until_required"),
])
def test_a_ban_with_bad_input_is_refused_and_changes_nothing(kwargs, code):
    by, player = moderator(), create_guest()
    with pytest.raises(services.ModerationError) as exc:
        services.ban(by, player, **kwargs)
    assert exc.value.code == code
    player.refresh_from_db()
    assert ban_of(player, timezone.now()) is None and AuditEntry.objects.count() == 0


def test_a_moderator_cannot_ban_themself_and_unbanning_an_unbanned_player_is_refused():
    by = moderator()
    with pytest.raises(services.ModerationError, match="self"):
        services.ban(by, by, reason="x", forever=True)
    with pytest.raises(services.ModerationError, match="not_banned"):
        services.unban(by, create_guest(), reason="x")


# ---------------------------------------------------------------------- games

def test_annulling_a_finished_rated_game_marks_it_and_announces_it_once():
    game, _x, _o = _finished_rated_game()
    heard = []

    def receiver(sender, game, **kwargs):
        heard.append((sender, game.pk, game.annulled))

    game_annulled.connect(receiver, dispatch_uid="test-annul")
    try:
        by = moderator()
        services.annul(by, game, reason="cheating confirmed")
        with pytest.raises(services.ModerationError, match="not_annullable"):
            services.annul(by, game, reason="again")
    finally:
        game_annulled.disconnect(dispatch_uid="test-annul")
    game.refresh_from_db()
    assert (game.annulled, game.annul_reason, game.status) == (True, "cheating confirmed", "finished")
    assert heard == [(Game, game.pk, True)]
    assert Move.objects.filter(game=game).count() == 9  # the game stays stored


def test_an_unrated_or_live_game_cannot_be_annulled_and_a_finished_one_cannot_be_stopped():
    by = moderator()
    live, _x, _o = started_game()
    with pytest.raises(services.ModerationError, match="not_annullable"):
        services.annul(by, live, reason="r")
    game, _x, _o = _finished_rated_game()
    Game.objects.filter(pk=game.pk).update(rated=False)
    with pytest.raises(services.ModerationError, match="not_annullable"):
        services.annul(by, game, reason="r")
    with pytest.raises(services.ModerationError, match="not_live"):
        services.abort(by, game, reason="r")
    assert not Game.objects.filter(annulled=True).exists() and AuditEntry.objects.count() == 0


# ---------------------------------------------------------------------- reports

def test_a_player_reports_their_opponent_once():
    game, x, o = _finished_rated_game()
    report = file_report(x, game, reason="insults", note="<script>alert(1)</script>")
    assert (report.reported, report.status, report.note) == (o, "open", "<script>alert(1)</script>")
    with pytest.raises(ReportError, match="already_reported"):
        file_report(x, game, reason="other")
    assert Report.objects.count() == 1


@pytest.mark.parametrize("case", ["spectator", "bad_reason", "long_note", "nul_note", "computer"])
def test_bad_reports_are_refused(case):
    game, x, _o = _finished_rated_game()
    reporter, reason, note = x, "insults", ""
    if case == "spectator":
        reporter = create_guest()
    elif case == "bad_reason":
        reason = "<b>"
    elif case == "long_note":
        note = "x" * 501
    elif case == "nul_note":  # an attacker's report: PostgreSQL's text cannot hold it (was a 500)
        note = "bad\x00player"
    else:  # a game against the computer, played on the device and stored
        game = store_played(uploads.read(record(CARO_FIVE), timezone.now()), x)[0]
    with pytest.raises(ReportError) as exc:
        file_report(reporter, game, reason=reason, note=note)
    assert exc.value.message
    assert Report.objects.count() == 0


def test_the_report_form_is_on_the_game_page_for_players_only_and_a_stranger_s_post_is_refused():
    game, x, _o = _finished_rated_game()
    client = Client()
    client.force_login(x, backend="django.contrib.auth.backends.ModelBackend")
    page = client.get(game.get_absolute_url())
    assert reverse("moderation:report", args=[game.pk]).encode() in page.content
    stranger = Client()
    stranger.force_login(create_guest(), backend="django.contrib.auth.backends.ModelBackend")
    assert reverse("moderation:report", args=[game.pk]).encode() not in stranger.get(game.get_absolute_url()).content
    response = stranger.post(reverse("moderation:report", args=[game.pk]), {"reason": "insults"}, follow=True,
                             HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and Report.objects.count() == 0
    nul = client.post(reverse("moderation:report", args=[game.pk]), {"reason": "cheating", "note": "a\x00b"},
                      HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en")
    assert nul.status_code == 200 and "cannot be stored" in nul.content.decode() and not Report.objects.exists()
    response = client.post(reverse("moderation:report", args=[game.pk]), {"reason": "stalling", "note": "hi"})
    assert response.status_code == 302 and Report.objects.get().reason == "stalling"


def test_a_report_on_a_private_unfinished_game_is_a_404_for_whoever_may_not_see_it():
    """Attacker run: a stranger's report on a private room's unfinished game was a 302 (and a
    missing id a 404), which told that the game exists. Whoever may not see the game's record
    (caro.records.access) gets the 404 of a missing game; its players still report."""
    host, guest, stranger = create_guest(), create_guest(), create_guest()
    room = rooms.create_room(host, move_time_ms=600_000)
    rooms.join(room, guest)
    game = Game.objects.get(pk=room.current_game_id)
    assert not game.is_over
    url = reverse("moderation:report", args=[game.pk])
    missing = reverse("moderation:report", args=[Game.objects.order_by("-pk").first().pk + 1000])
    signed_in = Client()
    signed_in.force_login(stranger, backend="django.contrib.auth.backends.ModelBackend")
    for client in (Client(), signed_in):
        assert client.post(missing, {"reason": "insults"}).status_code == 404
        assert client.post(url, {"reason": "insults"}).status_code == 404
    assert not Report.objects.exists()
    player = Client()
    player.force_login(host, backend="django.contrib.auth.backends.ModelBackend")
    assert player.post(url, {"reason": "insults"}).status_code == 302


# ---------------------------------------------------------------------- fair play

def _matched_game_left_by(leaver_is_host: bool, host, guest):
    game = games.create_game(host=host, absence_rule=AbsenceRule.FORFEIT)
    games.take_seat(game.pk, guest)
    game.refresh_from_db()
    x, o = game.x_player, game.o_player
    play_sequence(game, x, o, ["H8", "H9"])
    games.leave(game.pk, host if leaver_is_host else guest)
    return game


def _good_game(host, guest):
    game = games.create_game(host=host, absence_rule=AbsenceRule.FORFEIT)
    games.take_seat(game.pk, guest)
    game.refresh_from_db()
    play_sequence(game, game.x_player, game.o_player, ["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4", "L8"])
    return game


def test_leaving_matched_games_brings_a_growing_seek_bar_and_good_games_forgive():
    leaver, other = create_guest(), create_guest()
    for _ in range(fairplay.STRIKES_FOR_BAR - 1):
        _matched_game_left_by(True, leaver, other)
    leaver.refresh_from_db()
    assert leaver.fairplay_strikes == 2 and queue_ban_of(leaver, timezone.now()) is None
    _matched_game_left_by(True, leaver, other)
    leaver.refresh_from_db()
    bar = queue_ban_of(leaver, timezone.now())
    assert bar.reason == "leave"
    assert timedelta(minutes=9) < bar.until - timezone.now() <= fairplay.FIRST_BAR
    entry = AuditEntry.objects.get(action="fairplay_ban")
    assert entry.actor is None and entry.user == leaver
    other.refresh_from_db()
    assert other.fairplay_strikes == 0 and queue_ban_of(other, timezone.now()) is None
    # The next bar lasts twice as long.
    for _ in range(fairplay.STRIKES_FOR_BAR):
        _matched_game_left_by(True, leaver, other)
    leaver.refresh_from_db()
    assert leaver.queue_bans == 2
    assert timedelta(minutes=19) < leaver.queue_banned_until - timezone.now() <= 2 * fairplay.FIRST_BAR
    # Good games wear the record down.
    for _ in range(fairplay.GOOD_GAMES_TO_FORGIVE):
        _good_game(leaver, other)
    leaver.refresh_from_db()
    assert leaver.queue_bans == 1


def test_friend_room_games_never_count():
    leaver, other = create_guest(), create_guest()
    for _ in range(fairplay.STRIKES_FOR_BAR + 1):
        game = games.create_game(host=leaver)  # friend-room default: the opponent chooses
        games.take_seat(game.pk, other)
        game.refresh_from_db()
        play_sequence(game, game.x_player, game.o_player, ["H8", "H9"])
        games.leave(game.pk, leaver)
    leaver.refresh_from_db()
    assert leaver.fairplay_strikes == 0 and leaver.queue_banned_until is None


def test_the_bar_length_doubles_up_to_a_day():
    assert [fairplay.bar_length(n) for n in range(3)] == [timedelta(minutes=10), timedelta(minutes=20),
                                                          timedelta(minutes=40)]
    assert fairplay.bar_length(8) == fairplay.MAX_BAR == timedelta(days=1)
    assert fairplay.bar_length(100) == timedelta(days=1)


# ---------------------------------------------------------------------- admin pages

def _staff_client(user) -> Client:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def _many_games(count: int, players: list) -> None:
    Game.objects.bulk_create([
        Game(host=players[i % len(players)], guest=players[(i + 1) % len(players)], status=Game.Status.FINISHED,
             rated=bool(i % 2), termination=Game.Termination.FIVE, winner="X")
        for i in range(count)
    ])


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


def test_the_game_list_costs_the_same_few_queries_for_10_or_200_games():
    players = [create_guest() for _ in range(30)]
    client = _staff_client(moderator())
    url = reverse("admin:games_game_changelist")
    _many_games(10, players)
    _queries(client, url)  # warms the content-type cache
    few = _queries(client, url)
    _many_games(190, players)
    many = _queries(client, url)
    assert many == few <= 12
    assert _queries(client, url + f"?status=finished&rated__exact=1&player={players[0].pk}") <= 13
    assert _queries(client, url + "?q=guest") <= 12


def test_the_user_page_costs_the_same_few_queries_however_many_games_reports_and_actions():
    players = [create_guest() for _ in range(5)]
    target = players[0]
    by = moderator()
    client = _staff_client(by)
    url = reverse("admin:accounts_user_change", args=[target.pk])
    _many_games(3, players)
    Report.objects.create(reporter=players[1], reported=target, game=Game.objects.first(), reason="other")
    services.mute(by, target, until=timezone.now() + FUTURE, reason="first")
    _queries(client, url)  # warms the content-type cache
    few = _queries(client, url)
    _many_games(100, players)
    for game in Game.objects.filter(host=players[1], guest=target)[1:10]:
        Report.objects.create(reporter=players[1], reported=target, game=game, reason="insults")
    for i in range(10):
        services.mute(by, target, until=timezone.now() + FUTURE, reason=f"r{i}")
    many = _queries(client, url)
    assert many == few <= 16
    page = client.get(url).content.decode()
    assert "r9" in page and "#" in page


def test_the_user_list_searches_by_name_and_email():
    client = _staff_client(moderator())
    User.objects.create_user(username="findme", email="needle@example.com")
    url = reverse("admin:accounts_user_changelist")
    assert "findme" in client.get(url + "?q=needle").content.decode()
    assert "findme" in client.get(url + "?q=findm").content.decode()


def test_the_game_page_shows_the_final_board_and_the_moves():
    game, _x, _o = _finished_rated_game()
    page = _staff_client(moderator()).get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert "<svg" in page and "L8" in page and "9. X L8" in page
    assert reverse("admin:games_game_annul", args=[game.pk]) in page


def test_banning_through_the_admin_page_and_a_refusal_without_the_permission():
    target = create_guest()
    url = reverse("admin:accounts_user_ban", args=[target.pk])
    refused = _staff_client(moderator("weak", in_group=False)).post(
        url, {"reason": "x", "forever": "on"}, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 403 and "do not have the permission" in refused.content.decode()
    target.refresh_from_db()
    assert not target.banned_forever
    client = _staff_client(moderator())
    bad = client.post(url, {"reason": "x"}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 200 and "or tick “Ban permanently”" in bad.content.decode()
    done = client.post(url, {"reason": "spam", "forever": "on"})
    assert done.status_code == 302
    target.refresh_from_db()
    assert target.banned_forever and target.ban_reason == "spam"


def test_a_moderator_cannot_ban_or_mute_the_superuser_nor_other_staff():
    """Attacker run: a moderator (staff, not superuser) banned the superuser through the admin
    (302, ban in force). Refused with a translated sentence, nothing changed; a superuser may."""
    boss = User.objects.create_superuser(username="boss", password="pw-12345678")
    peer = moderator("peer")
    client = _staff_client(moderator())
    for target in (boss, peer):
        url = reverse("admin:accounts_user_ban", args=[target.pk])
        refused = client.post(url, {"reason": "coup", "forever": "on"}, HTTP_ACCEPT_LANGUAGE="en")
        assert refused.status_code == 200 and "Only a superuser can ban" in refused.content.decode()
        target.refresh_from_db()
        assert not target.banned_forever and not target.ban_reason
        with pytest.raises(services.ModerationError) as err:
            services.mute(moderator(f"m-{target.pk}"), target, until=timezone.now() + FUTURE, reason="r")
        assert err.value.code == "outranked"
    assert not AuditEntry.objects.exists()
    with translation.override("vi"):
        assert "quản trị viên cao nhất" in services.ModerationError("outranked").message
    services.ban(boss, peer, reason="abuse", forever=True)  # a superuser may
    peer.refresh_from_db()
    assert peer.banned_forever


def test_the_admin_is_staff_only_and_the_audit_log_is_read_only():
    player = create_guest()
    client = _staff_client(player)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302 and "login" in response["Location"]
    superuser = User.objects.create_superuser(username="root", password="pw-12345678")
    admin = _staff_client(superuser)
    services.mute(superuser, player, until=timezone.now() + FUTURE, reason="r")
    entry = AuditEntry.objects.get()
    assert admin.get(reverse("admin:moderation_auditentry_add")).status_code == 403
    assert admin.post(reverse("admin:moderation_auditentry_delete", args=[entry.pk]), {"post": "yes"}).status_code == 403
    assert AuditEntry.objects.filter(pk=entry.pk, reason="r").exists()


def test_hiding_chat_and_deciding_reports_through_admin_actions():
    room = rooms.create_room(create_guest())
    line = chat.say(room.code, room.created_by, "spam")
    game, x, _o = _finished_rated_game()
    report = file_report(x, game, reason="insults")
    client = _staff_client(moderator())
    client.post(reverse("admin:rooms_chatmessage_changelist"),
                {"action": "hide", "_selected_action": [line["id"]]})
    client.post(reverse("admin:moderation_report_changelist"),
                {"action": "dismiss", "_selected_action": [report.pk]})
    assert ChatMessage.objects.get(pk=line["id"]).hidden
    assert Report.objects.get(pk=report.pk).status == "dismissed"
    page = client.get(reverse("admin:moderation_report_change", args=[report.pk]))
    assert page.status_code == 200


def test_the_admin_url_comes_from_the_environment(monkeypatch):
    import importlib

    from caro import settings as site_settings

    monkeypatch.setenv("ADMIN_URL", "/secret-desk/")
    assert importlib.reload(site_settings).ADMIN_URL == "secret-desk/"
    monkeypatch.delenv("ADMIN_URL")
    assert importlib.reload(site_settings).ADMIN_URL == "admin/"


def test_only_the_moderation_permissions_are_custom():
    codes = set(Permission.objects.filter(content_type__app_label="moderation").values_list("codename", flat=True))
    assert {"ban_user", "mute_user", "annul_game", "abort_game", "close_room", "hide_chat", "decide_report"} <= codes


def test_a_seek_bar_and_a_ban_are_shown_on_the_player_s_pages_with_the_reason_and_the_time_left():
    player = create_guest()
    User.objects.filter(pk=player.pk).update(queue_banned_until=timezone.now() + timedelta(minutes=9, seconds=30),
                                             queue_ban_reason="leave")
    client = Client()
    client.force_login(player, backend="django.contrib.auth.backends.ModelBackend")
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "cannot look for a game for 10 more minutes" in page and "left the table" in page
    services.ban(moderator(), User.objects.get(pk=player.pk), reason="spam", forever=True)
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "banned permanently" in page and "spam" in page
