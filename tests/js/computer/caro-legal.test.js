// Legality, judged by the browser rules engine: the computer plays random games at every level
// under every rule set (never an occupied square, never a Renju foul: the engine refuses both),
// and the RIF and Swap2 opening steps are always actions the engine's machine accepts.

import test from "node:test";
import assert from "node:assert/strict";
import { chooseMove, chooseOpeningAction } from "../../../static/js/computer/index.js";
import { makeRng } from "../../../static/js/computer/rng.js";
import { countingClock, engine, needsEngine, presetSlugs } from "./judge.js";

const LEVELS = ["easy", "medium", "hard"];

test("random games: every move is legal under every rule set (the engine plays it)", { skip: needsEngine }, () => {
  let moves = 0;
  for (const slug of presetSlugs()) {
    const rules = engine.PRESETS[slug].rules;
    for (let k = 0; k < LEVELS.length + 1; k++) {
      const level = LEVELS[k % LEVELS.length];
      const rng = makeRng(1000 + 10 * k + slug.length);
      const board = new engine.Board(rules);
      // a random opening, then the computer against random legal moves, both colours
      for (let i = 0; i < 6; i++) {
        const legal = board.legalMoves();
        board.play(legal[rng.randrange(legal.length)]);
      }
      const computer = k % 2 ? "X" : "O"; // every level plays both colours
      while (!board.outcome && board.ply < 40) {
        const legal = board.legalMoves();
        if (board.turn === computer) {
          const move = chooseMove(board, level, { budgetMs: 15, rng: board.ply, clock: countingClock() });
          assert.ok(legal.includes(move), `${slug} ${level}: ${move} is not legal at ply ${board.ply}`);
          board.play(move); // throws IllegalMove (occupied, foul) if the engine refuses it
          moves++;
        } else {
          board.play(legal[rng.randrange(legal.length)]);
        }
      }
    }
  }
  assert.ok(moves > 120, `${moves} computer moves`);
});

test("Renju: X's moves are never fouls, also where a foul point is tempting", { skip: needsEngine }, () => {
  const rules = engine.PRESETS.renju.rules;
  // H8 is a double-three for X (F8-G8 and H6-H7), and the best shape point
  const board = engine.Board.fromStones(rules, { x: ["F8", "G8", "H6", "H7"], o: ["A1", "A15", "O1", "O15"], toMove: "X" });
  assert.equal(board.foul("H8"), "double-three");
  for (const level of LEVELS) {
    for (let seed = 0; seed < 3; seed++) {
      const move = chooseMove(board, level, { budgetMs: 100, rng: seed, clock: countingClock() });
      assert.equal(board.foul(move), null, `${level} chose ${move}`);
    }
  }
});

function playOpening(kind, levels, seed) {
  const preset = kind === "rif" ? "renju-rif" : "swap2";
  const machine = new engine.OPENINGS[kind](engine.PRESETS[preset].rules);
  const steps = [];
  while (machine.state !== "done") {
    const level = levels[machine.actor];
    const action = chooseOpeningAction(machine, level, { budgetMs: 60, rng: seed, clock: countingClock() });
    steps.push(action.kind);
    machine.apply(action); // throws IllegalMove for an action the step does not allow
  }
  return { machine, steps };
}

test("RIF and Swap2: every opening step of every level is an action the machine accepts", { skip: needsEngine }, () => {
  const seen = { rif: new Set(), swap2: new Set() };
  for (const kind of ["rif", "swap2"]) {
    // every level in each seat: (easy, hard), (medium, easy), (hard, medium)
    for (const [k, first] of LEVELS.entries()) {
      for (const second of [LEVELS[(k + 2) % 3]]) {
        for (const seed of [first.length + second.length]) {
          const { machine, steps } = playOpening(kind, { first, second }, seed);
          steps.forEach((s) => seen[kind].add(s));
          assert.ok(["X", "O"].includes(machine.colors.first), `${kind} ${first}/${second}`);
          // the game goes on: the side to move gets a legal move
          const move = chooseMove(machine.board, second, { budgetMs: 40, rng: seed, clock: countingClock() });
          assert.ok(machine.board.legalMoves().includes(move));
        }
      }
    }
  }
  assert.ok(seen.rif.has("offer") && seen.rif.has("select") && seen.rif.has("place"), [...seen.rif].join());
  assert.ok(seen.swap2.has("choose") && seen.swap2.has("place"), [...seen.swap2].join());
});

test("Swap2: Medium's second seat hands a balanced choice back, Hard never does", { skip: needsEngine }, () => {
  const rules = engine.PRESETS.swap2.rules;
  const machine = new engine.OPENINGS.swap2(rules);
  for (const square of ["H8", "J10", "G10"]) machine.apply({ kind: "place", square });
  assert.equal(machine.state, "second_choice");
  const hard = chooseOpeningAction(machine, "hard", { budgetMs: 200, clock: countingClock() });
  assert.equal(hard.kind, "choose");
  const medium = chooseOpeningAction(machine, "medium", { budgetMs: 200, clock: countingClock() });
  assert.ok(medium.kind === "place" || medium.kind === "choose");
  assert.throws(() => chooseOpeningAction(machine, "grandmaster"), /unknown level/);
});

test("RIF: the two 5th moves offered are never symmetric and never fouls", { skip: needsEngine }, () => {
  const rules = engine.PRESETS["renju-rif"].rules;
  for (const level of LEVELS) {
    const machine = new engine.OPENINGS.rif(rules);
    for (const action of [{ kind: "place", square: "H8" }, { kind: "place", square: "H7" },
      { kind: "place", square: "J6" }, { kind: "keep" }, { kind: "place", square: "G9" }]) {
      machine.apply(action);
    }
    assert.equal(machine.state, "offer_5");
    const offer = chooseOpeningAction(machine, level, { budgetMs: 100, rng: 3, clock: countingClock() });
    assert.equal(offer.kind, "offer");
    for (const sq of offer.squares) assert.equal(machine.board.foul(sq), null);
    machine.apply(offer); // the machine refuses equivalent or foul offers
    const select = chooseOpeningAction(machine, level, { budgetMs: 100, rng: 3, clock: countingClock() });
    assert.ok(offer.squares.includes(select.square));
  }
});
