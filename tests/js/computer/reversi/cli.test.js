// cli.js, the Reversi computer's line protocol for matches (documented in its header): one reply
// line per command, settings answer "ok", a bad command or position answers "error ..." and the
// process goes on, "quit" ends it. Where a test needs Hard's full search, a budget far above what its
// node limit needs keeps a loaded machine from cutting it short.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { INDEX, NAMES } from "../../../../static/js/computer/reversi/bitboard.js";
import { seededRandom } from "../../../../static/js/computer/reversi/random.js";
import { legalList, play, positionOf } from "./helpers.js";

const CLI = fileURLToPath(new URL("../../../../static/js/computer/reversi/cli.js", import.meta.url));

/** Run cli.js with these argument and input lines; its stdout lines and exit status. */
function run(lines, args = []) {
  const result = spawnSync(process.execPath, [CLI, ...args], { input: lines.map((l) => `${l}\n`).join(""), encoding: "utf8" });
  return { out: result.stdout.split("\n").filter(Boolean), status: result.status, stderr: result.stderr };
}

function legalNames(game) {
  const { me, opp } = positionOf(game);
  return legalList(me, opp).map((sq) => NAMES[sq]);
}

test("settings answer ok and a position answers a legal move, one line each", () => {
  const { out, status } = run(["level hard", "budget 200", "cpu-clock on", "max-nodes 5000", "moves f5d6c3", "moves",
    "level medium", "moves f5 d6 c3 d3", "level easy", "seed 4", "moves F5D6", "quit"]);
  assert.equal(status, 0);
  assert.deepEqual(out.slice(0, 4), ["ok", "ok", "ok", "ok"]);
  assert.ok(legalNames("f5d6c3").includes(out[4]), out[4]);
  assert.ok(legalNames("").includes(out[5]));
  assert.equal(out[6], "ok");
  assert.ok(legalNames("f5d6c3d3").includes(out[7]));
  assert.deepEqual(out.slice(8, 10), ["ok", "ok"]);
  assert.ok(legalNames("f5d6").includes(out[10]));
  assert.equal(out.length, 11, "quit ends the process without a reply");
});

test("info adds the choice's facts; a node limit makes Hard deterministic", () => {
  const lines = ["budget 600000", "max-nodes 20000", "info on", "moves f5d6c3d3c4f4f6", "info off", "moves f5d6c3d3c4f4f6"];
  const facts = (reply) => {
    const [move, ...rest] = reply.split(" ");
    return { move, ...Object.fromEntries(rest.flatMap((x, i) => (i % 2 ? [] : [[x, rest[i + 1]]]))) };
  };
  const a = run(lines).out;
  const b = run(lines).out;
  const info = facts(a[3]);
  assert.deepEqual(Object.keys(info), ["move", "ms", "cpu_ms", "depth", "solved", "empties", "nodes", "score"]);
  assert.ok(legalNames("f5d6c3d3c4f4f6").includes(info.move));
  assert.equal(info.solved, "-");
  assert.equal(info.empties, "53");
  assert.ok(Number(info.nodes) <= 20000 + 64 && Number(info.depth) >= 4);
  assert.equal(a[5], info.move, "info off: the move alone");
  const again = facts(b[3]);
  for (const key of ["move", "depth", "nodes", "score"]) assert.equal(again[key], info[key], key);
});

/** A seeded random game with a pass in it: its squares in order and the ply after which one side passed. */
function gameWithPass() {
  for (let seed = 1; ; seed++) {
    const rng = seededRandom(seed);
    let { me, opp } = positionOf("");
    const squares = [];
    let passAt = -1;
    for (;;) {
      if (!legalList(me, opp).length) {
        if (!legalList(opp, me).length) break;
        [me, opp] = [opp, me];
        passAt = squares.length;
      }
      const list = legalList(me, opp);
      const sq = list[Math.floor(rng() * list.length)];
      squares.push(NAMES[sq]);
      [me, opp] = play(me, opp, sq);
    }
    if (passAt > 0 && passAt < squares.length - 16) return { squares, passAt };
  }
}

test("passes are implied in the move string; a finished game gets an error; Hard solves the endgame", () => {
  const { squares, passAt } = gameWithPass();
  const all = squares.join("");
  const end = squares.slice(0, squares.length - 12).join(""); // after the pass, a dozen discs left to play
  const { out } = run(["budget 600000", "max-nodes 1000000", "info on", `moves ${all}`, `moves ${end}`]);
  assert.equal(out[3], "error the game is over: no move to choose");
  const [move, ...facts] = out[4].split(" ");
  assert.ok(legalNames(end).includes(move));
  assert.match(facts.join(" "), /solved exact/);
  assert.ok(passAt < squares.length - 12);
});

test("bad commands and positions answer an error and change nothing", () => {
  const { out, status } = run(["level expert", "budget fast", "cpu-clock maybe", "seed -1", "moves f5f5", "moves f5x9",
    "moves f5d", "frobnicate", "", "level easy", "seed 1", "moves f5"]);
  assert.equal(status, 0);
  assert.match(out[0], /^error level must be one of easy, medium, hard$/);
  assert.match(out[1], /^error budget must be a whole number/);
  assert.match(out[2], /^error cpu-clock must be on or off$/);
  assert.match(out[3], /^error seed must be a whole number/);
  assert.match(out[4], /^error f5 is occupied$/); // the engine's refusals
  assert.match(out[5], /^error x9 is off the 8x8 board$/);
  assert.match(out[6], /^error odd-length move string/);
  assert.match(out[7], /^error unknown command frobnicate$/);
  assert.match(out[8], /^error empty command$/);
  assert.deepEqual(out.slice(9, 11), ["ok", "ok"]);
  assert.ok(legalNames("f5").includes(out[11]));
});

test("command-line options set the same settings; a bad one exits with status 2", () => {
  const { out } = run(["info on", "moves f5"], ["--level", "medium", "--budget", "300", "--cpu-clock", "--seed", "2"]);
  assert.equal(out[0], "ok");
  assert.equal(out[1].split(" ").length, 5, "Medium's reply has the times but no search facts");
  const bad = run([], ["--level", "expert"]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /level must be one of/);
  assert.ok(INDEX.f5 >= 0);
});
