"""The record page of every game: board, players, rules, result, times, replay per ply without
JavaScript, the live room link, the position picture, languages."""

import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from caro.games import services
from caro.games.services import moderation, presence
from caro.games.models import Game
from caro.rooms import services as rooms

from .conftest import play_game

pytestmark = pytest.mark.django_db


def _page(url, client=None, **headers):
    response = (client or Client(headers=headers)).get(url)
    assert response.status_code == 200, response.content[:2000]
    return response.content.decode()


def _stones(html):
    return dict(re.findall(r'data-sq="(\w+)" data-stone="([XO])"', html))


def test_a_finished_game_shows_board_players_rules_result_and_times(caro_game):
    game, x, o = caro_game
    html = _page(f"/van/{game.pk}/")
    assert x.public_name in html and o.public_name in html
    assert "15×15 · chặn hai đầu · 1 phút/nước" in html
    assert f"{x.public_name} (X) thắng với 5 quân liên tiếp." in html
    assert len(_stones(html)) == 9
    # The winning line is drawn at the last move, across the five stones, in the row's direction.
    assert len(re.findall(r'class="sq[^"]* win" data-sq="[A-L]8" data-stone="X" data-win="h"', html)) == 5
    assert 'class="sq last win" data-sq="L8"' in html
    # The move list: coordinates, each with the time the mover used.
    moves = re.findall(r'data-ply="(\d+)"[^>]*><span class="sqname">(\w+)</span> <span class="t">([^<]+)</span>', html)
    assert [m[1] for m in moves] == ["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4", "L8"]
    assert all(re.fullmatch(r"\d+,\d s", m[2]) for m in moves)  # Vietnamese decimal comma
    # Each move shows its number (new-user trial: a grid of bare coordinates, sides unclear).
    assert re.findall(r'<li value="(\d+)"><span class="n">(\d+)\.</span><a ', html) == [
        (str(n), str(n)) for n in range(1, 10)]


def test_names_are_escaped():
    game, _x, _o = play_game(["H8"], names=('<script>alert("x")</script>', "O&<b>"))
    html = _page(f"/en/game/{game.pk}/")
    assert "<script>alert" not in html and "&lt;script&gt;alert" in html
    assert "O&amp;&lt;b&gt;" in html


def test_each_ply_is_its_own_page_without_javascript(caro_game):
    game, _x, _o = caro_game
    html = _page(f"/van/{game.pk}/?ply=3")
    assert _stones(html) == {"H8": "X", "A1": "O", "I8": "X"}
    assert 'class="sq last" data-sq="I8"' in html and "win" not in re.findall(r'class="sq[^"]*"', html)
    assert 'href="?ply=2"' in html and 'href="?ply=4"' in html and 'href="?ply=0"' in html
    assert 'href="?ply=9"' in html and 'aria-current="step"' in html
    assert re.search(r"Nước 3/9: X I8 \(\d+,\d s\)", html)
    assert _stones(_page(f"/van/{game.pk}/?ply=0")) == {}
    assert len(_stones(_page(f"/van/{game.pk}/?ply=zzz"))) == 9  # unreadable: the last ply
    assert len(_stones(_page(f"/van/{game.pk}/?ply=999"))) == 9


def test_move_numbers_on_the_stones_on_demand(caro_game):
    game, _x, _o = caro_game
    html = _page(f"/van/{game.pk}/?ply=5&numbers=1")
    assert "record-board numbers" in html
    assert re.search(r'data-sq="J8" data-stone="X"><i class="n">5</i>', html)
    assert "record-board numbers" not in _page(f"/van/{game.pk}/?ply=5")


def _client_of(user):
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def test_a_live_game_links_its_host_to_its_room():
    user = play_game([])[1]
    room = rooms.create_room(user)
    html = _page(f"/van/{room.current_game_id}/", _client_of(user))
    assert f'href="/r/{room.code}/"' in html and 'data-testid="room-link"' in html
    assert "Vào phòng để chơi hoặc xem" in html


