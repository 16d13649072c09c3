"""The pure lifecycle predicates and clock rules, on unsaved games (no database)."""

from datetime import datetime, timedelta, timezone

import pytest

from caro.games import clock, state
from caro.games.models import Game, Seat

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def game(**fields) -> Game:
    defaults = {"kind": "caro", "status": Game.Status.ACTIVE, "ply": 0, "host_side": "X", "to_move": "X"}
    return Game(**(defaults | fields))


@pytest.mark.parametrize("ply, abortable", [(0, True), (1, True), (2, False), (40, False)])
def test_a_game_is_abortable_until_both_players_have_moved(ply, abortable):
    assert state.abortable(game(ply=ply)) is abortable
    assert state.abortable(game(ply=ply, status=Game.Status.FINISHED)) is False


def test_a_timeout_before_both_have_moved_aborts_and_later_the_side_to_move_loses():
    assert state.ending_on_time(game(ply=1, to_move="O")) == ("", "abort")
    assert state.ending_on_time(game(ply=7, to_move="O")) == ("X", "timeout")
    assert state.ending_on_time(game(ply=8, to_move="X")) == ("O", "timeout")


def test_resigning_gives_the_win_to_the_other_side_of_the_resigning_seat():
    g = game(ply=5, host_side="O")
    assert state.ending_on_resign(g, Seat.HOST) == ("X", "resign")
    assert state.ending_on_resign(g, Seat.GUEST) == ("O", "resign")
    assert state.ending_on_resign(game(ply=1), Seat.HOST) == ("", "abort")


def test_the_loser_moves_first_next_and_after_a_draw_or_abort_the_first_mover_switches():
    won_by_x = game(status=Game.Status.FINISHED, winner="X", host_side="X")
    assert state.loser_of(won_by_x) == Seat.GUEST
    assert state.first_seat_of_next(won_by_x) == Seat.GUEST
    won_by_o = game(status=Game.Status.FINISHED, winner="O", host_side="X")
    assert state.first_seat_of_next(won_by_o) == Seat.HOST
    draw = game(status=Game.Status.FINISHED, winner="", host_side="O")
    assert state.loser_of(draw) is None and state.first_seat_of_next(draw) == Seat.HOST
    aborted = game(status=Game.Status.ABORTED, host_side="X")
    assert state.first_seat_of_next(aborted) == Seat.GUEST
    assert state.loser_of(game()) is None  # in progress


def test_a_deadline_passes_at_its_instant_and_only_in_an_active_game():
    g = game(deadline=NOW)
    assert state.deadline_passed(g, NOW) and not state.deadline_passed(g, NOW - timedelta(milliseconds=1))
    assert not state.deadline_passed(game(deadline=None), NOW)
    assert not state.deadline_passed(game(deadline=NOW, status=Game.Status.FINISHED), NOW)


def test_the_open_seat_is_the_hosts_first_and_the_computers_seat_is_never_open():
    assert state.open_seat(game(status=Game.Status.WAITING)) == Seat.HOST
    assert state.open_seat(game(host_id=1)) == Seat.GUEST
    assert state.open_seat(game(host_id=1, bot_seat="guest", bot_level="easy")) is None
    assert state.open_seat(game(host_id=1, guest_id=2)) is None


def test_seats_and_sides_are_kept_apart():
    g = game(host_side="O", host_id=1, guest_id=2)
    assert (g.side_of(Seat.HOST), g.side_of(Seat.GUEST)) == ("O", "X")
    assert (g.seat_playing("X"), g.seat_playing("O")) == (Seat.GUEST, Seat.HOST)


def test_clock_rules():
    assert clock.deadline_after(NOW, 0) is None
    assert clock.deadline_after(NOW, 1500) == NOW + timedelta(milliseconds=1500)
    assert clock.remaining_ms(NOW + timedelta(seconds=2), NOW) == 2000
    assert clock.remaining_ms(NOW - timedelta(seconds=2), NOW) == 0
    assert clock.remaining_ms(None, NOW) is None
    assert clock.elapsed_ms(NOW, NOW - timedelta(seconds=1)) == 0
    assert clock.unix_ms(datetime(1970, 1, 1, 0, 0, 1, tzinfo=timezone.utc)) == 1000


def _opening(seats, plies=None):
    log = [{"kind": "place", "square": "H8", "seat": seat, "step": "place_1", "plies": [1]} for seat in seats]
    data = {"kind": "swap2", "first": "host", "log": log}
    return data if plies is None else data | {"plies": plies}


def test_with_an_opening_procedure_both_have_acted_when_each_seat_took_a_step():
    # three stones by the first seat alone: still an abort on time, resignation or absence
    assert state.abortable(game(ply=3, opening=_opening(["host"] * 3)))
    assert state.ending_on_time(game(ply=3, to_move="O", opening=_opening(["host"] * 3))) == ("", "abort")
    assert not state.abortable(game(ply=3, opening=_opening(["host"] * 3 + ["guest"])))
    assert state.opening_running(game(opening=_opening(["host"])))
    assert not state.opening_running(game(opening=_opening(["host", "guest"], plies=3)))
    assert not state.opening_running(game())


def test_take_backs_count_only_ordinary_moves_after_the_opening():
    # Swap2 ended after 3 stones: O plays ply 4 first, X ply 5
    done = {"opening": _opening(["host"] * 3 + ["guest"], plies=3)}
    assert not state.has_move_after_opening(game(ply=3, **done), "O")
    assert state.has_move_after_opening(game(ply=4, **done), "O")
    assert not state.has_move_after_opening(game(ply=4, **done), "X")
    assert state.has_move_after_opening(game(ply=5, **done), "X")
