// The three levels keep their characters (bench/pybots/reversi_bots.py): every level always plays a
// legal move; Easy is greedy with noise and plays at random a quarter of the time; Medium takes
// corners and beats Easy; Hard takes corners, does not give them away, plays exact endgames and
// stops at its node limit. Hard runs under node limits only (a budget far above what the nodes
// need), so nothing here depends on the machine's speed.

import assert from "node:assert/strict";
import { test } from "node:test";
import { INDEX, NAMES, flips, moves, out, pop32 } from "../../../../static/js/computer/reversi/bitboard.js";
import { choosePositionMove } from "../../../../static/js/computer/reversi/index.js";
import { EASY_NOISE, EASY_VALUE_DIVISOR, SQUARE_VALUES, chooseEasy, chooseMedium } from "../../../../static/js/computer/reversi/levels.js";
import { seededRandom } from "../../../../static/js/computer/reversi/random.js";
import { CASES, discs, halves, legalList, play, positionOf, randomPositions } from "./helpers.js";

const BIG_BUDGET_MS = 600_000; // so far above the node limits' time that only the nodes limit Hard

function hard(position, maxNodes, info = {}) {
  return choosePositionMove(position, "hard", { budgetMs: BIG_BUDGET_MS, maxNodes, info });
}

function position(black, white, turn = "black") {
  const bits = (names) => names.reduce((b, n) => {
    b[INDEX[n] >> 5] |= 1 << (INDEX[n] & 31);
    return b;
  }, [0, 0]);
  return turn === "black" ? { me: bits(black), opp: bits(white) } : { me: bits(white), opp: bits(black) };
}

test("every level plays a legal move on random positions", () => {
  const rng = seededRandom(7);
  for (const { me, opp } of randomPositions(5, 120, 0, 59)) {
    const legal = legalList(me, opp).map((sq) => NAMES[sq]);
    assert.ok(legal.includes(choosePositionMove({ me, opp }, "easy", { rng })));
    assert.ok(legal.includes(choosePositionMove({ me, opp }, "medium", { budgetMs: BIG_BUDGET_MS })));
    assert.ok(legal.includes(hard({ me, opp }, 2000)));
  }
});

test("Easy: greedy by flips and square value when it does not play at random", () => {
  let noise = 0;
  const neverRandom = () => 0.99; // above the random share: the greedy branch, noise at its most
  for (const { me, opp } of randomPositions(6, 150, 0, 58)) {
    const key = (sq) => pop32(flips(me[0], me[1], opp[0], opp[1], sq)) + pop32(out[0]) + SQUARE_VALUES[sq] / EASY_VALUE_DIVISOR;
    const keys = legalList(me, opp).map(key);
    const chosen = key(chooseEasy(me, opp, neverRandom));
    assert.ok(chosen >= Math.max(...keys) - EASY_NOISE, "within the noise of the greediest move");
    noise += chosen < Math.max(...keys);
  }
  assert.ok(noise === 0, "the same noise for every move changes nothing");
});

test("Easy: a quarter of its moves are random legal moves", () => {
  const { me, opp } = positionOf("f5d6c3d3c4");
  const legal = legalList(me, opp);
  for (const [r, index] of [[0.0, 0], [0.2, Math.floor(0.2 * legal.length)]]) {
    let calls = 0;
    const rng = () => (calls++ === 0 ? 0.1 : r); // 0.1 < 0.25: the random branch, then the index
    assert.equal(chooseEasy(me, opp, rng), legal[index]);
  }
  // with a seeded rng over many positions, Easy leaves the greediest move in a fair share of them
  const rng = seededRandom(11);
  let differs = 0;
  const positions = randomPositions(8, 300, 0, 50);
  for (const { me: m, opp: o } of positions) {
    const key = (sq) => pop32(flips(m[0], m[1], o[0], o[1], sq)) + pop32(out[0]) + SQUARE_VALUES[sq] / EASY_VALUE_DIVISOR;
    const list = legalList(m, o);
    const best = Math.max(...list.map(key));
    differs += key(chooseEasy(m, o, rng)) < best - EASY_NOISE;
  }
  assert.ok(differs > 0.05 * positions.length && differs < 0.3 * positions.length, `${differs} of ${positions.length}`);
});

test("Medium and Hard take a corner", () => {
  // White's last discs sit on the long diagonal next to the a8 and h8 corners.
  const black = NAMES.filter((n) => !["h8", "g7", "f6", "a8", "b7"].includes(n));
  const p = position(black, ["g7", "f6", "b7"]);
  assert.ok(legalList(p.me, p.opp).includes(INDEX.h8));
  assert.ok(["a8", "h8"].includes(NAMES[chooseMedium(p.me, p.opp, BIG_BUDGET_MS, () => 0)]));
  assert.ok(["a8", "h8"].includes(hard(p, 3000)));
});