def test_a_private_room_s_unfinished_game_is_not_found_by_strangers_so_its_code_stays_private():
    """A friend room shared by its link or code alone: counting up record ids found its code on
    the record page, and a stranger took the free seat (attacker run). Its unfinished game's record,
    picture and downloads are 404 for strangers (signed in or not); its players, host and staff see
    them; once it is over the record is public like every other."""
    _game, host, guest = play_game([])
    stranger = play_game([])[1]
    room = rooms.create_room(host, move_time_ms=600_000)
    gid = room.current_game_id
    paths = [f"/van/{gid}/", f"/en/game/{gid}/", f"/van/{gid}/anh.svg", f"/van/{gid}/tai/psq"]
    assert _client_of(host).get(paths[3]).status_code == 200  # the paths are right
    for client in (Client(), _client_of(stranger)):
        for path in paths:
            response = client.get(path)
            assert response.status_code == 404, path
            assert room.code not in response.content.decode()
    assert _client_of(stranger).get(f"/van/{gid}/").status_code == 404
    rooms.join(room, guest)
    for user in (host, guest):
        assert room.code in _page(f"/van/{gid}/", _client_of(user))
    staff = play_game([])[1]
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    assert room.code in _page(f"/van/{gid}/", _client_of(staff))
    assert Client().get(f"/van/{gid}/").status_code == 404  # still live, still private
    services.resign(gid, host)
    html = _page(f"/van/{gid}/")  # over: a public record, and no room link
    assert room.code not in html


@pytest.mark.parametrize("option", ["listed", "watchable"])
def test_a_public_room_s_live_game_links_anyone_to_its_room(option):
    user = play_game([])[1]
    room = rooms.create_room(user, **{option: True})
    html = _page(f"/van/{room.current_game_id}/")
    assert f'href="/r/{room.code}/"' in html


def test_a_reversi_game_shows_passes_and_the_disc_count(reversi_vectors):
    case = reversi_vectors["forced_pass"][0]
    moves = [case["moves"][k:k + 2] for k in range(0, len(case["moves"]), 2)]
    game, _x, _o = play_game(moves, kind="reversi")
    html = _page(f"/en/game/{game.pk}/")
    assert "White passes" not in html and "Black passes" in html  # Black had no move after c1
    assert "Reversi · 8×8" in html
    assert re.findall(r'<span class="sqname">(\w+)</span>', html) == moves  # lowercase like d3
    data = json.loads(re.search(r'id="record-data" type="application/json">(.*?)</script>', html).group(1))
    assert data["steps"][-1][3] == "X"  # the pass is recorded on the move that caused it


def test_the_full_championship_game_shows_the_result_with_discs(reversi_vectors):
    text = reversi_vectors["full_game"]["moves"].lower()
    moves = [text[k:k + 2] for k in range(0, len(text), 2)]
    game, x, _o = play_game(moves, kind="reversi")
    assert (game.status, game.winner, game.termination) == (Game.Status.FINISHED, "X", "discs")
    html = _page(f"/van/{game.pk}/")
    assert f"{x.public_name} (Đen) thắng nhờ nhiều quân hơn, 35–29." in html


def test_the_picture_of_a_position_is_an_svg_of_that_ply(caro_game):
    game, _x, _o = caro_game
    response = Client().get(f"/van/{game.pk}/anh.svg?ply=4")
    assert response.status_code == 200 and response["Content-Type"].startswith("image/svg+xml")
    svg = response.content.decode()
    assert svg.count('class="x"') == 2 and svg.count('class="o"') == 2 and 'class="win"' not in svg
    final = Client().get(f"/en/game/{game.pk}/image.svg").content.decode()
    assert final.count('class="x"') == 5 and 'class="win"' in final
    html = _page(f"/van/{game.pk}/?ply=4")
    assert f'property="og:image" content="http://testserver/van/{game.pk}/anh.svg?ply=4"' in html


def test_the_url_language_is_the_page_language_unless_the_reader_chose_one(caro_game):
    game, x, _o = caro_game
    assert f"{x.public_name} (X) won with five in a row." in _page(f"/en/game/{game.pk}/")
    assert f"{x.public_name} (X) thắng với 5 quân liên tiếp." in _page(f"/van/{game.pk}/", HTTP_ACCEPT_LANGUAGE="en")
    client = Client()
    client.cookies["django_language"] = "vi"
    assert f"{x.public_name} (X) thắng với 5 quân liên tiếp." in _page(f"/en/game/{game.pk}/", client)


