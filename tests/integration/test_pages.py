"""HTTP pages through Django's test client: home, rooms, codes, languages, health."""

import re

import pytest
from django.test import Client

from accounts.models import User
from caro.games.models import Game
from caro.rooms.models import CODE_ALPHABET, Room
from caro.rooms.services import normalize_code

pytestmark = pytest.mark.django_db


def _create_room(client: Client) -> Room:
    response = client.post("/rooms/new")
    assert response.status_code == 302
    code = re.search(r"/r/([A-Z0-9]{6})/$", response["Location"]).group(1)
    return Room.objects.get(code=code)


def test_home_is_vietnamese_by_default_and_english_on_request():
    vi = Client().get("/")
    assert vi.status_code == 200
    assert "Chơi caro ngay" in vi.content.decode() and 'lang="vi"' in vi.content.decode()
    assert "15×15 · chặn hai đầu · 1 phút/nước" in vi.content.decode()
    en = Client(headers={"accept-language": "en"}).get("/")
    assert "Play caro right now" in en.content.decode()
    assert "15×15 · blocked two ends · 1 min/move" in en.content.decode()


def test_the_ranked_link_asks_for_an_account_only_of_those_without_one():
    """A guest reads "Ván xếp hạng (cần tài khoản)"; a signed-in player, who has one, "Ván xếp hạng"."""
    guest_page = Client().get("/").content.decode()
    assert "Ván xếp hạng (cần tài khoản)" in guest_page
    client = Client()
    client.force_login(User.objects.create_user("Lan", password="Caro!pass2026x"),
                       backend="django.contrib.auth.backends.ModelBackend")
    page = client.get("/").content.decode()
    assert ">Ván xếp hạng</a>" in page and "(cần tài khoản)" not in page


def test_the_language_switcher_sets_the_language():
    client = Client()
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    assert "Play caro right now" in client.get("/").content.decode()


def test_creating_a_room_makes_a_guest_with_seat_x():
    client = Client()
    room = _create_room(client)
    assert len(room.code) == 6 and set(room.code) <= set(CODE_ALPHABET)
    game = room.current_game
    assert game.status == Game.Status.WAITING and game.x_player.is_guest and game.x_player.display_name
    page = client.get(f"/r/{room.code}/").content.decode()
    assert room.display_code in page and 'aria-label="H8, trống"' in page
    assert page.count('class="sq"') == 225


def test_creating_a_room_needs_post():
    assert Client().get("/rooms/new").status_code == 405


def test_the_second_visitor_takes_the_seat_and_the_third_watches():
    room = _create_room(Client())
    second, third = Client(), Client()
    assert 'data-testid="take-seat"' in second.get(f"/r/{room.code}/").content.decode()
    assert second.post(f"/r/{room.code}/join").status_code == 302
    room.current_game.refresh_from_db()
    assert room.current_game.status == Game.Status.ACTIVE
    page = third.get(f"/r/{room.code}/").content.decode()
    assert 'data-testid="take-seat"' not in page
    third.post(f"/r/{room.code}/join")  # too late: a clear message, no seat
    room.current_game.refresh_from_db()
    assert getattr(room.current_game.o_player, "pk", None) != getattr(third.session, "_auth_user_id", None)
    assert "Cả hai ghế đã có người" in third.get(f"/r/{room.code}/").content.decode()


@pytest.mark.parametrize("typed", ["{}", "{} ", "{lower}", "{a} {b}", "{a}-{b}"])
def test_joining_by_code_accepts_what_people_type(typed):
    room = _create_room(Client())
    text = typed.format(room.code, lower=room.code.lower(), a=room.code[:3], b=room.code[3:])
    response = Client().get("/rooms/join", {"code": text})
    assert response.status_code == 302 and response["Location"] == f"/r/{room.code}/"


def _join_box(page: str) -> str:
    """The home page's "join with a code" form, as HTML."""
    return re.search(r'<form[^>]*class="join-code".*?</form>', page, re.S).group(0)


@pytest.mark.parametrize("typed", ["", "ABC", "K7M4QP9", "<script>", "K7M 4Q!"])
def test_joining_by_a_bad_code_explains_beside_the_box_on_the_home_page(typed):
    response = Client().get("/rooms/join", {"code": typed})
    assert response.status_code == 200
    assert "Chơi caro ngay" in response.content.decode()  # the home page, with every way to play
    box = _join_box(response.content.decode())
    assert ("Mã phòng gồm 6 chữ và số" in box) == bool(typed)  # empty: "this field is required"
    assert 'aria-invalid="true"' in box and 'role="alert"' in box and "autofocus" in box


def test_a_bare_join_address_goes_home():
    response = Client().get("/rooms/join")
    assert response.status_code == 302 and response["Location"] == "/"


