"""Hard's move time in Chromium, at the default speed and with the CPU throttled 4x (a mid-range phone).

Usage (from the repository root)::

    .venv/bin/python bench/computer_browser.py                 # every puzzle position, 1000 ms budget
    .venv/bin/python bench/computer_browser.py --every 3 --rates 1,4,6

Serves the repository's files over HTTP, opens a page in Debian's Chromium (Playwright), and runs the
caro Hard in a module Web Worker (``bench/js/browser_bench_worker.js``, which imports
``static/js/computer/caro/index.js`` as the site's worker does) on the positions of
``../shared/cases/gomoku-puzzles.json``, one after the other, with the page's budget (wall clock).
For each CPU throttling rate (DevTools' ``Emulation.setCPUThrottlingRate`` on the page's renderer,
which runs the worker too) it prints the time from the page's postMessage to the answer: mean, p50,
p95, max (ms), the share of moves over 1 s and over 2.5 s, and the alpha-beta's mean depth and nodes
(smaller when throttled: the same time, fewer nodes). Targets (issue 26): at rate 1, every move
within 1 s; at rate 4, p95 within 2.5 s. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import math
import os
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PUZZLES = ROOT / ".." / "shared" / "cases" / "gomoku-puzzles.json"

RUN = """async ([positions, budgetMs]) => {
  const w = new Worker("/bench/js/browser_bench_worker.js", { type: "module" });
  const out = [];
  for (const [i, position] of positions.entries()) {
    const t0 = performance.now();
    const answer = await new Promise((resolve, reject) => {
      w.onmessage = (e) => resolve(e.data);
      w.onerror = (e) => reject(new Error(e.message || "worker error"));
      w.postMessage({ id: i, position, budgetMs });
    });
    out.push({ ...answer, wall: performance.now() - t0 });
  }
  w.terminate();
  return out;
}"""


def positions(every: int) -> list[dict]:
    out = []
    for p in [p for p in json.loads(PUZZLES.read_text()) if "id" in p][::every]:
        rules = {"size": p["size"], "win_length": 5, "exact": p["rule"] == "exact", "blocked": "none", "renju": False}
        out.append({"rules": rules, "x": p["moves"][0::2], "o": p["moves"][1::2],
                    "toMove": "O" if len(p["moves"]) % 2 else "X"})
    return out


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(math.ceil(q * len(s))) - 1))]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=1, help="use every n-th puzzle position")
    parser.add_argument("--budget", type=int, default=1000, help="the page's budget a move, ms")
    parser.add_argument("--rates", default="1,4", help="CPU throttling rates, comma-separated")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("CHROMIUM_PATH") or "/usr/bin/chromium"
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):  # no line per request
            pass

    handler = functools.partial(Quiet, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    jobs = positions(args.every)
    print(f"{len(jobs)} positions, Hard, budget {args.budget} ms, load average {os.getloadavg()[0]:.2f}", flush=True)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox", "--disable-gpu"])
            for rate in (float(r) for r in args.rates.split(",")):
                page = browser.new_page()
                page.goto(base + "/static/js/package.json")
                cdp = page.context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                page.evaluate(RUN, [jobs[:2], 200])  # the JIT warmed, as after a first move
                got = page.evaluate(RUN, [jobs, args.budget])
                page.close()
                walls = [g["wall"] for g in got]
                depths = [g.get("depth", 0) for g in got if g.get("depth")]
                nodes = [g.get("nodes", 0) for g in got if g.get("nodes")]
                print(f"CPU {rate:g}x: move ms mean {statistics.fmean(walls):6.0f}  p50 {percentile(walls, .5):6.0f}  "
                      f"p95 {percentile(walls, .95):6.0f}  max {max(walls):6.0f};  over 1 s: "
                      f"{sum(w > 1000 for w in walls)}/{len(walls)}, over 2.5 s: {sum(w > 2500 for w in walls)}/{len(walls)};"
                      f"  alpha-beta depth {statistics.fmean(depths) if depths else 0:.1f}, nodes "
                      f"{statistics.fmean(nodes) if nodes else 0:.0f} a move", flush=True)
            browser.close()
    finally:
        server.shutdown()
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
