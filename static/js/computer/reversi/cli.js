#!/usr/bin/env node
// The Reversi computer under Node, for matches and benches: a line protocol on stdin/stdout.
//
//   node static/js/computer/reversi/cli.js [--level hard] [--budget 1000] [--cpu-clock] [--seed 1]
//
// Every command is one line and gets exactly one line back ("ok" for a setting, "error <why>" for a
// bad command or position; the process goes on). Commands:
//
//   level easy|medium|hard   the level (default hard)
//   budget <ms>              thinking time per move in ms (default 1000; Hard plans 70 % of it)
//   cpu-clock on|off         measure the budget in this process's CPU time (process.cpuUsage(): user +
//                            system, every thread) instead of wall time, so a loaded machine does not
//                            weaken the computer (default off)
//   seed <int>               seed Easy's randomness (default: Math.random)
//   max-nodes <n>|off        Hard: a node limit per search (deterministic games for tests; default off)
//   info on|off              add facts to each move's reply (default off; see below)
//   moves <squares>          the game so far as one string of squares ("f5d6c3", passes not written:
//                            a side with no legal move passes automatically, as in the browser
//                            engine's Board.fromMoves; empty for the start) ->
//                            the computer's move for the side to move, e.g. "c4"; with info on:
//                            "c4 ms 412 cpu_ms 405 depth 11 solved exact empties 14 nodes 935284 score 16"
//                            (Hard's depth, solve ("exact", "wld" or "-"), empties, nodes and score;
//                            ms and cpu_ms: wall and CPU time of the choice)
//   quit                     exit
//
// A finished game answers "error the game is over: no move to choose"; an illegal move string the
// engine's refusal ("error f5 is occupied"). Nothing else is printed, so a client reads exactly one
// line per line it sent.

import { createInterface } from "node:readline";
import { Board } from "../../engine/reversi.js";
import { choosePositionMove, LEVELS } from "./index.js";
import { fromEngineBoard } from "./position.js";
import { seededRandom } from "./random.js";

const cpuClock = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const wallClock = () => performance.now();
// The search's CPU clock reads process.cpuUsage() (a system call, ~5 us) at most once per
// CPU_READ_EVERY_MS of wall time and answers the last reading in between: the searching thread's CPU
// time cannot run ahead of wall time (V8's helper threads add little), so a deadline is seen about
// that late at most. Reading it every 4,096 nodes instead cost ~2 % of the search's time.
const CPU_READ_EVERY_MS = 2;
let lastRead = -Infinity;
let lastCpu = 0;
const searchCpuClock = () => {
  const now = performance.now();
  if (now - lastRead >= CPU_READ_EVERY_MS) {
    lastRead = now;
    lastCpu = cpuClock();
  }
  return lastCpu;
};

const settings = { level: "hard", budgetMs: 1000, cpuClock: false, rng: Math.random, maxNodes: Infinity, info: false };

function parseInteger(text, what) {
  if (!/^\d+$/.test(text ?? "")) throw new Error(`${what} must be a whole number, not ${JSON.stringify(text ?? "")}`);
  return Number(text);
}

function onOff(text, what) {
  if (text !== "on" && text !== "off") throw new Error(`${what} must be on or off`);
  return text === "on";
}

/** The reply line to one command line (without the newline); null to quit. */
function answer(line) {
  const [command, ...rest] = line.trim().split(/\s+/);
  const arg = rest.join("");
  switch (command) {
    case "level":
      if (!LEVELS.includes(arg)) throw new Error(`level must be one of ${LEVELS.join(", ")}`);
      settings.level = arg;
      return "ok";
    case "budget":
      settings.budgetMs = parseInteger(arg, "budget");
      return "ok";
    case "cpu-clock":
      settings.cpuClock = onOff(arg, "cpu-clock");
      return "ok";
    case "seed":
      settings.rng = seededRandom(parseInteger(arg, "seed"));
      return "ok";
    case "max-nodes":
      settings.maxNodes = arg === "off" ? Infinity : parseInteger(arg, "max-nodes");
      return "ok";
    case "info":
      settings.info = onOff(arg, "info");
      return "ok";
    case "moves": {
      const position = fromEngineBoard(Board.fromMoves(arg)); // the engine's rules and automatic passes
      const info = {};
      const wall0 = wallClock();
      const cpu0 = cpuClock();
      const move = choosePositionMove(position, settings.level, {
        budgetMs: settings.budgetMs, rng: settings.rng, clock: settings.cpuClock ? searchCpuClock : wallClock,
        maxNodes: settings.maxNodes, info,
      });
      if (!settings.info) return move;
      const facts = [`ms ${Math.round(wallClock() - wall0)}`, `cpu_ms ${Math.round(cpuClock() - cpu0)}`];
      if (settings.level === "hard") {
        facts.push(`depth ${info.depth}`, `solved ${info.solved ?? "-"}`, `empties ${info.empties}`,
          `nodes ${info.nodes}`, `score ${info.score}`);
      }
      return `${move} ${facts.join(" ")}`;
    }
    case "quit":
      return null;
    case undefined:
    case "":
      throw new Error("empty command");
    default:
      throw new Error(`unknown command ${command}`);
  }
}

function applyArguments(argv) {
  for (let k = 0; k < argv.length; k++) {
    const flag = argv[k];
    if (flag === "--cpu-clock") answer("cpu-clock on");
    else if (["--level", "--budget", "--seed", "--max-nodes"].includes(flag)) answer(`${flag.slice(2)} ${argv[++k]}`);
    else throw new Error(`unknown option ${flag}`);
  }
}

function main() {
  try {
    applyArguments(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  const lines = createInterface({ input: process.stdin, terminal: false });
  lines.on("line", (line) => {
    let reply;
    try {
      reply = answer(line);
    } catch (error) {
      reply = `error ${error.message}`;
    }
    if (reply === null) {
      lines.close();
      return;
    }
    process.stdout.write(`${reply}\n`);
  });
  lines.on("close", () => process.exit(0));
}

main();
