"""Issue 12 over HTTP: rooms and guests per minute, the abandoned-room purge, /healthz, and the
production settings' `check --deploy`. Real PostgreSQL and Redis (django-ratelimit's counters)."""

import os
import random
import secrets
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.utils import timezone

from accounts.guests import create_guest
from accounts.models import User
from accounts.tasks import idle_guests
from caro.games.models import Game, Move
from caro.rooms import services as rooms
from caro.rooms.models import Room
from caro.rooms.tasks import purge_abandoned_rooms
from caro.rooms.limits import TOO_MANY_REQUESTS
from tests.integration.helpers import play

ROOT = Path(__file__).resolve().parents[2]
#: More attempts than 2 x the limit: django-ratelimit counts in fixed one-minute windows, so the
#: attempts may straddle one window boundary (never two: they take far less than a minute).
LIMIT, ATTEMPTS = 2, 5


def _address() -> str:
    """A documentation address (RFC 5737) no other test uses (the counters live in Redis)."""
    return f"203.0.{random.randint(0, 255)}.{random.randint(1, 254)}"


def _assert_refusal(response, text: str) -> None:
    assert response.status_code == TOO_MANY_REQUESTS
    assert text in response.content.decode()


@pytest.mark.django_db
def test_rooms_per_minute_per_session():
    user = create_guest()
    client = Client(REMOTE_ADDR=_address(), HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    with override_settings(CARO_ROOMS_PER_MINUTE_PER_SESSION=LIMIT):
        responses = [client.post("/rooms/new", HTTP_ACCEPT_LANGUAGE="en") for _ in range(ATTEMPTS)]
    refused = [r for r in responses if r.status_code == TOO_MANY_REQUESTS]
    assert refused and len(refused) <= ATTEMPTS - LIMIT
    assert all(r.status_code == 302 for r in responses if r not in refused)
    _assert_refusal(refused[0], "You have created many rooms in the last minute")
    # Nothing was created by a refused request.
    assert Room.objects.filter(created_by=user).count() == ATTEMPTS - len(refused)


@pytest.mark.django_db
def test_rooms_per_minute_per_address_in_vietnamese_first():
    address = _address()
    users = [create_guest() for _ in range(ATTEMPTS)]
    with override_settings(CARO_ROOMS_PER_MINUTE_PER_ADDRESS=LIMIT):
        responses = []
        for user in users:  # a different session each time: only the address is in common
            client = Client(REMOTE_ADDR=address)
            client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
            responses.append(client.post("/rooms/new"))
    refused = [r for r in responses if r.status_code == TOO_MANY_REQUESTS]
    assert refused
    body = refused[0].content.decode()
    assert 'lang="vi"' in body and "You have created" not in body  # the default language
    assert Room.objects.filter(created_by__in=users).count() == ATTEMPTS - len(refused)


@pytest.mark.django_db
def test_guests_per_minute_per_address():
    """Cookie-less clients each get a guest; past the limit nobody is created, and it says why."""
    address = _address()
    before = User.objects.filter(is_guest=True).count()
    with override_settings(CARO_GUESTS_PER_MINUTE_PER_ADDRESS=LIMIT):
        responses = [Client(REMOTE_ADDR=address).post("/rooms/new", HTTP_ACCEPT_LANGUAGE="en")
                     for _ in range(ATTEMPTS)]
        refused = [r for r in responses if r.status_code == TOO_MANY_REQUESTS]
        assert refused
        _assert_refusal(refused[0], "Many new players have come from your network")
        created = ATTEMPTS - len(refused)
        assert User.objects.filter(is_guest=True).count() == before + created
        # Taking a seat also makes a guest: limited the same way.
        room = rooms.create_room(create_guest())
        joined = [Client(REMOTE_ADDR=address).post(f"/r/{room.code}/join", HTTP_ACCEPT_LANGUAGE="en")
                  for _ in range(ATTEMPTS)]
        assert any(r.status_code == TOO_MANY_REQUESTS for r in joined)
    room.current_game.refresh_from_db()
    # A seat was taken only by a join that got through (one may, if the attempts straddle a window).
    assert (room.current_game.guest_id is not None) == any(r.status_code == 302 for r in joined)
    # Another address is not affected.
    assert Client(REMOTE_ADDR=_address()).post("/rooms/new").status_code == 302


@pytest.mark.django_db
def test_quick_match_from_a_visitor_without_a_name_counts_as_a_new_guest():
    address = _address()
    before = User.objects.filter(is_guest=True).count()
    with override_settings(CARO_GUESTS_PER_MINUTE_PER_ADDRESS=LIMIT):
        responses = [Client(REMOTE_ADDR=address).post("/match/start", {"mode": "quick", "q": "caro-15-blocked"},
                                                      HTTP_ACCEPT_LANGUAGE="en") for _ in range(ATTEMPTS)]
    refused = [r for r in responses if r.status_code == TOO_MANY_REQUESTS]
    assert refused and all(r.status_code == 302 for r in responses if r not in refused)
    _assert_refusal(refused[0], "Many new players have come from your network")
    assert User.objects.filter(is_guest=True).count() == before + ATTEMPTS - len(refused)


@pytest.mark.django_db
def test_limits_are_read_from_the_environment():
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.CARO_WS_PER_ADDRESS, s.CARO_WS_PER_SESSION_ROOM, s.CARO_ROOMS_PER_MINUTE_PER_SESSION, "
        "s.CARO_GUESTS_PER_MINUTE_PER_ADDRESS, s.CARO_ROOM_ABANDONED_HOURS)"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "caro.settings", "CARO_WS_PER_ADDRESS": "7",
           "CARO_WS_PER_SESSION_ROOM": "0", "CARO_ROOMS_PER_MINUTE_PER_SESSION": "3",
           "CARO_GUESTS_PER_MINUTE_PER_ADDRESS": "4", "CARO_ROOM_ABANDONED_HOURS": "2"}
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["7", "0", "3", "4", "2.0"]


