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


def _choices_by_predicates(g: Game, seat: str | None) -> list[str]:
    """The actions of `seat`, from the public predicates one by one, in the protocol's order
    (what `state.choices_for` must always answer; it reads what they share once)."""
    if seat is None or not state.is_active(g):
        return []
    wanted = [("resign", state.resignable(g)), ("leave", state.between_people(g)),
              ("offer_draw", state.may_offer_draw(g, seat) and not state.may_answer_draw(g, seat)),
              ("accept_draw", state.may_answer_draw(g, seat)), ("decline_draw", state.may_answer_draw(g, seat)),
              ("request_undo", state.may_request_undo(g, seat)),
              ("accept_undo", state.may_answer_undo(g, seat)), ("decline_undo", state.may_answer_undo(g, seat)),
              ("wait", state.may_wait_longer(g, seat)), ("claim_win", state.may_decide_absence(g, seat)),
              ("claim_draw", state.may_decide_absence(g, seat))]
    return [name for name, allowed in wanted if allowed]


def test_each_sides_choices_are_what_the_predicates_allow_on_random_game_states():
    """`choices_for` and `choices_of_both` (every move event's choices, phase 7 of issue 27)
    against the predicates themselves, on 20,000 random states of every field they read."""
    import random

    rng = random.Random(27)
    seats = ["", Seat.HOST, Seat.GUEST]
    for _ in range(20_000):
        host = rng.choice([None, 1, 2])
        g = game(status=rng.choice([Game.Status.ACTIVE] * 4 + [Game.Status.FINISHED, Game.Status.WAITING]),
                 ply=rng.randrange(0, 45), host_side=rng.choice("XO"), to_move=rng.choice("XO"),
                 host_id=host, guest_id=rng.choice([None, 1, 2, host]),
                 bot_seat=rng.choice(["", "", "", Seat.HOST, Seat.GUEST]), bot_level="easy",
                 takeback=rng.choice(["none", "agreement"]), draw_offer=rng.choice(seats),
                 undo_request=rng.choice(seats), absent_seat=rng.choice(seats),
                 absence_expired=rng.random() < 0.4, absence_waited=rng.random() < 0.4,
                 host_draw_ply=rng.choice([None, 0, 3, 20, 30]), guest_draw_ply=rng.choice([None, 1, 10, 25]),
                 host_undo_refused_ply=rng.choice([None, 2, 15, 40]),
                 guest_undo_refused_ply=rng.choice([None, 5, 33]),
                 opening=rng.choice([None, None, {"kind": "swap2", "plies": 3,
                                                  "log": [{"seat": "host"}, {"seat": "guest"}]}]))
        both = state.choices_of_both(g)
        for seat in (Seat.HOST, Seat.GUEST):
            expected = _choices_by_predicates(g, seat)
            assert state.choices_for(g, seat) == expected
            assert both[seat] == expected
        assert state.choices_for(g, None) == []
