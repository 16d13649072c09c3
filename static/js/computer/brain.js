#!/usr/bin/env node
// Gomocup / Piskvork protocol brain for the caro computer, under Node (bench/pybots/brain.py's
// protocol, exactly):
//
//     node static/js/computer/brain.js --level hard [--preset freestyle] [--cpu-clock] [--stats]
//     python3 dev.py brain --level hard --cpu-clock        (the same, through dev.py)
//
// Reads one command per line on stdin and answers on stdout:
// - `START n` -> `OK` (n one of 11, 13, 15, 19; else `ERROR ...`); `RECTSTART w,h` -> OK only for a
//   supported square; `RESTART` -> `OK` (empty board, same size).
// - `BEGIN` -> the brain's first move `x,y`; `TURN x,y` -> records the opponent's move and answers
//   the brain's; `BOARD` then lines `x,y,field` (1 own stone, 2 opponent's, 3 ignored) then `DONE`
//   -> the brain's move; `TAKEBACK x,y` -> `OK`.
// - `INFO key value`: `timeout_turn` (ms a move: the computer's whole budget, as the page's worker
//   gets; Hard's time manager keeps its own margin, levels.js HARD.limit), `rule`
//   (bitmask: 1 exactly five, 4 Renju, 8 caro: a five blocked at both ends by the opponent does not
//   win; 2 continuous game, ignored); others accepted and ignored. No reply.
// - `ABOUT` -> `name="...", version="...", author="...", country="..."`; `END` -> exit.
// - anything else -> `UNKNOWN ...`; bad arguments or an occupied square -> `ERROR ...`.
// Coordinates are 0-based x (column) and y (row, 0 at the top): square squareName(x, y). Which
// side is X follows from the game: after BEGIN the brain is X; after BOARD it is X when both sides
// have as many stones.
//
// Options: --level easy|medium|hard (default hard); --preset SLUG (the rules before any INFO rule,
// default freestyle, Gomocup rule 0); --cpu-clock (the deadline is this process's CPU time,
// process.cpuUsage(), so a loaded machine does not weaken it); --stats (before each move a line
// `MESSAGE cpu_ms=... depth=... nodes=... phase=...`, for the benches); --warm-up MS (how long Hard
// plays itself before the first command, so the first timed moves meet compiled code; default 1500,
// 0: none).
// The only file of the computer that uses Node's APIs (with the CLIs); everything it imports runs
// in a browser module worker too.

import process from "node:process";
import readline from "node:readline";
import { pathToFileURL } from "node:url";
import { LEVELS, choosePositionMove, warmUp } from "./caro/index.js";
import { PRESETS, SIZES, squareName, parseSquare } from "./caro/rules.js";
import { wallClock } from "./caro/clock.js";

export const ABOUT = 'name="caro-site js brain", version="0.2", author="caro-site", country="VN"';
const BUDGET_SHARE = 1; // part of timeout_turn the brain gives the computer (all: Hard stops at HARD.limit of it)
const MIN_BUDGET_MS = 20;
const DEFAULT_BUDGET_MS = 1000;
const DEFAULT_WARM_UP_MS = 1500; // Hard plays itself this long before the first command (--warm-up)

const CPU_READ_EVERY_MS = 2; // wall ms between two reads of the process's CPU time

let cpuBase = 0; // CPU ms at the last read
let wallBase = -Infinity; // wall ms at the last read
let lastCpu = 0; // the last value returned (the clock never goes back)

/**
 * Process CPU time in ms (user + system). process.cpuUsage() is a system call that cost a quarter
 * of the search's time when the searches read the clock every few hundred nodes, so it is read
 * at most every CPU_READ_EVERY_MS of wall time; in between the CPU time is the last reading plus
 * the wall time since (one thread: never more than the CPU time really spent by more than that).
 */
export function cpuClock() {
  const wall = performance.now();
  if (wall - wallBase >= CPU_READ_EVERY_MS) {
    const u = process.cpuUsage();
    cpuBase = (u.user + u.system) / 1000;
    wallBase = wall;
  }
  lastCpu = Math.max(lastCpu, cpuBase + (wall - wallBase));
  return lastCpu;
}

/** Map a Gomocup `INFO rule` bitmask to rules on a `size` board: 1 exact; 4 Renju (nothing
 * blocks); 8 caro (blocked="opponent": the edge does not block); 0 freestyle. */
