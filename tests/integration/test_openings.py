"""The RIF and Swap2 opening procedures through the game service: every step, the swaps, both
Swap2 branches, refused steps, clocks and timeouts during a decision, and one device (the computer
takes its steps in the browser now: static/js/computer)."""

import html as html_lib
import re
import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.guests import create_guest
from caro.games import services, snapshot, tasks
from caro.games.errors import GameError
from caro.games.models import Game
from caro.rooms import services as rooms
from tests.integration.helpers import legacy_room, play

pytestmark = pytest.mark.django_db(transaction=True)


def _game(preset, move_time_ms=60_000, bank_ms=0):
    host, guest = create_guest(), create_guest()
    room = rooms.create_room(host, preset, move_time_ms=move_time_ms, bank_ms=bank_ms)
    services.take_seat(room.current_game_id, guest)
    return Game.objects.get(pk=room.current_game_id), host, guest


def _step(game, user, **action):
    return services.opening_step(game.pk, user, action)


def _refused(code, func, *args, **kwargs):
    with pytest.raises(GameError) as info:
        func(*args, **kwargs)
    assert info.value.code == code
    return info.value


def _frozen(game):
    """What must not change when a step is refused."""
    game.refresh_from_db()
    return (game.ply, game.host_side, game.to_move, game.event_version, game.opening,
            list(game.moves.values_list("ply", "side", "square")))


def test_rif_through_the_swap_and_the_fifth_move_offer():
    game, host, guest = _game("renju-rif")
    assert game.opening == {"kind": "rif", "first": "host", "log": []}
    view = snapshot.public_state(game)["opening"]
    assert view["step"] == "place_1" and view["actor"] == "X" and view["area"] == ["H8"]
    _refused("not_in_area", play, game, host, "G7")  # stone 1 on the centre point only
    play(game, host, "H8")
    before = _frozen(game)
    _refused("not_in_area", play, game, host, "J10")  # stone 2 inside the central 3×3
    _refused("not_your_turn", play, game, guest, "H7")  # the first seat places stones 1-3
    assert _frozen(game) == before
    play(game, host, "H7")
    play(game, host, "H6")  # every stone on column H: the position is its own mirror image
    game.refresh_from_db()
    assert [m.side for m in game.moves.order_by("ply")] == ["X", "O", "X"]
    assert game.to_move == "O" and snapshot.public_state(game)["opening"]["allowed"] == ["keep", "swap"]
    _refused("opening_step", play, game, guest, "J8")  # a decision now, not a stone
    _refused("not_your_turn", _step, game, host, kind="swap")
    _step(game, guest, kind="swap")
    game.refresh_from_db()
    assert game.host_side == "O" and game.x_player == guest and game.o_player == host
    assert snapshot.public_state(game)["players"]["X"]["name"] == guest.public_name
    assert game.to_move == "O"  # White (now the host) plays stone 4
    play(game, host, "H10")
    game.refresh_from_db()
    assert game.to_move == "X"
    before = _frozen(game)
    _refused("equivalent_fifth", _step, game, guest, kind="offer", squares=["G9", "I9"])  # mirror images
    _refused("offer_count", _step, game, guest, kind="offer", squares=["G9", "J6", "K8"])  # a third point
    _refused("offer_count", _step, game, guest, kind="offer", squares=["G9"])
    _refused("occupied", _step, game, guest, kind="offer", squares=["H8", "G9"])
    assert _frozen(game) == before
    _step(game, guest, kind="offer", squares=["G9", "K11"])
    game.refresh_from_db()
    view = snapshot.public_state(game)["opening"]
    assert view["step"] == "select_5" and view["offers"] == ["G9", "K11"] and view["actor"] == "O"
    _refused("not_offered", _step, game, host, kind="select", square="J6")
    play(game, host, "K11")  # a click on an offered point selects it
    game.refresh_from_db()
    assert game.opening["plies"] == 5 and game.to_move == "O"
    assert [m.square for m in game.moves.order_by("ply")] == ["H8", "H7", "H6", "H10", "K11"]
    view = snapshot.public_state(game)["opening"]
    assert view["done"] and view["swapped"] and view["actor"] is None
    assert [(e["kind"], e["by"], e["squares"]) for e in view["log"]] == [
        ("place", "O", ["H8"]), ("place", "O", ["H7"]), ("place", "O", ["H6"]), ("swap", "X", []),
        ("place", "O", ["H10"]), ("offer", "X", ["G9", "K11"]), ("select", "O", ["K11"])]
    # The colour each person held at the step: the host placed 1-3 as Black, the guest swapped as White.
    assert [e["as"] for e in view["log"]] == ["X", "X", "X", "O", "O", "X", "O"]
    _refused("opening_over", _step, game, guest, kind="swap")
    play(game, host, "G8")  # move 6: an ordinary move by White
    play(game, guest, "F7")
    game.refresh_from_db()
    assert game.ply == 7 and game.turn == "O"


