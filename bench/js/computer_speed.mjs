// The JS side of bench/computer_speed.py: reads {positions: [{rules, x, o, toMove}], depth, budgetMs,
// vctNodes} as JSON on stdin, runs on each position (fresh tables each time, process CPU time):
// Hard's alpha-beta by iterative deepening from 1 to `depth` over its 14 root candidates (nodes,
// CPU ms, best cell), the same within `budgetMs` of CPU (the depth completed), and a df-pn VCT of
// at most `vctNodes` nodes (nodes, CPU ms, found or not). Prints one JSON line per position, from a
// second pass over them (the first warms the JIT compiler).

import { SearchBoard } from "../../static/js/computer/caro/board.js";
import { AlphaBeta } from "../../static/js/computer/caro/search.js";
import { ThreatSearch } from "../../static/js/computer/caro/threats.js";
import { Timeout } from "../../static/js/computer/caro/clock.js";
import { cpuClock } from "../../static/js/computer/brain.js";
import { warmUp } from "../../static/js/computer/caro/index.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const job = JSON.parse(Buffer.concat(chunks).toString("utf8"));
warmUp([...new Map(job.positions.map((p) => [JSON.stringify(p.rules), p.rules])).values()], { clock: cpuClock });

const ROOT_MOVES = 14;

function toDepth(fb, depth) {
  const ab = new AlphaBeta(fb, { width: 10, hard: true, shared: false, tableBits: 18, clock: cpuClock });
  let ranked = ab.moves(fb.turn, ROOT_MOVES).map((q) => [0, q]);
  const t0 = cpuClock();
  for (let d = 1; d <= depth; d++) ranked = ab.root(ranked.map(([, q]) => q), d);
  return { nodes: ab.nodes, ms: cpuClock() - t0, best: fb.name(ranked[0][1]) };
}

function inBudget(fb, budgetMs) {
  const t0 = cpuClock();
  const ab = new AlphaBeta(fb, { width: 10, hard: true, shared: false, tableBits: 18, clock: cpuClock, deadline: t0 + budgetMs });
  let ranked = ab.moves(fb.turn, ROOT_MOVES).map((q) => [0, q]);
  let done = 0;
  for (let d = 1; d < 30; d++) {
    try {
      ranked = ab.root(ranked.map(([, q]) => q), d);
    } catch (e) {
      if (!(e instanceof Timeout)) throw e;
      break;
    }
    done = d;
  }
  return done;
}

function vct(fb, nodes) {
  const t0 = cpuClock();
  const ts = new ThreatSearch(fb, { maxNodes: nodes, tableBits: 18, clock: cpuClock });
  const line = ts.vct(12);
  return { nodes: ts.nodes, ms: cpuClock() - t0, found: line !== null };
}

// V8 compiles in tiers and reaches its fastest code only after a function has run a while: one
// untimed pass over the positions first (numba's functions are compiled before the Python side
// starts), so both sides are measured at their steady speed
for (const timed of [false, true]) {
  for (const p of job.positions) {
    const fb = () => SearchBoard.fromNames(p.rules, p);
    const out = { ab: toDepth(fb(), job.depth), depth: timed ? inBudget(fb(), job.budgetMs) : 0,
      vct: vct(fb(), job.vctNodes) };
    if (timed) process.stdout.write(`${JSON.stringify(out)}\n`);
  }
}
