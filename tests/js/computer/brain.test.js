// The Gomocup brain (static/js/computer/brain.js), driven over stdin/stdout as a manager does, and
// its protocol object directly.

import test from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import readline from "node:readline";
import path from "node:path";
import { Brain, rulesFromInfo, parseArgs } from "../../../static/js/computer/brain.js";
import { ROOT, countingClock } from "./judge.js";

const BRAIN = path.join(ROOT, "static", "js", "computer", "brain.js");

/** A brain process: send(line), ask(line) -> its next reply line, next() -> the next line,
 * close() -> exit code. */
function pipe(...args) {
  const proc = spawn(process.execPath, [BRAIN, ...args], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = readline.createInterface({ input: proc.stdout });
  const waiting = [];
  const ready = [];
  lines.on("line", (line) => (waiting.length ? waiting.shift()(line) : ready.push(line)));
  const next = () => new Promise((resolve) => (ready.length ? resolve(ready.shift()) : waiting.push(resolve)));
  return {
    next,
    send: (line) => proc.stdin.write(`${line}\r\n`),
    ask(line) {
      this.send(line);
      return next();
    },
    close() {
      this.send("END");
      return new Promise((resolve) => proc.on("exit", (code) => resolve(code)));
    },
  };
}

const xy = (reply) => reply.split(",").map(Number);

test("a protocol session over stdin/stdout", async () => {
  const brain = pipe("--level", "hard", "--warm-up", "0");
  assert.match(await brain.ask("START 20"), /^ERROR/); // 20x20 is not a supported size
  assert.equal(await brain.ask("START 15"), "OK");
  brain.send("INFO timeout_turn 300");
  brain.send("INFO rule 0");
  assert.match(await brain.ask("ABOUT"), /^name="/);
  assert.deepEqual(xy(await brain.ask("BEGIN")), [7, 7]);
  const [x, y] = xy(await brain.ask("TURN 8,8"));
  assert.ok(!(x === 7 && y === 7) && !(x === 8 && y === 8) && x >= 0 && x < 15 && y >= 0 && y < 15);
  assert.match(await brain.ask("TURN 7,7"), /^ERROR/); // occupied
  assert.equal(await brain.ask("TAKEBACK 8,8"), "OK");
  assert.match(await brain.ask("FROBNICATE"), /^UNKNOWN/);
  assert.equal(await brain.ask("RESTART"), "OK");
  // BOARD: the brain (1) has four in a row on row 0 and must complete it
  for (const line of ["BOARD", "0,0,1", "1,0,1", "2,0,1", "3,0,1", "0,5,2", "1,5,2", "2,5,2", "9,9,2"]) brain.send(line);
  assert.equal(await brain.ask("DONE"), "4,0");
  assert.equal(await brain.close(), 0);
});

test("Renju over the protocol: the brain blocks the only square it may", async () => {
  const brain = pipe("--level", "hard", "--cpu-clock", "--stats", "--warm-up", "100");
  assert.equal(await brain.ask("START 15"), "OK");
  brain.send("INFO rule 4");
  brain.send("INFO timeout_turn 200");
  for (const line of ["BOARD", "4,3,2", "5,3,2", "6,3,2", "7,3,2", "3,3,1", "0,0,1", "14,14,1", "14,0,1", "0,14,2"]) {
    brain.send(line);
  }
  assert.match(await brain.ask("DONE"), /^MESSAGE cpu_ms=[\d.]+ depth=\d+ nodes=\d+ phase=\S+$/);
  assert.equal(await brain.next(), "8,3"); // the move follows its MESSAGE line
  assert.equal(await brain.close(), 0);
});

test("INFO rule maps to the rules as bench/pybots/brain.py does", () => {
  assert.equal(rulesFromInfo(0, 15).blocked, "none");
  assert.equal(rulesFromInfo(0, 15).exact, false);
  assert.equal(rulesFromInfo(1, 15).exact, true);
  assert.equal(rulesFromInfo(4, 15).renju, true);
  assert.equal(rulesFromInfo(9, 19).blocked, "opponent");
  assert.equal(rulesFromInfo(9, 19).size, 19);
});

test("the protocol object without a process", () => {
  const b = new Brain({ level: "easy", clock: countingClock() });
  assert.deepEqual(b.handle("START 13"), ["OK"]);
  assert.deepEqual(b.handle("BEGIN"), ["6,6"]);
  assert.match(b.handle("TURN 99,1")[0], /^ERROR/);
  assert.match(b.handle("TURN a,b")[0], /^ERROR/);
  assert.match(b.handle("INFO timeout_turn x")[0], /^ERROR/);
  assert.deepEqual(b.handle(""), []);
  assert.deepEqual(b.handle("BOARD"), []);
  assert.match(b.handle("1,2")[0], /^ERROR bad BOARD line/);
  assert.equal(b.handle("DONE").length, 1);
  const caro = new Brain({ rules: { size: 15, win_length: 5, exact: false, blocked: "opponent_or_edge", renju: false } });
  caro.handle("START 19");
  assert.deepEqual(caro.rules.blocked, "opponent_or_edge"); // a preset's rules stay without INFO rule
  assert.equal(caro.rules.size, 19);
});

test("command line: levels and presets are checked", () => {
  assert.deepEqual(parseArgs(["--level", "medium", "--cpu-clock"]),
    { level: "medium", preset: "freestyle", cpuClock: true, stats: false, warmUpMs: 1500 });
  assert.equal(parseArgs(["--warm-up", "0"]).warmUpMs, 0);
  assert.throws(() => parseArgs(["--warm-up", "soon"]), /--warm-up takes milliseconds/);
  assert.equal(parseArgs(["--preset=caro-vn"]).preset, "caro-vn");
  assert.throws(() => parseArgs(["--level", "grandmaster"]), /unknown level/);
  assert.throws(() => parseArgs(["--preset", "go"]), /unknown preset/);
  assert.throws(() => parseArgs(["--fast"]), /unknown argument/);
});