// (moves from the start, moves that give the opponent a corner at once): the cases of
// bench/pybots/tests/test_bots_reversi_hard.py.
const CORNER_GIFTS = [
  ["d3e3f2c2f6e6f3g6c3b2f5e2h7g3d2c4b4g4h3a4a5a6a1g2f1e1f4a2d1c1b1g5c6", ["g1", "h2", "g7"]],
  ["c4c5f6b3b5a6b4f5f4c3c6e3a2a5c2c7d2g4c8d3g5f2a3b6h4d1e2d6e7d7", ["a7", "b7"]],
  ["e6f6c4c3f5b4b3a3d3f4b2d2f3b1d1e2g6g4f2e1h5h7b5g2c2b6f7h3a4c6a6g7", ["a2", "h2", "b7", "g8"]],
];
const CORNERS = [[0x81, 0], [0, 0x81000000 | 0]];

test("Hard does not give a corner away", () => {
  for (const [game, gifts] of CORNER_GIFTS) {
    const p = positionOf(game);
    for (const name of gifts) {
      const [a, b] = play(p.me, p.opp, INDEX[name]);
      const theirs = moves(a[0], a[1], b[0], b[1]);
      assert.ok((theirs & CORNERS[0][0]) | (out[0] & CORNERS[1][1]), `${name} gives a corner`);
    }
    const info = {};
    assert.ok(!gifts.includes(hard(p, 20000, info)));
    assert.ok(info.depth >= 3);
  }
});

test("Hard plays the exact endgame's best move", () => {
  let checked = 0;
  for (const c of CASES.solves) {
    const values = Object.values(c.moves);
    if (!(Math.max(...values) > 0 && Math.min(...values) < 0)) continue; // some moves win, some lose
    const info = {};
    const move = hard({ me: halves(c.me), opp: halves(c.opp) }, Infinity, info);
    assert.equal(c.moves[move], c.value);
    assert.equal(info.solved, "exact");
    assert.equal(info.score, c.value);
    checked++;
  }
  assert.ok(checked >= 3, `${checked} positions with winning and losing moves`);
});

test("Hard's node limit stops its search; a tiny budget still gives a legal move", () => {
  for (const { me, opp } of randomPositions(9, 6, 10, 36)) { // over 20 empties: no solve
    for (const limit of [300, 2000]) {
      const info = {};
      const move = hard({ me, opp }, limit, info);
      assert.ok(legalList(me, opp).includes(INDEX[move]));
      assert.equal(info.solved, null);
      assert.ok(info.nodes <= limit + 64 && info.depth < info.empties);
    }
    const move = choosePositionMove({ me, opp }, "hard", { budgetMs: 1 });
    assert.ok(legalList(me, opp).includes(INDEX[move]));
  }
});

test("Medium beats Easy, Hard beats Medium (seeded games, node-limited Hard)", () => {
  const rng = seededRandom(3);
  const playGame = (blackLevel, whiteLevel) => {
    let { me, opp } = positionOf("");
    let black = true;
    for (;;) {
      if (!legalList(me, opp).length) {
        if (!legalList(opp, me).length) break;
        [me, opp] = [opp, me];
        black = !black;
      }
      const level = black ? blackLevel : whiteLevel;
      const move = level === "hard" ? hard({ me, opp }, 3000)
        : choosePositionMove({ me, opp }, level, { rng, budgetMs: BIG_BUDGET_MS });
      [me, opp] = play(me, opp, INDEX[move]);
      black = !black;
    }
    const diff = black ? discs(me) - discs(opp) : discs(opp) - discs(me);
    return Math.sign(diff); // +1: Black won
  };
  let medium = 0;
  let hardScore = 0;
  for (let g = 0; g < 6; g++) {
    medium += g % 2 ? -playGame("easy", "medium") : playGame("medium", "easy");
    hardScore += g % 2 ? -playGame("medium", "hard") : playGame("hard", "medium");
  }
  assert.ok(medium >= 2, `Medium's wins minus losses against Easy: ${medium}`);
  assert.ok(hardScore >= 2, `Hard's wins minus losses against Medium: ${hardScore}`);
});

test("a finished game or a side that must pass gets no move", () => {
  // only White can play (c1): Black must pass
  const p = position(["b1"], ["a1"]);
  assert.equal(legalList(p.me, p.opp).length, 0);
  assert.throws(() => choosePositionMove(p, "hard"), /no legal move|must pass/);
});