# ---------------------------------------------------------------- purge


def _age(room: Room, hours: float) -> None:
    Room.objects.filter(pk=room.pk).update(created_at=timezone.now() - timedelta(hours=hours))


@pytest.mark.django_db
def test_abandoned_rooms_are_purged_and_their_creators_become_purgeable():
    old = settings.CARO_ROOM_ABANDONED_HOURS + 1
    flood_creator, waiting_creator, player = create_guest(), create_guest(), create_guest()
    abandoned = rooms.create_room(flood_creator)
    joined_never_played = rooms.create_room(waiting_creator)
    rooms.join(joined_never_played, create_guest())
    played = rooms.create_room(player)
    opponent = create_guest()
    rooms.join(played, opponent)
    play(played.current_game, player, "H8")
    fresh = rooms.create_room(create_guest())
    for room in (abandoned, joined_never_played, played):
        _age(room, old)
    gone_games = [abandoned.current_game_id, joined_never_played.current_game_id]
    long_ago = timezone.now() - timedelta(days=365)
    User.objects.filter(pk=flood_creator.pk).update(date_joined=long_ago, last_login=None)
    assert flood_creator not in idle_guests()  # a room creator: skipped by the guest purge

    assert purge_abandoned_rooms() == 2
    assert set(Room.objects.filter(pk__in=[r.pk for r in (abandoned, joined_never_played, played, fresh)])
               .values_list("pk", flat=True)) == {played.pk, fresh.pk}
    assert not Game.objects.filter(pk__in=gone_games).exists()
    assert Move.objects.filter(game_id=played.current_game_id).count() == 1
    assert flood_creator in idle_guests()  # now the guest purge removes it
    assert purge_abandoned_rooms() == 0  # idempotent


@pytest.mark.django_db
def test_a_room_whose_later_game_was_played_is_kept():
    x, o = create_guest(), create_guest()
    room = rooms.create_room(x)
    rooms.join(room, o)
    play(room.current_game, x, "H8")
    play(room.current_game, o, "H9")
    from caro.games import services as games

    games.resign(room.current_game_id, x)
    rooms.play_again(room.code, x)
    rooms.play_again(room.code, o)  # a new, unplayed game is now current
    _age(room, settings.CARO_ROOM_ABANDONED_HOURS + 1)
    assert purge_abandoned_rooms() == 0
    assert Room.objects.filter(pk=room.pk).exists()


def test_the_purge_is_a_beat_job():
    from caro.celery import app

    app.loader.import_default_modules()
    entries = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "caro.rooms.tasks.purge_abandoned_rooms" in entries
    assert "caro.rooms.tasks.purge_abandoned_rooms" in app.tasks


# ---------------------------------------------------------------- /healthz


@pytest.mark.django_db
def test_healthz_says_only_unavailable_when_redis_is_down():
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):  # nothing listens on port 1
        response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.content == b"unavailable"


# ---------------------------------------------------------------- production settings


def _run_settings(extra: dict, *args: str) -> subprocess.CompletedProcess:
    # Production's environment: none of the test run's own switches (the browser fixture sets
    # DJANGO_ALLOW_ASYNC_UNSAFE in this process, which check --deploy rightly refuses).
    env = {key: value for key, value in os.environ.items()
           if key not in ("DEBUG", "HTTPS", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "CARO_ALLOW_DEV_SECRET",
                          "DJANGO_ALLOW_ASYNC_UNSAFE")}
    env.update(DJANGO_SETTINGS_MODULE="caro.settings", SECRET_KEY=secrets.token_urlsafe(50), **extra)
    return subprocess.run([sys.executable, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=120)


PRODUCTION = {"DEBUG": "0", "ALLOWED_HOSTS": "caro.example.com",
              "CSRF_TRUSTED_ORIGINS": "https://caro.example.com"}


def test_production_settings_pass_the_deploy_check():
    result = _run_settings(PRODUCTION, "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_deploy_check_fails_when_https_is_switched_off():
    result = _run_settings({**PRODUCTION, "HTTPS": "0"}, "manage.py", "check", "--deploy",
                           "--fail-level", "WARNING")
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stdout + result.stderr


@pytest.mark.parametrize(
    "extra, expected",
    [
        (PRODUCTION, "True True True True HTTP_X_FORWARDED_PROTO"),
        ({**PRODUCTION, "HTTPS": "0"}, "False False False 0 None"),
        ({"DEBUG": "0"}, "False False False 0 None"),  # a local plain-HTTP run (dev.py run)
        ({"DEBUG": "0", "ALLOWED_HOSTS": "127.0.0.1,localhost"}, "False False False 0 None"),
        ({"DEBUG": "1", "ALLOWED_HOSTS": "caro.example.com"}, "False False False 0 None"),
    ],
)
def test_https_settings_follow_the_environment(extra, expected):
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "p = s.SECURE_PROXY_SSL_HEADER; print(s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS > 0 if s.SECURE_HSTS_SECONDS else 0, p[0] if p else None)"
    )
    result = _run_settings(extra, "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected
