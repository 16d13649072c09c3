"""Issue 26, "Records still kept": games played on the device (against the computer in the page, or
two players on one device) are sent as records to POST /api/local-games/ (CONTRACTS.md section 4).

The server replays every record with the Python engine before storing anything: valid games of
every rule set are stored as finished, never-rated games and shown in "My games" and on their
record page; forged or illegal records are refused with a translated error and change nothing;
a record is stored exactly once, also when sent twice at the same moment; junk never gets a 500.
Real PostgreSQL and Redis (the rate limits), CSRF enforced as in a browser."""

from __future__ import annotations

import html
import json
import re
import threading
import time
import uuid

import pytest
from django.db import connection, connections, transaction
from django.test import Client, override_settings
from django.utils import timezone

from accounts.guests import create_guest
from accounts.models import User
from caro.games import records, uploads
from caro.games.models import Game, Move
from caro.games.services.records import store_played

from .device import (
    CARO_FIVE, EXACT_FIVE, EXACT_FIVE_LINE, RENJU_BEFORE_FOUL, RENJU_FOUL, RENJU_WON, RENJU_WON_LINE,
    REVERSI_PASS, REVERSI_PASS_AFTER, REVERSI_PASS_COUNT, RIF_ACTIONS, RIF_LINE, RIF_MOVES, SWAP2_ACTIONS,
    SWAP2_LINE, SWAP2_MOVES, csrf_client, full_board_11, now_ms, post, record, rules,
)

pytestmark = pytest.mark.django_db


def _signed_in(language="en"):
    user = create_guest()
    client = csrf_client(language)
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    client.get("/")  # a new CSRF cookie for the session, as a page load after signing in gives
    return client, user


def _stored(response) -> Game:
    assert response.status_code in (200, 201), response.content.decode()[:500]
    body = response.json()
    game = Game.objects.get(pk=body["id"])
    assert body["url"] == game.get_absolute_url() or body["url"].endswith(f"/{game.pk}/")
    return game


def _squares(game):
    return list(Move.objects.filter(game=game).order_by("ply").values_list("square", flat=True))


def _sides(game):
    return "".join(Move.objects.filter(game=game).order_by("ply").values_list("side", flat=True))


def _snapshot():
    """What a refused record must leave as it was."""
    return Game.objects.count(), Move.objects.count(), User.objects.count()


def _refused(client, body, code, status=400, **kwargs):
    before = _snapshot()
    response = post(client, body, **kwargs)
    assert response.status_code == status, response.content.decode()[:500]
    answer = response.json()
    assert answer["error"] == code, answer
    assert answer["message"] and isinstance(answer["message"], str)
    assert _snapshot() == before
    return answer["message"]


def _page(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


# -- valid games of every kind, stored and shown ---------------------------------------------------

def test_a_computer_game_in_vietnamese_caro_is_stored_finished_unrated_and_shown():
    client, user = _signed_in()
    body = record(CARO_FIVE, level="medium", side="X")
    response = post(client, body)
    assert response.status_code == 201
    game = _stored(response)
    assert response.json()["url"] == f"/en/game/{game.pk}/"  # the record page in the page's language
    assert (game.kind, game.status, game.rated, game.host, game.guest) == ("caro", "finished", False, user, None)
    assert (game.bot_seat, game.bot_level, game.host_side, game.move_time_ms) == ("guest", "medium", "X", 0)
    assert (game.winner, game.termination, game.win_line) == ("X", "five", ["H8", "I8", "J8", "K8", "L8"])
    assert game.rules == rules("caro-vn") and game.opening == {} and game.ply == 9
    assert game.upload_id == uuid.UUID(body["id"]) and game.played_on_device
    assert abs(game.finished_at.timestamp() * 1000 - body["finished_at"]) < 1
    assert _squares(game) == CARO_FIVE and _sides(game) == "XOXOXOXOX"

    page = _page(client, f"/en/game/{game.pk}/")
    assert "Computer (Medium)" in page and user.public_name in page
    assert "Against the computer, on the player's device · not rated" in page
    assert "won with five in a row" in page
    mine = _page(client, "/en/game/mine/")
    assert f"/en/game/{game.pk}/" in mine and "Computer (Medium)" in mine
    assert "Against the computer, on the player's device · not rated" in mine
    # Vietnamese first: the same pages in Vietnamese.
    vi = _page(Client(HTTP_ACCEPT_LANGUAGE="vi"), f"/van/{game.pk}/")
    assert "Máy (Trung bình)" in vi
    assert "Đấu với máy, trên thiết bị của người chơi · không tính điểm" in vi


def test_the_record_page_of_an_uploaded_game_replays_exports_and_continues():
    client, user = _signed_in()
    game = _stored(post(client, record(CARO_FIVE)))
    page = _page(client, f"/en/game/{game.pk}/?ply=3")
    assert "Move 3 of 9" in page
    psq = client.get(f"/en/game/{game.pk}/download/psq")
    assert psq.status_code == 200 and psq.content.decode().startswith("Piskvorky 15x15")
    again = records.read(psq.content.decode(), "caro-vn")
    assert again.record.squares == CARO_FIVE
    assert client.get(f"/en/game/{game.pk}/image.svg?ply=4").status_code == 200
    # "Continue from here against the computer" from move 4, as for any other record: the
    # on-device page with the position.
    token = client.cookies["csrftoken"].value
    response = client.post(f"/en/game/{game.pk}/continue", {"ply": "4", "level": "easy"}, HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 303
    assert response["Location"] == "/choi-may/?preset=caro-vn&size=15&win_length=5&level=easy&moves=H8%2CA1%2CI8%2CA2"


def test_exact_five_on_one_device_a_six_does_not_win_and_the_five_does():
    client, user = _signed_in()
    body = record(EXACT_FIVE, mode="local", preset="exact-five", level=None, side=None, winner="X")
    game = _stored(post(client, body))
    assert (game.host, game.guest, game.bot_seat, game.bot_level) == (user, user, "", "")
    assert game.is_local and (game.winner, game.termination, game.win_line) == ("X", "five", EXACT_FIVE_LINE)
    page = _page(client, f"/en/game/{game.pk}/")
    assert "Two players on one device · not rated" in page
    mine = _page(client, "/en/game/mine/")
    assert "Two players on one device · not rated" in mine
    # Named as the game's page names them ("X side"), not the device owner's name twice.
    assert '<span class="who">X side – O side</span>' in mine and user.public_name not in mine.split('class="game-list"')[1]
    assert 'data-role="name-X">X side<' in page
    vi_mine = _page(client, "/van/cua-toi/")
    assert '<span class="who">Quân X – Quân O</span>' in vi_mine
    # Claiming the six C5-H5 as a win (the record stopped there) is refused: the engine says the game goes on.
    claimed = record(EXACT_FIVE[:11], mode="local", preset="exact-five", level=None, side=None, winner="X")
    assert "not over" in _refused(client, claimed, "not_over")


def test_renju_a_foul_is_refused_with_its_square_and_the_game_without_it_is_stored():
    client, _user = _signed_in()
    fouled = record(RENJU_BEFORE_FOUL + [RENJU_FOUL, "B1"], preset="renju")
    message = _refused(client, fouled, "illegal_move")
    assert message == "Move 9 (I8) of this game record is not allowed: That move is a foul for X under Renju rules."
    vi = csrf_client("vi")
    message_vi = _refused(vi, fouled, "illegal_move")
    assert "I8" in message_vi and "Renju" in message_vi and "not allowed" not in message_vi
    game = _stored(post(client, record(RENJU_WON, preset="renju")))
    assert (game.winner, game.termination, game.win_line) == ("X", "five", RENJU_WON_LINE)
    assert game.rules["renju"] is True


def test_rif_opening_is_replayed_and_kept_as_the_site_keeps_it():
    client, user = _signed_in()
    body = record(RIF_MOVES, preset="renju-rif", side="X", level="hard",
                  opening={"kind": "rif", "rules": rules("renju-rif"), "actions": RIF_ACTIONS})
    game = _stored(post(client, body))
    assert (game.winner, game.termination, game.win_line) == ("X", "five", RIF_LINE)
    assert game.opening["kind"] == "rif" and game.opening["first"] == "host" and game.opening["plies"] == 5
    assert [(e["kind"], e["seat"], e["step"], e["plies"]) for e in game.opening["log"]] == [
        ("place", "host", "place_1", [1]), ("place", "host", "place_2", [2]), ("place", "host", "place_3", [3]),
        ("keep", "guest", "swap", []), ("place", "guest", "place_4", [4]), ("offer", "host", "offer_5", []),
        ("select", "guest", "select_5", [5]),
    ]
    assert game.opening["log"][5]["squares"] == ["I9", "J12"]
    assert _squares(game) == ["H8", "H7", "H6", "A1", "I9"] + RIF_MOVES
    page = _page(client, f"/en/game/{game.pk}/")
    assert "RIF opening" in page and "offered I9, J12 for the 5th move" in page
    # The computer began as tentative Black and the person, tentative White, swapped: the person
    # plays Black (X) at the end, the first seat was the computer's.
    swapped = [*RIF_ACTIONS[:3], {"kind": "swap"}, *RIF_ACTIONS[4:]]
    body = record(RIF_MOVES, preset="renju-rif", side="X", winner="X",
                  opening={"kind": "rif", "rules": rules("renju-rif"), "actions": swapped})
    game = _stored(post(client, body))
    assert game.opening["first"] == "guest" and game.host_side == "X" and game.x_player == user
    assert [e["seat"] for e in game.opening["log"]][:4] == ["guest", "guest", "guest", "host"]
    # The person began as tentative Black and the computer swapped: the person plays White and lost.
    body = record(RIF_MOVES, preset="renju-rif", side="O", winner="X",
                  opening={"kind": "rif", "rules": rules("renju-rif"), "actions": swapped})
    game = _stored(post(client, body))
    assert game.opening["first"] == "host" and game.host_side == "O" and game.o_player == user
    assert game.bot_side == "X" and game.winner == "X"


def test_rif_opening_steps_are_checked():
    client, _user = _signed_in()
    bad_area = [{"kind": "place", "square": "A1"}, *RIF_ACTIONS[1:]]
    message = _refused(client, record(RIF_MOVES, preset="renju-rif", opening={"kind": "rif", "actions": bad_area}),
                       "illegal_opening")
    assert message.startswith("Opening step 1 of this game record is not allowed: In the RIF opening")
    symmetric = [*RIF_ACTIONS[:3], RIF_ACTIONS[3], {"kind": "place", "square": "H10"},
                 {"kind": "offer", "squares": ["G9", "I9"]}, {"kind": "select", "square": "G9"}]
    _refused(client, record(RIF_MOVES, preset="renju-rif", opening={"kind": "rif", "actions": symmetric}),
             "illegal_opening")
    # No opening at all, an opening of the other procedure, an unfinished one with moves after it.
    _refused(client, record(RIF_MOVES, preset="renju-rif"), "bad_opening")
    _refused(client, record(RIF_MOVES, preset="renju-rif", opening={"kind": "swap2", "actions": SWAP2_ACTIONS}),
             "bad_opening")
    _refused(client, record(RIF_MOVES, preset="renju-rif", opening={"kind": "rif", "actions": RIF_ACTIONS[:5]}),
             "bad_opening")
    # An opening in a game whose rules have none.
    _refused(client, record(CARO_FIVE, opening={"kind": "rif", "actions": RIF_ACTIONS}), "bad_opening")


def test_swap2_on_one_device_with_the_first_seat_taking_white():
    client, user = _signed_in()
    body = record(SWAP2_MOVES, mode="local", preset="swap2", level=None, side=None, winner="O",
                  opening={"kind": "swap2", "rules": rules("swap2"), "actions": SWAP2_ACTIONS})
    game = _stored(post(client, body))
    assert (game.winner, game.termination, game.win_line) == ("O", "five", SWAP2_LINE)
    assert game.opening["first"] == "host" and game.host_side == "O" and game.opening["plies"] == 5
    assert [e["seat"] for e in game.opening["log"]] == ["host"] * 3 + ["guest"] * 2 + ["host"]
    assert _sides(game) == "XOXOX" + "OXOXOXOXO"
    page = _page(client, f"/en/game/{game.pk}/")
    assert "Swap2 opening" in page and "chose O." in page  # the side as its stones are drawn


def test_a_resignation_during_the_opening_is_kept_and_the_computer_never_resigns():
    client, _user = _signed_in()
    body = record([], preset="swap2", side="X", winner="O", termination="resign",
                  opening={"kind": "swap2", "actions": SWAP2_ACTIONS[:3]})
    game = _stored(post(client, body))
    assert (game.winner, game.termination, game.ply) == ("O", "resign", 3) and "plies" not in game.opening
    # The person (X) cannot claim that the computer (O) resigned.
    message = _refused(client, record(CARO_FIVE[:6], side="X", winner="X", termination="resign"), "bad_resign")
    assert message == "Only a person resigns: the computer never does."
    # A person resigning a game the moves already decided is a wrong result.
    _refused(client, record(CARO_FIVE, winner="O", termination="resign"), "wrong_result")
    # Nothing played at all: nothing to keep.
    _refused(client, record([], winner="O", termination="resign"), "empty")


def test_reversi_against_the_computer_with_a_pass_to_the_disc_count():
    client, user = _signed_in()
    body = record(REVERSI_PASS, game="reversi", side="O", level="hard", winner="X", termination="discs")
    assert "preset" not in body and "rules" not in body
    game = _stored(post(client, body))
    assert (game.kind, game.rules, game.winner, game.termination) == ("reversi", {}, "X", "discs")
    assert (game.host_side, game.bot_side, game.bot_level) == ("O", "X", "hard")
    steps = records.steps(game, list(game.moves.order_by("ply")))
    assert [s.passed for s in steps if s.passed] == ["X"] and steps[REVERSI_PASS_AFTER - 1].passed == "X"
    assert _sides(game)[REVERSI_PASS_AFTER - 1:REVERSI_PASS_AFTER + 1] == "OO"  # White moves twice
    page = _page(client, f"/en/game/{game.pk}/")
    # The computer's side is named once, without doubled brackets, and the count is in the sentence.
    winner_first = "{}–{}".format(*REVERSI_PASS_COUNT)
    assert f"Black (computer, hard) won on discs, {winner_first}." in page and ") (" not in page
    vi = _page(Client(HTTP_ACCEPT_LANGUAGE="vi"), f"/van/{game.pk}/")
    assert f"Đen (máy, khó) thắng nhờ nhiều quân hơn, {winner_first}." in vi
    assert "Black passes" in page
    # A forged count: White did not win.
    message = _refused(client, {**body, "id": str(uuid.uuid4()), "result": {"winner": "O", "termination": "discs"}},
                       "wrong_result")
    assert message.endswith("Black won on discs.")


def test_a_full_board_is_a_draw():
    client, _user = _signed_in()
    game = _stored(post(client, record(full_board_11(), size=11, winner=None, termination="full_board")))
    assert (game.winner, game.termination, game.ply) == ("", "full_board", 121)
    _refused(client, record(full_board_11(), size=11, winner="X", termination="full_board"), "wrong_result")


def test_a_game_continued_from_a_position_keeps_how_many_moves_it_took():
    client, _user = _signed_in()
    game = _stored(post(client, record(CARO_FIVE, start_moves=4)))
    assert game.start_moves == 4
    # A RIF game continued from a record's position has no opening of its own.
    game = _stored(post(client, record(["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4", "L8"], preset="renju-rif",
                                       start_moves=3)))
    assert game.opening == {}
    _refused(client, record(CARO_FIVE, start_moves=10), "malformed")
    # A position that is already the end: nobody played the result here (an attacker's forged win).
    assert "start_moves" in _refused(client, record(CARO_FIVE, start_moves=len(CARO_FIVE)), "malformed")
    assert "start_moves" in _refused(client, record(["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4", "L8"],
                                                    preset="renju-rif", start_moves=9), "malformed")


def test_a_visitor_with_no_user_gets_a_guest_who_owns_the_game():
    client = csrf_client("en")
    users = User.objects.count()
    game = _stored(post(client, record(CARO_FIVE)))
    assert User.objects.count() == users + 1 and game.host.is_guest
    mine = _page(client, "/en/game/mine/")
    assert f"/en/game/{game.pk}/" in mine and game.host.public_name in mine


def test_profile_shows_a_computer_game_from_the_device_as_it_shows_computer_games():
    user = User.objects.create_user(username="lan", password="correct horse battery")
    client = csrf_client("en")
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    client.get("/")
    _stored(post(client, record(CARO_FIVE, level="hard")))
    _stored(post(client, record(EXACT_FIVE, mode="local", preset="exact-five", level=None, side=None)))
    page = _page(client, "/nguoi-choi/lan/")
    rows = re.findall(r'<li class="res-[^"]+">.*?</li>', page, re.S)
    assert len(rows) == 1  # the one-device game is not listed, as for every local game
    assert "Won" in rows[0] and "against the computer (Hard)" in rows[0] and "casual" in rows[0]


# -- forged and illegal records: refused, translated, nothing changed ------------------------------

@pytest.mark.parametrize("language, words", [
    ("vi", "Kết quả"),  # Vietnamese first
    ("en", "The result in this game record is not what the moves decide: X won with five in a row."),
])
def test_a_forged_result_is_refused_with_a_translated_message(language, words):
    client = csrf_client(language)
    message = _refused(client, record(CARO_FIVE, winner="O"), "wrong_result")
    assert message.startswith(words)


def test_every_refusal_code_has_a_vietnamese_message():
    from django.utils import translation

    params = {"field": "moves", "n": 3, "square": "H8", "reason": "…", "result": "…"}
    for code in uploads.MESSAGES:
        with translation.override("en"):
            english = uploads.UploadError(code, **params).message
        with translation.override("vi"):
            vietnamese = uploads.UploadError(code, **params).message
        assert english and vietnamese and vietnamese != english, code


def test_forged_and_illegal_records_are_refused():
    client, _user = _signed_in()
    cases = [
        (record(CARO_FIVE[:7], winner="X"), "not_over"),  # five claimed before it is made
        (record(CARO_FIVE + ["A5"]), "move_after_end"),
        (record(["H8", "H8"]), "illegal_move"),  # a square taken twice
        (record(["H8", "P8"]), "illegal_move"),  # off the 15×15 board
        (record(["H8", "Z99"]), "illegal_move"),
        ({**record(CARO_FIVE), "preset": "no-such-rules"}, "bad_rules"),
        ({**record(CARO_FIVE), "preset": "reversi"}, "bad_rules"),
        (record(CARO_FIVE, preset="renju", size=19), "bad_rules"),  # Renju is 15×15
        ({**record(CARO_FIVE), "rules": {**rules("caro-vn"), "blocked": "none"}}, "bad_rules"),  # not caro-vn
        ({**record(CARO_FIVE), "rules": {**rules("caro-vn"), "size": "15"}}, "bad_rules"),
        ({**record(CARO_FIVE), "rules": {**rules("caro-vn"), "extra": 1}}, "bad_rules"),
        (record(CARO_FIVE, level="impossible"), "malformed"),
        (record(CARO_FIVE, level=None), "malformed"),  # a computer game names its level
        (record(CARO_FIVE, side="random"), "malformed"),
        ({**record(CARO_FIVE, mode="local"), "side": "X"}, "malformed"),  # no side on one device
        ({**record(CARO_FIVE, mode="local"), "level": "easy"}, "malformed"),
        (record(CARO_FIVE, mode="online"), "malformed"),
        (record(CARO_FIVE, game="chess"), "malformed"),
        (record(CARO_FIVE, termination="timeout"), "malformed"),  # no clock on the device
        (record(CARO_FIVE, id="not-a-uuid"), "malformed"),
        (record(CARO_FIVE, started_at=now_ms(), finished_at=now_ms() - 1000), "bad_time"),
        (record(CARO_FIVE, finished_at=now_ms() + 86_400_000), "bad_time"),  # tomorrow
        (record(CARO_FIVE, started_at=0), "bad_time"),  # 1970
        (record(CARO_FIVE, started_at=True), "malformed"),
        (record(["a1"] * 226), "malformed"),  # more moves than the board has squares
        ({**record(REVERSI_PASS, game="reversi", termination="discs"), "rules": rules("caro-vn")}, "bad_rules"),
    ]
    for n, (body, code) in enumerate(cases):
        try:
            _refused(client, body, code)
        except AssertionError as error:
            raise AssertionError(f"case {n}: {error}") from None


def test_a_record_too_large_or_not_json_is_refused():
    client, _user = _signed_in()
    _refused(client, b"{" + b" " * (uploads.MAX_BODY_BYTES + 1) + b"}", "too_large", raw=True)
    _refused(client, b"not json", "malformed", raw=True)
    _refused(client, b"\xff\xfe\x00", "malformed", raw=True)
    _refused(client, b"[" * 100_00 + b"]" * 100_00, "too_large", raw=True)
    _refused(client, b"[" * 5000 + b"]" * 5000, "malformed", raw=True)  # nested deeper than JSON reads


# -- exactly once ----------------------------------------------------------------------------------

def _account_client(name: str):
    user = User.objects.create_user(username=name, password="correct horse battery")
    client = csrf_client("en")
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    client.get("/")
    return client, user


def test_sent_twice_stored_once_and_another_users_id_is_refused():
    client, user = _account_client("owner")
    body = record(CARO_FIVE)
    first = post(client, body)
    second = post(client, body)
    assert (first.status_code, second.status_code) == (201, 200)
    assert first.json() == second.json()
    assert Game.objects.filter(upload_id=body["id"]).count() == 1
    # Another user sending an account's record id: refused, nothing changed.
    other, _ = _signed_in()
    assert "already used" in _refused(other, body, "id_taken")
    assert Game.objects.get(upload_id=body["id"]).host == user
    # The owner sending another game under the same id (a page's bug): refused too.
    _refused(client, {**record(EXACT_FIVE, mode="local", preset="exact-five", level=None, side=None),
                      "id": body["id"]}, "id_taken")
    # A visitor with no user yet: an account's record is answered 200 with its page; no guest made.
    anonymous = csrf_client("en")
    users = User.objects.count()
    again = post(anonymous, body)
    assert again.status_code == 200 and again.json() == first.json() and User.objects.count() == users
    assert Game.objects.get(upload_id=body["id"]).host == user


def test_a_new_visitor_refused_for_a_guest_s_id_gets_no_guest_and_no_session():
    """Attacker run: guest 1 stored a record under id U; a fresh visitor POSTing a different game
    under U got 400 id_taken AND a new guest with a session cookie. A 400 changes nothing
    (docs/protocol.md): no guest, no session, the game still guest 1's."""
    first, owner = _signed_in()
    body = record(CARO_FIVE)
    assert post(first, body).status_code == 201
    visitor = csrf_client("en")
    _refused(visitor, {**record(EXACT_FIVE, mode="local", preset="exact-five", level=None, side=None),
                       "id": body["id"]}, "id_taken")
    assert "_auth_user_id" not in visitor.session
    again = post(visitor, {**record(EXACT_FIVE, mode="local", preset="exact-five", level=None, side=None),
                           "id": body["id"]})
    assert again.status_code == 400 and "sessionid" not in again.cookies  # no session cookie on a refusal
    assert not visitor.get("/").wsgi_request.user.is_authenticated
    assert Game.objects.get(upload_id=body["id"]).host == owner


def test_a_guest_made_for_a_record_refused_meanwhile_is_rolled_back(monkeypatch):
    """The id taken by another game between the check and the store (two uploads at once): the
    guest made for the visitor is rolled back with the refusal and the visitor stays logged out."""
    from caro.records import upload as view

    def taken(record, user):
        assert user.is_guest and User.objects.filter(pk=user.pk).exists()
        raise uploads.UploadError("id_taken")

    monkeypatch.setattr(view, "store_played", taken)
    visitor = csrf_client("en")
    _refused(visitor, record(CARO_FIVE), "id_taken")
    assert "_auth_user_id" not in visitor.session
    assert not visitor.get("/").wsgi_request.user.is_authenticated


@pytest.mark.parametrize("mode", ["computer", "local"])
def test_a_guest_s_record_sent_again_after_its_cookie_was_lost_moves_to_the_sender(mode):
    """A page left mid-upload: the server stored the game for a new guest whose cookie never
    arrived. The same browser sends it again (its queue keeps the record until an answer), now
    as another guest or as a visitor with no user: the game moves to that sender, so it is in
    their "My games" (found missing by a new-user trial). A different game under the id is still
    refused."""
    lost = create_guest()
    body = record(CARO_FIVE) if mode == "computer" else record(EXACT_FIVE, mode="local", preset="exact-five",
                                                               level=None, side=None)
    game, created = store_played(uploads.read(body, timezone.now()), lost)
    assert created
    # Now a visitor with no user sends it: a guest is made for them and owns it.
    anonymous = csrf_client("en")
    answer = post(anonymous, body)
    assert answer.status_code == 200 and answer.json()["id"] == game.pk
    game.refresh_from_db()
    newcomer = User.objects.get(pk=anonymous.session["_auth_user_id"])
    assert newcomer.is_guest and newcomer != lost and game.host == newcomer
    assert game.guest == (newcomer if mode == "local" else None)
    assert str(game.pk) in anonymous.get("/van/cua-toi/").content.decode()
    # Then another signed-in guest (the same browser after yet another lost answer) sends it.
    other, other_user = _signed_in()
    assert post(other, body).status_code == 200
    game.refresh_from_db()
    assert game.host == other_user and Game.objects.filter(upload_id=body["id"]).count() == 1
    # A different game under that id stays refused, and nothing moves.
    _refused(anonymous, {**record(EXACT_FIVE, mode="local", preset="exact-five", level=None, side=None),
                         "id": body["id"]} if mode == "computer" else {**record(CARO_FIVE), "id": body["id"]},
             "id_taken")
    game.refresh_from_db()
    assert game.host == other_user


@pytest.mark.django_db(transaction=True)
def test_two_identical_uploads_at_once_store_one_game():
    """Several connections send the same record at the same moment (a page and its retry, two
    tabs flushing one queue): one game, every answer names it, one of them 201."""
    user = create_guest()
    clients = []
    for _ in range(4):
        client = csrf_client("en")
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
        client.get("/")
        clients.append(client)
    for _round in range(3):
        body = record(CARO_FIVE)
        barrier = threading.Barrier(len(clients))
        answers = [None] * len(clients)

        def send(i):
            try:
                barrier.wait()
                answers[i] = post(clients[i], body)
            finally:
                connection.close()

        threads = [threading.Thread(target=send, args=(i,)) for i in range(len(clients))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert sorted(a.status_code for a in answers) == [200] * (len(clients) - 1) + [201]
        assert len({json.dumps(a.json()) for a in answers}) == 1
        assert Game.objects.filter(upload_id=body["id"]).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_new_visitor_s_two_records_sent_at_once_make_one_guest_who_owns_both(monkeypatch):
    """A visitor with no user yet (the page's cookies only) sends two games at the same moment (two
    tabs flushing their queues): one guest is made and owns both games, and both answers' sessions
    are that guest's, so "My games" lists both whichever cookie the browser keeps. The guest's
    creation is slowed so the two requests surely overlap (without the per-visitor lock each made
    its own guest, and one game was lost to the visitor)."""
    from accounts import guests

    made = guests.create_guest

    def slow_create_guest(*args, **kwargs):
        time.sleep(0.5)  # widens the race; the second request must wait for the first's guest
        return made(*args, **kwargs)

    monkeypatch.setattr(guests, "create_guest", slow_create_guest)
    first = csrf_client("en")
    second = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    second.cookies.load({name: m.value for name, m in first.cookies.items()})  # the same browser's cookies
    assert "caro_visitor" in first.cookies
    users = User.objects.count()
    bodies = [record(CARO_FIVE), record(CARO_FIVE)]
    barrier = threading.Barrier(2)
    answers = [None, None]

    def send(i, client):
        try:
            barrier.wait()
            answers[i] = post(client, bodies[i])
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i, c)) for i, c in enumerate((first, second))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert [a.status_code for a in answers] == [201, 201]
    assert User.objects.count() == users + 1
    hosts = {Game.objects.get(pk=a.json()["id"]).host for a in answers}
    assert len(hosts) == 1 and hosts.pop().is_guest
    # each answer's session is the one guest's: the page lists both games with either cookie
    for answer in answers:
        browser = Client(HTTP_ACCEPT_LANGUAGE="en")
        browser.cookies["sessionid"] = answer.cookies["sessionid"].value
        mine = _page(browser, "/en/game/mine/")
        assert all(f"/en/game/{a.json()['id']}/" in mine for a in answers)


@pytest.mark.django_db(transaction=True)
def test_an_upload_waiting_on_the_same_id_answers_with_the_game_stored_first():
    """Deterministic race: connection A has stored the record and not committed; B's upload of the
    same record finds nothing yet, waits on the unique id in PostgreSQL, and once A commits
    answers with A's game (the IntegrityError path), storing nothing of its own."""
    user = create_guest()
    body = record(CARO_FIVE)
    read = uploads.read(body, timezone.now())
    stored, release, result = threading.Event(), threading.Event(), {}

    def first():
        try:
            with transaction.atomic():
                result["game"] = store_played(read, user)[0]
                stored.set()
                release.wait(60)
        finally:
            connection.close()

    def second():
        client = csrf_client("en")
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
        client.get("/")
        result["response"] = post(client, body)
        connection.close()

    a = threading.Thread(target=first)
    a.start()
    assert stored.wait(60)
    b = threading.Thread(target=second)
    b.start()
    # Wait until B's INSERT waits on A's uncommitted row (a lock wait in PostgreSQL), then commit A.
    with connections["default"].cursor() as cursor:
        for _ in range(600):
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                           "AND query ILIKE 'INSERT INTO \"games_game\"%%'")
            if cursor.fetchone()[0]:
                break
            time.sleep(0.1)
        else:
            pytest.fail("the second upload never waited on the first one's row")
    release.set()
    a.join(60)
    b.join(60)
    response = result["response"]
    assert response.status_code == 200 and response.json()["id"] == result["game"].pk
    assert Game.objects.filter(upload_id=body["id"]).count() == 1


