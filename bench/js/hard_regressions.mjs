// The browser Hard on the positions where it lost to Rapfi 10k while Rapfi at 1M nodes held
// (tests/js/computer/hard-regressions.json, from docs/strength.md's post-mortems): per position the
// move it chooses, whether that is the move that lost, Rapfi 1M's move, the phase, depth and nodes.
//
//   nice -n 19 node bench/js/hard_regressions.mjs [--budget 1000] [--cpu] [--only N,M]
//
// --tune JSON: search.js HARD_TUNE fields. --cpu: the process's CPU clock (as the brain's --cpu-clock), else a counting clock (3 ms a
// read: a deterministic node budget, as the tests use). Prints a summary line: how many avoid the
// losing move and how many play Rapfi's.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PRESETS } from "../../static/js/engine/caro.js";
import { choosePositionMove } from "../../static/js/computer/caro/index.js";
import { cpuClock } from "../../static/js/computer/brain.js";
import { HARD_TUNE } from "../../static/js/computer/caro/search.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const budgetMs = Number(opt("--budget", "1000")); // the brain gives Hard all of timeout_turn
const useCpu = args.includes("--cpu");
const only = opt("--only", null)?.split(",").map(Number);
Object.assign(HARD_TUNE, JSON.parse(opt("--tune", "{}")));
const cases = JSON.parse(fs.readFileSync(path.join(ROOT, "tests/js/computer/hard-regressions.json"), "utf8"));
let avoid = 0;
let same = 0;
let n = 0;
for (const [i, c] of cases.entries()) {
  if (only && !only.includes(i)) continue;
  const rules = PRESETS[c.preset].rules.toDict();
  const x = c.moves.filter((_, k) => k % 2 === 0);
  const o = c.moves.filter((_, k) => k % 2 === 1);
  const toMove = c.moves.length % 2 ? "O" : "X";
  const stats = {};
  let k = 0;
  const clock = useCpu ? cpuClock : () => (k += 3);
  const t0 = cpuClock();
  const move = choosePositionMove({ rules, x, o, toMove }, "hard", { budgetMs, clock, stats });
  const ms = cpuClock() - t0;
  n++;
  if (move !== c.lost_with) avoid++;
  if (move === c.rapfi_1m) same++;
  console.log(`${String(i).padStart(2)} ${c.preset.padEnd(10)} ${c.opening.padEnd(12)} ply ${String(c.moves.length + 1).padStart(2)}  `
    + `chose ${move.padEnd(3)} lost ${c.lost_with.padEnd(3)} rapfi ${c.rapfi_1m.padEnd(3)} `
    + `${move === c.lost_with ? "LOST-MOVE" : move === c.rapfi_1m ? "=rapfi   " : "other    "} `
    + `${stats.phase.padEnd(10)} d${stats.depth} ${stats.nodes} nodes ${ms.toFixed(0)} ms`
    + (stats.abMs !== undefined ? ` (pre ${stats.preMs.toFixed(0)} ab ${stats.abMs.toFixed(0)} guard ${stats.guardMs.toFixed(0)} vcf ${stats.vcfNodes} dropped ${stats.dropped || 0} guard ${(stats.guard || []).join(",")})` : ""));
}
console.log(`avoid the losing move ${avoid}/${n}, Rapfi 1M's move ${same}/${n}`);
