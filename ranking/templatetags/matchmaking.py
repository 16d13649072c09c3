"""`{% quick_match_entry %}`: the home page's quick-match block (the choice kept in the session)."""

from django import template

from ranking.match_views import current_choice

register = template.Library()


@register.inclusion_tag("ranking/quick_entry.html", takes_context=True)
def quick_match_entry(context) -> dict:
    """The "Tìm ván nhanh" button, the chosen rules under it and a "Đổi" link (to the match page)."""
    request = context["request"]
    quick = current_choice(request)
    return {"quick": quick, "quick_line": quick.describe(), "csrf_token": context.get("csrf_token")}
