"""Elo worked examples (ranking.elo; FIDE Handbook B.02 §8): expected score with the 400 cap,
K by games played and the 2400 rule, rounding, and the provisional marker."""

import pytest

from ranking import elo
from ranking.elo import DRAW, LOSS, WIN, Standing


def equal(games: int) -> tuple[Standing, Standing]:
    return Standing(1500, games), Standing(1500, games)


@pytest.mark.parametrize(("games", "k"), [(0, 40), (29, 40), (30, 20), (200, 20)])
@pytest.mark.parametrize(("score", "steps"), [(WIN, 1), (DRAW, 0), (LOSS, -1)])
def test_equal_ratings_move_by_half_of_k_for_a_win_or_a_loss(games, k, score, steps):
    me, you = equal(games)
    mine, yours = elo.rate_game(me, you, score)
    assert mine.k == yours.k == k
    assert mine.expected == yours.expected == 0.5
    assert mine.delta == steps * k // 2 and yours.delta == -mine.delta
    assert mine.after == 1500 + mine.delta and yours.after == 1500 - mine.delta


def test_worked_examples_at_k_40_and_20():
    # Equal at K 40: 40 × (1 − 0.5) = +20 / −20.
    assert [u.after for u in elo.rate_game(Standing(1200, 0), Standing(1200, 0), WIN)] == [1220, 1180]
    # Equal at K 20: 20 × (1 − 0.5) = +10 / −10.
    assert [u.after for u in elo.rate_game(Standing(1800, 40), Standing(1800, 40), LOSS)] == [1790, 1810]
    # 1200 beats 1400 at K 40: E = 1/(1 + 10^(200/400)) = 0.2403; 40 × 0.7597 = 30.39 → +30.
    upset = elo.rate(Standing(1200, 5), Standing(1400, 50), WIN)
    assert upset.expected == pytest.approx(0.24025, abs=1e-5)
    assert upset.delta == 30
    # The favourite, at K 20: 20 × (0 − 0.7597) = −15.19 → −15 (each player's own K).
    assert elo.rate(Standing(1400, 50), Standing(1200, 5), LOSS).delta == -15


def test_a_draw_between_equal_ratings_changes_nothing():
    for games in (0, 30, 100):
        for update in elo.rate_game(Standing(1337, games), Standing(1337, games), DRAW):
            assert update.delta == 0 and update.after == 1337


def test_the_difference_is_capped_at_400_points():
    assert elo.expected_score(2000, 1200) == elo.expected_score(1600, 1200) == pytest.approx(1 / 1.1)
    assert elo.expected_score(1200, 2000) == pytest.approx(1 - 1 / 1.1)
    # 800 points apart counts as 400: E = 0.9091; at K 20 a win gains 20 × 0.0909 = 1.82 → +2,
    # a loss costs 20 × 0.9091 = 18.18 → −18, exactly as 400 points apart.
    for strong in (1600, 2000):
        assert elo.rate(Standing(strong, 30), Standing(1200, 30), WIN).delta == 2
        assert elo.rate(Standing(strong, 30), Standing(1200, 30), LOSS).delta == -18
        assert elo.rate(Standing(1200, 30), Standing(strong, 30), WIN).delta == 18


def test_k_is_10_once_the_rating_has_reached_2400_and_stays_10_after_a_drop():
    assert elo.k_factor(30, reached_top=False) == 20
    assert elo.k_factor(30, reached_top=True) == 10
    assert elo.k_factor(10, reached_top=True) == 40  # the first 30 games come first
    reach = elo.rate(Standing(2390, 60), Standing(2390, 60), WIN)
    assert (reach.k, reach.after, reach.reached_top) == (20, 2400, True)
    after_top = elo.rate(Standing(reach.after, 61, reach.reached_top), Standing(2400, 60), LOSS)
    assert (after_top.k, after_top.after) == (10, 2395)
    # Below 2400 again, K stays 10 because the flag stays.
    assert elo.rate(Standing(after_top.after, 62, after_top.reached_top), Standing(2395, 60), WIN).k == 10


def test_changes_round_half_away_from_zero_so_both_sides_stay_opposite():
    # K 40, D = 0 … any pair with the same K: deltas are exact opposites.
    for mine, theirs in ((1210, 1200), (1500, 1281), (1999, 1600)):
        a, b = elo.rate_game(Standing(mine, 40), Standing(theirs, 40), WIN)
        assert a.delta == -b.delta


def test_provisional_marker_until_ten_rated_games():
    assert elo.display(1200, 0) == "1200?"
    assert elo.display(1260, 9) == "1260?"
    assert elo.display(1260, 10) == "1260"
    assert elo.is_provisional(9) and not elo.is_provisional(10)


def test_signed_changes():
    assert (elo.signed(12), elo.signed(-7), elo.signed(0)) == ("+12", "\u22127", "\u00b10")


def test_a_score_other_than_win_draw_loss_is_refused():
    with pytest.raises(ValueError):
        elo.rate(Standing(), Standing(), 0.7)
    with pytest.raises(ValueError):
        elo.rate_game(Standing(), Standing(), 2)


# The peak after an annulment (elo.peak_of): the history as revert_game leaves it.

def test_the_peak_of_a_history_without_refunds_is_its_highest_rating():
    assert elo.peak_of([(1220, 20, False), (1239, 19, False), (1216, -23, False)], 1216) == 1239


def test_a_refunded_game_s_own_rating_is_not_a_peak_and_later_ratings_move_by_its_delta():
    # 1200 → 1220 (refunded) → 1239 → 1216: without the first game the path is 1200, 1219, 1196.
    assert elo.peak_of([(1220, 20, True), (1239, 19, False), (1216, -23, False)], 1196) == 1219
    # Refunding the middle game only: 1220, then 1216 − 19 = 1197.
    assert elo.peak_of([(1220, 20, False), (1239, 19, True), (1216, -23, False)], 1197) == 1220


def test_a_refunded_loss_raises_the_later_ratings_and_a_lone_refunded_game_leaves_the_start():
    assert elo.peak_of([(1180, -20, True), (1201, 21, False)], 1221) == 1221
    assert elo.peak_of([(1220, 20, True)], 1200) == elo.START_RATING
    assert elo.peak_of([], 1150) == elo.START_RATING  # the start counts, as a new rating's peak
