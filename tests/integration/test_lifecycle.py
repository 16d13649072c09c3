"""The fair-game lifecycle against the real PostgreSQL (and Redis for events): room options, who
moves first, clocks, presence and the absence grace, leaving, draws, take-backs by agreement."""

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from accounts.guests import create_guest
from caro.games import services, snapshot, state
from caro.games.errors import GameError
from caro.games.models import Connection, Game
from caro.games.services import presence
from caro.rooms import services as rooms
from tests.integration.helpers import legacy_room, play, play_sequence

pytestmark = pytest.mark.django_db(transaction=True)


def friend_game(**options):
    """A friend room with both seats taken: (game, host, guest)."""
    host, guest = create_guest(), create_guest()
    room = rooms.create_room(host, **options)
    rooms.join(room, guest)
    return Game.objects.get(pk=room.current_game_id), host, guest


def by_side(game):
    """`{"X": user, "O": user}` of a game."""
    game.refresh_from_db()
    return {"X": game.x_player, "O": game.o_player}


def alternate(game, squares):
    players = by_side(game)
    result = None
    for i, square in enumerate(squares):
        result = play(game, players["XO"[i % 2]], square)
    return result


def expect(code, func, *args):
    with pytest.raises(GameError) as err:
        func(*args)
    assert err.value.code == code


# --------------------------------------------------------------------------- room options


def test_the_host_chooses_the_clock_who_moves_first_and_taking_back_for_every_game_of_the_room():
    game, host, guest = friend_game(move_time_ms=0, bank_ms=300_000, increment_ms=2_000, first="guest",
                                    takeback=True)
    assert game.status == Game.Status.ACTIVE
    assert (game.x_player, game.o_player) == (guest, host)  # the guest moves first
    assert (game.bank_ms, game.increment_ms, game.takeback) == (300_000, 2_000, "agreement")
    assert game.host_bank_ms == game.guest_bank_ms == 300_000
    from caro.games.display import game_summary
    assert game_summary(game).endswith("5 min + 2 s") or "5" in game_summary(game)
    alternate(game, ["H8", "H9", "I8"])
    services.resign(game.pk, host)
    rematch = rooms.play_again(_room_of(game).code, host) or rooms.play_again(_room_of(game).code, guest)
    rematch.refresh_from_db()
    assert (rematch.bank_ms, rematch.increment_ms, rematch.takeback) == (300_000, 2_000, "agreement")


def _room_of(game):
    from caro.rooms.models import Room
    return Room.objects.get(current_game=game) if Room.objects.filter(current_game=game).exists() else \
        Room.objects.filter(created_by=game.host).latest("pk")


def test_rock_paper_scissors_is_thrown_when_the_guest_sits_and_the_winner_moves_first():
    for _ in range(10):
        game, host, guest = friend_game(first="rps")
        throws = game.throws
        assert throws and all(h == g for h, g in throws[:-1]) and throws[-1][0] != throws[-1][1]
        beats = {"rock": "scissors", "scissors": "paper", "paper": "rock"}
        host_won = beats[throws[-1][0]] == throws[-1][1]
        assert game.x_player == (host if host_won else guest)
        assert game.host_mark == game.host_side  # the first mover holds X for the whole room
        shown = snapshot.public_state(game)["throws"]
        assert len(shown) == len(throws) and set(shown[-1]) == {"X", "O"}


def test_reversi_rooms_default_to_30_s_per_move_with_random_colours_that_swap_at_every_rematch():
    from caro.rooms.forms import FriendRoomForm
    form = FriendRoomForm({"preset": "reversi"})
    assert form.is_valid() and form.cleaned_data["move_time_ms"] == 30_000
    game, host, guest = friend_game(preset="reversi", move_time_ms=30_000)
    assert game.first_mover == "random" and game.move_time_ms == 30_000
    first_host_side = game.host_side
    services.resign(game.pk, host)  # ply 0: an abort
    game.refresh_from_db()
    code = _room_of(game).code
    rooms.play_again(code, host)
    second = rooms.play_again(code, guest)
    assert second.host_side != first_host_side
    services.resign(second.pk, second.x_player)
    rooms.play_again(code, host)
    third = rooms.play_again(code, guest)
    assert third.host_side == first_host_side


