// The threat search (static/js/computer/caro/threats.js): findThreatWin's winning lines, played
// out on the browser rules engine, end in a five the defender cannot stop; a position with no
// threat sequence has none; the search board agrees with the engine on fives and blocks.

import test from "node:test";
import assert from "node:assert/strict";
import { SearchBoard } from "../../../static/js/computer/caro/board.js";
import { findThreatWin, threeDefences } from "../../../static/js/computer/caro/threats.js";
import { FIVE } from "../../../static/js/computer/caro/patterns.js";
import { threatWin } from "../../../static/js/computer/caro/index.js";
import { boardOf, engine, needsEngine, readJson, stoppingReplies, winningCells } from "./judge.js";

/** Play `line` (cells of `fb`, attacker first, a final null = no defence) on the engine `board`;
 * true when it ends with the attacker's five or a threat the defender cannot stop. */
function lineWins(board, fb, line) {
  const att = board.turn;
  const b = board.copy();
  for (const [i, q] of line.entries()) {
    if (q === null) return i % 2 === 1 && !stoppingReplies(b).length;
    const outcome = b.play(fb.name(q)); // throws IllegalMove for an illegal step of the line
    if (outcome) return outcome.winner === att;
  }
  return b.turn !== att && winningCells(b, att).length > 0 && !stoppingReplies(b).length;
}

function puzzleBoards(kind) {
  return readJson("../shared/cases/gomoku-puzzles.json").filter((p) => p.id && p.kind === kind).map((p) => {
    const rules = { size: p.size, win_length: 5, exact: p.rule === "exact", blocked: "none", renju: false };
    const fb = new SearchBoard(rules);
    for (const m of p.moves) fb.play(fb.index(m));
    return { p, fb, rules };
  });
}

test("VCF lines of the VCF positions end in a five, move for move legal", { skip: needsEngine }, () => {
  for (const pos of readJson("bench/pybots/tests/vcf_positions.json")) {
    const rules = engine.PRESETS[pos.preset].rules;
    const fb = SearchBoard.fromNames(rules, { x: pos.x, o: pos.o, toMove: pos.to_move });
    const { line, timedOut } = findThreatWin(fb, { maxNodes: 100000 });
    assert.ok(line && !timedOut, `${pos.preset} depth ${pos.depth}: no VCF found`);
    // every attacker move of a VCF is a four or a five, and the line is no longer than the depth
    assert.ok(Math.ceil(line.length / 2) <= pos.depth, `${line.length} entries for depth ${pos.depth}`);
    assert.ok(lineWins(boardOf(rules, pos.x, pos.o, pos.to_move), fb, line), `${pos.preset} depth ${pos.depth}`);
  }
});

test("VCT lines of the win puzzles: found, legal, and winning on the engine board", { skip: needsEngine }, () => {
  let found = 0;
  for (const { p, fb, rules } of puzzleBoards("win")) {
    const { line } = findThreatWin(fb, { vct: true, maxNodes: 8000 });
    if (!line) continue;
    found++;
    const stones = {};
    p.moves.forEach((m, i) => (stones[m] = i % 2 ? "O" : "X"));
    const x = p.moves.filter((_, i) => i % 2 === 0);
    const o = p.moves.filter((_, i) => i % 2 === 1);
    const board = boardOf(new engine.Rules(rules), x, o, p.moves.length % 2 ? "O" : "X");
    assert.ok(lineWins(board, fb, line), `${p.id}: ${line.map((q) => (q === null ? "-" : fb.name(q)))}`);
  }
  assert.ok(found >= 20, `lines found in ${found} win puzzles`);
});

test("findThreatWin leaves the board as it was, and finds nothing on a quiet board", () => {
  const rules = { size: 15, win_length: 5, exact: false, blocked: "none", renju: false };
  const fb = SearchBoard.fromNames(rules, { x: ["H8", "J10"], o: ["I9", "G7"], toMove: "X" });
  const before = [fb.h1, fb.h2, Array.from(fb.codes).join()];
  assert.equal(findThreatWin(fb, { vct: true, maxNodes: 5000 }).line, null);
  assert.deepEqual([fb.h1, fb.h2, Array.from(fb.codes).join()], before);
  const cut = findThreatWin(fb, { vct: true, maxNodes: 10, zone: false });
  assert.equal(cut.line, null);
  assert.ok(cut.timedOut);
  assert.deepEqual([fb.h1, fb.h2, Array.from(fb.codes).join()], before);
});