# -- who may send ----------------------------------------------------------------------------------

def test_a_banned_user_is_refused():
    client, user = _signed_in()
    user.banned_forever = True
    user.save(update_fields=["banned_forever"])
    before = _snapshot()
    response = post(client, record(CARO_FIVE))
    assert response.status_code == 403 and response.json()["error"] == "banned"
    assert _snapshot() == before


def test_csrf_is_required():
    client = Client(enforce_csrf_checks=True)
    client.get("/")
    before = _snapshot()
    response = client.post("/api/local-games/", data=json.dumps(record(CARO_FIVE)), content_type="application/json")
    assert response.status_code == 403 and _snapshot() == before


def test_only_post():
    response = Client(HTTP_ACCEPT_LANGUAGE="en").get("/api/local-games/")
    assert response.status_code == 405 and response.json()["error"] == "method" and response["Allow"] == "POST"


def test_records_per_minute_are_limited():
    client, _user = _signed_in()
    with override_settings(CARO_RECORDS_PER_MINUTE_PER_SESSION=2):
        answers = [post(client, record(CARO_FIVE)).status_code for _ in range(5)]
    assert 429 in answers and answers.count(201) >= 2 and set(answers) <= {201, 429}
    with override_settings(CARO_RECORDS_PER_MINUTE_PER_SESSION=1):
        before = _snapshot()
        post_limited = None
        for _ in range(3):
            post_limited = post(client, record(CARO_FIVE))
        assert post_limited.status_code == 429 and post_limited.json()["error"] == "rate_limited"
        assert post_limited["Retry-After"] == "60"  # when to send again: the limits' minute
        assert "Wait a minute" in post_limited.json()["message"]
        assert _snapshot()[0] - before[0] <= 1


