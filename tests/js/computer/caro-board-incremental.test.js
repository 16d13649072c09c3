// The caro search board's fast paths (static/js/computer/caro/board.js, patterns.js) give the same
// state as the slow ones they replace, in every rule set:
// - the undo log: taking back the last put stone by replaying the logged codes leaves every array
//   (codes, scores, totals, threat counts, the threat sets in the same order, combinations, cell
//   values) exactly as recomputing every window (the path it replaced) does;
// - the candidate set holds exactly the empty cells near a stone;
// - the pattern table's reach: a stone (or the board's edge) farther from the centre than `reach`
//   never changes a window's code (the search board skips those look-ups, and its direct table
//   is indexed by the cells within reach only).

import test from "node:test";
import assert from "node:assert/strict";
import { SearchBoard } from "../../../static/js/computer/caro/board.js";
import { PRESETS, EMPTY, XS, OS, EDGE } from "../../../static/js/computer/caro/rules.js";
import { patterns } from "../../../static/js/computer/caro/patterns.js";
import { makeRng } from "../../../static/js/computer/rng.js";

const SLUGS = Object.keys(PRESETS);

/** Every piece of incremental state, as plain arrays (threat sets in their order). The codes'
 * count of X stones (bits 6-9) only outside Renju where nothing reads it: there the board never
 * looks up a window both sides' stones shut off from the move (move()), so those bits may lag. */
function snapshot(fb) {
  const sets = [];
  for (let sk = 0; sk < 24; sk++) sets.push(Array.from(fb.setCells.subarray(sk * fb.NC, sk * fb.NC + fb.setLen[sk])));
  return {
    cells: Array.from(fb.cells), keys: Array.from(fb.keys), codes: Array.from(fb.codes, (c) => (fb.renju ? c : c & 63)),
    score: Array.from(fb.score), total: Array.from(fb.total), cnt: Array.from(fb.cnt), sets,
    combo: Array.from(fb.combo), cellAttack: Array.from(fb.cellAttack), cellDefence: Array.from(fb.cellDefence),
    nearc: Array.from(fb.nearc), h: [fb.h1, fb.h2],
  };
}

function randomGame(rules, rng, plies) {
  const fb = new SearchBoard(rules);
  const out = [];
  for (let i = 0; i < plies; i++) {
    const cands = fb.candidates().filter((q) => fb.legal(q, fb.turn));
    if (!cands.length || fb.count(fb.turn, 7) > 0) break;
    const q = cands[Math.floor(rng() * cands.length)];
    fb.play(q);
    out.push(q);
  }
  return out;
}

test("taking back the last stone by the undo log equals recomputing every window, sets in the same order", () => {
  const { random: rng } = makeRng(2812); // [0, 1)
  for (const slug of SLUGS) {
    const rules = PRESETS[slug].rules;
    for (let g = 0; g < 4; g++) {
      const moves = randomGame(rules, rng, 10 + Math.floor(rng() * 30));
      const logged = new SearchBoard(rules);
      const recomputed = new SearchBoard(rules);
      for (const q of moves) {
        logged.play(q);
        recomputed.play(q);
      }
      // take back a few, then play others, then take back to the start: compare after each step
      const steps = [];
      for (let k = 0; k < moves.length; k++) steps.push(k % 3 === 2 ? "play" : "undo");
      for (const step of steps) {
        if (step === "undo" || logged.history.length === 0) {
          if (logged.history.length === 0) continue;
          logged.undo();
          recomputed.frames = 0; // the log void: remove() recomputes every window (the old path)
          recomputed.ulen = 0;
          recomputed.undo();
        } else {
          const cands = logged.candidates().filter((q) => logged.legal(q, logged.turn));
          if (!cands.length || logged.count(logged.turn, 7) > 0) continue;
          const q = cands[Math.floor(rng() * cands.length)];
          logged.play(q);
          recomputed.play(q);
        }
        assert.deepEqual(snapshot(logged), snapshot(recomputed), `${slug} game ${g}`);
      }
      while (logged.history.length) {
        logged.undo();
        recomputed.frames = 0;
        recomputed.ulen = 0;
        recomputed.undo();
      }
      assert.deepEqual(snapshot(logged), snapshot(recomputed), `${slug} game ${g} at the start`);
      assert.deepEqual(snapshot(logged), snapshot(new SearchBoard(rules)), `${slug} game ${g}: an empty board again`);
    }
  }
});

test("the candidate set is the empty cells within distance 2 of a stone", () => {
  const { random: rng } = makeRng(77); // [0, 1)
  for (const slug of ["freestyle", "exact-five", "renju", "caro-vn"].filter((s) => PRESETS[s])) {
    const rules = PRESETS[slug].rules;
    const fb = new SearchBoard(rules);
    for (const q of randomGame(rules, rng, 40)) {
      fb.play(q);
      const set = Array.from(fb.candCells.subarray(0, fb.candLen)).sort((a, b) => a - b);
      assert.deepEqual(set, fb.candidates(), slug);
      for (let i = 0; i < fb.candLen; i++) assert.equal(fb.candPos[fb.candCells[i]], i);
    }
    while (fb.history.length) {
      fb.undo();
      const set = Array.from(fb.candCells.subarray(0, fb.candLen)).sort((a, b) => a - b);
      assert.deepEqual(set, fb.stones ? fb.candidates() : [], slug);
    }
  }
});

test("a stone beyond the pattern table's reach never changes a window's code", () => {
  const { random: rng } = makeRng(9); // [0, 1)
  for (const slug of SLUGS) {
    const pat = patterns(PRESETS[slug].rules);
    const { H, reach } = pat;
    assert.ok(reach >= pat.L - 1 && reach <= H, slug);
    if (reach === H) continue;
    for (let n = 0; n < 4000; n++) {
      // a window: the centre empty, each side random stones (dense near the centre) up to an
      // optional edge; the cells beyond `reach` (before the edge) changed at random
      const w = new Array(2 * H + 1).fill(EMPTY);
      const far = [];
      for (const sgn of [-1, 1]) {
        const edgeAt = rng() < 0.3 ? 1 + Math.floor(rng() * H) : H + 1;
        for (let t = 1; t <= H; t++) {
          const j = H + sgn * t;
          if (t >= edgeAt) w[j] = EDGE;
          else {
            const r = rng();
            w[j] = r < 0.45 ? XS : r < 0.7 ? OS : EMPTY;
            if (t > reach) far.push(j);
          }
        }
      }
      const key = (cells) => cells.reduce((k, v, j) => k | (v << (2 * j)), 0);
      const code = pat.code(key(w));
      for (let tries = 0; tries < 4; tries++) {
        const w2 = w.slice();
        for (const j of far) w2[j] = [EMPTY, XS, OS][Math.floor(rng() * 3)];
        if (tries === 3) { // the board's edge moved, beyond reach
          for (const sgn of [-1, 1]) {
            const cut = reach + 1 + Math.floor(rng() * (H - reach));
            for (let t = cut; t <= H; t++) w2[H + sgn * t] = EDGE;
          }
        }
        assert.equal(pat.code(key(w2)), code, `${slug}: ${w.join("")} vs ${w2.join("")}`);
        if (pat.direct) assert.equal(pat.directIndex(key(w2)), pat.directIndex(key(w)));
      }
    }
  }
});
