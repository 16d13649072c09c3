"""The browser computer in real Chromium: static/js/computer/worker.js loads as a module Web Worker
(every file it imports runs there), answers moves at every level, and the page's own thread keeps
running while it thinks. Only the static files are served (a plain HTTP server), no site."""

import functools
import http.server
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]

RUN = """async ([requests, cancel]) => {
  const w = new Worker("/static/js/computer/worker.js", { type: "module" });
  const answers = [];
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const done = new Promise((resolve, reject) => {
    w.onerror = (e) => reject(new Error("worker error: " + (e.message || e.type)));
    w.onmessage = (e) => {
      answers.push({ ...e.data, ticks });
      if (answers.length === requests.length - (cancel === null ? 0 : 1)) resolve();
    };
  });
  for (const r of requests) w.postMessage(r);
  if (cancel !== null) w.postMessage({ id: cancel, op: "cancel" });
  await done;
  clearInterval(timer);
  w.terminate();
  return answers;
}"""

CARO_VN = {"size": 15, "win_length": 5, "exact": False, "blocked": "opponent_or_edge", "renju": False}
RENJU = {"size": 15, "win_length": 5, "exact": False, "blocked": "none", "renju": True}


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # no line per request
        pass


@contextmanager
def static_server():
    """The repository's files over HTTP on a free port (module workers need a same-origin URL)."""
    handler = functools.partial(QuietHandler, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _move(id_, rules, moves, level, budget_ms):
    return {"id": id_, "op": "move", "game": "caro", "rules": rules, "moves": moves, "opening": None, "level": level,
            "budgetMs": budget_ms}


def test_the_computer_answers_from_a_module_worker(browser):
    with static_server() as base:
        page = browser.new_page()
        page.goto(base + "/static/js/package.json")  # any same-origin page
        requests = [
            # O to move must block X's open three H8-H9-H10 (H7 or H11; caro with blocked ends)
            _move(1, CARO_VN, ["H8", "I9", "H9", "I10", "H10"], "hard", 400),
            _move(2, RENJU, ["H8"], "medium", 200),
            _move(3, CARO_VN, [], "easy", 200),
            _move(4, CARO_VN, ["H8", "H8"], "hard", 200),  # a bad request: an error, not a move
        ]
        answers = page.evaluate(RUN, [requests, None])
        page.close()
    by_id = {a["id"]: a for a in answers}
    assert [a["id"] for a in answers] == [1, 2, 3, 4]
    assert by_id[1]["square"] in ("H7", "H11")
    assert by_id[2]["square"] not in ("H8",) and len(by_id[2]["square"]) in (2, 3)
    assert by_id[3]["square"] == "H8"
    assert "twice" in by_id[4]["error"]


def test_the_page_keeps_running_while_the_computer_thinks(browser):
    with static_server() as base:
        page = browser.new_page()
        page.goto(base + "/static/js/package.json")
        # Hard on a quiet position uses most of its 1.5 s; a cancelled request is never answered
        requests = [_move(1, CARO_VN, ["H8", "I9"], "hard", 1500), _move(2, CARO_VN, ["H8"], "hard", 1500)]
        answers = page.evaluate(RUN, [requests, 2])
        page.close()
    assert [a["id"] for a in answers] == [1]
    # the page's 10 ms timer kept firing while the worker searched
    assert answers[0]["ticks"] >= 5, answers
