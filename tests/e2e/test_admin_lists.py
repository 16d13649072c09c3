"""Real Chromium at 1280 px: the admin's games list fits beside the admin's sidebar (no column cut
off, no sideways scroll), and names each game's players as one "X – O" column: the computer with
its level, a game on one device once, not as the same user twice."""

import uuid

import pytest

from accounts.models import User
from caro.games.models import Game
from tests.e2e.helpers import _context, _login, _off_loop
from tests.integration.moderation_helpers import moderator

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]


def _games():
    lan = User.objects.create_user(username="lan_nguyen_thi_hoa", display_name="Nguyễn Thị Hoa Lan")
    minh = User.objects.create_user(username="minh_tran_van_duc", display_name="Trần Văn Đức Minh")
    finished = {"status": Game.Status.FINISHED, "winner": "X", "ply": 9}
    human = Game.objects.create(host=lan, guest=minh, rated=True, termination=Game.Termination.FIVE, **finished)
    computer = Game.objects.create(host=lan, bot_seat="guest", bot_level="hard", upload_id=uuid.uuid4(),
                                   termination=Game.Termination.FIVE, **finished)
    local = Game.objects.create(host=minh, guest=minh, upload_id=uuid.uuid4(),
                                termination=Game.Termination.RESIGN, **finished)
    annulled = Game.objects.create(host=minh, guest=lan, rated=True, annulled=True,
                                   termination=Game.Termination.TIMEOUT, **finished)
    # The longest words of the status and rating columns: a ranked game aborted before both had moved,
    # and a game waiting for its second player.
    aborted = Game.objects.create(host=lan, guest=minh, rated=True, status=Game.Status.ABORTED,
                                  termination=Game.Termination.ABORT)
    waiting = Game.objects.create(host=minh)
    return moderator("desk"), {"human": human.pk, "computer": computer.pk, "local": local.pk,
                               "annulled": annulled.pk, "aborted": aborted.pk, "waiting": waiting.pk}


@pytest.mark.parametrize("lang", ["vi", "en"])
def test_the_games_list_fits_at_1280_px_and_names_the_computer_and_one_device_games(browser, live_server_url, lang):
    mod, ids = _off_loop(_games)
    ctx = _context(browser, lang, 1280)
    _login(ctx, live_server_url, mod)
    page = ctx.new_page()
    page.goto(f"{live_server_url}/admin/games/game/")
    page.wait_for_selector("#result_list")
    assert page.locator("#nav-sidebar").is_visible()  # the sidebar is open, as a moderator sees it
    sizes = page.evaluate("""() => {
        const table = document.querySelector('#result_list');
        const box = table.closest('.results');
        return {page: document.documentElement.scrollWidth, view: window.innerWidth,
                table: table.getBoundingClientRect().right, box: box.getBoundingClientRect().right,
                boxScroll: box.scrollWidth, boxWidth: box.clientWidth};
    }""")
    assert sizes["page"] <= sizes["view"], sizes
    assert sizes["boxScroll"] <= sizes["boxWidth"] and sizes["table"] <= sizes["box"] + 1, sizes

    def row(key):
        return " ".join(page.locator(f'#result_list tr:has(a[href$="/{ids[key]}/change/"])').inner_text().split())

    computer = {"vi": "Máy (Khó)", "en": "Computer (Hard)"}[lang]
    assert f"Nguyễn Thị Hoa Lan – {computer}" in row("computer")
    one_device = {"vi": "Trần Văn Đức Minh (hai người một máy)", "en": "Trần Văn Đức Minh (two players, one device)"}
    assert one_device[lang] in row("local") and row("local").count("Trần Văn Đức Minh") == 1
    assert "Nguyễn Thị Hoa Lan – Trần Văn Đức Minh" in row("human")
    assert {"vi": "đã hủy kết quả", "en": "annulled"}[lang] in row("annulled")
    aborted = {"vi": ("Đã hủy trước khi cả hai người đi", "xếp hạng, không tính điểm"),
               "en": ("Aborted before both players had moved", "ranked, not counted")}[lang]
    assert all(words in row("aborted") for words in aborted), row("aborted")
    waiting = {"vi": "Trần Văn Đức Minh, đang chờ đối thủ", "en": "Trần Văn Đức Minh, waiting for an opponent"}[lang]
    assert waiting in row("waiting"), row("waiting")
    ctx.close()


def _reports():
    from moderation.reports import file_report
    from tests.integration.ranking.builders import account, won_by

    lan = account(display_name="Nguyễn Thị Hoa Lan")
    minh = account(display_name="Trần Văn Đức Minh")
    game = won_by(lan, minh)
    file_report(minh, game, reason="cheating", note="too strong")
    return moderator("desk"), game.pk


def test_the_reports_list_fits_at_1280_px_with_its_note_field(browser, live_server_url):
    mod, game_id = _off_loop(_reports)
    ctx = _context(browser, "vi", 1280)
    _login(ctx, live_server_url, mod)
    page = ctx.new_page()
    page.goto(f"{live_server_url}/admin/moderation/report/")
    page.wait_for_selector("#result_list")
    sizes = page.evaluate("""() => {
        const box = document.querySelector('#result_list').closest('.results');
        return {page: document.documentElement.scrollWidth, view: window.innerWidth,
                boxScroll: box.scrollWidth, boxWidth: box.clientWidth};
    }""")
    assert sizes["page"] <= sizes["view"] and sizes["boxScroll"] <= sizes["boxWidth"], sizes
    assert page.locator('.actions input[name="note"]').is_visible()
    assert page.locator(f'#result_list a[href$="/games/game/{game_id}/change/"]').inner_text() == f"#{game_id}"
    ctx.close()
