"""Real Chromium: Reversi's legal squares. The player to move sees a dot on each square the server's
`legal` list names (docs/protocol.md), nobody else does; a square with no flip sends no move and
says why; the two-players-one-device page marks the squares of whoever is to move. The server's own
refusal of a forged move is tests/integration/test_reversi_games.py's. The home page's friend-room
form offers no first-move choice for Reversi (its colours are drawn at random in game 1)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from accounts.guests import create_guest
from caro.engine.reversi import Board
from caro.games.models import Game
from caro.rooms import services as rooms
from caro.rooms.models import Room
from tests.integration.helpers import legacy_room
from tests.e2e.helpers import _context, _off_loop, _open

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

LEGAL = "els => els.map(e => e.dataset.sq).sort()"
SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screens"
NOTE = {"vi": "không lật được quân nào", "en": "flips no disc"}


def _reversi_room(kind="friend"):
    def make():
        host = create_guest()
        if kind == "local":  # a one-device room stored from before issue 26
            return legacy_room(host, "local", "reversi"), host, None
        room = rooms.create_room(host, "reversi")
        guest = create_guest()
        rooms.join(room, guest)
        game = Game.objects.get(pk=room.current_game_id)
        black = host if game.side_of_user(host) == "X" else guest
        return room, black, guest if black is host else host
    return _off_loop(make)


def _sent_moves(context):
    """The `move` frames the sockets of `context`'s pages send, in order (a list that grows)."""
    sent = []

    def watch(ws):
        ws.on("framesent", lambda payload: sent.append(payload) if '"move"' in str(payload) else None)
    context.on("page", lambda page: page.on("websocket", watch))
    return sent


def _legal(page):
    return page.eval_on_selector_all(".board .sq.legal", LEGAL)


@pytest.mark.parametrize("lang, width", [("vi", 360), ("en", 1280)])
def test_the_player_to_move_sees_the_legal_squares_and_a_square_that_flips_nothing_sends_no_move(
        browser, live_server_url, lang, width):
    room, black, white = _reversi_room()
    start = sorted(Board().legal_moves())
    ctx_b, ctx_w = _context(browser, lang, width), _context(browser, lang, width)
    try:
        page_w = _open(ctx_w, live_server_url, white, room)
        sent = _sent_moves(ctx_b)
        page_b = _open(ctx_b, live_server_url, black, room)
        page_b.wait_for_selector(".board .sq.legal")
        assert _legal(page_b) == start == ["c4", "d3", "e6", "f5"]
        assert page_b.get_attribute('.sq[data-sq="d3"]', "aria-disabled") == "false"
        assert page_b.get_attribute('.sq[data-sq="a1"]', "aria-disabled") == "true"
        assert _legal(page_w) == []  # not White's turn: no dots
        # a1 flips nothing: the page says so and sends nothing.
        page_b.click('.sq[data-sq="a1"]', force=True)  # aria-disabled: Playwright would wait
        page_b.wait_for_function("document.querySelector('[data-role=note]').textContent.length > 0")
        assert NOTE[lang] in page_b.inner_text('[data-role="note"]')
        assert page_b.get_attribute('.sq[data-sq="a1"]', "data-stone") == ""
        # d3 is legal: it is played; the only move frame sent is d3's (a1's would have gone first).
        page_b.click('.sq[data-sq="d3"]')
        page_w.wait_for_selector('.sq[data-sq="d4"][data-stone="X"]')  # d4 flipped
        assert len(sent) == 1 and '"d3"' in str(sent[0]), sent
        board = Board()
        board.play("d3")
        page_w.wait_for_selector(".board .sq.legal")
        assert _legal(page_w) == sorted(board.legal_moves())
        page_b.wait_for_function("document.querySelectorAll('.board .sq.legal').length === 0")
        assert page_b.inner_text('[data-role="conn"]') == ""  # no refusal from the server
        SHOTS.mkdir(parents=True, exist_ok=True)
        page_w.screenshot(path=str(SHOTS / f"reversi-legal-{lang}-{width}.png"), full_page=True)
    finally:
        ctx_b.close()
        ctx_w.close()


def test_on_one_device_the_side_to_move_s_squares_are_marked(browser, live_server_url):
    room, _user, _none = _reversi_room("local")
    ctx = _context(browser, "vi", 360)
    try:
        page = _open(ctx, live_server_url, _user, room)
        page.wait_for_selector(".board .sq.legal")
        assert _legal(page) == ["c4", "d3", "e6", "f5"]
        page.click('.sq[data-sq="h8"]', force=True)
        page.wait_for_function("document.querySelector('[data-role=note]').textContent.length > 0")
        assert NOTE["vi"] in page.inner_text('[data-role="note"]')
        page.click('.sq[data-sq="f5"]')
        page.wait_for_selector('.sq[data-sq="e5"][data-stone="X"]')
        board = Board()
        board.play("f5")
        page.wait_for_function("sqs => [...document.querySelectorAll('.board .sq.legal')].map(e => e.dataset.sq)"
                               ".sort().join() === sqs", arg=",".join(sorted(board.legal_moves())))
        assert _off_loop(lambda: Game.objects.get(pk=room.current_game_id).ply) == 1
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "reversi-legal-local-vi-360.png"), full_page=True)
    finally:
        ctx.close()


@pytest.mark.parametrize("lang, width, words", [("vi", 360, "ngẫu nhiên"), ("en", 1280, "drawn at random")])
def test_the_friend_room_form_offers_no_first_move_when_reversi_is_chosen(browser, live_server_url, lang, width, words):
    """Reversi's colours in game 1 are drawn at random (caro.games.kinds): with Reversi chosen the
    form shows a note instead of a first-move choice it would ignore; back to caro, the choice returns."""
    ctx = _context(browser, lang, width)
    try:
        page = ctx.new_page()
        page.goto(live_server_url + "/")
        choice, note = page.locator('[data-role="first-choice"]'), page.locator('[data-testid="first-drawn"]')
        page.click(".room-options summary")
        assert choice.is_visible() and not note.is_visible()
        page.click(".rules-choice summary")
        page.select_option('[data-role="rules-form"] select[name="preset"]', "reversi")
        assert not choice.is_visible() and note.is_visible()
        assert words in note.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"home-reversi-room-options-{lang}-{width}.png"), full_page=True)
        page.select_option('[data-role="rules-form"] select[name="preset"]', "caro-vn")
        assert choice.is_visible() and not note.is_visible()
        # Reversi again, and the room it makes draws the first mover.
        page.select_option('[data-role="rules-form"] select[name="preset"]', "reversi")
        page.click('[data-testid="create-room"]')
        page.wait_for_url(re.compile(r"/r/[A-Z0-9]{6}/$"))
        code = page.url.rstrip("/").rsplit("/", 1)[1]
        room = _off_loop(lambda: Room.objects.select_related("current_game").get(code=code))
        assert room.current_game.kind == "reversi" and room.first_mover == "random"
    finally:
        ctx.close()