def test_a_code_with_null_characters_is_refused_in_vietnamese():
    response = Client().get("/rooms/join", {"code": "\x00\x00\x00"})
    assert response.status_code == 200
    box = _join_box(response.content.decode())
    assert "Null characters" not in box and "ký tự rỗng" in box


def test_renju_on_the_home_page_is_always_15_by_15_with_five_and_reversi_shows_its_own_clock():
    page = Client().get("/", {"preset": "renju", "size": "19", "win_length": "4"})
    assert page.context["room_form"].initial["size"] == 15 and page.context["room_form"].initial["win_length"] == 5
    lines = page.context["rules_lines"]
    assert [key for key in lines if key.startswith("renju|")] == ["renju|15|5"]
    assert "30 giây/nước" in lines["reversi"] and "1 phút/nước" in lines["caro-vn|15|5"]
    assert "30 giây/nước" in Client().get("/", {"preset": "reversi"}).context["rules_line"]


@pytest.mark.parametrize("typed, shown", [("KKKKKK", "KKK KKK"), ("zzz zzz", "ZZZ ZZZ"), ("00000O", "000 00O")])
def test_six_characters_that_match_no_room_say_so_beside_the_box_that_keeps_them(typed, shown):
    response = Client().get("/rooms/join", {"code": typed})
    page = response.content.decode()
    box = _join_box(page)
    # the reason under the box (the code never split over two lines), not in the messages at the top
    assert f"Không có phòng nào mang mã {shown.replace(' ', chr(0xA0))}" in box
    assert 'class="messages' not in page
    value = re.search(r'<input[^>]*name="code"[^>]*>', box).group(0)
    assert f'value="{typed}"' in value  # what was typed stays in the box, to correct it
    assert 'aria-describedby="id_code_error"' in value and 'id="id_code_error"' in box


def test_bad_rules_keep_the_choices_and_open_the_panel():
    response = Client().post("/rooms/new", {"preset": "renju", "size": "19", "win_length": "5"}, follow=True)
    page = response.content.decode()
    assert "Renju chơi trên bàn 15×15" in page
    assert '<details class="rules-choice" open>' in page
    # Renju stays chosen, on its own numbers (15×15, five), ready to try again.
    assert re.search(r'<option value="15" selected>', page) and re.search(r'<option value="renju" selected>', page)


def test_room_urls_are_canonical_and_unknown_rooms_are_404():
    room = _create_room(Client())
    assert Client().get(f"/r/{room.code.lower()}/")["Location"] == f"/r/{room.code}/"
    assert Client().get("/r/KKKKKK/").status_code == 404
    assert Client().get("/r/nonsense/").status_code == 404
    assert Client().post("/r/KKKKKK/join").status_code == 404


def test_normalize_code():
    assert normalize_code(" k7m 4qp ") == "K7M4QP"
    assert normalize_code("K7M4Q") is None and normalize_code(None) is None


def test_healthz_checks_the_database_and_redis():
    response = Client().get("/healthz")
    assert response.status_code == 200 and response.content == b"ok"


@pytest.mark.parametrize(
    "post, expected",
    [
        ({"preset": "freestyle", "size": "19", "win_length": "5"},
         {"size": 19, "win_length": 5, "exact": False, "blocked": "none", "renju": False}),
        ({"preset": "caro-exact", "size": "11", "win_length": "4"},
         {"size": 11, "win_length": 4, "exact": True, "blocked": "opponent_or_edge", "renju": False}),
        ({"preset": "renju", "size": "15", "win_length": "5"},
         {"size": 15, "win_length": 5, "exact": False, "blocked": "none", "renju": True}),
        ({"preset": "renju-rif", "size": "15", "win_length": "5"},
         {"size": 15, "win_length": 5, "exact": False, "blocked": "none", "renju": True}),
        ({"preset": "swap2", "size": "15", "win_length": "5"},
         {"size": 15, "win_length": 5, "exact": True, "blocked": "none", "renju": False}),
    ],
)
def test_a_room_can_be_created_with_other_rules(post, expected):
    client = Client()
    response = client.post("/rooms/new", post)
    room = Room.objects.get(code=re.search(r"/r/([A-Z0-9]{6})/$", response["Location"]).group(1))
    assert room.current_game.rules == expected
    page = client.get(f"/r/{room.code}/").content.decode()
    assert page.count('class="sq"') == expected["size"] ** 2


