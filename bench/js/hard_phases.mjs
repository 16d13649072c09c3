// Where the browser Hard's time goes, phase by phase (issue 28's time manager): Hard on the gomoku
// puzzles (../shared/cases/gomoku-puzzles.json) and/or on positions of recorded matches
// (bench/public_match.py's JSON-lines games), on this process's CPU clock, as the brain plays them.
// Per position: the move, the phase that chose it, the alpha-beta's depth, and the CPU ms of every
// phase (levels.js Hard.lap: prelude, vcf, vct, wide, moves, opp, pre, ab, check, guardWide, guardQuiet,
// guard, more); then the mean ms per phase and how often each phase chose the move.
//
//   nice -n 19 node bench/js/hard_phases.mjs [--budget 1000] [--kind defend|win] [--ids a,b]
//       [--games FILE.jsonl --every 4 --max 60] [--quiet]
//
// --games: our moves in those games (every --every-th, at most --max positions; the opening's stones
// and every move before the one we played). --quiet: only the summary. A warm-up move first, as the
// brain's --warm-up does, so the timed moves meet compiled code.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PRESETS } from "../../static/js/engine/caro.js";
import { choosePositionMove, warmUp } from "../../static/js/computer/caro/index.js";
import { cpuClock } from "../../static/js/computer/brain.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const budgetMs = Number(opt("--budget", "1000"));
const kind = opt("--kind", null);
const ids = opt("--ids", null)?.split(",");
const gamesFile = opt("--games", null);
const every = Number(opt("--every", "4"));
const maxGames = Number(opt("--max", "60"));
const quiet = args.includes("--quiet");

const jobs = []; // {name, preset, moves, losing?, holding?, winning?}
if (!gamesFile || kind || ids) {
  const file = path.join(ROOT, "../shared/cases/gomoku-puzzles.json");
  for (const p of JSON.parse(fs.readFileSync(file, "utf8"))) {
    if (!p.id || (kind && p.kind !== kind) || (ids && !ids.includes(p.id))) continue;
    jobs.push({ name: p.id, preset: p.rule === "exact" ? "exact-five" : "freestyle", moves: p.moves, puzzle: p });
  }
}
if (gamesFile) {
  let k = 0;
  const lines = fs.readFileSync(gamesFile, "utf8").split("\n").filter((l) => l.trim());
  for (const [g, line] of lines.entries()) {
    const game = JSON.parse(line);
    const preset = game.match.includes("exact-five") ? "exact-five" : "freestyle";
    const all = [...game.opening.split(" "), ...game.moves];
    const n0 = game.opening.split(" ").length;
    for (let i = n0; i < all.length; i++) {
      if ((i % 2 === 0 ? "X" : "O") !== game.ours) continue;
      if (k++ % every === 0 && jobs.length < maxGames) jobs.push({ name: `g${g}p${i}`, preset, moves: all.slice(0, i) });
    }
  }
}

warmUp([PRESETS.freestyle.rules, PRESETS["exact-five"].rules], { totalMs: 1500, clock: cpuClock });
const sum = {};
const chose = {};
let lost = 0;
let defends = 0;
let cpuAll = 0;
for (const job of jobs) {
  const rules = PRESETS[job.preset].rules.toDict();
  const x = job.moves.filter((_, k) => k % 2 === 0);
  const o = job.moves.filter((_, k) => k % 2 === 1);
  const stats = {};
  const t0 = cpuClock();
  const move = choosePositionMove({ rules, x, o, toMove: job.moves.length % 2 ? "O" : "X" }, "hard",
    { budgetMs, clock: cpuClock, stats });
  const ms = cpuClock() - t0;
  cpuAll += ms;
  chose[stats.phase] = (chose[stats.phase] || 0) + 1;
  for (const [name, t] of Object.entries(stats.phaseMs || {})) sum[name] = (sum[name] || 0) + t;
  let verdict = "";
  if (job.puzzle?.kind === "defend") {
    defends++;
    const bad = job.puzzle.losing.includes(move);
    lost += bad;
    verdict = bad ? "LOST" : job.puzzle.holding.includes(move) ? "held" : "unchecked";
  } else if (job.puzzle) verdict = job.puzzle.winning.includes(move) ? "solved" : "FAILED";
  if (!quiet) {
    const phases = Object.entries(stats.phaseMs || {}).map(([n, t]) => `${n} ${t.toFixed(0)}`).join(" ");
    console.log(`${job.name.padEnd(10)} ${job.preset.padEnd(10)} ${move.padEnd(3)} ${verdict.padEnd(9)} `
      + `${(stats.phase || "").padEnd(8)} d${stats.depth ?? 0}${stats.moreDepth ? "+" + stats.moreDepth : ""} `
      + `${ms.toFixed(0)} ms | ${phases} | iters ${(stats.iterMs || []).join(",")} guard ${(stats.guard || []).join(",")} wide ${(stats.wide || []).join(",")} bests ${(stats.bests || []).join(",")}`);
  }
}
const n = jobs.length;
console.log(`\n${n} positions, budget ${budgetMs} ms (CPU clock); mean CPU ms a move ${(cpuAll / n).toFixed(0)}`);
console.log("mean ms a position, per phase: " + Object.entries(sum).map(([k, t]) => `${k} ${(t / n).toFixed(0)}`).join(", "));
console.log("phase that chose: " + Object.entries(chose).map(([k, c]) => `${k} ${c}`).join(", "));
if (defends) console.log(`defences held ${defends - lost}/${defends}`);
