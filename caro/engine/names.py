"""English display names (gettext msgids) of every rule set a player can choose, by slug.

The caro presets carry their own name (:data:`caro.engine.caro.PRESETS`); Reversi has one rule
set. The site translates these names with gettext when it shows them.
"""

from .caro import PRESETS, gettext_noop

__all__ = ["REVERSI", "RULE_SET_NAMES"]

#: The slug of the Reversi rule set (8×8), beside the caro presets' slugs.
REVERSI = "reversi"

RULE_SET_NAMES: dict[str, str] = {slug: preset.name for slug, preset in PRESETS.items()} | {
    REVERSI: gettext_noop("Reversi (8×8)")
}
