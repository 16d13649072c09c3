// The browser engine's numbers for bench/engine.py, which prints them beside the Python engine's:
// node bench/js/engine_bench.js prints one JSON object. Same work as the Python side: caro moves
// of random games (play + win check), the Renju foul test on every empty point of the 13 shared
// positions, their legal-move lists, and Reversi perft(8) on the two 64-bit representations
// measured for issue 26 (two 32-bit halves, the engine's; BigInt, written here only to compare).

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { Board, Rules, geometry } from "../../static/js/engine/caro.js";
import { Board as ReversiBoard, perft } from "../../static/js/engine/reversi.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const CASES = path.resolve(ROOT, "..", "shared", "cases");

/** CPU milliseconds of this process so far (user + system). */
function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function percentile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** A seeded shuffle (mulberry32) so both runs play comparable games. */
function shuffled(items, seed) {
  let a = seed >>> 0;
  const rng = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function caroMoves(games) {
  const names = geometry(15).names;
  let moves = 0;
  let cpu = 0;
  for (let g = 0; g < games; g += 1) {
    const order = shuffled(names, g + 1);
    const board = new Board(new Rules());
    const start = cpuMs();
    for (const square of order) if (board.play(square) !== null) break;
    cpu += cpuMs() - start;
    moves += board.ply;
  }
  return { us_per_move: (cpu * 1000) / moves, moves, games };
}

function renjuFouls(rounds) {
  const cases = JSON.parse(fs.readFileSync(path.join(CASES, "renju-fouls.json"), "utf8")).cases;
  const rules = new Rules({ renju: true, blocked: "none" });
  const boards = cases.map((c) => Board.fromStones(rules, { x: c.black, o: c.white }));
  // warm up the JIT first, as a page does after its first moves
  for (const board of boards) board.legalMoves();
  const samples = [];
  for (let r = 0; r < rounds; r += 1) {
    for (const board of boards) {
      for (const square of geometry(15).names) {
        if (board.stoneAt(square) !== null) continue;
        const start = process.hrtime.bigint();
        board.foul(square);
        samples.push(Number(process.hrtime.bigint() - start) / 1000);
      }
    }
  }
  const lists = [];
  for (let r = 0; r < rounds; r += 1) {
    for (const board of boards) {
      const start = cpuMs();
      board.legalMoves();
      lists.push((cpuMs() - start) * 1000);
    }
  }
  return {
    checks: samples.length,
    p50_us: percentile(samples, 0.5),
    p99_us: percentile(samples, 0.99),
    max_us: Math.max(...samples),
    mean_us: samples.reduce((a, b) => a + b, 0) / samples.length,
    legal_moves_us: lists.reduce((a, b) => a + b, 0) / lists.length,
  };
}

// -- Reversi perft on BigInt bitboards, only to compare with the engine's 32-bit halves ----------

const FULL = (1n << 64n) - 1n;
const INNER = 0x7e7e7e7e7e7e7e7en;
const SHIFTS = [[1n, true], [8n, false], [7n, true], [9n, true]];
const RAYS = Array.from({ length: 64 }, (_, i) => {
  const rays = [];
  for (const [dc, dr] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1], [1, -1], [-1, 1]]) {
    const ray = [];
    for (let c = (i % 8) + dc, r = Math.floor(i / 8) + dr; c >= 0 && c < 8 && r >= 0 && r < 8; c += dc, r += dr) {
      ray.push(1n << BigInt(r * 8 + c));
    }
    if (ray.length >= 2) rays.push(ray);
  }
  return rays;
});

function legalBig(me, opp) {
  const empty = ~(me | opp) & FULL;
  const inner = opp & INNER;
  let moves = 0n;
  for (const [shift, useInner] of SHIFTS) {
    const mask = useInner ? inner : opp;
    let t = mask & (me << shift);
    for (let k = 0; k < 5; k += 1) t |= mask & (t << shift);
    moves |= t << shift;
    t = mask & (me >> shift);
    for (let k = 0; k < 5; k += 1) t |= mask & (t >> shift);
    moves |= t >> shift;
  }
  return moves & empty;
}

function flipsBig(me, opp, square) {
  let flips = 0n;
  for (const ray of RAYS[square]) {
    let run = 0n;
    for (const bit of ray) {
      if (opp & bit) run |= bit;
      else {
        if (me & bit) flips |= run;
        break;
      }
    }
  }
  return flips;
}

function popcountBig(x) {
  let n = 0;
  for (let v = x; v; v &= v - 1n) n += 1;
  return n;
}

function perftBig(me, opp, depth) {
  let moves = legalBig(me, opp);
  if (!moves) {
    if (!legalBig(opp, me)) return 1;
    return depth === 1 ? 1 : perftBig(opp, me, depth - 1);
  }
  if (depth === 1) return popcountBig(moves);
  let total = 0;
  while (moves) {
    const bit = moves & -moves;
    moves ^= bit;
    const flipped = flipsBig(me, opp, bit.toString(2).length - 1);
    total += perftBig(opp & ~flipped, me | bit | flipped, depth - 1);
  }
  return total;
}

function timed(fn) {
  const cpu = cpuMs();
  const wall = performance.now();
  const value = fn();
  return { value, cpu_s: (cpuMs() - cpu) / 1000, wall_s: (performance.now() - wall) / 1000 };
}

const depth = 8;
const halves = timed(() => perft(new ReversiBoard(), depth));
const bigint = timed(() => perftBig((1n << 35n) | (1n << 28n), (1n << 27n) | (1n << 36n), depth));
if (bigint.value !== halves.value) throw new Error(`BigInt perft ${bigint.value} != ${halves.value}`);
process.stdout.write(`${JSON.stringify({
  node: process.version,
  caro_moves: caroMoves(200),
  renju_fouls: renjuFouls(5),
  perft: { depth, leaves: halves.value, halves, bigint },
})}\n`);
