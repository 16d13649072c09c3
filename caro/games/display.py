"""Human-readable, translated descriptions of rules (the one-line summary shown everywhere)."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from caro.engine.caro import Rules


#: Display names (msgids) of the rule presets of `caro.engine.caro.PRESETS`; translate with gettext.
PRESET_NAMES = {
    "caro-vn": gettext_noop("Vietnamese caro: blocked two ends"),
    "freestyle": gettext_noop("Freestyle"),
    "exact-five": gettext_noop("Exact five"),
    "caro-exact": gettext_noop("Caro with exact five"),
    "caro-edge-open": gettext_noop("Caro, the edge does not block"),
    "renju": gettext_noop("Renju"),
    "renju-rif": gettext_noop("Renju with the RIF opening"),
    "swap2": gettext_noop("Swap2 gomoku"),
}


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
