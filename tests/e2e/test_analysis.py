"""The computer's analysis on the record page (issue 29) in real Chromium, in both languages at 360
and 1280 px: a 60-ply caro game and a whole Reversi game are analysed in the page's worker; the
marks (move list and board), the forced line stepped through, the evaluation graph and the verdict
words appear; the move list is clicked while the analysis runs and the page answers; a second
visit (same browser profile) shows the results kept in the browser without starting the worker,
at the ply a `?ply=N` link names.

No step waits on the clock: every wait is on page state (data-analysis on the record's root:
idle -> running -> done, data-analysis-source: run | stored). The analysis itself is bounded by
nodes, so a loaded machine only makes it slower; ANALYSIS_TIMEOUT is a hang catcher, not a target
(bench/analysis_browser.py measures the time). While the move list is clicked the renderer's CPU is
throttled (DevTools), so that the analysis is certainly still running then on a fast machine;
whether it was is read in the page in the same task as the click.

The games: tests/js/analysis/records.json (its caro game's marks are known: moves 43 and 45
allowed a forced loss, 44 and 48 missed a win, 49 allowed one again, 50 decided the game) and the Reversi game of seed 7 of
tests/js/analysis/reversi_endgames.json, whose marked moves are computed here from the Python
solver's exact values in that file. Screenshots go to test-results/analysis/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.e2e.helpers import _context
from tests.integration.records.builders import play_game

ANALYSIS_TIMEOUT = 900_000  # ms: a whole analysis on a loaded 2-core machine (hang catcher)
# the whole test: the analysis's hang catcher and the page steps around it (the suite's 120 s is for
# tests that do not wait on a game's analysis)
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e,
              pytest.mark.timeout(ANALYSIS_TIMEOUT // 1000 + 600)]

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-results" / "analysis"
RECORDS = json.loads((ROOT / "tests" / "js" / "analysis" / "records.json").read_text(encoding="utf-8"))
ENDGAMES = json.loads((ROOT / "tests" / "js" / "analysis" / "reversi_endgames.json").read_text(encoding="utf-8"))
REVERSI = next(g for g in ENDGAMES["games"] if g["seed"] == 7)
PAGE_TIMEOUT = 30_000  # ms: a page step (hang catcher)
CLICK_THROTTLE = 20  # CPU throttling while the move list is clicked during the analysis
PREFIX = {"vi": "/van/", "en": "/en/game/"}
WORDS = {
    "vi": {"analyse": "Phân tích ván này", "missed": "bỏ lỡ nước thắng", "allowed": "để đối thủ thắng bắt buộc",
           "decisive": "nước quyết định", "line": "Đường thắng", "lost": "mất"},
    "en": {"analyse": "Analyse this game", "missed": "missed a win", "allowed": "allowed a forced loss",
           "decisive": "the deciding move", "line": "Line", "lost": "lost"},
}
CARO_MARKS = {43: "allowed", 44: "missed", 45: "allowed", 48: "missed", 49: "allowed", 50: "decisive"}
STONES = ("document.querySelectorAll('.record-board .sq[data-stone]:not([data-stone=\"\"])').length")
STATE = "document.querySelector('.record').dataset.analysis"
CLICK_DURING = """(ply) => {
  const state = document.querySelector('.record').dataset.analysis;
  document.querySelector(`[data-role="moves"] a[data-ply="${ply}"]`).click();
  return state;
}"""


def _reversi_marks() -> dict[int, int]:
    """{ply: discs lost} of every move of the Reversi game that lost discs against perfect play."""
    values = {p["ply"]: p["values"] for p in REVERSI["positions"]}
    out = {}
    for i, square in enumerate(REVERSI["moves"]):
        if i in values:
            lost = max(values[i].values()) - values[i][square]
            if lost:
                out[i + 1] = lost
    return out


def _wait_stones(page, count):
    page.wait_for_function(f"{STONES} === {count}", timeout=PAGE_TIMEOUT)


def _fits(page, width):
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px at {width}px"


def _open(ctx, url):
    """A record page of the context `ctx`, once record.js has taken it over."""
    page = ctx.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    page.wait_for_selector('.record[data-enhanced="1"]')
    return page, requests


def _analyse_clicking_the_move_list(ctx, url, words, click_ply, stones_then):
    """Open `url`, start the analysis, click the move list while it runs, check the page answered,
    wait for the result; returns the page."""
    page, _requests = _open(ctx, url)
    assert page.evaluate(STATE) == "idle"
    assert page.inner_text('[data-role="analyse"]') == words["analyse"]
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CLICK_THROTTLE})
    page.click('[data-role="analyse"]')
    page.wait_for_function(f"{STATE} === 'running' && document.querySelector('[data-role=analysis-progress]').value > 0",
                           timeout=ANALYSIS_TIMEOUT)
    assert page.evaluate(CLICK_DURING, click_ply) == "running"  # the click came while the worker ran
    _wait_stones(page, stones_then)
    assert page.url.endswith(f"?ply={click_ply}")
    assert page.locator('[data-role="moves"] a[aria-current]').get_attribute("data-ply") == str(click_ply)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    page.wait_for_function(f"{STATE} === 'done'", timeout=ANALYSIS_TIMEOUT)
    assert page.evaluate("document.querySelector('.record').dataset.analysisSource") == "run"
    # the replay stayed where it was clicked
    assert page.evaluate(STONES) == stones_then
    return page


def _second_visit(ctx, url, ply, stones):
    """The same profile opens `url?ply=N`: the stored result is shown at that ply; no worker starts."""
    page, requests = _open(ctx, f"{url}?ply={ply}")
    page.wait_for_function(f"{STATE} === 'done'", timeout=PAGE_TIMEOUT)
    assert page.evaluate("document.querySelector('.record').dataset.analysisSource") == "stored"
    assert page.evaluate(STONES) == stones
    assert page.locator('[data-role="analyse"]').is_hidden()
    assert not [u for u in requests if u.endswith("/analysis/worker.js")], "the worker ran again"
    return page


# The phone in Vietnamese, the desktop in English (the other two combinations repeated the same
# analysis, the longest browser test of the suite, for nothing more).
@pytest.mark.parametrize("lang, width", [pytest.param("vi", 360, id="vi-360"), pytest.param("en", 1280, id="en-1280")])
def test_analyse_a_60_ply_caro_game(browser, live_server_url, lang, width):
    SHOTS.mkdir(parents=True, exist_ok=True)
    caro = RECORDS["caro"]
    game, _x, _o = play_game(caro["moves"], rules=caro["rules"])
    assert game.winner == caro["winner"] and game.ply == 60
    words = WORDS[lang]
    url = f"{live_server_url}{PREFIX[lang]}{game.pk}/"
    ctx = _context(browser, lang, width)
    try:
        page = _analyse_clicking_the_move_list(ctx, url, words, 20, 20)
        # the marks in the move list, with their words for screen readers and on hover
        marks = page.eval_on_selector_all('[data-role="moves"] a .amark',
                                          "els => els.map(e => [+e.closest('a').dataset.ply, e.dataset.verdict, e.title])")
        assert {ply: verdict for ply, verdict, _t in marks} == CARO_MARKS
        assert {title for ply, _v, title in marks if ply == 44} == {words["missed"]}
        assert {title for ply, _v, title in marks if ply == 43} == {words["allowed"]}
        # the graph: one point per ply, a dot per mark
        points = page.get_attribute('[data-role="analysis-graph"] polyline.eg-line', "points").split()
        assert len(points) == 61
        assert page.locator('[data-role="analysis-graph"] .eg-dot').count() == len(CARO_MARKS)
        # the missed win: the move's verdict in words, its mark on the board, and the line
        page.click('[data-role="moves"] a[data-ply="44"]')
        _wait_stones(page, 44)
        verdict = page.inner_text('[data-role="analysis-verdict"]')
        assert words["missed"] in verdict and "VC" in verdict, verdict
        square = caro["moves"][43]
        assert page.get_attribute(f'.record-board .sq[data-sq="{square}"]', "data-mark") == "missed"
        page.click('[data-role="line-toggle"]')
        page.wait_for_selector('.record[data-line-view="1"]')
        count = page.inner_text('[data-role="line-count"]')
        m = re.search(r"(\d+)\D+(\d+)", count)
        assert m and m.group(1) == m.group(2) and words["line"] in count, count
        length = int(m.group(2))
        assert length >= 3
        # the line from the position before move 44: 43 stones of the game and the line's numbered stones
        assert page.locator(".record-board .sq .ln").count() == length
        _wait_stones(page, 43 + length)
        page.click('[data-line="first"]')
        page.wait_for_function("document.querySelectorAll('.record-board .sq .ln').length === 1", timeout=PAGE_TIMEOUT)
        page.click('[data-line="next"]')
        page.wait_for_function("document.querySelectorAll('.record-board .sq .ln').length === 2", timeout=PAGE_TIMEOUT)
        page.screenshot(path=str(SHOTS / f"caro-line-{lang}-{width}.png"), full_page=True)
        _fits(page, width)
        # the move that allowed a forced loss
        page.click('[data-role="line-toggle"]')
        page.click('[data-role="moves"] a[data-ply="43"]')
        _wait_stones(page, 43)
        assert words["allowed"] in page.inner_text('[data-role="analysis-verdict"]')
        # the graph is a way to move through the game: its right end is the last ply
        graph = page.locator('[data-role="analysis-graph"] svg')
        box = graph.bounding_box()
        graph.click(position={"x": box["width"] - 1, "y": box["height"] / 2})
        _wait_stones(page, 60)
        decisive = caro["moves"][49]
        assert page.get_attribute(f'.record-board .sq[data-sq="{decisive}"]', "data-mark") == "decisive"
        page.screenshot(path=str(SHOTS / f"caro-done-{lang}-{width}.png"), full_page=True)
        _fits(page, width)
        page.close()
        again = _second_visit(ctx, url, 44, 44)
        assert words["missed"] in again.inner_text('[data-role="analysis-verdict"]')
        assert again.locator('[data-role="moves"] a .amark').count() == len(CARO_MARKS)
        _fits(again, width)
    finally:
        ctx.close()


@pytest.mark.parametrize(("lang", "width"), [("vi", 360), ("en", 1280)])
def test_analyse_a_whole_reversi_game(browser, live_server_url, lang, width):
    SHOTS.mkdir(parents=True, exist_ok=True)
    moves = REVERSI["moves"]
    game, _x, _o = play_game(moves, kind="reversi")
    assert game.ply == len(moves) == 60
    expected = _reversi_marks()
    assert expected, "the game has endgame mistakes to mark"
    words = WORDS[lang]
    url = f"{live_server_url}{PREFIX[lang]}{game.pk}/"
    ctx = _context(browser, lang, width)
    try:
        page = _analyse_clicking_the_move_list(ctx, url, words, 10, 14)
        marks = page.eval_on_selector_all('[data-role="moves"] a .amark',
                                          "els => els.map(e => [+e.closest('a').dataset.ply, e.textContent])")
        assert {ply for ply, _t in marks} == set(expected)
        for ply, text in marks:
            assert text.startswith(f"\u2212{expected[ply]}"), (ply, text)
        points = page.get_attribute('[data-role="analysis-graph"] polyline.eg-line', "points").split()
        assert len(points) == 61
        # a position with exact values: every legal move shows the solver's value
        first = min(p["ply"] for p in REVERSI["positions"])
        values = next(p["values"] for p in REVERSI["positions"] if p["ply"] == first)
        page.click(f'[data-role="moves"] a[data-ply="{first}"]')
        _wait_stones(page, 4 + first)
        shown = page.eval_on_selector_all(".record-board .sq .ev",
                                          "els => els.map(e => [e.closest('.sq').dataset.sq, e.textContent])")
        assert {sq: text.replace("\u2212", "-").lstrip("+") for sq, text in shown} == {
            sq: str(v) for sq, v in values.items()}
        worst = max(expected, key=expected.get)
        page.click(f'[data-role="moves"] a[data-ply="{worst}"]')
        _wait_stones(page, 4 + worst)
        assert words["lost"] in page.inner_text('[data-role="analysis-verdict"]')
        page.screenshot(path=str(SHOTS / f"reversi-{lang}-{width}.png"), full_page=True)
        _fits(page, width)
        page.close()
        again = _second_visit(ctx, url, first, 4 + first)
        assert again.locator(".record-board .sq .ev").count() == len(values)
    finally:
        ctx.close()