def test_rif_keep_leaves_the_colours_as_they_began():
    game, host, guest = _game("renju-rif")
    for sq in ("H8", "I7", "J9"):
        play(game, host, sq)
    _step(game, guest, kind="keep")
    game.refresh_from_db()
    assert game.host_side == "X" and game.to_move == "O"
    play(game, guest, "G9")
    _step(game, host, kind="offer", squares=["H10", "I9"])
    _step(game, guest, kind="select", square="H10")
    game.refresh_from_db()
    assert not snapshot.public_state(game)["opening"]["swapped"] and game.turn == "O" and game.ply == 5


def test_swap2_second_seat_chooses_at_once():
    game, host, guest = _game("swap2")
    for sq in ("H8", "J10", "G10"):
        play(game, host, sq)
    game.refresh_from_db()
    assert game.to_move == "O" and snapshot.public_state(game)["opening"]["step"] == "second_choice"
    _refused("bad_color", _step, game, guest, kind="choose", color="red")
    _step(game, guest, kind="choose", color="X")
    game.refresh_from_db()
    assert game.host_side == "O" and game.x_player == guest and game.turn == "O"  # White (host) moves 4
    assert game.opening["plies"] == 3
    play(game, host, "H9")


def test_swap2_two_more_stones_hand_the_choice_back():
    game, host, guest = _game("swap2")
    for sq in ("H8", "J10", "G10"):
        play(game, host, sq)
    play(game, guest, "H10")  # the 4th stone (white): the second branch
    _refused("opening_step", _step, game, guest, kind="choose", color="X")  # the 5th stone first
    play(game, guest, "K11")
    game.refresh_from_db()
    assert game.to_move == "X" and snapshot.public_state(game)["opening"]["step"] == "first_choice"
    assert snapshot.public_state(game)["opening"]["actor"] == "X"
    _refused("not_your_turn", _step, game, guest, kind="choose", color="O")
    _refused("opening_step", play, game, host, "A1")
    _step(game, host, kind="choose", color="O")
    game.refresh_from_db()
    assert game.host_side == "O" and game.turn == "O" and game.seat_playing("O") == "host"
    assert [m.side for m in game.moves.order_by("ply")] == ["X", "O", "X", "O", "X"]
    play(game, host, "L12")
    game.refresh_from_db()
    assert game.ply == 6


def test_the_clock_runs_through_opening_decisions_with_banks_following_the_people():
    game, host, guest = _game("renju-rif", move_time_ms=0, bank_ms=180_000)
    for sq in ("H8", "H7", "J9"):
        play(game, host, sq)
    game.refresh_from_db()
    assert game.deadline is not None and game.seat_playing(game.turn) == "guest"
    _step(game, guest, kind="swap")
    game.refresh_from_db()
    banks = snapshot.public_state(game)["banks"]
    assert set(banks) == {"X", "O"} and banks["O"] <= 180_000  # the host's bank is White's now
    assert game.seat_playing(game.turn) == "host" and game.deadline is not None


def test_a_timeout_before_both_seats_acted_aborts():
    game, host, _guest = _game("swap2")
    for sq in ("H8", "J10", "G10"):
        play(game, host, sq)  # three plies, but only the first seat has acted
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(milliseconds=10))
    assert tasks.enforce_move_deadline(game.pk, 3) is True
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.termination == "abort" and not game.winner


def test_a_timeout_during_a_decision_after_both_acted_loses():
    game, host, guest = _game("renju-rif")
    for sq in ("H8", "H7", "J9"):
        play(game, host, sq)
    _step(game, guest, kind="swap")
    play(game, host, "I8")  # Black (guest) must now offer two 5th moves
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(milliseconds=10))
    _refused("timeout", _step, game, guest, kind="offer", squares=["G9", "K11"])
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.termination == "timeout"
    assert game.winner == "O" and game.seat_playing("O") == "host"


def test_resigning_before_the_second_seat_acted_aborts():
    game, host, guest = _game("renju-rif")
    play(game, host, "H8")
    play(game, host, "H7")
    services.resign(game.pk, guest)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_a_rematch_keeps_the_opening_procedure():
    game, host, guest = _game("swap2")
    play(game, host, "H8")
    services.resign(game.pk, host)
    services.create_rematch(game.pk, host)
    nxt = services.create_rematch(game.pk, guest)
    assert nxt.opening["kind"] == "swap2" and nxt.opening["first"] == nxt.seat_playing("X")


