"""Real Chromium: Reversi's two-tap preview. The first tap on a legal square shows a see-through disc
of the mover's colour there and marks each disc that move would flip (the server's `legal_flips`,
docs/protocol.md), says so in words (the square's label and a live note), and the second tap plays
it; in a friend game at 360 and 1280 px, on one device (the preview takes the colour of the side
to move) and against the computer."""

from __future__ import annotations

import math
import re
import uuid
from pathlib import Path

import pytest

from caro.engine.reversi import Board
from caro.games import services as games
from caro.games.models import Game
from tests.e2e.helpers import _context, _off_loop, _open
from tests.e2e.test_reversi_ui import _reversi_room

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "screens"
#: Four moves to a position where Black's d3 flips two discs in two directions (d4 and e4).
OPENING = ["f5", "d6", "c5", "f4"]
FLIPPING = "els => els.map(e => e.dataset.sq).sort()"
#: The preview disc drawn on a square: its colour (alpha included), its width as a share of the
#: square, its rim's style, the green it is drawn on, and the colour of a played disc of its side.
DISC = """sq => { const el = document.querySelector(`.sq[data-sq="${sq}"]`);
  const s = getComputedStyle(el, "::after");
  const played = document.querySelector(`.sq[data-stone="${el.dataset.preview}"]`);
  return {content: s.content, colour: s.backgroundColor, share: parseFloat(s.width) / el.clientWidth,
          rim: s.borderTopStyle, opacity: parseFloat(s.opacity),
          under: getComputedStyle(el.parentElement).backgroundColor,
          played: getComputedStyle(played, "::before").backgroundColor}; }"""
#: How far apart (Euclidean distance in RGB, 0-441) the preview disc, as seen on the green, and a
#: played disc of the same colour must be: a played black disc is near black, the preview a dark green.
APART = 70
COUNT = {"vi": "lật 2 quân", "en": "flips 2 discs"}


def _play_opening(room, black, white):
    def run():
        for i, square in enumerate(OPENING):
            games.play_move(room.current_game_id, black if i % 2 == 0 else white, square, i + 1, uuid.uuid4())
    _off_loop(run)


def _alpha(colour):
    """The alpha of a CSS `rgb()`/`rgba()` colour (1 when opaque)."""
    parts = [float(x) for x in re.findall(r"[\d.]+", colour)]
    return parts[3] if len(parts) == 4 else 1.0


def _rgb(colour):
    return [float(x) for x in re.findall(r"[\d.]+", colour)[:3]]


def _seen(colour, under, opacity):
    """The colour a see-through `colour` shows over the opaque `under` (both CSS colours)."""
    alpha = _alpha(colour) * opacity
    return [alpha * c + (1 - alpha) * u for c, u in zip(_rgb(colour), _rgb(under))]


def _tap(page, selector, phone):
    (page.tap if phone else page.click)(selector)


def _check_preview(page, square, side, flips, lang):
    page.wait_for_selector(f'.sq[data-sq="{square}"].ghost[data-preview="{side}"]')
    disc = page.evaluate(DISC, square)
    assert disc["content"] != "none" and disc["share"] >= 0.7, disc  # a disc, not a dot
    # See-through enough that it never reads as a played disc, yet clearly there, with a dashed rim.
    assert 0.25 <= _alpha(disc["colour"]) * disc["opacity"] <= 0.45, disc
    assert disc["rim"] == "dashed", disc
    seen, played = _seen(disc["colour"], disc["under"], disc["opacity"]), _rgb(disc["played"])
    assert math.dist(seen, played) >= APART, disc
    assert page.eval_on_selector_all(".sq.will-flip", FLIPPING) == flips
    assert set(page.eval_on_selector_all(".sq.will-flip", "els => els.map(e => e.dataset.flipTo)")) == {side}
    assert page.get_attribute(f'.sq[data-sq="{square}"]', "data-stone") == ""  # nothing played yet
    note = page.inner_text('[data-testid="preview-note"]')
    assert square in note and all(f in note for f in flips), note
    label = page.get_attribute(f'.sq[data-sq="{square}"]', "aria-label")
    assert (COUNT[lang] in label) == (len(flips) == 2), label
    assert page.is_visible('[data-role="confirm"]')


