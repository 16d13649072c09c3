"""The cost of one move in database queries (issue 17: a lean move path). A regression that adds
a query per move fails here."""

import pytest

from tests.integration.helpers import play, play_sequence, started_game

pytestmark = pytest.mark.django_db(transaction=True)

#: One move: BEGIN, lock the game row (SELECT ... FOR UPDATE), read the stored moves (one query,
#: whatever their number), SAVEPOINT, INSERT the move, RELEASE, UPDATE the game, COMMIT. Nothing is
#: sent to the broker for the clock (the deadline timer reads it from the row).
MOVE_QUERIES = 8


def test_a_move_costs_the_same_queries_early_and_late_in_a_game(django_assert_num_queries):
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])
    with django_assert_num_queries(MOVE_QUERIES):
        play(game, x, "I8", ply=3)
    squares = ["I9", "J8", "J9", "K8", "K9", "A1", "A2", "C1", "C2", "E1", "E2", "G1", "G2", "M1", "M2", "O1"]
    for offset, square in enumerate(squares):
        play(game, o if offset % 2 == 0 else x, square, ply=4 + offset)
    with django_assert_num_queries(MOVE_QUERIES):  # 16 moves later: still the same queries
        play(game, o, "O2", ply=4 + len(squares))