def test_the_language_switch_takes_a_record_page_to_its_address_in_that_language(caro_game):
    """On /van/<id>/?ply=3 the switch's English form goes to /en/game/<id>/?ply=3 (and back), so
    the address and the words change together; "My games" likewise."""
    game, x, _o = caro_game
    client = Client()
    html = _page(f"/van/{game.pk}/?ply=3", client)
    nexts = dict((lang, url) for url, lang in re.findall(
        r'name="next" type="hidden" value="([^"]*)">\s*<button type="submit" name="language" value="(\w+)"', html))
    assert nexts == {"vi": f"/van/{game.pk}/?ply=3", "en": f"/en/game/{game.pk}/?ply=3"}
    response = client.post("/i18n/setlang/", {"language": "en", "next": nexts["en"]}, follow=True)
    assert response.redirect_chain[-1][0] == f"/en/game/{game.pk}/?ply=3"
    assert f"{x.public_name} (X)" in response.content.decode() and "Move 3" in response.content.decode()
    mine = _page("/en/game/mine/", client)
    assert 'value="/van/cua-toi/"' in mine and 'value="/en/game/mine/"' in mine


def test_unknown_games_and_formats_are_404(caro_game):
    game, _x, _o = caro_game
    assert Client().get("/van/999999/").status_code == 404
    assert Client().get(f"/van/{game.pk}/tai/ggf").status_code == 404  # a Reversi format


def test_my_games_lists_the_sessions_games():
    game, x, _o = play_game(["H8", "I9"])
    client = Client()
    client.force_login(x, backend="django.contrib.auth.backends.ModelBackend")
    html = _page("/van/cua-toi/", client)
    assert f'href="/van/{game.pk}/"' in html
    assert f'href="/van/{game.pk}/"' not in _page("/van/cua-toi/")  # another visitor


def test_a_resigned_game_says_so():
    game, x, o = play_game(["H8", "I9", "J10"])
    services.resign(game.pk, x)
    assert f"{o.public_name} (O) thắng: đối thủ chịu thua." in _page(f"/van/{game.pk}/")


def test_every_ending_is_told_with_the_players_names():
    left, x, o = play_game(["H8", "I9", "J10"], names=("Lan", "Minh"))
    services.leave(left.pk, o)
    assert "Lan (X) won: Minh left the table." in _page(f"/en/game/{left.pk}/")
    assert "Lan (X) thắng: Minh đã rời bàn." in _page(f"/van/{left.pk}/")
    drawn, x, o = play_game(["H8", "I9", "J10"])
    services.offer_draw(drawn.pk, x)
    services.answer_draw(drawn.pk, o, True)
    assert "Hòa theo thỏa thuận." in _page(f"/van/{drawn.pk}/")
    stopped, _x, _o = play_game(["H8", "I9"])
    moderation.stop(stopped.pk)
    html = _page(f"/en/game/{stopped.pk}/")
    assert "A moderator stopped this game. Nobody wins or loses." in html and "before both players" not in html
    assert "Người điều hành đã dừng ván này." in _page(f"/van/{stopped.pk}/")
    away, x, o = play_game(["H8", "I9", "J10"], names=("Hoa", "Tùng"))
    presence.connect(away.pk, "x-sock", x)
    presence.connect(away.pk, "o-sock", o)
    presence.disconnect("o-sock")
    Game.objects.filter(pk=away.pk).update(absence_deadline=timezone.now() - timedelta(milliseconds=5))
    presence.enforce_absence(away.pk)
    services.decide_absence(away.pk, x, "claim_draw")
    assert "Draw: Tùng did not come back, and Hoa called it a draw." in _page(f"/en/game/{away.pk}/")
    assert "Hòa: Tùng không quay lại và Hoa chọn xử hòa." in _page(f"/van/{away.pk}/")
    # the list of one's games tells it with the names too
    client = Client()
    client.force_login(x, backend="django.contrib.auth.backends.ModelBackend")
    mine = _page("/en/game/mine/", client)
    assert "Draw: Tùng did not come back, and Hoa called it a draw." in mine


def test_the_position_from_the_replayed_steps_is_the_engines_at_every_ply(reversi_vectors):
    from caro.games import records
    from caro.games.models import Move

    text = reversi_vectors["full_game"]["moves"].lower()
    for game in (play_game([text[k:k + 2] for k in range(0, len(text), 2)], kind="reversi")[0],
                 play_game(["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4", "L8"])[0]):
        moves = list(Move.objects.filter(game=game).order_by("ply"))
        steps = records.steps(game, moves)
        for ply in range(len(moves) + 1):
            assert records.position_from_steps(game, steps, ply) == records.position_at(game, moves, ply), ply


