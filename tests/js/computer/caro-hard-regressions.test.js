// Hard on the positions of docs/strength.md's post-mortems (tests/js/computer/hard-regressions.json,
// from bench/public_match.py --postmortem against Rapfi 10k): the move the old Hard played there
// lost to a forced win the judge (Rapfi at 200k nodes) proved, while Rapfi at 1M nodes held with
// another move. Hard must not play the losing move again. Deterministic: a counting clock (3 ms a
// read: a node budget), Hard's default budget of the brain (800 ms planned at 80 %).
// Positions Hard does not hold yet are marked todo with the move it plays (they run, and say so,
// without failing the suite); see docs/strength.md for the numbers under the CPU clock.

import test from "node:test";
import assert from "node:assert/strict";
import { PRESETS } from "../../../static/js/engine/caro.js";
import { choosePositionMove } from "../../../static/js/computer/caro/index.js";
import { countingClock, readJson } from "./judge.js";

const CASES = readJson("tests/js/computer/hard-regressions.json");
// docs/strength.md's tables: freestyle J8, I11, G8, J11; exact five H9, J11, F9, I10
const NAMED = [0, 1, 2, 4, 17, 18, 19, 22];
const TODO = new Map([
  [0, "plays J8 still: the opponent's win after it is a VCT found only with threes anywhere, and the guard's VCT is undecided"],
]);

for (const i of NAMED) {
  const c = CASES[i];
  const label = `${c.preset} ${c.opening} ply ${c.moves.length + 1}: not ${c.lost_with} (Rapfi 1M: ${c.rapfi_1m})`;
  test(label, TODO.has(i) ? { todo: TODO.get(i) } : {}, () => {
    const x = c.moves.filter((_, k) => k % 2 === 0);
    const o = c.moves.filter((_, k) => k % 2 === 1);
    const toMove = c.moves.length % 2 ? "O" : "X";
    const move = choosePositionMove({ rules: PRESETS[c.preset].rules.toDict(), x, o, toMove }, "hard",
      { budgetMs: 800, clock: countingClock() });
    assert.notEqual(move, c.lost_with);
  });
}
