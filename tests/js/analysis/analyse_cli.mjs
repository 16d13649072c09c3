// A command-line door to the browser analysis for the Python tests (tests/unit/analysis/): reads
// a JSON list of jobs on stdin and writes a JSON list of results on stdout, one per job, in order.
// With `--lines`, it reads one JSON list of jobs per line instead and answers each line, as soon as
// it is read, with one line (the JSON list of its results), until stdin ends: a test keeps the
// process and hands it the next list when it is idle (one process per core, each fed as it frees).
//
// Job: {game: "caro", rules: {size, win_length, exact, blocked, renju}, moves: [square, ...],
//       winner?: "X" | "O" | null, from?: ply (the first ply analysed; caro.js's `from`)}
//      {game: "reversi", moves: [square, ...], exactEmpties?: int}
// Result: the analysis (static/js/analysis/caro.js / reversi.js describe it), or {error: "<text>"}
// for a job the analysis refused (bad rules, an illegal move). The caro jobs of a process share one
// memo of position searches (caro.js `memo`, for every list it reads): a position two jobs analyse
// is searched once, with the same result (the tests analyse several moves from each puzzle's position).

import { createInterface } from "node:readline";

import { analyseCaro } from "../../../static/js/analysis/caro.js";
import { analyseReversi } from "../../../static/js/analysis/reversi.js";

const memo = new Map();

function analyse(jobs) {
  return jobs.map((job) => {
    try {
      if (job.game === "reversi") return analyseReversi({ moves: job.moves }, job.exactEmpties ? { exactEmpties: job.exactEmpties } : {});
      return analyseCaro({ rules: job.rules, moves: job.moves, winner: job.winner || null }, { from: job.from || 0, memo });
    } catch (e) {
      return { error: String(e && e.message) };
    }
  });
}

process.stdin.setEncoding("utf8");
if (process.argv.includes("--lines")) {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  lines.on("line", (line) => {
    if (line.trim()) process.stdout.write(`${JSON.stringify(analyse(JSON.parse(line)))}\n`);
  });
} else {
  let text = "";
  process.stdin.on("data", (chunk) => { text += chunk; });
  process.stdin.on("end", () => { process.stdout.write(JSON.stringify(analyse(JSON.parse(text)))); });
}