@pytest.mark.parametrize("line, direction", [(["H8", "L8"], "h"), (["H8", "H12"], "v"), (["A1", "E5"], "d"),
                                             (["A5", "E1"], "a"), (["H8"], "")])
def test_the_winning_line_direction(line, direction):
    from caro.games.records import line_direction

    assert line_direction(line) == direction


def test_every_square_is_labelled_for_screen_readers_and_games_know_their_page(caro_game):
    from django.utils import translation

    game, _x, _o = caro_game
    html = _page(f"/van/{game.pk}/")
    assert 'aria-label="L8, X, nước vừa đi, đường thắng"' in html and 'aria-label="B2, trống"' in html
    with translation.override("en"):
        assert game.get_absolute_url() == f"/en/game/{game.pk}/"
    with translation.override("vi"):
        assert game.get_absolute_url() == f"/van/{game.pk}/"


def test_the_record_draws_each_persons_own_mark_like_the_room_did():
    from accounts.guests import create_guest

    host, guest = create_guest(), create_guest()
    room = rooms.create_room(host)
    rooms.join(room, guest)
    first = Game.objects.get(pk=room.current_game_id)
    services.resign(first.pk, host)  # an abort at ply 0: the guest moves first next, still drawing O
    rooms.play_again(room.code, host)
    second = rooms.play_again(room.code, guest)
    assert second.x_player == guest and second.mark_of("X") == "O"
    import uuid
    services.play_move(second.pk, guest, "H8", 1, uuid.uuid4())
    services.play_move(second.pk, host, "H9", 2, uuid.uuid4())
    html = _page(f"/van/{second.pk}/", _client_of(host))  # live in a private room: its players see it
    assert _stones(html) == {"H8": "O", "H9": "X"}  # the guest's first stone is an O, as in the room
    data = json.loads(re.search(r'<script id="record-data" type="application/json">(.*?)</script>', html, re.S).group(1))
    assert data["shown"] == {"X": "O", "O": "X"}


def test_each_players_icon_is_their_mark_when_the_first_mover_holds_o():
    # A rematch keeps marks with people: here the host moves first (side X) and draws O.
    from accounts.guests import create_guest

    host, guest = create_guest(), create_guest()
    game = services.create_game(kind="caro", host=host, host_mark="O")
    services.take_seat(game.pk, guest)
    services.play_move(game.pk, host, "H8", 1, __import__("uuid").uuid4())
    html = _page(f"/en/game/{game.pk}/")
    rows = re.findall(r'<div class="player[^"]*" data-side="(\w)">\s*<span class="mark mark-(\w+)"[^>]*></span>\s*'
                      r'<span class="side-name">(\w)</span>\s*<span class="name"[^>]*>([^<]*)</span>', html)
    assert rows == [("X", "o", "O", host.public_name), ("O", "x", "X", guest.public_name)], rows
    assert _stones(html) == {"H8": "O"}


def test_a_rated_games_record_says_rated_with_each_players_rating_after_and_its_change_as_the_room():
    from ranking.models import RatingChange
    from tests.integration.ranking.builders import account, won_by

    winner, loser = account(display_name="Lan"), account(display_name="Minh")
    game = won_by(winner, loser)
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    up, down = changes[winner.pk], changes[loser.pk]
    assert up.delta > 0 > down.delta
    html = _page(f"/van/{game.pk}/")
    assert 'data-testid="rated"' in html and "Tính điểm" in html
    x_line = re.search(r'data-testid="rating-X"[^>]*>([^<]+)<span class="delta">([^<]+)</span>', html)
    o_line = re.search(r'data-testid="rating-O"[^>]*>([^<]+)<span class="delta">([^<]+)</span>', html)
    # Both are new players (their first rated game): provisional, "1220? (+20)" as in the room (trial-8).
    assert (x_line[1].strip(), x_line[2]) == (f"{up.after}?", f"(+{up.delta})")
    assert (o_line[1].strip(), o_line[2]) == (f"{down.after}?", f"(\u2212{-down.delta})")
    english = _page(f"/en/game/{game.pk}/")
    assert 'data-testid="rated"' in english and ">Rated<" in english


def test_a_casual_games_record_shows_no_rated_label_nor_ratings():
    game, _x, _o = play_game(["H8", "I9", "J10"])
    html = _page(f"/van/{game.pk}/")
    assert 'data-testid="rated"' not in html and 'data-testid="rating-X"' not in html
