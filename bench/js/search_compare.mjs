// "Same search, faster": Hard's alpha-beta of two code trees side by side in one process, on the
// positions of search_depth.mjs (the shared puzzles and tests/js/computer/hard-regressions.json).
// For each position and each depth 1..--depth (an iterative deepening as search_depth.mjs and
// levels.js: the root moves re-ranked after each iteration, one fresh table per position and tree)
// it records the best move, its score, the iteration's nodes and its CPU ms, for tree A and tree
// B, interleaved position by position (A then B, then B then A on the next, so load drifts hit both).
// Prints every position/depth where the move, the score or the node count differ (DIFF lines), a
// table per depth (nodes, CPU ms, k nodes/s of each tree, B's speed-up) and a summary line:
//
//   nice -n 19 node bench/js/search_compare.mjs [--a /work/main] [--b .] [--depth 9] [--only 3,17]
//       [--threats]   (also the threat searches: threatWin's VCF/VCT on each position, both trees)
//
// Trees are checkouts (their static/js/computer/caro/ and engine are imported by absolute path).
// CPU ms: this process's user + system time (survives load; both trees pay the same GC).
// Exit status 1 when any difference was found.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const depth = Number(opt("--depth", "8"));
const treeA = path.resolve(opt("--a", "/work/main"));
const treeB = path.resolve(opt("--b", HERE));
const only = opt("--only", null)?.split(",").map(Number);
const withThreats = args.includes("--threats");

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function load(root) {
  const imp = (p) => import(pathToFileURL(path.join(root, p)).href);
  const [engine, board, search, index] = await Promise.all([
    imp("static/js/engine/caro.js"), imp("static/js/computer/caro/board.js"),
    imp("static/js/computer/caro/search.js"), imp("static/js/computer/caro/index.js")]);
  return { root, PRESETS: engine.PRESETS, SearchBoard: board.SearchBoard, AlphaBeta: search.AlphaBeta,
    threatWin: index.threatWin };
}

const A = await load(treeA);
const B = await load(treeB);

const positions = [];
for (const p of JSON.parse(fs.readFileSync(path.join(HERE, "../shared/cases/gomoku-puzzles.json"), "utf8"))) {
  if (!p.id) continue;
  positions.push({ name: p.id, preset: p.rule === "exact" ? "exact-five" : "freestyle", moves: p.moves });
}
for (const [i, c] of JSON.parse(fs.readFileSync(path.join(HERE, "tests/js/computer/hard-regressions.json"), "utf8")).entries()) {
  positions.push({ name: `reg-${i}`, preset: c.preset, moves: c.moves });
}

/** Per depth: {best, score, nodes, ms} of tree `t` on position `p`. */
function run(t, p) {
  const rules = t.PRESETS[p.preset].rules.toDict();
  const x = p.moves.filter((_, k) => k % 2 === 0);
  const o = p.moves.filter((_, k) => k % 2 === 1);
  const fb = t.SearchBoard.fromNames(rules, { x, o, toMove: p.moves.length % 2 ? "O" : "X" });
  const ab = new t.AlphaBeta(fb, { width: 20, hard: true, shared: false, tableBits: 18, clock: cpuMs });
  let ranked = ab.moves(fb.turn, 14).map((q) => [0, q]);
  const out = [];
  if (!ranked.length) return out;
  for (let d = 1; d <= depth; d++) {
    const n0 = ab.nodes;
    const t0 = cpuMs();
    ranked = ab.root(ranked.map(([, q]) => q), d);
    out.push({ best: fb.name(ranked[0][1]), score: ranked[0][0], nodes: ab.nodes - n0, ms: cpuMs() - t0 });
  }
  return out;
}

function threats(t, p) {
  const rules = t.PRESETS[p.preset].rules.toDict();
  const x = p.moves.filter((_, k) => k % 2 === 0);
  const o = p.moves.filter((_, k) => k % 2 === 1);
  const toMove = p.moves.length % 2 ? "O" : "X";
  const out = [];
  for (const lim of [{ vct: false, depth: 20, maxNodes: 20000 }, { vct: true, depth: 6, maxNodes: 20000 },
    { vct: true, depth: 8, maxNodes: 30000, zone: false }]) {
    const t0 = cpuMs();
    const r = t.threatWin({ rules, x, o, toMove }, lim);
    out.push({ line: r.line ? r.line.join(" ") : "-", nodes: r.nodes, ms: cpuMs() - t0 });
  }
  return out;
}

