"""Guest players: generated names, and the clean-up of guests who never played."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.guests import create_guest, generate_guest_name
from accounts.models import User
from accounts.tasks import purge_idle_guests
from caro.rooms import services as rooms
from tests.integration.helpers import started_game

pytestmark = pytest.mark.django_db


def test_guest_names_are_friendly_and_vary():
    names = {generate_guest_name() for _ in range(50)}
    assert len(names) > 40
    assert all(6 <= len(n) <= 16 and n[-4:].isdigit() for n in names)


def test_idle_guests_who_never_played_are_purged_and_players_are_kept():
    old = timezone.now() - timedelta(days=40)
    idle, recent = create_guest(), create_guest()
    game, x, o = started_game()
    room_owner = create_guest()
    rooms.create_room(room_owner)
    User.objects.filter(pk__in=[idle.pk, x.pk, o.pk, room_owner.pk]).update(date_joined=old, last_login=None)
    account = User.objects.create_user("someone", password="a-long-password-123")
    User.objects.filter(pk=account.pk).update(date_joined=old)
    assert purge_idle_guests() == 1
    assert not User.objects.filter(pk=idle.pk).exists()
    assert User.objects.filter(pk__in=[recent.pk, x.pk, o.pk, room_owner.pk, account.pk]).count() == 5
