"""Real Chromium: the browser rules engine (static/js/engine) loads as plain ES modules, both in a
page (``<script type="module">``) and in a module Web Worker, and answers there as in Node: a caro
win with its line, Renju foul points, a RIF opening's stored object, Reversi perft(5).

The files are served as they are by a plain static server (no bundler, no Django), which is how
the site's static files reach a browser."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest

pytestmark = [pytest.mark.e2e]

STATIC = Path(__file__).resolve().parents[2] / "static"

#: The same checks in the page and in the worker: what they return must be EXPECTED (with the
#: Python engine's foul points of the Renju position).
CHECKS = """
import * as E from "/js/engine/index.js";
export function checks() {
  const board = new E.Board(new E.Rules());
  let outcome = null;
  for (const square of ["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4", "L8"]) outcome = board.play(square);
  const renju = E.Board.fromStones(new E.Rules({ renju: true, blocked: "none" }),
                                   { x: ["F8", "G8", "H6", "H7", "E5", "E6", "E7"], o: ["A1"] });
  const rif = new E.RifOpening(new E.Rules({ renju: true, blocked: "none" }));
  rif.apply({ kind: "place", square: "H8" });
  let refusal = null;
  try { rif.apply({ kind: "place", square: "A1" }); } catch (error) { refusal = [error.name, error.reason]; }
  return { line: outcome.line, winner: outcome.winner, fouls: E.foulPoints(renju), refusal,
           stored: rif.toDict(), perft: E.perft(new E.ReversiBoard(), 5) };
}
"""
PAGE = """<!doctype html><meta charset="utf-8"><title>engine</title>
<script type="module">
import { checks } from "/check/checks.js";
window.pageResult = checks();
const worker = new Worker("/check/worker.js", { type: "module" });
worker.onmessage = (event) => { window.workerResult = event.data; };
worker.onerror = (event) => { window.workerResult = { error: String(event.message) }; };
</script>"""
WORKER = """import { checks } from "/check/checks.js";
postMessage(checks());"""
EXPECTED = {
    "line": ["H8", "I8", "J8", "K8", "L8"], "winner": "X",
    "refusal": ["IllegalMove", "not_central"],
    "stored": {"kind": "rif", "rules": {"size": 15, "win_length": 5, "exact": False, "blocked": "none", "renju": True},
               "actions": [{"kind": "place", "square": "H8"}]},
    "perft": 1396,
}


def expected_fouls() -> dict:
    """The Python engine's foul points of the page's Renju position (the judge's answer)."""
    from caro.engine.caro import Board, Rules
    from caro.engine.explain import foul_points

    return foul_points(Board.from_stones(Rules(renju=True, blocked="none"),
                                         x=["F8", "G8", "H6", "H7", "E5", "E6", "E7"], o=["A1"]))


@pytest.fixture(scope="module")
def static_server():
    """static/ over HTTP on a free port, as any static file server sends it."""
    handler = functools.partial(_QuietHandler, directory=str(STATIC))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass


def test_the_engine_runs_in_a_page_and_in_a_module_worker(browser, static_server):
    context = browser.new_context()
    try:
        page = context.new_page()
        for path, body, kind in (("/check/page.html", PAGE, "text/html"), ("/check/checks.js", CHECKS, "text/javascript"),
                                 ("/check/worker.js", WORKER, "text/javascript")):
            context.route(static_server + path, functools.partial(_fulfil, body=body, kind=kind))
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(static_server + "/check/page.html")
        page.wait_for_function("window.pageResult !== undefined && window.workerResult !== undefined", timeout=30_000)
        expected = {**EXPECTED, "fouls": expected_fouls()}
        assert expected["fouls"], "the position must have foul points to compare"
        assert not errors
        assert page.evaluate("window.pageResult") == expected
        assert page.evaluate("window.workerResult") == expected
    finally:
        context.close()


def _fulfil(route, body: str, kind: str) -> None:
    route.fulfill(status=200, body=body, content_type=kind)
