"""How long an open room has waited reads in the page's language (Django's `timesince` gave
"đã chờ 0 minutes" on the Vietnamese lobby: found by a new-user trial)."""

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from lobby.templatetags.lobby import waited


@pytest.mark.parametrize("language, ago, words", [
    ("vi", timedelta(seconds=5), "vừa mở"),
    ("vi", timedelta(minutes=1, seconds=3), "đã chờ 1 phút"),
    ("vi", timedelta(minutes=12), "đã chờ 12 phút"),
    ("vi", timedelta(hours=3, minutes=5), "đã chờ 3 giờ"),
    ("en", timedelta(seconds=5), "just opened"),
    ("en", timedelta(minutes=1), "waiting for 1 minute"),
    ("en", timedelta(minutes=12), "waiting for 12 minutes"),
    ("en", timedelta(hours=1), "waiting for 1 hour"),
])
def test_a_room_s_wait_in_words(language, ago, words):
    with translation.override(language):
        assert waited(timezone.now() - ago) == words
