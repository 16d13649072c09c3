"""Downloads and imports: every game exported in every format and imported again has the same
moves; records from other tools import; bad files get a clear translated error, no 500, and
nothing is stored; imports are rate-limited."""

import io
import re
from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from caro.games import records, services
from caro.games.models import Game, Move
from caro.games.services.records import store_imported

from .conftest import CARO_GAMES, caro_rules, play_game

pytestmark = pytest.mark.django_db


def _reversi_moves(text):
    text = text.lower()
    return [text[k:k + 2] for k in range(0, len(text), 2)]


def _games(reversi_vectors):
    """Every kind of game the record tests create: caro endings and rule sets, Reversi with a
    pass, the full championship game, a resigned game."""
    games = [play_game(squares, rules=caro_rules(preset, size))[0] for _id, squares, preset, size in CARO_GAMES]
    games.append(play_game(_reversi_moves(reversi_vectors["forced_pass"][0]["moves"]), kind="reversi")[0])
    games.append(play_game(_reversi_moves(reversi_vectors["full_game"]["moves"]), kind="reversi",
                           names=("Nicolet", "Tominaga"))[0])
    resigned, x, _o = play_game(["H8", "I9", "J10", "K11"])
    services.resign(resigned.pk, x)
    aborted, x, _o = play_game(["H8"])
    services.resign(aborted.pk, x)
    timed_out, _x, _o = play_game(["f5", "d6"], kind="reversi")
    Game.objects.filter(pk=timed_out.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.enforce_deadline(timed_out.pk, timed_out.ply)  # Black's clock ran out
    for game in (resigned, aborted, timed_out):
        game.refresh_from_db()
    assert (resigned.termination, aborted.status, timed_out.termination) == ("resign", "aborted", "timeout")
    games += [resigned, aborted, timed_out]
    return games


def _import(client, text, **fields):
    return client.post("/en/game/import/", {"text": text, "rules": "caro-vn", "size": "15", **fields})


def _imported_game(response):
    assert response.status_code == 302, response.content.decode()[:3000]
    game_id = int(re.search(r"/(\d+)/$", response["Location"]).group(1))
    return Game.objects.get(pk=game_id)


def _squares(game):
    return list(Move.objects.filter(game=game).order_by("ply").values_list("square", flat=True))


def test_every_game_exported_in_every_format_imports_with_the_same_moves(reversi_vectors):
    client = Client()
    for game in _games(reversi_vectors) + list(Game.objects.exclude(moves=None)):
        rules_choice = "reversi" if game.kind == "reversi" else "caro-vn"
        for fmt in records.formats(game):
            response = client.get(f"/van/{game.pk}/tai/{fmt.slug}")
            assert response.status_code == 200
            name = re.search(r'attachment; filename="([^"]+)"', response["Content-Disposition"]).group(1)
            assert name.startswith(f"{game.kind}-{game.pk}") and name.endswith("." + fmt.extension)
            text = response.content.decode()
            # Through the service directly (the page's own import is tested below, rate-limited).
            parsed = records.read(text, rules_choice if fmt.slug != "squares" or game.kind == "reversi"
                                  else _choice_of(game), game.rules.get("size"))
            again = store_imported(parsed.kind, parsed.record.rules, parsed.record.squares, parsed.record.times,
                                   fmt=parsed.format, names=parsed.record.names)
            assert _squares(again) == _squares(game), (game.pk, fmt.slug)
            # A result the moves themselves decide comes back; a resignation or a timeout is not in a file.
            decided = game.termination in ("five", "full_board", "discs", "no_legal_move")
            assert (again.winner, again.termination) == ((game.winner, game.termination) if decided else ("", ""))
            assert again.is_imported and not again.rated and again.host is None and again.is_over


def _choice_of(game):
    from caro.engine.caro import PRESETS

    for slug, preset in PRESETS.items():
        if {**preset.rules.to_dict(), "size": 0} == {**game.rules, "size": 0}:
            return slug
    return "caro-vn"


def test_psq_times_survive_the_round_trip(caro_game):
    game, _x, _o = caro_game
    text = Client().get(f"/van/{game.pk}/tai/psq").content.decode()
    parsed = records.read(text)
    assert parsed.record.times == list(Move.objects.filter(game=game).order_by("ply").values_list("think_ms", flat=True))


def test_a_pasted_record_becomes_an_imported_game_page():
    client = Client()
    game = _imported_game(_import(client, "1. H8 2. I9\n3. H9 4. I8\nH10"))
    assert _squares(game) == ["H8", "I9", "H9", "I8", "H10"]
    assert game.imported["format"] == "squares" and not game.rated
    html = client.get(f"/en/game/{game.pk}/").content.decode()
    assert "Imported, not rated" in html and "The record stops here" in html
    assert f'href="/en/game/{game.pk}/"' in client.get("/en/game/mine/").content.decode()  # in "my games"


def test_an_uploaded_psq_file_brings_its_board_size():
    text = "Piskvorky 19x19, 11:11, 0\n10,10,1000\n11,11,2000\n-1\n"
    upload = io.BytesIO(text.encode())
    upload.name = "game.psq"
    game = _imported_game(Client().post("/van/nhap/", {"file": upload, "rules": "caro-vn", "size": "15"}))
    assert game.rules["size"] == 19 and _squares(game) == ["J10", "K11"]
    assert list(game.moves.values_list("think_ms", flat=True)) == [1000, 2000]


def test_the_championship_othello_game_imports_as_a_move_string_and_as_ggf(reversi_vectors):
    case = reversi_vectors["full_game"]
    client = Client()
    game = _imported_game(_import(client, case["moves"], rules="reversi"))
    assert game.kind == "reversi" and len(_squares(game)) == 60
    assert (game.winner, game.termination) == ("X", "discs")
    assert "Black won on discs, 35–29." in client.get(f"/en/game/{game.pk}/").content.decode()
    ggf = client.get(f"/en/game/{game.pk}/download/ggf").content.decode()
    assert "RE[+6.000]" in ggf
    again = _imported_game(_import(client, ggf.replace("PB[]", "PB[Nicolet]"), rules="caro-vn"))
    assert _squares(again) == _squares(game) and again.imported["names"]["X"] == "Nicolet"
    assert "Nicolet" in client.get(f"/en/game/{again.pk}/").content.decode()
    # A file's names lose their control and format characters (an escape, a bell, a bidi override
    # that would turn the rest of the title round), as chat lines do.
    odd = _imported_game(_import(client, ggf.replace("PB[]", "PB[\x1b[31mred\x07]").replace("PW[]", "PW[\u202eevil\u202c]"),
                                 rules="caro-vn"))
    assert odd.imported["names"] == {"X": "[31mred", "O": "evil"}
    page = client.get(f"/en/game/{odd.pk}/").content.decode()
    assert "\u202e" not in page and "\x1b" not in page and "[31mred (Black) won on discs, 35–29." in page


def _psq(*moves, size=15):
    return f"Piskvorky {size}x{size}, 11:11, 0\n" + "".join(f"{x},{y},0\n" for x, y in moves) + "-1\n"


BAD = [
    ("empty", {"text": "   \n"}, "The record is empty"),
    ("huge", {"text": "H8 " * 400_000}, "too large (over 1 MB)"),
    ("wrong-size", {"text": _psq((10, 10), size=20)}, "Line 1: this board size is not played here"),
    ("occupied", {"text": "H8 I9\nH8"}, "Line 2: H8 is played on a square that is already taken."),
    ("off-board", {"text": "H8 I9 Z9"}, "Line 1: the move Z9 is off the board."),
    ("after-the-end", {"text": "H8 A1 I8 A2 J8 A3 K8 A4 L8\nA5"}, "Line 2: a move comes after the end of the game"),
    ("psq-after-end", {"text": _psq((8, 8), (1, 1), (9, 8), (1, 2), (10, 8), (1, 3), (11, 8), (1, 4), (12, 8), (1, 5))},
     "Line 11: a move comes after the end of the game"),
    ("psq-twice", {"text": _psq((8, 8), (8, 8))}, "Line 3: H8 is played on a square that is already taken."),
    ("reversi-illegal", {"text": "f5 d6\nc3 c3", "rules": "reversi"}, "Line 2: c3 is played on a square that is already taken."),
    ("reversi-no-flip", {"text": "f5 a1", "rules": "reversi"}, "a1 flips no disc"),
    ("ggf-garbage", {"text": "(;GM[Othello]B[F5] junk;)"}, "not a move of a GGF"),
    ("renju-foul", {"text": "H8 A1 I9 A3 J8 A5 I7 C1 I8", "rules": "renju"}, "foul for X"),
    ("not-a-record", {"text": "hello world"}, "Line 1: this is not a move"),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_records_get_a_clear_error_and_nothing_is_stored(case):
    _id, fields, expected = case
    before = (Game.objects.count(), Move.objects.count())
    response = _import(Client(), **{"text": "", **fields})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-testid="import-error"' in html
    assert expected in html.replace("&quot;", '"').replace("&#x27;", "'"), html[html.find("import-error"):][:600]
    assert (Game.objects.count(), Move.objects.count()) == before


def test_errors_are_in_vietnamese_on_the_vietnamese_page():
    response = Client().post("/van/nhap/", {"text": "H8 I9\nH8", "rules": "caro-vn", "size": "15"})
    assert response.status_code == 400
    assert "Dòng 2: H8 được đánh vào ô đã có quân." in response.content.decode()


@pytest.mark.parametrize("rules, text, words", [
    ("caro-vn", "hello world", "Dòng 1: đây không phải nước đi của danh sách tọa độ. Hãy kiểm tra"),
    ("reversi", "(;GM[Othello]B[F5] junk;)", "đây không phải nước đi của tệp GGF."),
])
def test_a_record_that_is_not_moves_names_its_format_in_lower_case_mid_sentence(rules, text, words):
    response = Client().post("/van/nhap/", {"text": text, "rules": rules, "size": "15"})
    html = response.content.decode()
    assert response.status_code == 400 and words in html, html[html.find("import-error"):][:600]
    assert "Danh sách tọa độ." not in html


@pytest.mark.parametrize("data", [b"\x00\x01\x02PK\x03\x04" * 100, b"\xff\xfe\xfa\xfb" * 50, b""],
                         ids=["nul-bytes", "not-utf8", "empty-file"])
def test_binary_and_empty_files_are_refused(data):
    upload = io.BytesIO(data)
    upload.name = "game.psq"
    before = Game.objects.count()
    response = Client().post("/van/nhap/", {"file": upload, "rules": "caro-vn", "size": "15"})
    assert response.status_code == 400 and 'data-testid="import-error"' in response.content.decode()
    assert Game.objects.count() == before


def test_pasted_text_with_a_nul_is_not_a_text_file_not_an_empty_record():
    before = Game.objects.count()
    response = _import(Client(), "H8\x00I9")
    html = response.content.decode()
    assert response.status_code == 400 and "This is not a text file" in html
    assert "The record is empty" not in html and Game.objects.count() == before


def test_an_upload_over_one_megabyte_is_refused_before_reading():
    upload = io.BytesIO(b"H8 " * 400_000)
    upload.name = "big.txt"
    response = Client().post("/en/game/import/", {"file": upload, "rules": "caro-vn", "size": "15"})
    assert response.status_code == 400 and "too large (over 1 MB)" in response.content.decode()


@pytest.mark.parametrize("path, words", [
    ("/en/game/import/", "The record is too large: at most 1 MB."),
    ("/van/nhap/", "Ván cờ quá lớn: tối đa 1 MB."),
])
@pytest.mark.parametrize("encoding", ["multipart", "urlencoded"])
def test_a_paste_over_the_request_limit_gets_the_form_back_with_why_and_nothing_is_stored(path, words, encoding):
    """Attacker run: a pasted text over 2.5 MB (DATA_UPLOAD_MAX_MEMORY_SIZE, which Django checks
    before the view, in the CSRF check) was a 400 page with no word about why. As a browser sends
    it (the CSRF token checked): 413, the import form again (empty) with a translated reason."""
    from django.conf import settings

    client = Client(enforce_csrf_checks=True)
    client.get(path)
    paste = "H8 I9 " + "Q7Z9-paste-marker " * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 18 + 1)
    fields = {"csrfmiddlewaretoken": client.cookies["csrftoken"].value, "text": paste, "rules": "caro-vn",
              "size": "15"}
    before = (Game.objects.count(), Move.objects.count())
    if encoding == "multipart":
        response = client.post(path, fields)
    else:
        from urllib.parse import urlencode

        response = client.post(path, urlencode(fields), content_type="application/x-www-form-urlencoded")
    html = response.content.decode()
    assert response.status_code == 413, html[:300]
    assert 'data-testid="import-error"' in html and words in html, html[html.find("import-error"):][:600]
    assert 'data-testid="import"' in html  # the form, to try again
    assert "Q7Z9-paste-marker" not in html and len(html) < 100_000
    assert (Game.objects.count(), Move.objects.count()) == before


@override_settings(CARO_IMPORTS_PER_WINDOW=2)
def test_imports_are_rate_limited_per_client():
    client = Client()
    _imported_game(_import(client, "H8"))
    _imported_game(_import(client, "H8 I9"))
    before = Game.objects.count()
    response = _import(client, "H8 I9 J10")
    assert response.status_code == 429 and "Wait a few minutes" in response.content.decode()
    assert Game.objects.count() == before


def test_absurd_psq_times_are_kept_within_a_day():
    text = "Piskvorky 15x15, 11:11, 0\n8,8,999999999999\n9,9,-5\n-1\n"
    game = _imported_game(_import(Client(), text))
    assert list(game.moves.order_by("ply").values_list("think_ms", flat=True)) == [86_400_000, 0]
