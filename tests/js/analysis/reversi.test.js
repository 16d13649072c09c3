// The Reversi analysis (static/js/analysis/reversi.js) against exact values it did not compute:
// reversi_endgames.json holds, for three whole games, the exact final disc difference of every
// legal move in every position with at most 20 empty squares, from the Python reference solver
// (bench.pybots.reversi_nb; bench/analysis_reversi_cases.py writes the file). Games 7 and 101 are
// checked here (about 15 s of CPU together); game 29's endgame costs about 30 s of CPU alone, so
// the browser bench (bench/analysis_browser.py) analyses it and this suite does not.

import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { analyseReversi, EXACT_EMPTIES } from "../../../static/js/analysis/reversi.js";

/** The games of the file checked here (by seed). */
const CHECKED = [7, 101];
const CASES = JSON.parse(readFileSync(new URL("./reversi_endgames.json", import.meta.url), "utf8"));

test("the file and the analysis agree on where exact values start", () => {
  assert.equal(CASES.exact_empties, EXACT_EMPTIES);
  assert.equal(CASES.games.length, 3);
});

for (const game of CASES.games.filter((g) => CHECKED.includes(g.seed))) {
  test(`game ${game.seed}: every legal move's exact value from 20 empty squares on is the solver's`, () => {
    const result = analyseReversi({ moves: game.moves });
    const solved = new Map(game.positions.map((p) => [p.ply, p.values]));
    assert.ok(solved.size >= 15, "the game reaches the endgame");
    for (const p of result.plies) {
      if (solved.has(p.ply)) {
        assert.deepEqual(p.exact, solved.get(p.ply), `ply ${p.ply}`);
        const best = Math.max(...Object.values(p.exact));
        assert.equal(p.score, p.turn === "X" ? best : -best, `ply ${p.ply}: the score is the best move's, Black's view`);
      } else {
        assert.equal(p.exact, null, `ply ${p.ply} (${p.empties} empty) has no exact values`);
      }
    }
    // every endgame move's verdict follows from the solver's values
    for (const p of result.plies) {
      const values = p.move && solved.get(p.ply - 1);
      if (!values) continue;
      const best = Math.max(...Object.values(values));
      const lost = best - values[p.move.square];
      assert.equal(p.move.lost, lost, `ply ${p.ply}`);
      if (lost === 0) assert.equal(p.move.verdict, "best", `ply ${p.ply}`);
      else {
        const worse = Math.sign(values[p.move.square]) < Math.sign(best);
        assert.equal(p.move.verdict, worse ? "blunder" : "mistake", `ply ${p.ply}`);
      }
    }
  });
}
