"""Human-readable, translated descriptions of rules (the one-line summary shown everywhere)."""

import dataclasses

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from caro.engine.caro import PRESETS, Rules

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
    "reversi": gettext_noop("Reversi (8×8)"),
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
        parts.append(_clock(move_time_ms))
    return " · ".join(parts)


def preset_summary(slug: str, size: int, win_length: int, move_time_ms: int | None) -> str:
    """The one-line summary of a rule choice on the home page (a caro preset, or "reversi")."""
    if slug == "reversi":
        return " · ".join([_("Reversi"), "8×8"] + ([_clock(move_time_ms)] if move_time_ms else []))
    rules = dataclasses.replace(PRESETS[slug].rules, size=size, win_length=win_length)
    return rules_summary(rules, move_time_ms)


def game_summary(game) -> str:
    """The one-line summary of a game's rules and clock (`rules_summary`, or Reversi's)."""
    if game.kind == "reversi":
        return preset_summary("reversi", 8, 0, game.move_time_ms)
    return rules_summary(Rules.from_dict(game.rules), game.move_time_ms)


def _clock(move_time_ms: int) -> str:
    seconds = move_time_ms // 1000
    if seconds % 60 == 0:
        return ngettext("%(n)d min/move", "%(n)d min/move", seconds // 60) % {"n": seconds // 60}
    return ngettext("%(n)d s/move", "%(n)d s/move", seconds) % {"n": seconds}
