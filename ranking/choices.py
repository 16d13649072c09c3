"""What a seek asks for: a quick-match choice (board size and rules, or Reversi) or a rating
category (ranked). Pure: parsing and naming only, no database.

A quick-match key names everything that must be equal for two players to be paired:

    "caro-15-blocked"        15×15, five in a row, blocked two ends loses the five (the site's default)
    "caro-19-blocked-exact"  19×19, blocked two ends, exactly five (six or more does not win)
    "caro-13"                13×13, freestyle (any five or more wins, blocked or not)
    "caro-11-exact"          11×11, exactly five, ends never block
    "reversi"                Reversi 8×8

Ranked seeks use a category slug of `ranking.categories` instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from caro.engine.caro import SIZES, Blocked, Rules

#: Win length of every quick-match caro game (the site's five; 4 and 6 stay in friend rooms).
QUICK_WIN_LENGTH = 5
#: The default quick-match choice: the site's caro preset on 15×15.
DEFAULT_QUICK = "caro-15-blocked"
#: Clocks of quick and ranked games, per move (ms): 1 min caro, 30 s Reversi (issue 10).
CARO_MOVE_MS = 60_000
REVERSI_MOVE_MS = 30_000


@dataclass(frozen=True)
class QuickChoice:
    """A quick-match choice. `kind` "caro" (with size, blocked, exact) or "reversi"."""

    kind: str
    size: int = 15
    blocked: bool = True
    exact: bool = False

    @property
    def key(self) -> str:
        if self.kind == "reversi":
            return "reversi"
        return "-".join(["caro", str(self.size), *(["blocked"] if self.blocked else []),
                         *(["exact"] if self.exact else [])])

    def rules(self) -> dict:
        """The game's stored rules (`Rules.to_dict()` for caro, {} for Reversi)."""
        if self.kind == "reversi":
            return {}
        blocked = Blocked.OPPONENT_OR_EDGE if self.blocked else Blocked.NONE
        return Rules(size=self.size, win_length=QUICK_WIN_LENGTH, exact=self.exact,
                     blocked=blocked.value).to_dict()

    @property
    def preset(self) -> str:
        """The friend/computer room rule choice with these rules (for "play the computer instead")."""
        if self.kind == "reversi":
            return "reversi"
        return {(True, False): "caro-vn", (False, False): "freestyle", (False, True): "exact-five",
                (True, True): "caro-exact"}[(self.blocked, self.exact)]

    @property
    def move_time_ms(self) -> int:
        return REVERSI_MOVE_MS if self.kind == "reversi" else CARO_MOVE_MS

    def describe(self) -> str:
        """One translated line, e.g. "Caro 15×15 · blocked two ends · 1 min per move"."""
        if self.kind == "reversi":
            return _("Reversi 8×8 · 30 s per move")
        parts = [_("Caro %(size)s×%(size)s") % {"size": self.size},
                 _("blocked two ends: on") if self.blocked else _("blocked two ends: off"),
                 _("exactly five") if self.exact else _("five or more"),
                 _("1 min per move")]
        return " · ".join(parts)


def _digits(text: str) -> bool:
    """Whether `text` is a whole number in ASCII digits (str.isdigit also takes "²" or "①", which
    int() refuses)."""
    return text.isascii() and text.isdigit()


def parse_quick(key) -> QuickChoice | None:
    """The choice named by `key` (see the module docstring), or None for anything else."""
    if key == "reversi":
        return QuickChoice("reversi")
    if not isinstance(key, str) or len(key) > 40:
        return None
    parts = key.split("-")
    if len(parts) < 2 or parts[0] != "caro" or not _digits(parts[1]) or int(parts[1]) not in SIZES:
        return None
    flags = parts[2:]
    if flags not in ([], ["blocked"], ["exact"], ["blocked", "exact"]):
        return None
    choice = QuickChoice("caro", int(parts[1]), "blocked" in flags, "exact" in flags)
    return choice if choice.key == key else None


def quick_from_form(kind: str, size, blocked: bool, exact: bool) -> QuickChoice | None:
    """A choice from the page's fields (kind "caro"/"reversi", size as text or int), or None."""
    if kind == "reversi":
        return QuickChoice("reversi")
    try:
        size = int(size)
    except (TypeError, ValueError):
        return None
    if kind != "caro" or size not in SIZES:
        return None
    return QuickChoice("caro", size, bool(blocked), bool(exact))


def all_quick_keys() -> list[str]:
    """Every quick-match key, for the waiting counts."""
    keys = [QuickChoice("caro", size, b, e).key for size in SIZES for b in (True, False) for e in (False, True)]
    return [*keys, "reversi"]
