"""Elo ratings as pure functions (no Django: `tests/unit/test_architecture.py` checks it).

The formulas follow FIDE's rating regulations (FIDE Handbook B.02, "Rating Regulations", §8):

- expected score of a player rated ``R`` against ``R'``: ``1 / (1 + 10 ** (-D / 400))`` with
  ``D = R - R'`` capped to ±400 (`RATING_DIFFERENCE_CAP`), so a 400-point favourite is never
  expected to score more than about 0.91;
- the change is ``K × (score − expected)``, rounded half away from zero to a whole point (so two
  players with the same K always move by the same amount in opposite directions);
- K (`k_factor`) is 40 for a player's first 30 rated games, then 20, and 10 once the rating has
  ever reached 2400 (FIDE keeps K = 10 after a drop below 2400; so do we: `Standing.reached_top`);
- a win scores 1, a draw ½ and a loss 0;
- a rating is *provisional* (shown with "?") while the player has fewer than 10 rated games.

Every rating starts at `START_RATING`. Ratings and changes are whole points (ints).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Every player's first rating in every category.
START_RATING = 1200
#: The rating difference counted in the expected score is capped at ±400 points (FIDE §8.3.1).
RATING_DIFFERENCE_CAP = 400
#: K for a player's first rated games (FIDE: until 30 games are completed) …
K_NEW = 40
NEW_PLAYER_GAMES = 30
#: … then K for a player whose rating has never reached `TOP_RATING` …
K_REGULAR = 20
#: … and K once the rating has reached `TOP_RATING` (kept even if it drops again).
K_TOP = 10
TOP_RATING = 2400
#: A rating is provisional (shown "1234?") while the player has fewer rated games than this.
PROVISIONAL_GAMES = 10
#: The provisional marker appended to a rating.
PROVISIONAL_MARK = "?"

WIN = 1.0
DRAW = 0.5
LOSS = 0.0
SCORES = (WIN, DRAW, LOSS)


@dataclass(frozen=True)
class Standing:
    """A player's rating in one category before a game: `rating` (points), `games` (rated games
    played so far) and `reached_top` (the rating has been `TOP_RATING` or more at some point)."""

    rating: int = START_RATING
    games: int = 0
    reached_top: bool = False


@dataclass(frozen=True)
class Update:
    """One player's change from one game: `before` + `delta` = `after` (points), `k` the K used,
    `expected` the expected score (0..1) and `reached_top` the flag after the game."""

    before: int
    after: int
    delta: int
    k: int
    expected: float
    reached_top: bool


def expected_score(rating: int, opponent: int) -> float:
    """The expected score (0..1) of a player rated `rating` against one rated `opponent`, with the
    difference capped at ±`RATING_DIFFERENCE_CAP` (FIDE §8.3.1)."""
    difference = max(-RATING_DIFFERENCE_CAP, min(RATING_DIFFERENCE_CAP, rating - opponent))
    return 1.0 / (1.0 + 10.0 ** (-difference / 400.0))


def k_factor(games: int, reached_top: bool) -> int:
    """K for a player who has played `games` rated games (before this one): 40 for the first
    `NEW_PLAYER_GAMES`, then 10 if the rating has ever reached `TOP_RATING`, else 20 (FIDE §8.3.3)."""
    if games < NEW_PLAYER_GAMES:
        return K_NEW
    return K_TOP if reached_top else K_REGULAR


def _round_half_away(value: float) -> int:
    return int(math.copysign(math.floor(abs(value) + 0.5), value))


def rate(player: Standing, opponent: Standing, score: float) -> Update:
    """`player`'s change after scoring `score` (`WIN`, `DRAW` or `LOSS`) against `opponent`, both
    taken as they stood BEFORE the game. Raises ValueError for any other score."""
    if score not in SCORES:
        raise ValueError(f"score must be one of {SCORES}, not {score!r}")
    k = k_factor(player.games, player.reached_top)
    expected = expected_score(player.rating, opponent.rating)
    delta = _round_half_away(k * (score - expected))
    after = player.rating + delta
    return Update(before=player.rating, after=after, delta=delta, k=k, expected=expected,
                  reached_top=player.reached_top or after >= TOP_RATING)


def rate_game(first: Standing, second: Standing, first_score: float) -> tuple[Update, Update]:
    """Both players' changes from one game in which `first` scored `first_score` (the other
    scored 1 − it). Raises ValueError for a score other than `WIN`, `DRAW`, `LOSS`."""
    if first_score not in SCORES:
        raise ValueError(f"score must be one of {SCORES}, not {first_score!r}")
    return rate(first, second, first_score), rate(second, first, 1.0 - first_score)


def is_provisional(games: int) -> bool:
    """True while a player has fewer than `PROVISIONAL_GAMES` rated games."""
    return games < PROVISIONAL_GAMES


def display(rating: int, games: int) -> str:
    """The rating as shown: "1500", or "1200?" while provisional."""
    return f"{rating}{PROVISIONAL_MARK}" if is_provisional(games) else str(rating)


def signed(delta: int) -> str:
    """A change as shown: "+12", "−7" (a true minus sign), "±0"."""
    if delta > 0:
        return f"+{delta}"
    if delta < 0:
        return f"\u2212{-delta}"
    return "\u00b10"


def peak_of(history, current: int) -> int:
    """The highest rating of a player's history in one category, with refunded (annulled)
    changes taken out as `ranking.services.revert_game` takes them out of the current rating:
    each later rating is lower by the deltas refunded before it (a refunded loss raises them).
    `history` is `(after, delta, refunded)` per change, oldest first (points); `current` the
    rating now, counted too, as is `START_RATING` (where every rating starts)."""
    peak = max(START_RATING, current)
    refunded = 0
    for after, delta, was_refunded in history:
        if was_refunded:
            refunded += delta
        else:
            peak = max(peak, after - refunded)
    return peak
