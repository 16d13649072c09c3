"""The cost of one move in database queries (issue 17: a lean move path). A regression that adds
a query per move, or a read that grows with the game, fails here."""

import pytest

from caro.games.services import play as play_service
from tests.integration.helpers import play, play_sequence, started_game

pytestmark = pytest.mark.django_db(transaction=True)

#: One move: BEGIN, lock the game row (SELECT ... FOR UPDATE), INSERT the move, UPDATE the game,
#: COMMIT. Before issue 17 it was 8 (every stored move read, and a savepoint around the INSERT).
MOVE_QUERIES = 5


def test_a_move_costs_the_same_few_queries_early_and_late_in_a_game(django_assert_num_queries):
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])
    with django_assert_num_queries(MOVE_QUERIES):
        play(game, x, "I8", ply=3)
    squares = ["I9", "J8", "J9", "K8", "K9", "A1", "A2", "C1", "C2", "E1", "E2", "G1", "G2", "M1", "M2", "O1"]
    for offset, square in enumerate(squares):
        play(game, o if offset % 2 == 0 else x, square, ply=4 + offset)
    with django_assert_num_queries(MOVE_QUERIES):  # 20 moves later: still the same queries
        play(game, o, "O2", ply=4 + len(squares))


def test_a_process_that_has_not_seen_the_game_reads_its_moves_once(django_assert_num_queries):
    """E.g. the first move after a restart, or after another process changed the game: one more
    query (all stored moves at once), then the board is kept again."""
    game, x, o = started_game()
    play_sequence(game, x, o, ["H8", "H9"])
    play_service._boards.clear()
    with django_assert_num_queries(MOVE_QUERIES + 1):
        play(game, x, "I8", ply=3)
    with django_assert_num_queries(MOVE_QUERIES):
        play(game, o, "I9", ply=4)
