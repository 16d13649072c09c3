// Hard's alpha-beta to a fixed depth on the shared puzzle positions (../shared/cases/gomoku-puzzles.json)
// and the regression positions (tests/js/computer/hard-regressions.json): total nodes, leaf-VCF
// four moves, CPU ms, and the cut-off rate at the first child, for the search settings given as
// JSON (HARD_TUNE fields, and "schedule": [...] for the widths), so two settings can be compared:
//
//   nice -n 19 node bench/js/search_depth.mjs [--depth 6] [--tune '{"leafVcfNodes": 8}']
//
// Fresh tables for each position (as bench/js/computer_speed.mjs); one untimed pass first.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PRESETS } from "../../static/js/engine/caro.js";
import { SearchBoard } from "../../static/js/computer/caro/board.js";
import { AlphaBeta, HARD_TUNE } from "../../static/js/computer/caro/search.js";
import { cpuClock } from "../../static/js/computer/brain.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const depth = Number(opt("--depth", "6"));
const tune = JSON.parse(opt("--tune", "{}"));
Object.assign(HARD_TUNE, tune);

const positions = [];
const freestyle = PRESETS.freestyle.rules.toDict();
const exact = PRESETS["exact-five"].rules.toDict();
for (const p of JSON.parse(fs.readFileSync(path.join(ROOT, "../shared/cases/gomoku-puzzles.json"), "utf8"))) {
  if (!p.id) continue;
  positions.push({ rules: p.rule === "exact" ? exact : freestyle, moves: p.moves });
}
for (const c of JSON.parse(fs.readFileSync(path.join(ROOT, "tests/js/computer/hard-regressions.json"), "utf8"))) {
  positions.push({ rules: PRESETS[c.preset].rules.toDict(), moves: c.moves });
}

function run(p) {
  const x = p.moves.filter((_, k) => k % 2 === 0);
  const o = p.moves.filter((_, k) => k % 2 === 1);
  const fb = SearchBoard.fromNames(p.rules, { x, o, toMove: p.moves.length % 2 ? "O" : "X" });
  const ab = new AlphaBeta(fb, { width: 20, hard: true, shared: false, tableBits: 18, clock: cpuClock });
  let ranked = ab.moves(fb.turn, 14).map((q) => [0, q]);
  const t0 = cpuClock();
  for (let d = 1; d <= depth; d++) ranked = ab.root(ranked.map(([, q]) => q), d);
  return { nodes: ab.nodes, vcf: ab.vcfNodes, ms: cpuClock() - t0, best: fb.name(ranked[0][1]) };
}

for (const p of positions.slice(0, 10)) run(p);
let nodes = 0;
let vcf = 0;
let ms = 0;
const bests = [];
for (const p of positions) {
  const r = run(p);
  nodes += r.nodes;
  vcf += r.vcf;
  ms += r.ms;
  bests.push(r.best);
}
console.log(`depth ${depth} tune ${JSON.stringify(tune)}: ${positions.length} positions, nodes ${nodes}, leaf-VCF moves ${vcf}, `
  + `${(ms / 1000).toFixed(2)} CPU s, ${Math.round(nodes / ms)} k nodes/s`);
console.log(`best: ${bests.join(" ")}`);
