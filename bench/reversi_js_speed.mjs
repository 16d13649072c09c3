// Node side of bench/reversi_js_speed.py (run that; it starts this with positions on stdin).
//
// Reads {positions: [[me, opp], ...] (hex bitboards of the side to move and the other), depth,
// solves: {empties: [[me, opp], ...]}, rounds} and prints one JSON object: per midgame position the nodes and
// CPU ms of an iterative-deepening search to `depth` (a fresh table per position, as a move does);
// per solve the value, nodes and CPU ms; and the move-generation speed of two representations of a
// bitboard (two 32-bit halves, as the computer uses, and one BigInt) on the same positions; and
// Hard's move choice under a node limit on `choices` positions ([me, opp, maxNodes]).

import { flips, low32, moves, out } from "../static/js/computer/reversi/bitboard.js";
import { Control } from "../static/js/computer/reversi/control.js";
import { Endgame } from "../static/js/computer/reversi/endgame.js";
import { chooseHard } from "../static/js/computer/reversi/hard.js";
import { MidgameSearch } from "../static/js/computer/reversi/midgame.js";

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

function halves(hex) {
  const x = BigInt(`0x${hex}`);
  return [Number(x & 0xffffffffn) | 0, Number(x >> 32n) | 0];
}

// -- one BigInt per bitboard: the same Kogge-Stone fills and ray walks --------------------------
const M64 = (1n << 64n) - 1n;
const B_NOT_A = 0xfefefefefefefefen;
const B_NOT_H = 0x7f7f7f7f7f7f7f7fn;
const SHIFTS = [[1n, B_NOT_A], [8n, M64], [9n, B_NOT_A], [7n, B_NOT_H]];

function movesBig(me, opp) {
  let res = 0n;
  for (const [s, mask] of SHIFTS) {
    const p = opp & mask;
    let g = me | (p & ((me << s) & M64));
    let q = p & ((p << s) & M64);
    g |= q & ((g << (2n * s)) & M64);
    q &= (q << (2n * s)) & M64;
    g |= q & ((g << (4n * s)) & M64);
    res |= (((g & opp) << s) & M64) & mask;
    const pr = opp & (mask === B_NOT_A ? B_NOT_H : mask === B_NOT_H ? B_NOT_A : M64);
    const back = mask === B_NOT_A ? B_NOT_H : mask === B_NOT_H ? B_NOT_A : M64;
    g = me | (pr & (me >> s));
    q = pr & (pr >> s);
    g |= q & (g >> (2n * s));
    q &= q >> (2n * s);
    g |= q & (g >> (4n * s));
    res |= ((g & opp) >> s) & back;
  }
  return res & ~(me | opp) & M64;
}

const DIRS = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [-1, -1], [1, -1], [-1, 1]];
function flipsBig(me, opp, sq) {
  let f = 0n;
  for (const [dc, dr] of DIRS) {
    let c = (sq & 7) + dc;
    let r = (sq >> 3) + dr;
    let run = 0n;
    while (c >= 0 && c < 8 && r >= 0 && r < 8) {
      const b = 1n << BigInt(r * 8 + c);
      if (opp & b) run |= b;
      else {
        if (me & b) f |= run;
        break;
      }
      c += dc;
      r += dr;
    }
  }
  return f;
}

function movegen(positions, repeat) {
  const half = positions.map(([m, o]) => [...halves(m), ...halves(o)]);
  const big = positions.map(([m, o]) => [BigInt(`0x${m}`), BigInt(`0x${o}`)]);
  let check = 0;
  let t = cpuMs();
  for (let r = 0; r < repeat; r++) {
    for (const [a, b, c, d] of half) {
      let lo = moves(a, b, c, d);
      let hi = out[0];
      while (lo) {
        check ^= flips(a, b, c, d, low32(lo));
        lo &= lo - 1;
      }
      while (hi) {
        check ^= flips(a, b, c, d, 32 + low32(hi));
        hi &= hi - 1;
      }
    }
  }
  const halvesUs = ((cpuMs() - t) * 1000) / repeat / half.length;
  t = cpuMs();
  const bigRepeat = Math.max(1, Math.floor(repeat / 10));
  for (let r = 0; r < bigRepeat; r++) {
    for (const [me, opp] of big) {
      let legal = movesBig(me, opp);
      while (legal) {
        const bit = legal & -legal;
        legal ^= bit;
        check ^= Number(flipsBig(me, opp, bit.toString(2).length - 1) & 1n);
      }
    }
  }
  const bigUs = ((cpuMs() - t) * 1000) / bigRepeat / big.length;
  return { halvesUs, bigUs, check };
}

function midgame(positions, depth) {
  const control = new Control(cpuMs);
  const search = new MidgameSearch(control);
  return positions.map(([m, o]) => {
    const [mlo, mhi] = halves(m);
    const [olo, ohi] = halves(o);
    const t = cpuMs();
    search.clear();
    control.reset(Infinity);
    let first = -1;
    for (let d = 1; d <= depth; d++) first = search.root(mlo, mhi, olo, ohi, d, first);
    return { nodes: control.nodes, ms: cpuMs() - t, move: first, value: search.rootValue };
  });
}

function solves(byEmpties) {
  const control = new Control(cpuMs);
  const endgame = new Endgame(control);
  const result = {};
  for (const [empties, positions] of Object.entries(byEmpties)) {
    result[empties] = positions.map(([m, o]) => {
      const [mlo, mhi] = halves(m);
      const [olo, ohi] = halves(o);
      const t = cpuMs();
      endgame.clear();
      control.reset(Infinity);
      const [value] = endgame.root(mlo, mhi, olo, ohi);
      return { value, nodes: control.nodes, ms: cpuMs() - t };
    });
  }
  return result;
}

function choices(positions) {
  return positions.map(([m, o, maxNodes]) => {
    const info = {};
    const sq = chooseHard(halves(m), halves(o), 1e9, { clock: cpuMs, maxNodes, info });
    return { move: sq, depth: info.depth, solved: info.solved, score: info.score };
  });
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const job = JSON.parse(Buffer.concat(chunks).toString());
midgame(job.positions.slice(0, 4), Math.min(job.depth, 6)); // warm the compiler up
solves({ warm: Object.values(job.solves)[0].slice(0, 2) });
const rounds = Math.max(1, job.rounds ?? 1);
const totalMs = (rows) => rows.reduce((t, row) => t + row.ms, 0);
/** Of several passes over the same positions (lists of rows), the one with the least CPU time (as the Python side). */
const fastest = (runs) => runs.reduce((best, rows) => (totalMs(rows) < totalMs(best) ? rows : best));
const midRuns = Array.from({ length: rounds }, () => midgame(job.positions, job.depth));
const solveRuns = Array.from({ length: rounds }, () => solves(job.solves));
const result = {
  movegen: movegen(job.positions, job.repeat ?? 200),
  midgame: fastest(midRuns),
  solves: Object.fromEntries(Object.keys(job.solves).map((e) => [e, fastest(solveRuns.map((run) => run[e]))])),
  choices: choices(job.choices ?? []),
};
process.stdout.write(JSON.stringify(result));