@pytest.mark.parametrize("lang, width", [("vi", 360), ("en", 1280)])
def test_the_first_tap_shows_the_disc_and_the_discs_it_flips_and_the_second_tap_plays(
        browser, live_server_url, lang, width):
    room, black, white = _reversi_room()
    _play_opening(room, black, white)
    board = Board.from_moves("".join(OPENING))
    assert board.flips("d3") == ["d4", "e4"]
    phone = width < 600
    ctx_b, ctx_w = _context(browser, lang, width), _context(browser, lang, width)
    try:
        page_w = _open(ctx_w, live_server_url, white, room, one_tap=False)
        page_b = _open(ctx_b, live_server_url, black, room, one_tap=False)
        for page in (page_b, page_w):
            page.locator('[data-role="confirm-toggle"]').set_checked(True)
        page_b.wait_for_selector(".board .sq.legal")
        _tap(page_b, '.sq[data-sq="d3"]', phone)
        _check_preview(page_b, "d3", "X", ["d4", "e4"], lang)
        assert COUNT[lang] in page_b.inner_text('[data-testid="preview-note"]')
        # Only the mover sees it, and nothing was sent.
        assert page_w.locator(".sq.ghost, .sq.will-flip").count() == 0
        assert _off_loop(lambda: Game.objects.get(pk=room.current_game_id).ply) == len(OPENING)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page_b.screenshot(path=str(SHOTS / f"reversi-preview-black-{lang}-{width}.png"), full_page=True)
        # The second tap plays: d3 and both flipped discs are Black's on both pages.
        _tap(page_b, '.sq[data-sq="d3"]', phone)
        for page in (page_w, page_b):
            for square in ("d3", "d4", "e4"):
                page.wait_for_selector(f'.sq[data-sq="{square}"][data-stone="X"]')
        page_b.wait_for_function("document.querySelectorAll('.sq.ghost, .sq.will-flip').length === 0")
        assert page_b.inner_text('[data-testid="preview-note"]') == ""
        assert page_b.inner_text('[data-role="conn"]') == ""
        # White's preview is a white disc, with White's flips.
        board.play("d3")
        square = max(board.legal_moves(), key=lambda sq: (len(board.flips(sq)), sq))
        page_w.wait_for_selector(f'.sq[data-sq="{square}"].legal')
        _tap(page_w, f'.sq[data-sq="{square}"]', phone)
        _check_preview(page_w, square, "O", board.flips(square), lang)
        page_w.screenshot(path=str(SHOTS / f"reversi-preview-white-{lang}-{width}.png"), full_page=True)
        # Another legal square moves the preview there; the old marks go.
        other = next(sq for sq in sorted(board.legal_moves()) if board.flips(sq) != board.flips(square))
        _tap(page_w, f'.sq[data-sq="{other}"]', phone)
        _check_preview(page_w, other, "O", board.flips(other), lang)
        assert page_w.locator(".sq.ghost").count() == 1
    finally:
        ctx_b.close()
        ctx_w.close()


def test_on_one_device_the_preview_is_the_side_to_move_s(browser, live_server_url):
    room, user, _none = _reversi_room("local")
    ctx = _context(browser, "vi", 360)
    try:
        page = _open(ctx, live_server_url, user, room, one_tap=False)
        page.locator('[data-role="confirm-toggle"]').set_checked(True)
        page.wait_for_selector(".board .sq.legal")
        page.tap('.sq[data-sq="f5"]')
        _check_preview(page, "f5", "X", ["e5"], "vi")
        page.tap('[data-role="confirm"]')  # "Play here" plays it too
        page.wait_for_selector('.sq[data-sq="e5"][data-stone="X"]')
        board = Board.from_moves("f5")
        page.tap('.sq[data-sq="d6"]')
        _check_preview(page, "d6", "O", board.flips("d6"), "vi")
        page.tap('.sq[data-sq="d6"]')
        page.wait_for_selector('.sq[data-sq="d6"][data-stone="O"]')
        assert _off_loop(lambda: Game.objects.get(pk=room.current_game_id).ply) == 2
    finally:
        ctx.close()