// warm-up: both trees on the first positions (JIT, pattern tables), untimed
for (const p of positions.slice(0, 6)) {
  for (const t of [A, B]) run(t, p);
}

const rows = Array.from({ length: depth }, () => ({ na: 0, nb: 0, ma: 0, mb: 0 }));
const th = { na: 0, nb: 0, ma: 0, mb: 0 };
let diffs = 0;
for (const [i, p] of positions.entries()) {
  if (only && !only.includes(i)) continue;
  const order = i % 2 ? [B, A] : [A, B];
  const res = new Map(order.map((t) => [t, run(t, p)]));
  const ra = res.get(A);
  const rb = res.get(B);
  for (let d = 0; d < ra.length; d++) {
    const a = ra[d];
    const b = rb[d];
    rows[d].na += a.nodes;
    rows[d].nb += b.nodes;
    rows[d].ma += a.ms;
    rows[d].mb += b.ms;
    if (a.best !== b.best || a.score !== b.score || a.nodes !== b.nodes) {
      diffs++;
      console.log(`DIFF ${i} ${p.name} depth ${d + 1}: A ${a.best} ${a.score} ${a.nodes} nodes | B ${b.best} ${b.score} ${b.nodes} nodes`);
    }
  }
  if (withThreats) {
    const tr = new Map(order.map((t) => [t, threats(t, p)]));
    const ta = tr.get(A);
    const tb = tr.get(B);
    for (let k = 0; k < ta.length; k++) {
      th.na += ta[k].nodes;
      th.nb += tb[k].nodes;
      th.ma += ta[k].ms;
      th.mb += tb[k].ms;
      if (ta[k].line !== tb[k].line || ta[k].nodes !== tb[k].nodes) {
        diffs++;
        console.log(`DIFF ${i} ${p.name} threats ${k}: A ${ta[k].line} ${ta[k].nodes} | B ${tb[k].line} ${tb[k].nodes}`);
      }
    }
  }
  if (ra.length) {
    const a = ra[ra.length - 1];
    const b = rb[rb.length - 1];
    console.log(`${String(i).padStart(3)} ${p.name.padEnd(9)} d${depth} A ${a.best.padEnd(3)} ${String(a.score).padStart(8)} `
      + `${String(a.nodes).padStart(8)} n ${a.ms.toFixed(0).padStart(6)} ms | B ${b.best.padEnd(3)} ${String(b.score).padStart(8)} `
      + `${String(b.nodes).padStart(8)} n ${b.ms.toFixed(0).padStart(6)} ms`);
  }
}

console.log(`A ${treeA}\nB ${treeB}`);
console.log("depth      nodes A      nodes B    CPU ms A    CPU ms B   kn/s A   kn/s B  B speed-up");
let tot = { na: 0, nb: 0, ma: 0, mb: 0 };
for (const [d, r] of rows.entries()) {
  for (const k of Object.keys(tot)) tot[k] += r[k];
  const line = (label, x) => `${label.padEnd(6)} ${String(x.na).padStart(11)} ${String(x.nb).padStart(12)} `
    + `${x.ma.toFixed(0).padStart(11)} ${x.mb.toFixed(0).padStart(11)} ${String(Math.round(x.na / x.ma)).padStart(8)} `
    + `${String(Math.round(x.nb / x.mb)).padStart(8)} ${(x.ma / x.mb).toFixed(2).padStart(10)}x`;
  console.log(line(String(d + 1), r));
  if (d === rows.length - 1) console.log(line("all", tot));
}
if (withThreats) {
  console.log(`threats: nodes A ${th.na} B ${th.nb}, CPU ms A ${th.ma.toFixed(0)} B ${th.mb.toFixed(0)}, B speed-up ${(th.ma / th.mb).toFixed(2)}x`);
}
console.log(diffs ? `${diffs} DIFFERENCES` : "same search: every move, score and node count equal");
process.exitCode = diffs ? 1 : 0;