@pytest.mark.parametrize(
    "post",
    [
        {"preset": "renju", "size": "19", "win_length": "5"},
        {"preset": "renju-rif", "size": "13", "win_length": "5"},
        {"preset": "nonsense", "size": "15", "win_length": "5"},
        {"preset": "caro-vn", "size": "16", "win_length": "5"},
        {"preset": "caro-vn", "size": "15", "win_length": "9"},
    ],
)
def test_bad_room_rules_are_refused_with_a_message(post):
    client = Client()
    response = client.post("/rooms/new", post, follow=True)
    assert response.redirect_chain[-1][0].startswith("/?") and "rules=open" in response.redirect_chain[-1][0]
    assert not Room.objects.exists()
    assert 'class="msg-error"' in response.content.decode()


def _first_move_parts(page: str) -> tuple[str, str]:
    """The opening tags of the friend room's first-move choice and of the note shown instead."""
    return (re.search(r'<label data-role="first-choice"[^>]*>', page).group(0),
            re.search(r'<p class="hint" data-role="first-drawn"[^>]*>', page).group(0))


def test_the_home_page_offers_the_first_move_choice_for_caro_but_not_reversi():
    """Reversi draws the colours of game 1 (caro.games.kinds): the choice would be ignored, so a
    page opened with Reversi chosen (no script needed) shows a note in its place."""
    choice, note = _first_move_parts(Client().get("/").content.decode())
    assert "hidden" not in choice and "hidden" in note
    page = Client().get("/", {"preset": "reversi"}).content.decode()
    choice, note = _first_move_parts(page)
    assert "hidden" in choice and "hidden" not in note
    assert "Cờ lật: màu quân ở ván đầu được chọn ngẫu nhiên" in page


@pytest.mark.parametrize("first", ["host", "guest", "rps", ""])
def test_a_reversi_room_draws_the_first_mover_whatever_the_form_says(first):
    response = Client().post("/rooms/new", {"preset": "reversi", "first": first})
    assert response.status_code == 302 and re.search(r"/r/[A-Z0-9]{6}/$", response["Location"])
    room = Room.objects.get()
    assert room.first_mover == "random" and room.current_game.first_mover == "random"


def test_a_caro_room_keeps_the_host_s_first_mover_and_a_forged_one_is_refused_cleanly():
    Client().post("/rooms/new", {"preset": "caro-vn", "first": "guest"})
    assert Room.objects.get().first_mover == "guest"
    for preset in ("caro-vn", "reversi"):
        response = Client().post("/rooms/new", {"preset": preset, "first": "black"}, follow=True)
        assert response.status_code == 200 and response.redirect_chain[-1][0].startswith("/?")
        assert 'class="msg-error"' in response.content.decode()
    assert Room.objects.count() == 1


def test_the_match_page_sends_a_player_whose_matched_game_goes_on_back_to_it_saying_why():
    from accounts.guests import create_guest
    from caro.games import services as games
    from ranking import pairing

    a, b = create_guest(), create_guest()
    pairing.arrive(a, "quick", "caro-15-blocked")
    _seek, made = pairing.arrive(b, "quick", "caro-15-blocked")
    client = Client()
    client.force_login(a)
    for query in ("?mode=ranked", "", "?mode=quick&q=caro-15-blocked&go=1"):
        response = client.get("/match/" + query, follow=True)
        assert response.redirect_chain == [(f"/r/{made.room_code}/", 302)]
        assert "Ván của bạn vẫn đang diễn ra" in response.content.decode()
    games.resign(made.game_id, a)  # before both moved: aborted, over
    response = client.get("/match/?mode=ranked")
    assert response.status_code == 200 and "Ván của bạn" not in response.content.decode()


def test_the_guides_play_now_link_preselects_the_rules():
    page = Client().get("/", {"preset": "renju"}).content.decode()
    assert re.search(r'<option value="renju" selected>', page)
    assert "15×15 · Renju" in page
    page = Client().get("/", {"preset": "<script>"}).content.decode()
    assert re.search(r'<option value="caro-vn" selected>', page)


def test_the_home_page_title_is_plain_text():
    page = Client().get("/").content.decode()
    title = re.search(r"<title>(.*?)</title>", page, re.S).group(1)
    assert "<" not in title and "Chơi caro trực tuyến" in title
    assert page.count("<script>") == 1  # the rules sync script, once


@pytest.mark.parametrize("query", ["preset=renju&win_length=6", "preset=renju&size=15&win_length=4&rules=open",
                                   "preset=renju-rif&win_length=6"])
def test_home_with_a_rules_pair_the_preset_refuses_shows_the_preset_s_own(client, query):
    page = client.get(f"/?{query}")
    assert page.status_code == 200
    assert page.context["room_form"].initial["win_length"] == 5


@pytest.mark.parametrize("path", ["/match/start", "/rooms/new", "/rooms/computer"])
def test_opening_a_post_only_address_gets_a_translated_405_page(path):
    vi = Client().get(path)
    assert vi.status_code == 405 and vi["Allow"] == "POST"
    page = vi.content.decode()
    assert 'lang="vi"' in page and "Địa chỉ này chỉ nhận biểu mẫu" in page
    assert 'href="/"' in page and "</nav>" in page  # the site's layout, a way back home
    en = Client(headers={"accept-language": "en"}).get(path)
    assert en.status_code == 405 and "This address only takes a form" in en.content.decode()
    assert not Room.objects.exists()


