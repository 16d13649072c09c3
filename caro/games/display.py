"""Human-readable, translated descriptions of rules (the one-line summary shown everywhere)."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from caro.engine.caro import Rules


def rules_summary(rules: Rules, move_time_ms: int | None = None) -> str:
    """One short line such as "15×15 · chặn hai đầu · 1 phút/nước" in the active language."""
    parts = [f"{rules.size}×{rules.size}"]
    if rules.renju:
        parts.append(_("Renju"))
    elif rules.blocked == "opponent_or_edge":
        parts.append(_("blocked two ends"))
    elif rules.blocked == "opponent":
        parts.append(_("blocked two ends (edge open)"))
    else:
        parts.append(_("open ends"))
    if rules.exact:
        parts.append(_("exactly %(n)d") % {"n": rules.win_length})
    elif rules.win_length != 5:
        parts.append(_("%(n)d in a row") % {"n": rules.win_length})
    if move_time_ms:
        seconds = move_time_ms // 1000
        if seconds % 60 == 0:
            minutes = seconds // 60
            parts.append(ngettext("%(n)d min/move", "%(n)d min/move", minutes) % {"n": minutes})
        else:
            parts.append(ngettext("%(n)d s/move", "%(n)d s/move", seconds) % {"n": seconds})
    return " · ".join(parts)