export function rulesFromInfo(mask, size) {
  if (mask & 4) return { size, win_length: 5, exact: false, blocked: "none", renju: true };
  return { size, win_length: 5, exact: !!(mask & 1), blocked: mask & 8 ? "opponent" : "none", renju: false };
}

/** The protocol's state machine: handle(line) takes one input line and returns the reply lines. */
export class Brain {
  constructor({ level = "hard", rules = PRESETS.freestyle.rules, clock = wallClock, stats = false } = {}) {
    if (!LEVELS.includes(level)) throw new Error(`unknown level: ${level}`);
    this.level = level;
    this.rules = { ...rules };
    this.ruleMask = null;
    this.budgetMs = DEFAULT_BUDGET_MS;
    this.clock = clock;
    this.stats = stats;
    this.moves = []; // [square, "me" | "opp"] in order
    this.first = null; // who played first: "me" | "opp"
    this.boardLines = null;
    this.done = false;
  }

  square(text) {
    const parts = text.split(",");
    const [x, y] = parts.map((v) => Number(v.trim()));
    if (parts.length !== 2 || !Number.isInteger(x) || !Number.isInteger(y)) throw new Error(`bad coordinates: ${text}`);
    if (!(x >= 0 && x < this.rules.size && y >= 0 && y < this.rules.size)) throw new Error(`coordinates off the board: ${text}`);
    return squareName(x, y);
  }

  coords(square) {
    const [c, r] = parseSquare(square, this.rules.size);
    return `${c},${r}`;
  }

  think() {
    const first = this.first || "me";
    const mine = this.moves.filter(([, who]) => who === "me").map(([s]) => s);
    const theirs = this.moves.filter(([, who]) => who === "opp").map(([s]) => s);
    const meSide = first === "me" ? "X" : "O";
    const [x, o] = meSide === "X" ? [mine, theirs] : [theirs, mine];
    const stats = {};
    const t0 = this.clock();
    const square = choosePositionMove({ rules: this.rules, x, o, toMove: meSide }, this.level,
      { budgetMs: this.budgetMs, clock: this.clock, stats });
    const spent = this.clock() - t0;
    this.moves.push([square, "me"]);
    const out = [];
    if (this.stats) {
      out.push(`MESSAGE cpu_ms=${spent.toFixed(1)} depth=${stats.depth ?? 0} nodes=${stats.nodes ?? 0} `
        + `phase=${(stats.phase || "-").replace(/ /g, "_")}`);
    }
    out.push(this.coords(square));
    return out;
  }

  occupied(square) {
    return this.moves.some(([s]) => s === square);
  }

  /** Process one input line; return the lines to print (possibly none). */
  handle(line) {
    const text = line.trim();
    if (!text) return [];
    if (this.boardLines !== null) {
      if (text.toUpperCase() === "DONE") return this.boardDone();
      let square;
      let field;
      try {
        const parts = text.split(",").map((v) => Number(v.trim()));
        if (parts.length !== 3 || !parts.every(Number.isInteger)) throw new Error(`not x,y,field: ${text}`);
        field = parts[2];
        square = this.square(`${parts[0]},${parts[1]}`);
      } catch (e) {
        return [`ERROR bad BOARD line: ${e.message}`];
      }
      if (field === 1 || field === 2) this.boardLines.push([square, field === 1 ? "me" : "opp"]);
      return [];
    }
    const space = text.indexOf(" ");
    const command = (space < 0 ? text : text.slice(0, space)).toUpperCase();
    const arg = space < 0 ? "" : text.slice(space + 1).trim();
    const handler = COMMANDS[command];
    if (!handler) return [`UNKNOWN command ${command}`];
    try {
      return handler.call(this, arg);
    } catch (e) {
      return [`ERROR ${e.message}`];
    }
  }

  newGame(size) {
    if (!SIZES.includes(size)) return [`ERROR unsupported size ${size} (supported: ${SIZES.join(", ")})`];
    this.rules = this.ruleMask !== null ? rulesFromInfo(this.ruleMask, size) : { ...this.rules, size };
    this.moves = [];
    this.first = null;
    return ["OK"];
  }

  boardDone() {
    const lines = this.boardLines || [];
    this.boardLines = null;
    const mine = lines.filter(([, who]) => who === "me").length;
    this.moves = lines.slice();
    this.first = mine >= lines.length - mine ? "me" : "opp";
    return this.think();
  }
}

function intArg(text) {
  if (!/^-?\d+$/.test(text.trim())) throw new Error(`not a number: ${text}`);
  return Number(text);
}

