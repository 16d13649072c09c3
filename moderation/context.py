"""Template context: the restriction in force on the visitor, shown on every page (base.html)."""

from django.utils import timezone

from accounts.restrictions import ban_message, ban_of, queue_ban_message, queue_ban_of


def restrictions(request) -> dict:
    """`restriction_notice`: a banned user's ban, else a fair-play seek bar with the time left, else ""."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"restriction_notice": ""}
    now = timezone.now()
    ban = ban_of(user, now)
    if ban is not None:
        return {"restriction_notice": ban_message(ban)}
    bar = queue_ban_of(user, now)
    return {"restriction_notice": queue_ban_message(bar, now) if bar is not None else ""}