def test_a_repeated_opening_stone_is_answered_not_placed_again():
    game, host, _guest = _game("swap2")
    play(game, host, "H8")
    client_id = uuid.uuid4()
    services.play_move(game.pk, host, "J10", 2, client_id)  # a white stone placed by Black's seat
    again = services.play_move(game.pk, host, "J10", 2, client_id)
    assert again.duplicate and again.move.side == "O"
    game.refresh_from_db()
    assert game.ply == 2


def test_two_players_on_one_device_play_every_step():
    user = create_guest()
    room = legacy_room(user, "local", "renju-rif")
    game = Game.objects.get(pk=room.current_game_id)
    for sq in ("H8", "H7", "H9"):
        play(game, user, sq)
    _step(game, user, kind="swap")  # the device acts for whoever must act
    play(game, user, "G7")
    _step(game, user, kind="offer", squares=["G9", "J6"])
    _step(game, user, kind="select", square="J6")
    game.refresh_from_db()
    assert game.opening["plies"] == 5 and game.is_local and snapshot.public_state(game)["opening"]["swapped"]
    play(game, user, "K9")
    game.refresh_from_db()
    assert game.ply == 6


def test_the_record_page_and_the_psq_export_keep_the_opening():
    game, host, guest = _game("renju-rif")
    for sq in ("H8", "H7", "J9"):
        play(game, host, sq)
    _step(game, guest, kind="swap")
    play(game, host, "I8")
    _step(game, guest, kind="offer", squares=["G9", "K11"])
    _step(game, host, kind="select", square="G9")
    play(game, host, "G8")
    services.resign(game.pk, guest)
    client = Client()
    page = client.get(f"/en/game/{game.pk}/").content.decode()
    assert 'data-testid="opening-steps"' in page
    assert "swapped sides" in page and "offered G9, K11 for the 5th move" in page
    assert "picked G9 as the 5th move" in page and "RIF opening" in page
    # Each step names the side its person held then, in the site's X and O (the host holds O after
    # the swap, but placed stones 1-3 as X), with the person's name.
    steps = [re.sub(r"<[^>]+>", "", li) for li in
             re.findall(r"<li>(.*?)</li>", page.split('data-testid="opening-steps"')[1].split("</ol>")[0])]
    host_name, guest_name = html_lib.escape(host.public_name), html_lib.escape(guest.public_name)
    assert steps == [
        f"X ({host_name}) placed stone 1 on H8.", f"X ({host_name}) placed stone 2 on H7.",
        f"X ({host_name}) placed stone 3 on J9.", f"O ({guest_name}) swapped sides.",
        f"O ({host_name}) placed stone 4 on I8.", f"X ({guest_name}) offered G9, K11 for the 5th move.",
        f"O ({host_name}) picked G9 as the 5th move."]
    vi_page = client.get(f"/van/{game.pk}/").content.decode()
    vi_steps = vi_page.split('data-testid="opening-steps"')[1].split("</ol>")[0]
    assert f"O ({guest_name}) đổi quân với đối thủ." in vi_steps
    assert not [w for w in ("Đen", "Trắng", "đen", "trắng") if w in vi_steps]
    text = client.get(f"/en/game/{game.pk}/download/psq").content.decode()
    lines = text.splitlines()
    assert lines[0] == "Piskvorky 15x15, 11:11, 0"
    # the opening stones first, Black first and alternating, with no thinking time (as Gomocup
    # lists a given opening); then the ordinary moves with theirs
    assert lines[1:6] == ["8,8,0", "8,7,0", "10,9,0", "9,8,0", "7,9,0"]
    assert lines[6].startswith("7,8,") and lines[7] == "-1"


def test_the_opponents_opening_stone_id_is_not_answered_as_a_repeat():
    """In an opening a seat places stones of both colours: the seat that placed a stone comes from
    the opening's log, so the other seat reusing its id is refused `stale`, not acknowledged."""
    game, host, guest = _game("swap2")
    client_id = uuid.uuid4()
    services.play_move(game.pk, host, "H8", 1, client_id)
    before = _frozen(game)
    _refused("stale", services.play_move, game.pk, guest, "J10", 1, client_id)
    assert _frozen(game) == before
    assert services.play_move(game.pk, host, "H8", 1, client_id).duplicate


def test_a_repeat_on_one_device_is_answered_whichever_side_is_to_move():
    user = create_guest()
    room = legacy_room(user, "local")
    game = Game.objects.get(pk=room.current_game_id)
    client_id = uuid.uuid4()
    services.play_move(game.pk, user, "H8", 1, client_id)  # X's move; O is to move now
    again = services.play_move(game.pk, user, "H8", 1, client_id)
    assert again.duplicate and again.move.side == "X"
    game.refresh_from_db()
    assert game.ply == 1
