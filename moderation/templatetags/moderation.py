"""`{% report_form game %}`: the "report your opponent" form, for a player of `game` only."""

from django import template

from moderation.models import Report
from moderation.reports import MAX_NOTE_CHARS, opponent_of

register = template.Library()


@register.inclusion_tag("moderation/report_form.html", takes_context=True)
def report_form(context, game):
    user = context.get("user") or getattr(context.get("request"), "user", None)
    opponent = opponent_of(game, user)
    return {"game": game, "opponent": opponent, "reasons": Report.Reason.choices,
            "max_note": MAX_NOTE_CHARS, "csrf_token": context.get("csrf_token")}
