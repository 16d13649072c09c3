"""Rating categories as data: each rated format has its own rating (docs/architecture.md, ranking).

A category is a kind of game (`Game.kind`) and, for caro, the exact rules (`Game.rules`): only
games played with exactly those rules count. `category_of(game)` maps a game to its category slug
or None; it does not decide whether a game is rated (`Game.rated` does, set by whoever creates
the game, e.g. ranked pairing).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from caro.engine.caro import DEFAULT_PRESET, PRESETS
from caro.engine.names import REVERSI


@dataclass(frozen=True)
class Category:
    """One rated format: `slug` (stored in ratings, used in URLs), translated `name`, the game
    `kind` ("caro" or "reversi") and, for caro, the `rules` dict a game must have exactly (None:
    any rules of that kind)."""

    slug: str
    name: str
    kind: str
    rules: dict | None = None

    def matches(self, kind: str, rules: dict | None) -> bool:
        """True when a game of `kind` with `rules` (a `Game.rules` dict) belongs here."""
        return kind == self.kind and (self.rules is None or (rules or {}) == self.rules)


#: The ranked caro format: 15×15 with the site's default preset (Vietnamese caro, blocked two ends).
CARO = Category("caro", _("Caro 15×15"), "caro", PRESETS[DEFAULT_PRESET].rules.to_dict())
#: Reversi, 8×8 (its rules have no options).
REVERSI_CATEGORY = Category("reversi", _("Reversi"), REVERSI)

#: Every category, in the order pages list them.
CATEGORIES: tuple[Category, ...] = (CARO, REVERSI_CATEGORY)
BY_SLUG: dict[str, Category] = {category.slug: category for category in CATEGORIES}
#: Choices for the `category` model fields.
CHOICES = [(category.slug, category.name) for category in CATEGORIES]


def category_of(game) -> str | None:
    """The category slug of `game` (anything with `kind` and `rules`), or None when its format
    has no rating (another board size or preset, an imported record, …)."""
    if getattr(game, "imported", None):
        return None
    for category in CATEGORIES:
        if category.matches(game.kind, game.rules):
            return category.slug
    return None


def get(slug: str) -> Category:
    """The category `slug`; raises KeyError for an unknown one."""
    return BY_SLUG[slug]