const COMMANDS = {
  START(arg) {
    return this.newGame(intArg(arg));
  },
  RECTSTART(arg) {
    const parts = arg.split(",");
    if (parts.length !== 2) throw new Error(`not w,h: ${arg}`);
    const [w, h] = parts.map(intArg);
    if (w !== h) return ["ERROR only square boards are supported"];
    return this.newGame(w);
  },
  RESTART() {
    this.moves = [];
    this.first = null;
    return ["OK"];
  },
  BEGIN() {
    if (this.moves.length) return ["ERROR BEGIN on a non-empty board"];
    this.first = "me";
    return this.think();
  },
  TURN(arg) {
    const square = this.square(arg);
    if (this.occupied(square)) return [`ERROR ${arg} is occupied`];
    if (this.first === null) this.first = "opp";
    this.moves.push([square, "opp"]);
    return this.think();
  },
  BOARD() {
    this.boardLines = [];
    return [];
  },
  TAKEBACK(arg) {
    const square = this.square(arg);
    for (let k = this.moves.length - 1; k >= 0; k--) {
      if (this.moves[k][0] === square) {
        this.moves.splice(k, 1);
        return ["OK"];
      }
    }
    return [`ERROR no stone on ${arg}`];
  },
  INFO(arg) {
    const space = arg.indexOf(" ");
    const key = (space < 0 ? arg : arg.slice(0, space)).toLowerCase();
    const value = space < 0 ? "" : arg.slice(space + 1).trim();
    if (key === "timeout_turn") {
      const ms = intArg(value);
      this.budgetMs = ms > 0 ? Math.max(MIN_BUDGET_MS, Math.floor(ms * BUDGET_SHARE)) : DEFAULT_BUDGET_MS;
    } else if (key === "rule") {
      this.ruleMask = intArg(value);
      this.rules = rulesFromInfo(this.ruleMask, this.rules.size);
    }
    return [];
  },
  ABOUT() {
    return [ABOUT];
  },
  END() {
    this.done = true;
    return [];
  },
};

/** Parse the command line: {level, preset, cpuClock, stats}; throws Error with a usage line. */
export function parseArgs(argv) {
  const out = { level: "hard", preset: "freestyle", cpuClock: false, stats: false, warmUpMs: DEFAULT_WARM_UP_MS };
  const usage = `usage: brain.js [--level ${LEVELS.join("|")}] [--preset ${Object.keys(PRESETS).join("|")}] `
    + "[--cpu-clock] [--stats] [--warm-up MS]";
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [name, inline] = a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, null];
    const value = () => (inline !== null ? inline : argv[++i]);
    if (name === "--level") out.level = value();
    else if (name === "--preset") out.preset = value();
    else if (name === "--cpu-clock") out.cpuClock = true;
    else if (name === "--stats") out.stats = true;
    else if (name === "--warm-up") {
      out.warmUpMs = Number(value());
      if (!Number.isFinite(out.warmUpMs) || out.warmUpMs < 0) throw new Error(`--warm-up takes milliseconds\n${usage}`);
    }
    else if (name === "-h" || name === "--help") throw new Error(usage);
    else throw new Error(`unknown argument ${a}\n${usage}`);
  }
  if (!LEVELS.includes(out.level)) throw new Error(`unknown level ${out.level}\n${usage}`);
  if (!Object.hasOwn(PRESETS, out.preset)) throw new Error(`unknown preset ${out.preset}\n${usage}`);
  return out;
}

/** Run the brain on stdin/stdout until END or the end of input. */
export async function main(argv = process.argv.slice(2)) {
  let args;
  try {
    args = parseArgs(argv);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    return 2;
  }
  const clock = args.cpuClock ? cpuClock : wallClock;
  const brain = new Brain({ level: args.level, rules: PRESETS[args.preset].rules, clock, stats: args.stats });
  // the JIT compiler and the pattern tables warmed before the first timed command
  if (args.warmUpMs > 0) {
    warmUp([...new Set([args.preset, "freestyle", "exact-five", "caro-vn"])].map((s) => PRESETS[s].rules),
      { clock, totalMs: args.warmUpMs });
  }
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of input) {
    const replies = brain.handle(line);
    if (replies.length) process.stdout.write(replies.map((r) => `${r}\n`).join(""));
    if (brain.done) break;
  }
  input.close();
  process.stdin.destroy();
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then((code) => {
    process.exitCode = code;
  });
}
