"""`{% quick_match_entry %}`: the home page's quick-match block (the choice kept in the session)."""

from django import template

from ranking import choices
from ranking.match_views import current_choice

register = template.Library()


@register.inclusion_tag("ranking/quick_entry.html", takes_context=True)
def quick_match_entry(context) -> dict:
    """The "Tìm ván nhanh" button, the chosen rules under it and a "Đổi" link (to the match page)."""
    request = context["request"]
    quick = current_choice(request)
    # For the home page's script: when the rules chosen at the top are a quick-match choice, the
    # button and its line follow them ("<preset>|<size>|<win length>" or "reversi" -> key, line).
    follow = {}
    for key in choices.all_quick_keys():
        choice = choices.parse_quick(key)
        rule = "reversi" if choice.kind == "reversi" else f"{choice.preset}|{choice.size}|{choices.QUICK_WIN_LENGTH}"
        follow[rule] = {"key": key, "line": choice.describe()}
    # Rules chosen by the address (a guide's "play now with these rules"): quick match follows them
    # from the first paint when it offers them, as the script does on a change.
    chosen = follow.get(context.get("rules_chosen") or "")
    if chosen:
        quick = choices.parse_quick(chosen["key"])
    return {"quick": quick, "quick_line": quick.describe(), "csrf_token": context.get("csrf_token"),
            "quick_follow": follow, "seek_refused": context.get("seek_refused", False),
            "signed_in": request.user.is_authenticated}