def test_in_caro_the_loser_moves_first_next_and_each_person_keeps_their_mark():
    game, host, guest = friend_game()
    assert (game.x_player, game.mark_of("X")) == (host, "X")
    # X (host) wins: the guest loses and moves first next, still drawing O.
    alternate(game, ["H8", "H9", "I8", "I9", "J8", "J9", "K8", "K9", "L8"])
    code = _room_of(game).code
    rooms.play_again(code, host)
    second = rooms.play_again(code, guest)
    assert second.x_player == guest and second.host_mark == "X"
    assert second.mark_of("X") == "O" and second.mark_of("O") == "X"
    assert snapshot.public_state(second)["marks"] == {"X": "O", "O": "X"}
    # A draw by agreement: the first mover switches back.
    alternate(second, ["H8", "H9"])
    services.offer_draw(second.pk, guest)
    services.answer_draw(second.pk, host, True)
    rooms.play_again(code, host)
    third = rooms.play_again(code, guest)
    assert third.x_player == host and third.mark_of("X") == "X"


# --------------------------------------------------------------------------- clocks


def test_a_total_time_bank_runs_down_only_on_ones_own_turn_and_gains_the_increment():
    game, host, guest = friend_game(move_time_ms=0, bank_ms=180_000, increment_ms=5_000)
    # Pretend X has thought for 20 s.
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(seconds=20))
    play(game, game.x_player, "H8")
    game.refresh_from_db()
    x_seat = game.seat_playing("X")
    left = game.seat_field("bank_ms", x_seat)
    assert 180_000 - 20_000 + 5_000 - 2_000 <= left <= 180_000 - 20_000 + 5_000
    assert game.seat_field("bank_ms", game.seat_playing("O")) == 180_000
    banks = snapshot.public_state(game)["banks"]
    assert banks["X"] == left and 178_000 <= banks["O"] <= 180_000
    assert abs((game.deadline - game.turn_started_at).total_seconds() - 180) < 0.01


def test_an_empty_bank_loses():
    game, host, guest = friend_game(move_time_ms=0, bank_ms=180_000)
    alternate(game, ["H8", "H9", "I8"])
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(milliseconds=5))
    assert services.enforce_deadline(game.pk) is True
    game.refresh_from_db()
    assert (game.status, game.winner, game.termination) == ("finished", "X", "timeout")


