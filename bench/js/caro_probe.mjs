// What the browser Hard plays in given caro positions, at a given CPU budget (for the opening
// work of docs/strength.md: the second player's first moves). One JSON object a line on stdin:
// {preset, moves: [square, ...]}; one line out per position: the moves, Hard's move, its phase,
// depth, nodes and CPU ms.
//
//   echo '{"preset":"freestyle","moves":["H8","I9","I8","G8","J8"]}' | node bench/js/caro_probe.mjs [--budget 1000]

import readline from "node:readline";
import { choosePositionMove } from "../../static/js/computer/caro/index.js";
import { PRESETS } from "../../static/js/computer/caro/rules.js";
import { cpuClock } from "../../static/js/computer/brain.js";

const at = process.argv.indexOf("--budget");
const budgetMs = at > 0 ? Number(process.argv[at + 1]) : 1000; // the brain gives Hard all of timeout_turn 1000

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const { preset, moves } = JSON.parse(line);
  const x = moves.filter((_, i) => i % 2 === 0);
  const o = moves.filter((_, i) => i % 2 === 1);
  const stats = {};
  const t0 = cpuClock();
  const square = choosePositionMove({ rules: PRESETS[preset].rules, x, o, toMove: moves.length % 2 ? "O" : "X" }, "hard",
    { budgetMs, clock: cpuClock, rng: 1, stats });
  console.log(JSON.stringify({ preset, moves: moves.join(" "), move: square, phase: stats.phase, depth: stats.depth,
    nodes: stats.nodes, cpuMs: Math.round(cpuClock() - t0) }));
}