def test_a_spectator_without_a_name_gets_one_to_chat_and_goes_back_to_the_chat():
    host = Client()
    room = _create_room(host)
    visitor = Client()
    page = visitor.get(f"/r/{room.code}/").content.decode()
    assert 'data-testid="chat-signin"' in page and 'data-testid="chat-input"' not in page
    # The chat offers the name the header already shows (new-user trial: it said "you need a name"
    # beside a header showing one), and the guest made by the press gets that name.
    shown = re.search(r'data-testid="guest-name"[^>]*>([^<]+)<', page).group(1).strip()
    assert re.search(r"Trò chuyện với tên ([^<]+)</button>", page).group(1) == shown
    assert "Trò chuyện bằng tên khách" not in page
    response = visitor.post(f"/r/{room.code}/chat-name")
    assert response.status_code == 302 and response["Location"] == f"/r/{room.code}/#chat"
    page = visitor.get(f"/r/{room.code}/").content.decode()
    assert 'data-testid="chat-input"' in page and 'data-testid="chat-signin"' not in page
    assert User.objects.order_by("-pk")[0].public_name == shown
    # A visitor who has a name keeps it (no second guest); an unknown room is 404.
    before = User.objects.count()
    assert visitor.post(f"/r/{room.code}/chat-name").status_code == 302
    assert User.objects.count() == before
    assert Client().post("/r/KKKKKK/chat-name").status_code == 404


@pytest.mark.parametrize("address", ["/nguoi-choi/%00/", "/nguoi-choi/a%00b/", "/r/%00/", "/van/%00/"])
def test_a_nul_byte_in_the_address_is_a_404_not_a_500(address):
    response = Client().get(address)
    assert response.status_code == 404


def test_the_match_page_shows_how_many_wait_to_a_visitor_without_a_name_yet():
    from django.core.cache import cache
    from django.utils import timezone

    from accounts.guests import create_guest
    from ranking import pairing
    from ranking.seeks import Seek
    from ranking.tasks import COUNTS_KEY

    cache.delete(COUNTS_KEY)
    page = Client().get("/match/").content.decode()
    assert re.search(r'data-testid="quick-count">\s*</span>', page)  # nobody waits: nothing said
    pairing.arrive(create_guest(), "quick", "caro-15-blocked")
    Seek.objects.update(sockets=1, seen_at=timezone.now())  # its page is open
    cache.delete(COUNTS_KEY)
    page = Client().get("/match/").content.decode()  # no session: this page opens no seek socket
    assert re.search(r'data-testid="quick-count">1 người đang chờ</span>', page)
    cache.set(COUNTS_KEY, {"quick": {"caro-15-blocked": 3}, "ranked": {}}, 60)  # the beat's last counts
    page = Client(headers={"accept-language": "en"}).get("/match/").content.decode()
    assert re.search(r'data-testid="quick-count">3 players waiting</span>', page)
    cache.delete(COUNTS_KEY)


@pytest.mark.parametrize("choice", ["caro-²", "caro-¹⁵", "caro-①", "caro-١٥"])
def test_a_quick_choice_in_digits_int_refuses_is_ignored_not_a_500(choice):
    assert Client().get("/match/", {"q": choice}).status_code == 200
    response = Client().post("/match/start", {"mode": "quick", "q": choice})
    assert response.status_code == 302 and "go=1" in response["Location"]
    assert choice not in response["Location"]


def test_a_guide_s_play_now_link_chooses_quick_match_s_rules_too():
    """`/?preset=reversi` (a guide's "play now with these rules"): the headline, the rules line and
    quick match's button and line all name Reversi from the first paint (new-user trial: quick match
    kept its caro choice and sought a caro game)."""
    page = Client().get("/?preset=reversi").content.decode()
    assert "Chơi cờ lật ngay" in re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S).group(1)
    assert re.search(r'name="q" value="reversi" data-role="quick-key"', page)
    plain = Client().get("/").content.decode()
    assert re.search(r'name="q" value="caro-15-blocked" data-role="quick-key"', plain)
    assert "Chơi caro ngay" in re.search(r"<h1[^>]*>(.*?)</h1>", plain, re.S).group(1)


def test_the_home_rules_line_names_the_opening_procedure():
    page = Client(headers={"accept-language": "en"}).get("/?preset=swap2").content.decode()
    line = re.search(r'data-role="rules-line">(.*?)</p>', page, re.S).group(1)
    assert "Swap2 opening" in line