def test_a_timeout_and_a_move_at_the_same_instant_give_one_outcome():
    for _ in range(5):
        game, host, guest = friend_game()
        alternate(game, ["H8", "H9", "I8"])
        Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(milliseconds=30))
        o = by_side(game)["O"]
        barrier, outcomes = threading.Barrier(2), []

        def move():
            barrier.wait()
            try:
                services.play_move(game.pk, o, "I9", 4, uuid.uuid4())
                outcomes.append("moved")
            except GameError as exc:
                outcomes.append(exc.code)
            finally:
                connections.close_all()

        def enforce():
            barrier.wait()
            import time
            time.sleep(0.03)
            outcomes.append("ended" if services.enforce_deadline(game.pk, 3) else "nothing")
            connections.close_all()

        threads = [threading.Thread(target=move), threading.Thread(target=enforce)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        game.refresh_from_db()
        if game.ply == 4:
            assert game.status == "active" and "nothing" in outcomes
        else:
            assert (game.status, game.termination, game.winner) == ("finished", "timeout", "X")
            assert game.ply == 3 and "moved" not in outcomes


# --------------------------------------------------------------------------- leaving and resigning


def test_leaving_the_table_mid_game_is_a_loss_and_says_who_left():
    game, host, guest = friend_game()
    alternate(game, ["H8", "H9", "I8"])
    services.leave(game.pk, by_side(game)["O"])
    game.refresh_from_db()
    assert (game.status, game.winner, game.termination) == ("finished", "X", "left")
    assert snapshot.public_state(game)["left"] == "O"


def test_no_rematch_after_a_player_left_the_table():
    game, host, guest = friend_game()
    alternate(game, ["H8", "H9", "I8"])
    services.leave(game.pk, by_side(game)["O"])
    for side in "XO":  # the winner who stayed, and the one who left
        expect("opponent_left", services.create_rematch, game.pk, by_side(game)[side])
    game.refresh_from_db()
    assert game.rematch_offer == "" and not game.rematches.exists()
    early, host, guest = friend_game()  # left before both had moved: aborted, still no rematch
    play(early, by_side(early)["X"], "H8")
    services.leave(early.pk, by_side(early)["X"])
    expect("opponent_left", services.create_rematch, early.pk, by_side(early)["O"])


def test_leaving_or_an_absence_before_both_have_moved_aborts():
    game, host, guest = friend_game()
    play(game, by_side(game)["X"], "H8")
    services.leave(game.pk, by_side(game)["X"])
    game.refresh_from_db()
    assert (game.status, game.winner, game.termination) == ("aborted", "", "abort")
    game, host, guest = friend_game()
    play(game, by_side(game)["X"], "H8")
    presence.connect(game.pk, "c-x", by_side(game)["O"])
    presence.disconnect("c-x")
    Game.objects.filter(pk=game.pk).update(absence_deadline=timezone.now() - timedelta(seconds=1))
    assert presence.enforce_absence(game.pk) is True
    game.refresh_from_db()
    assert (game.status, game.termination) == ("aborted", "abort")


def _home_after_leaving(user, code):
    from django.contrib.messages import get_messages
    from django.test import Client

    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    response = client.get("/", {"left": code})
    assert response.status_code == 302 and response["Location"] == "/"
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_home_tells_a_player_who_left_the_table_what_it_did_and_nobody_else():
    from caro.rooms.models import Room

    game, host, guest = friend_game()
    code = Room.objects.get(current_game=game).code
    alternate(game, ["H8", "H9", "I8"])
    services.leave(game.pk, by_side(game)["O"])
    assert _home_after_leaving(by_side(game)["O"], code.lower()) == ["You left the table and lost the game."]
    assert _home_after_leaving(by_side(game)["X"], code) == []  # the one who stayed
    assert _home_after_leaving(by_side(game)["O"], "NOPE") == []
    assert _home_after_leaving(by_side(game)["O"], "x" * 5000) == []
    assert _home_after_leaving(by_side(game)["O"], "AB\x00C") == []  # a NUL byte: not a room (no 500)
    early, host, guest = friend_game()
    code = Room.objects.get(current_game=early).code
    play(early, by_side(early)["X"], "H8")
    services.leave(early.pk, by_side(early)["X"])
    assert _home_after_leaving(by_side(early)["X"], code) == [
        "You left the table. The game ended before both players had moved, so nobody loses."]


def test_leaving_is_for_games_between_people():
    host = create_guest()
    room = legacy_room(host, "computer")  # one stored from before issue 26
    expect("leave_refused", services.leave, room.current_game_id, host)


# --------------------------------------------------------------------------- draws


def test_a_draw_offer_is_accepted_or_declined_and_a_player_may_offer_again_only_20_plies_later():
    game, host, guest = friend_game()
    players = by_side(game)
    alternate(game, ["H8", "H9"])
    services.offer_draw(game.pk, players["X"])
    game.refresh_from_db()
    assert game.draw_offer == game.seat_playing("X")
    assert state.choices_for(game, game.seat_playing("O"))[:4] == ["resign", "leave", "accept_draw", "decline_draw"]
    expect("offer_pending", services.offer_draw, game.pk, players["X"])  # one pending offer
    services.answer_draw(game.pk, players["O"], False)
    expect("no_offer", services.answer_draw, game.pk, players["O"], True)
    expect("offer_refused", services.offer_draw, game.pk, players["X"])  # not 20 plies yet
    game.refresh_from_db()
    assert snapshot.public_state(game)["draw_again"] == {"X": 22, "O": None}  # the page says when
    squares = [f"{c}{r}" for r in (2, 4, 6, 12, 14) for c in "ACEGIKMO"]  # never five in a row
    alternate_from(game, squares[:20], start_ply=game.ply)
    game.refresh_from_db()
    assert game.ply == 22 and "offer_draw" in state.choices_for(game, game.seat_playing("X"))
    services.offer_draw(game.pk, players["X"])
    services.answer_draw(game.pk, players["O"], True)
    game.refresh_from_db()
    assert (game.status, game.winner, game.termination) == ("finished", "", "agreement")


def alternate_from(game, squares, start_ply):
    players = by_side(game)
    for i, square in enumerate(squares):
        side = "XO"[(start_ply + i) % 2]
        play(game, players[side], square)


def test_a_draw_offer_lapses_when_the_opponent_moves_instead():
    game, host, guest = friend_game()
    players = by_side(game)
    alternate(game, ["H8"])
    services.offer_draw(game.pk, players["X"])  # offered while O is to move
    result = play(game, players["O"], "H9")
    assert result.events[0]["draw_offer"] is None
    game.refresh_from_db()
    assert game.draw_offer == ""
    expect("no_offer", services.answer_draw, game.pk, players["O"], True)


def test_a_draw_accept_racing_a_move_gives_one_outcome():
    for _ in range(5):
        game, host, guest = friend_game()
        players = by_side(game)
        alternate(game, ["H8", "H9"])
        services.offer_draw(game.pk, players["O"])  # X to move: X accepts, or moves instead
        barrier, outcomes = threading.Barrier(2), []

        def run(action):
            barrier.wait()
            try:
                action()
                outcomes.append("ok")
            except GameError as exc:
                outcomes.append(exc.code)
            finally:
                connections.close_all()

        threads = [
            threading.Thread(target=run, args=(lambda: services.answer_draw(game.pk, players["X"], True),)),
            threading.Thread(target=run, args=(lambda: services.play_move(game.pk, players["X"], "I8", 3, uuid.uuid4()),)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        game.refresh_from_db()
        assert sorted(outcomes) in (["game_over", "ok"], ["no_offer", "ok"])
        assert (game.status == "finished") == (game.ply == 2)


# --------------------------------------------------------------------------- take-backs by agreement


def test_taking_back_by_agreement_one_request_at_a_time_and_none_for_10_plies_after_a_refusal():
    game, host, guest = friend_game(takeback=True)
    players = by_side(game)
    alternate(game, ["H8", "H9", "I8"])
    services.request_undo(game.pk, players["X"])
    expect("takeback_refused", services.request_undo, game.pk, players["O"])  # one request at a time
    services.answer_undo(game.pk, players["O"], True)
    game.refresh_from_db()
    assert game.ply == 2 and game.turn == "X"  # X's I8 is gone; X moves again
    play(game, players["X"], "J8")
    services.request_undo(game.pk, players["O"])  # O's last move H9, and X's reply J8
    services.answer_undo(game.pk, players["X"], False)
    game.refresh_from_db()
    assert game.ply == 3
    expect("takeback_refused", services.request_undo, game.pk, players["O"])
    alternate_from(game, ["A2", "C2", "E2", "G2", "I2", "K2", "M2", "O2", "A4", "C4"], start_ply=3)
    services.request_undo(game.pk, players["O"])
    services.answer_undo(game.pk, players["X"], True)
    game.refresh_from_db()
    assert game.ply == 11 and game.turn == "O"  # O's ply 12 and X's reply are gone


def test_take_backs_need_the_rooms_option():
    game, host, guest = friend_game()
    players = by_side(game)
    alternate(game, ["H8", "H9"])
    expect("takeback_refused", services.request_undo, game.pk, players["X"])


# --------------------------------------------------------------------------- presence and absence


def test_the_last_socket_closing_starts_the_absence_and_coming_back_cancels_it():
    game, host, guest = friend_game()
    players = by_side(game)
    alternate(game, ["H8", "H9", "I8"])
    presence.connect(game.pk, "o-1", players["O"])
    presence.connect(game.pk, "o-2", players["O"])
    presence.connect(game.pk, "x-1", players["X"])
    presence.disconnect("o-1")
    game.refresh_from_db()
    assert game.absent_seat == ""  # another socket of O is still open
    presence.disconnect("o-2")
    game.refresh_from_db()
    o_seat = game.seat_playing("O")
    assert game.absent_seat == o_seat
    remaining = (game.absence_deadline - timezone.now()).total_seconds()
    assert state.ABSENCE_GRACE_S - 5 < remaining <= state.ABSENCE_GRACE_S
    shown = snapshot.public_state(game)
    assert shown["absence"]["side"] == "O" and shown["presence"] == {"X": True, "O": False}
    assert shown["absence"]["grace_ms"] == state.ABSENCE_GRACE_S * 1000  # the countdown never shows more
    presence.connect(game.pk, "o-3", players["O"])
    game.refresh_from_db()
    assert game.absent_seat == "" and game.absence_deadline is None


def _away_and_expired(game, side="O"):
    players = by_side(game)
    other = "O" if side == "X" else "X"
    presence.connect(game.pk, f"{other}-sock", players[other])
    presence.connect(game.pk, f"{side}-sock", players[side])
    presence.disconnect(f"{side}-sock")
    Game.objects.filter(pk=game.pk).update(absence_deadline=timezone.now() - timedelta(milliseconds=5))
    return players


def test_a_too_early_absence_choice_is_refused_with_its_real_reason():
    """Attacker run: claim_win while the opponent had just left (grace running, not back) was
    answered "your opponent is back, or you already used it". The refusal's detail and message
    say why: present, grace still running, or wait already used."""
    from django.utils import translation

    game, host, guest = friend_game()
    alternate(game, ["H8", "H9", "I8"])
    players = by_side(game)

    def refusal(choice):
        with pytest.raises(GameError) as err:
            services.decide_absence(game.pk, players["X"], choice)
        assert err.value.code == "not_now"
        with translation.override("en"):
            return err.value.detail, err.value.message

    presence.connect(game.pk, "x-sock", players["X"])
    presence.connect(game.pk, "o-sock", players["O"])
    detail, message = refusal("claim_win")
    assert detail == "present" and "at the table" in message
    presence.disconnect("o-sock")  # just left: the grace period runs
    detail, message = refusal("claim_win")
    assert detail == "grace" and "still has time to come back" in message and "is back" not in message
    with translation.override("vi"):
        assert "vẫn còn thời gian" in GameError("not_now", "grace").message
    Game.objects.filter(pk=game.pk).update(absence_deadline=timezone.now() - timedelta(milliseconds=5))
    presence.enforce_absence(game.pk)
    services.decide_absence(game.pk, players["X"], "wait")
    Game.objects.filter(pk=game.pk).update(absence_deadline=timezone.now() - timedelta(milliseconds=5))
    presence.enforce_absence(game.pk)
    detail, message = refusal("wait")
    assert detail == "waited" and "already gave your opponent more time" in message


def test_in_a_friend_room_the_opponent_chooses_wait_once_claim_the_win_or_a_draw():
    game, host, guest = friend_game()
    alternate(game, ["H8", "H9", "I8"])
    players = _away_and_expired(game)
    assert presence.enforce_absence(game.pk) is True
    assert presence.enforce_absence(game.pk) is False  # once
    game.refresh_from_db()
    assert game.status == "active" and game.absence_expired
    x_seat = game.seat_playing("X")
    assert state.choices_for(game, x_seat)[-3:] == ["wait", "claim_win", "claim_draw"]
    assert "claim_win" not in state.choices_for(game, game.seat_playing("O"))
    services.decide_absence(game.pk, players["X"], "wait")
    game.refresh_from_db()
    assert not game.absence_expired and game.absence_deadline > timezone.now()
    Game.objects.filter(pk=game.pk).update(absence_deadline=timezone.now() - timedelta(milliseconds=5))
    presence.enforce_absence(game.pk)
    expect("not_now", services.decide_absence, game.pk, players["X"], "wait")  # once per game
    services.decide_absence(game.pk, players["X"], "claim_win")
    game.refresh_from_db()
    assert (game.status, game.winner, game.termination) == ("finished", "X", "absence")
    assert snapshot.public_state(game)["absence"] is None


def test_calling_it_a_draw_when_the_opponent_does_not_come_back():
    game, host, guest = friend_game()
    alternate(game, ["H8", "H9", "I8"])
    players = _away_and_expired(game, "X")
    presence.enforce_absence(game.pk)
    services.decide_absence(game.pk, players["O"], "claim_draw")
    game.refresh_from_db()
    assert (game.status, game.winner, game.termination) == ("finished", "", "absence")


def test_under_the_forfeit_rule_the_absent_player_loses():
    host, guest = create_guest(), create_guest()
    game = services.create_game(host=host, guest=guest, absence_rule="forfeit")
    alternate(game, ["H8", "H9", "I8"])
    _away_and_expired(game)
    assert presence.enforce_absence(game.pk) is True
    game.refresh_from_db()
    assert (game.status, game.winner, game.termination) == ("finished", "X", "absence")


def test_an_absence_expiry_racing_a_return_and_a_claim_racing_a_return_give_one_outcome():
    for racer in ("expiry", "claim"):
        for _ in range(4):
            game, host, guest = friend_game()
            alternate(game, ["H8", "H9", "I8"])
            players = _away_and_expired(game)
            if racer == "claim":
                presence.enforce_absence(game.pk)
            barrier, outcomes = threading.Barrier(2), []

            def back():
                barrier.wait()
                presence.connect(game.pk, "o-back", players["O"])
                connections.close_all()

            def act():
                barrier.wait()
                try:
                    if racer == "expiry":
                        outcomes.append(presence.enforce_absence(game.pk))
                    else:
                        services.decide_absence(game.pk, players["X"], "claim_win")
                        outcomes.append("claimed")
                except GameError as exc:
                    outcomes.append(exc.code)
                finally:
                    connections.close_all()

            threads = [threading.Thread(target=back), threading.Thread(target=act)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(20)
            game.refresh_from_db()
            if game.status == "finished":
                assert racer == "claim" and outcomes == ["claimed"] and game.termination == "absence"
            else:
                assert game.absent_seat == "" and not game.absence_expired  # back in time
                assert outcomes in ([True], [False], ["not_now"])


def test_the_presence_sweep_drops_sockets_of_a_dead_process_and_starts_the_absence():
    game, host, guest = friend_game()
    players = by_side(game)
    alternate(game, ["H8", "H9", "I8"])
    presence.connect(game.pk, "dead-o", players["O"])
    Connection.objects.filter(channel="dead-o").update(
        seen_at=timezone.now() - timedelta(seconds=presence.STALE_CONNECTION_S + 1)
    )
    assert presence.sweep() >= 1
    game.refresh_from_db()
    assert game.absent_seat == game.seat_playing("O")
    assert not Connection.objects.filter(channel="dead-o").exists()


def test_spectators_are_counted_and_limited():
    game, host, guest = friend_game()
    for i in range(3):
        presence.connect(game.pk, f"w{i}", create_guest(), max_spectators=3)
    with pytest.raises(GameError) as err:
        presence.connect(game.pk, "w-extra", create_guest(), max_spectators=3)
    assert err.value.code == "crowd_full"
    assert snapshot.spectators(game) == 3
    presence.disconnect("w0")
    assert snapshot.spectators(game) == 2


def test_one_device_games_left_alone_end_as_abandoned_and_computer_games_at_once():
    """Games without a clock nobody touched for hours end as abandoned; a game against the
    computer that the server started before issue 26 ends at once (nobody plays its moves now)."""
    from caro.games.services import time as game_time
    from caro.games.models import Move

    user = create_guest()
    idle = Game.objects.get(pk=legacy_room(user, "local").current_game_id)
    play(idle, user, "H8")
    fresh_local = Game.objects.get(pk=legacy_room(user, "local").current_game_id)
    computer = Game.objects.get(pk=legacy_room(user, "computer").current_game_id)
    clocked, *_ = friend_game()
    old = timezone.now() - timedelta(hours=game_time.ABANDON_AFTER_H, minutes=1)
    Move.objects.filter(game=idle).update(created_at=old)
    Game.objects.filter(pk__in=[idle.pk, clocked.pk]).update(started_at=old)
    assert game_time.abandon_idle() == 2
    assert game_time.abandon_idle() == 0
    for g in (idle, fresh_local, computer, clocked):
        g.refresh_from_db()
    assert (idle.status, idle.termination, idle.winner) == ("aborted", "abandoned", "")
    assert (computer.status, computer.termination) == ("aborted", "abandoned")
    assert fresh_local.status == clocked.status == "active"  # recent; and a clock ends its own game
    assert not Game.objects.live().filter(pk__in=[idle.pk, computer.pk]).exists()


def test_coming_back_after_the_grace_ran_out_and_leaving_again_gives_no_new_grace():
    game, host, guest = friend_game()
    alternate(game, ["H8", "H9", "I8"])
    players = _away_and_expired(game)
    presence.enforce_absence(game.pk)  # O's grace ran out: X may claim
    presence.connect(game.pk, "o-flicker", players["O"])  # O is back for a moment...
    presence.disconnect("o-flicker")  # ...and gone again
    game.refresh_from_db()
    assert game.absence_expired and game.absence_deadline is None
    services.decide_absence(game.pk, players["X"], "claim_win")
    game.refresh_from_db()
    assert (game.status, game.winner, game.termination) == ("finished", "X", "absence")


def test_a_player_who_came_back_late_and_moved_gets_the_grace_again():
    game, host, guest = friend_game()
    alternate(game, ["H8", "H9", "I8"])
    players = _away_and_expired(game)
    presence.enforce_absence(game.pk)
    presence.connect(game.pk, "o-back", players["O"])
    play(game, players["O"], "I9")
    presence.disconnect("o-back")
    game.refresh_from_db()
    assert not game.absence_expired and game.absence_deadline > timezone.now()


def test_a_draw_agreed_before_both_have_moved_is_an_abort():
    game, host, guest = friend_game()
    players = by_side(game)
    alternate(game, ["H8"])
    services.offer_draw(game.pk, players["X"])
    services.answer_draw(game.pk, players["O"], True)
    game.refresh_from_db()
    assert (game.status, game.termination) == ("aborted", "abort")
