"""`{% report_form game %}`: the "report your opponent" form, for a player of `game` only."""

from django import template

from moderation.models import Report
from moderation.reports import MAX_NOTE_CHARS, opponent_of

register = template.Library()


@register.inclusion_tag("moderation/report_form.html", takes_context=True)
def report_form(context, game):
    user = context.get("user") or getattr(context.get("request"), "user", None)
    return report_context(game, user, context.get("csrf_token"))


def report_context(game, user, csrf_token, answer: str = "", sent: bool = False) -> dict:
    """The report form's context for `user` in `game`; `answer`: what sending it did (htmx)."""
    return {"game": game, "opponent": opponent_of(game, user), "reasons": Report.Reason.choices,
            "max_note": MAX_NOTE_CHARS, "csrf_token": csrf_token, "answer": answer, "sent": sent}