# -- junk never gets a 500 -------------------------------------------------------------------------

JUNK_VALUES = [None, True, False, 0, -1, 1.5, 10**30, float("inf"), "", "x" * 5000, "H8", "💥", "\u202e",
               [], [None], ["H8"] * 400, {}, {"a": {"b": {"c": []}}}, [[[[[]]]]], "\x00", {"kind": "rif"},
               {"kind": "place", "square": 7}, {"kind": "offer", "squares": "H8"}]


@override_settings(CARO_RECORDS_PER_MINUTE_PER_SESSION=0, CARO_RECORDS_PER_MINUTE_PER_ADDRESS=0)
def test_junk_of_every_shape_is_refused_never_a_500():
    client, _user = _signed_in()
    base = record(CARO_FIVE)
    rif = record(RIF_MOVES, preset="renju-rif", opening={"kind": "rif", "actions": RIF_ACTIONS})
    bodies = [b"", b"null", b"[]", b"\"record\"", b"1e999999", b"9" * 5000, "{\"id\": \"\u0000\"}".encode(),
              json.dumps([base]).encode(), json.dumps({"record": base}).encode()]
    for value in JUNK_VALUES:
        for field in list(base) + ["rules.size", "rules.renju", "result.winner", "result.termination",
                                   "opening.actions", "opening.kind"]:
            body = json.loads(json.dumps(rif if field.startswith("opening") else base))
            target, key = body, field
            if "." in field:
                head, key = field.split(".")
                target = body[head]
            target[key] = value
            bodies.append(json.dumps(body, allow_nan=True).encode())
        for field in base:
            body = dict(base)
            del body[field]
            bodies.append(json.dumps(body).encode())
        actions = [*RIF_ACTIONS[:3], value, *RIF_ACTIONS[4:]]
        bodies.append(json.dumps({**rif, "opening": {"kind": "rif", "actions": actions}}, allow_nan=True).encode())
        bodies.append(json.dumps({**base, "moves": [*CARO_FIVE[:3], value]}, allow_nan=True).encode())
    before = _snapshot()
    for body in bodies:
        response = post(client, body, raw=True)
        assert response.status_code in (200, 201, 400), (response.status_code, body[:200])
        if response.status_code == 400:
            assert response.json()["error"] in uploads.MESSAGES
    # Junk that left a record valid (an empty opening, say) stores it once under its id: at most the
    # two records the junk was made from, nothing else.
    assert Game.objects.count() - before[0] <= 2
    assert set(Game.objects.exclude(upload_id=None).values_list("upload_id", flat=True)) <= {
        uuid.UUID(base["id"]), uuid.UUID(rif["id"])}


@override_settings(CARO_RECORDS_PER_MINUTE_PER_SESSION=0, CARO_RECORDS_PER_MINUTE_PER_ADDRESS=0)
def test_random_json_never_gets_a_500():
    hypothesis = pytest.importorskip("hypothesis")
    from hypothesis import HealthCheck, given, settings as hsettings
    from hypothesis import strategies as st

    client, _user = _signed_in()
    scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
    values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                          | st.dictionaries(st.text(max_size=10), inner, max_size=5), max_leaves=20)
    fields = st.fixed_dictionaries({}, optional={name: values for name in record(CARO_FIVE)})

    @hsettings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(st.one_of(values, fields, fields.map(lambda junk: {**record(CARO_FIVE), **junk})))
    def run(body):
        response = post(client, body)
        assert response.status_code in (200, 201, 400), (response.status_code, body)

    assert hypothesis
    run()
