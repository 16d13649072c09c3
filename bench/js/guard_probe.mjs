// What Hard's guard would need to see the loss after a move (issue 28's defend puzzles): for a
// puzzle (../shared/cases/gomoku-puzzles.json) and moves of the defender, the opponent's searches
// after each move: VCF/VCT in the zone, VCT with threes anywhere, and the quiet win (zone and
// anywhere), each with its nodes, whether it found a win, and CPU ms (this process).
//
//   nice -n 19 node bench/js/guard_probe.mjs gmk-s045 F10,J10,F11 [--nodes 200000]

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PRESETS } from "../../static/js/engine/caro.js";
import { SearchBoard } from "../../static/js/computer/caro/board.js";
import { ThreatSearch } from "../../static/js/computer/caro/threats.js";
import { cpuClock } from "../../static/js/computer/brain.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const nodes = Number(opt("--nodes", "200000"));
const [id, list] = args;
const p = JSON.parse(fs.readFileSync(path.join(ROOT, "../shared/cases/gomoku-puzzles.json"), "utf8")).find((e) => e.id === id);
const rules = PRESETS[p.rule === "exact" ? "exact-five" : "freestyle"].rules.toDict();
for (const mv of list.split(",")) {
  const moves = [...p.moves, mv];
  const fb = SearchBoard.fromNames(rules, { x: moves.filter((_, k) => k % 2 === 0), o: moves.filter((_, k) => k % 2 === 1),
    toMove: moves.length % 2 ? "O" : "X" });
  const out = [];
  const run = (label, f, opts) => {
    const ts = new ThreatSearch(fb, { clock: cpuClock, maxNodes: nodes, ...opts });
    const t = cpuClock();
    const r = f(ts);
    const found = Array.isArray(r) ? r.map((q) => (q === null ? "-" : fb.name(q))).join(" ") : r === null ? null : fb.name(r);
    out.push(`${label}: ${found ? "WIN " + found : "none"} nodes ${ts.nodes} ${ts.timedOut ? "timedOut " : ""}${(cpuClock() - t).toFixed(0)} ms`);
  };
  run("vcf16", (ts) => ts.vcf(16), {});
  run("vct10 zone", (ts) => ts.vct(10), {});
  run("vct10 wide", (ts) => ts.vct(10), { zone: false });
  run("vct10 wide w40", (ts) => ts.vct(10), { zone: false, threeWidth: 40 });
  run("quiet zone", (ts) => ts.quietWin(16, 10), {});
  run("quiet zone w24", (ts) => ts.quietWin(16, 10, 24, 20), {});
  run("quiet wide", (ts) => ts.quietWin(16, 10), { zone: false });
  console.log(`${id} after ${mv} (${p.losing.includes(mv) ? "losing" : p.holding.includes(mv) ? "holding" : "unchecked"}):\n  ` + out.join("\n  "));
}
