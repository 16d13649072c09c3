"""Template context: the restriction in force on the visitor, shown on every page (base.html)."""

from django.utils import timezone

from accounts.restrictions import ban_message, ban_of, queue_ban_message, queue_ban_of


def restrictions(request) -> dict:
    """`restriction_notice`: a banned user's ban, else a fair-play seek bar with the time left, else "";
    `play_refused`: a ban is in force (the play buttons are shown disabled, described by the notice);
    `seek_refused`: the user may not seek a game (a ban or a seek bar: the match buttons likewise)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"restriction_notice": "", "play_refused": False, "seek_refused": False}
    now = timezone.now()
    ban = ban_of(user, now)
    if ban is not None:
        return {"restriction_notice": ban_message(ban), "play_refused": True, "seek_refused": True}
    bar = queue_ban_of(user, now)
    return {"restriction_notice": queue_ban_message(bar, now) if bar is not None else "", "play_refused": False,
            "seek_refused": bar is not None}