test("three defences: every cell that stops an open three, and only those", { skip: needsEngine }, () => {
  for (const slug of ["freestyle", "caro-vn", "exact-five"]) {
    const rules = engine.PRESETS[slug].rules;
    const fb = SearchBoard.fromNames(rules, { x: ["H8", "I8", "J8", "C3"], o: ["A15", "O1", "M13"], toMove: "O" });
    const got = threeDefences(fb, 1).map((q) => fb.name(q)).sort();
    // a defence is a cell after which X has no move making an unstoppable four (engine judgement).
    // X's fours can only be on row 8, where its three is, so only a stone on row 8 can stop them
    const board = boardOf(rules, ["H8", "I8", "J8", "C3"], ["A15", "O1", "M13"], "O");
    const want = [];
    for (const sq of board.legalMoves().filter((x) => x.slice(1) === "8")) {
      const after = board.copy();
      after.play(sq);
      const open = after.legalMoves().filter((x) => x.slice(1) === "8").some((x) => {
        const probe = after.copy();
        probe.play(x);
        return winningCells(probe, "X").length && !stoppingReplies(probe).length;
      });
      if (!open) want.push(sq);
    }
    assert.deepEqual(got, want.sort(), slug);
  }
});

test("the search board's fives and blocks agree with the engine on random positions of every rule set",
  { skip: needsEngine }, () => {
    let checked = 0;
    for (const slug of Object.keys(engine.PRESETS)) {
      const rules = engine.PRESETS[slug].rules;
      let seed = 7;
      const rand = (n) => {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        return seed % n;
      };
      for (let g = 0; g < 7; g++) {
        const board = new engine.Board(rules);
        const n = 10 + rand(50);
        while (!board.outcome && board.ply < n) {
          const legal = board.legalMoves();
          board.play(legal[rand(legal.length)]);
        }
        if (board.outcome) continue;
        const stones = board.stones();
        const fb = SearchBoard.fromNames(rules, {
          x: Object.keys(stones).filter((s) => stones[s] === "X"),
          o: Object.keys(stones).filter((s) => stones[s] === "O"), toMove: board.turn,
        });
        for (const side of ["X", "O"]) {
          const s = side === "X" ? 1 : 2;
          assert.deepEqual(fb.members(s, FIVE).map((q) => fb.name(q)).sort(), winningCells(board, side).sort(), slug);
        }
        const opp = board.turn === "X" ? "O" : "X";
        if (winningCells(board, opp).length) {
          const mine = fb.defences(opp === "X" ? 1 : 2).filter((q) => fb.legal(q, fb.turn)).map((q) => fb.name(q));
          assert.deepEqual(mine.sort(), stoppingReplies(board).sort(), `${slug} blocks`);
        }
        for (const sq of Object.keys(stones).length ? board.legalMoves().slice(0, 40) : []) {
          if (board.turn === "X") assert.equal(fb.isFoul(fb.index(sq)), false, `${slug} ${sq} legal yet a foul`);
        }
        checked++;
      }
    }
    assert.ok(checked > 40, `${checked} positions`);
  });

test("threatWin (the analysis entry point): square names from an engine board or a position", { skip: needsEngine }, () => {
  for (const pos of readJson("bench/pybots/tests/vcf_positions.json").slice(0, 6)) {
    const board = boardOf(engine.PRESETS[pos.preset].rules, pos.x, pos.o, pos.to_move);
    const { line } = threatWin(board, { vct: true, maxNodes: 50000 });
    assert.ok(line, `${pos.preset} depth ${pos.depth}`);
    const fromPosition = threatWin({ rules: board.rules, x: pos.x, o: pos.o, toMove: pos.to_move }, { vct: true, maxNodes: 50000 });
    assert.deepEqual(fromPosition.line, line);
    const b = board.copy();
    let won = false;
    for (const [i, square] of line.entries()) {
      if (square === null) {
        won = i % 2 === 1 && !stoppingReplies(b).length;
        break;
      }
      const outcome = b.play(square);
      if (outcome) {
        won = outcome.winner === pos.to_move;
        break;
      }
    }
    assert.ok(won, line.join(" "));
  }
  assert.equal(threatWin({ rules: engine.PRESETS.freestyle.rules, x: ["H8"], o: ["I9"], toMove: "X" }).line, null);
});
