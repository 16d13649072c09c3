"""Real Chromium at phone (360×740, Vietnamese) and desktop (1280×800, English) size: issue 30's
rough edges that live on pages other than the room (the room's are in test_room_polish.py, the
home page's in test_lobby_live.py): 2. an annulled game marked on its record, in "My games" and on
the profile; 8. an imported record shows its players' names; 9. "My games" promises nothing about
an account to a signed-in player; 10. the admin's game page shows the position as a board and the
rules in words. Every wait is for a page state, never for a fixed time.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.helpers import _context, _login, _off_loop

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

BOTH = [pytest.param("vi", 360, id="vi-360"), pytest.param("en", 1280, id="en-1280")]
NO_OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
MINE = {"vi": "/van/cua-toi/", "en": "/en/game/mine/"}


def _record(lang, game_id):
    return f"/van/{game_id}/" if lang == "vi" else f"/en/game/{game_id}/"


# ------------------------------------------------------------------ 2. an annulled game

ANNULLED = {"vi": ("Đã hủy kết quả: không tính điểm", "Đã hủy kết quả", "đã hủy kết quả"),
            "en": ("Annulled: not counted", "Annulled", "annulled")}


@pytest.mark.parametrize("lang, width", BOTH)
def test_an_annulled_game_is_marked_on_its_record_in_my_games_and_on_the_profile(browser, live_server_url, lang,
                                                                                 width):
    from moderation import services as moderation
    from tests.integration.moderation_helpers import moderator
    from tests.integration.ranking.builders import account, won_by

    def make():
        winner, loser = account(display_name="Được_Xóa"), account(display_name="Mất_Xóa")
        game = won_by(winner, loser)
        kept = won_by(winner, loser)  # a second game, not annulled: no mark
        moderation.annul(moderator(), game, reason="two accounts of one person")
        return winner, game, kept

    winner, game, kept = _off_loop(make)
    on_record, in_list, on_profile = ANNULLED[lang]
    context = _context(browser, lang, width)
    try:
        _login(context, live_server_url, winner)
        page = context.new_page()
        page.goto(live_server_url + _record(lang, game.pk))
        mark = page.locator('[data-testid="annulled"]')
        assert mark.is_visible() and on_record in mark.inner_text()
        page.goto(live_server_url + _record(lang, kept.pk))
        assert page.locator('[data-testid="annulled"]').count() == 0
        page.goto(live_server_url + MINE[lang])
        rows = page.locator('[data-testid="my-games"] li')
        assert rows.count() == 2
        marked = page.locator(f'[data-testid="my-games"] li:has(a[href$="/{game.pk}/"]) [data-testid="annulled"]')
        assert marked.is_visible() and marked.inner_text() == in_list
        assert page.locator('[data-testid="my-games"] [data-testid="annulled"]').count() == 1
        assert page.evaluate(NO_OVERFLOW) <= 0
        page.goto(f"{live_server_url}/nguoi-choi/{winner.username}/")
        row = page.locator('[data-testid="recent-games"] [data-testid="annulled"]')
        assert row.count() == 1 and on_profile in row.inner_text()
        assert row.locator(f'a[href$="/{game.pk}/"]').count() == 1
        assert page.evaluate(NO_OVERFLOW) <= 0
    finally:
        context.close()


# ------------------------------------------------------------------ 8. an imported record's names

PSQ = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,9,0\n-1\nYixin2018.zip\nEmbryo21.zip\n0,Freestyle15\n"
UNKNOWN = {"vi": "người chơi không rõ tên", "en": "unknown player"}


@pytest.mark.parametrize("lang, width", BOTH)
def test_an_imported_record_shows_the_players_names_from_the_record(browser, live_server_url, lang, width):
    context = _context(browser, lang, width)
    try:
        page = context.new_page()
        page.goto(live_server_url + ("/van/nhap/" if lang == "vi" else "/en/game/import/"))
        page.fill('textarea[name="text"]', PSQ)
        page.select_option('select[name="rules"]', "freestyle")
        page.click('[data-testid="import"]')
        page.wait_for_url(re.compile(r"/(van|en/game)/\d+/$"))
        page.locator('[data-testid="imported"]').wait_for()
        text = page.inner_text("main")
        assert "Yixin2018.zip" in text and "Embryo21.zip" in text
        assert UNKNOWN[lang] not in text.lower()
        assert not re.search(r"\b0[.,]0 (s|giây)\b", text), "a record without times shows none"
        assert page.evaluate(NO_OVERFLOW) <= 0
        page.goto(live_server_url + MINE[lang])  # this visitor's imported records list it by the names
        assert "Yixin2018.zip – Embryo21.zip" in page.inner_text("main")
    finally:
        context.close()


# ------------------------------------------------------------------ 9. "My games" for an account

PROMISE = {"vi": ("Đăng ký để giữ chúng mãi mãi", "Các ván của bạn, ván mới nhất ở trên cùng."),
           "en": ("Sign up to keep them for good", "Your games, newest first.")}


@pytest.mark.parametrize("lang, width", BOTH)
def test_my_games_promises_an_account_to_a_guest_only(browser, live_server_url, lang, width):
    from accounts.guests import create_guest
    from tests.integration.ranking.builders import account

    member, guest = _off_loop(lambda: (account(display_name="Có_Tài_Khoản"), create_guest()))
    promise, plain = PROMISE[lang]
    for user, promised in ((member, False), (guest, True)):
        context = _context(browser, lang, width)
        try:
            _login(context, live_server_url, user)
            page = context.new_page()
            page.goto(live_server_url + MINE[lang])
            hint = page.inner_text(".my-games .hint")
            assert (promise in hint) is promised and (plain in hint) is not promised, hint
        finally:
            context.close()


# ------------------------------------------------------------------ 10. the admin's game page

RULES_WORDS = {"vi": "15×15 · chặn hai đầu", "en": "15×15 · blocked two ends"}


@pytest.mark.parametrize("lang, width", BOTH)
def test_the_admin_game_page_shows_a_board_and_the_rules_in_words(browser, live_server_url, lang, width):
    from django.contrib.auth import get_user_model

    from tests.integration.ranking.builders import account, rated_game

    def make():
        admin = get_user_model().objects.create_superuser(f"root_{lang}", f"root_{lang}@example.com", "pw-root-123456")
        return admin, rated_game(account(), account(), moves=2)

    admin, game = _off_loop(make)
    context = _context(browser, lang, width)
    try:
        _login(context, live_server_url, admin)
        page = context.new_page()
        page.goto(f"{live_server_url}/admin/games/game/{game.pk}/change/")
        board = page.locator('[data-testid="admin-board"] svg')
        board.wait_for()
        box = board.bounding_box()
        assert box["width"] >= 200 and box["height"] >= 200, f"a board to read, not an icon: {box}"
        text = page.inner_text("#content")
        assert RULES_WORDS[lang] in text, text[:600]
        assert "Rules.to_dict" not in text and "win_length" not in text and game.position not in text
    finally:
        context.close()


# ------------------------------------------------------------------ the leaderboard welcomes new players

WHY = {"vi": "tạm tính", "en": "provisional"}


@pytest.mark.parametrize("lang, width", BOTH)
def test_after_one_rated_game_both_new_players_are_on_the_leaderboard_marked_provisional(browser, live_server_url,
                                                                                         lang, width):
    """Both players of one rated game (played through the services; test_ranked_journey.py plays it
    through the board in Vietnamese) are listed after the established players, each rating
    marked "?", with the line saying why, and the viewer's own row shown to them."""
    from ranking.models import Rating
    from tests.integration.ranking.builders import account, won_by

    def make():
        listed = account(display_name="Bảng_Vàng")
        Rating.objects.create(user=listed, category="caro", value=1500, games=12, wins=8, draws=1, losses=3,
                              peak=1510, listed=True, established=True)
        winner, loser = account(display_name="Mới_Thắng"), account(display_name="Mới_Thua")
        won_by(winner, loser)
        ratings = {r.user_id: r for r in Rating.objects.filter(user__in=[winner, loser], category="caro")}
        return listed, winner, loser, ratings

    listed, winner, loser, ratings = _off_loop(make)
    assert all(r.games == 1 and r.provisional and r.listed for r in ratings.values())
    context = _context(browser, lang, width)
    try:
        _login(context, live_server_url, loser)
        page = context.new_page()
        page.goto(live_server_url + "/bang-xep-hang/")
        table = page.inner_text('[data-testid="leaderboard"]')
        assert table.index(listed.public_name) < table.index(winner.public_name) < table.index(loser.public_name)
        for user in (winner, loser):
            row = page.locator('[data-testid="leaderboard"] tr', has_text=user.public_name).inner_text()
            assert f"{ratings[user.pk].value}?" in row, row
        assert "1500?" not in page.locator('[data-testid="leaderboard"] tr', has_text=listed.public_name).inner_text()
        assert WHY[lang] in page.inner_text('[data-testid="provisional-why"]')
        assert loser.public_name in page.inner_text('[data-testid="my-row"]')
        assert page.evaluate(NO_OVERFLOW) <= 0
    finally:
        context.close()
