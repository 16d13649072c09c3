// Random games for the differential test of the two engines (tests/unit/engine/test_engines_agree.py).
//
//   node tests/js/differential/random_games.js --set caro-vn --games 2000 --seed 1
//   node tests/js/differential/random_games.js --set caro-vn --games 2000 --seed 1 --game 17 --full
//
// Plays seeded random games with the browser engine and prints one JSON line per game: every
// attempt (a move, an opening action, an undo), and after each one either the reason code of its
// refusal or a CRC-32 of the whole state the engines must agree on (see `caroFields` and
// `reversiFields`; the Python side computes the same fields and the same CRC). With --full, only
// game --game is printed, with the fields themselves instead of their CRC (for a mismatch report).
//
// Moves are biased to land near stones and along the mover's own lines, so fives, overlines,
// blocked runs and Renju fouls really occur; refused tries (occupied, bad or off-board squares,
// the wrong side or seat, fouls, out-of-step opening actions, no-flip discs) are made on purpose.

import { Board, PRESETS, Rules, X, O, geometry } from "../../../static/js/engine/caro.js";
import { squareName } from "../../../static/js/engine/coords.js";
import { IllegalMove } from "../../../static/js/engine/errors.js";
import { foulPoints, refusedFive } from "../../../static/js/engine/explain.js";
import { OPENINGS, Step, symmetries } from "../../../static/js/engine/openings.js";
import { Board as ReversiBoard } from "../../../static/js/engine/reversi.js";

/** The rule sets: every preset at its own rules, some presets on other sizes and win lengths, Reversi. */
export const SETS = {
  ...Object.fromEntries(Object.values(PRESETS).map((p) => [p.slug, { rules: p.rules.toDict(), opening: p.opening }])),
  "freestyle-11-w4": { rules: { size: 11, win_length: 4, exact: false, blocked: "none", renju: false }, opening: "free" },
  "caro-vn-13-w6": { rules: { size: 13, win_length: 6, exact: false, blocked: "opponent_or_edge", renju: false }, opening: "free" },
  "caro-edge-open-19-w4": { rules: { size: 19, win_length: 4, exact: true, blocked: "opponent", renju: false }, opening: "free" },
  "exact-five-11-w6": { rules: { size: 11, win_length: 6, exact: true, blocked: "none", renju: false }, opening: "free" },
  reversi: { rules: null, opening: null },
};

// -- seeded randomness and the CRC ------------------------------------------------------------

/** mulberry32: a small seeded generator of floats in [0, 1). */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 of an ASCII string, as Python's zlib.crc32(text.encode()). */
function crc32(text) {
  let c = 0xffffffff;
  for (let i = 0; i < text.length; i += 1) c = CRC_TABLE[(c ^ text.charCodeAt(i)) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// -- the fields both engines must agree on ---------------------------------------------------

/** What a step returned, as a string: an undo's square, an opening action's new state; else "-". */
function returned(result) {
  return typeof result === "string" ? result : "-";
}

/**
 * The state of a caro game as strings, in a fixed order: what the step returned, position text,
 * legal moves, Renju foul points, outcome, the refused-five note of the last stone, and for an
 * opening machine its state, actor, allowed kinds, colours, RIF offers and stored object (JSON).
 * The names are CARO_FIELDS of tests/unit/engine/test_engines_agree.py.
 */
export function caroFields(board, machine, result) {
  const outcome = board.outcome;
  const last = board.moves.at(-1);
  const note = last === undefined ? null : refusedFive(board, last);
  const fields = [
    returned(result),
    board.position(),
    board.legalMoves().join(","),
    Object.entries(foulPoints(board)).map(([s, k]) => `${s}:${k}`).join(","),
    outcome === null ? "-" : `${outcome.winner ?? "-"}:${outcome.termination}:${outcome.line.join(",")}`,
    note === null ? "-" : `${note.kind}:${note.line.join(",")}`,
  ];
  if (machine !== null) {
    fields.push(machine.state, machine.actor, [...machine.allowed].sort().join(","),
      `${machine.colors.first}${machine.colors.second}`, (machine.offers ?? []).join(","), JSON.stringify(machine.toDict()));
  }
  return fields;
}

/**
 * The state of a Reversi game as strings: what the step returned, position, legal moves, discs
 * played, passes, outcome, and what the last accepted move did (square, flips, pass).
 */
export function reversiFields(board, result, last) {
  const outcome = board.outcome;
  return [
    returned(result),
    board.position(),
    board.legalMoves().join(","),
    board.moves.join(""),
    String(board.passes),
    outcome === null ? "-" : `${outcome.winner ?? "-"}:${outcome.black}:${outcome.white}`,
    last === null ? "-" : `${last.square}:${last.flips.join(",")}:${last.passed}`,
  ];
}

// -- one game --------------------------------------------------------------------------------

const JUNK = ["", "H", "8H", "H0", "Z", "h8 ", "A-1", "Ä8", "H08", 42, null];
const DIRECTIONS = [[1, 0], [0, 1], [1, 1], [1, -1], [-1, 0], [0, -1], [-1, -1], [-1, 1]];

class Recorder {
  constructor(full) {
    this.full = full;
    this.steps = [];
  }

  /** Run `fn`; record the refusal's reason (and foul kind) or the state after it. */
  attempt(entry, fn, fields) {
    let result;
    try {
      result = fn();
    } catch (error) {
      if (!(error instanceof IllegalMove)) throw error;
      this.steps.push([...entry, error.reason, ...(error.foul === null ? [] : [error.foul])]);
      return { ok: false, error };
    }
    const values = fields(result);
    this.steps.push([...entry, this.full ? values : crc32(values.join("|"))]);
    return { ok: true, result };
  }
}

function pick(rng, items) {
  return items[Math.floor(rng() * items.length)];
}

/** Share of moves placed along one of the mover's own stones' lines (1-3 cells away). */
const ALONG_OWN_LINE = 0.7;
/** Share of moves placed anywhere on the board. */
const ANYWHERE = 0.06;

/**
 * A square for the side to move: along its own lines, near any stone (2 cells), or anywhere.
 * `stones`: `[square, side]` pairs of the board (the caller reads them once per move).
 */
function candidate(rng, board, stones = stonesOf(board)) {
  const size = board.rules.size;
  const roll = rng();
  let col;
  let row;
  if (stones.length === 0 || roll < ANYWHERE) {
    col = Math.floor(rng() * size);
    row = Math.floor(rng() * size);
  } else {
    const along = roll < ANYWHERE + ALONG_OWN_LINE;
    const own = along ? stones.filter(([, side]) => side === board.turn) : [];
    const [name] = pick(rng, own.length ? own : stones);
    const c0 = name.charCodeAt(0) - 65;
    const r0 = Number(name.slice(1)) - 1;
    if (along) {
      const [dc, dr] = pick(rng, DIRECTIONS);
      const k = 1 + Math.floor(rng() * 3);
      col = c0 + dc * k;
      row = r0 + dr * k;
    } else {
      col = c0 + Math.floor(rng() * 5) - 2;
      row = r0 + Math.floor(rng() * 5) - 2;
    }
  }
  if (col < 0 || row < 0 || col >= size || row >= size) return null;
  return squareName(col, row);
}

/** Refused tries of a move: occupied, junk, off the board, the wrong side (each now and then). */
function moveTries(rng, rec, board, fields) {
  const stones = stonesOf(board).map(([square]) => square);
  if (stones.length && rng() < 0.1) {
    const square = pick(rng, stones);
    rec.attempt(["p", square, null], () => board.play(square), fields);
  }
  if (rng() < 0.04) {
    const junk = pick(rng, JUNK);
    rec.attempt(["p", junk, null], () => board.play(junk), fields);
  }
  if (rng() < 0.04) {
    const size = board.rules.size;
    const off = squareName(size + Math.floor(rng() * (26 - size)), Math.floor(rng() * size));
    rec.attempt(["p", off, null], () => board.play(off), fields);
  }
  if (rng() < 0.04) {
    const other = board.turn === X ? O : X;
    const square = candidate(rng, board) ?? "A1";
    rec.attempt(["p", square, other], () => board.play(square, other), fields);
  }
}

/** Play one move near the action (fouls tried first are refused and recorded); false if none. */
/** `[square, side]` of every stone, read from the position text. */
function stonesOf(board) {
  const text = board.position();
  const { names } = geometry(board.rules.size);
  const stones = [];
  for (let i = 1; i < text.length; i += 1) if (text[i] !== ".") stones.push([names[i - 1], text[i]]);
  return stones;
}

function playMove(rng, rec, board, fields) {
  const stones = stonesOf(board);
  for (let tries = 0; tries < 12; tries += 1) {
    const square = candidate(rng, board, stones);
    if (square === null || board.stoneAt(square) !== null) continue;
    if (rec.attempt(["p", square, board.turn], () => board.play(square, board.turn), fields).ok) return true;
  }
  const legal = board.legalMoves();
  if (!legal.length) return false;
  const square = pick(rng, legal);
  return rec.attempt(["p", square, null], () => board.play(square), fields).ok;
}

function centralSquare(rng, size, radius) {
  const half = Math.floor(size / 2);
  return squareName(half + Math.floor(rng() * (2 * radius + 1)) - radius, half + Math.floor(rng() * (2 * radius + 1)) - radius);
}

const ALL_KINDS = ["place", "choose", "swap", "keep", "offer", "select", "resign"];

/**
 * A square on the line through the centre and the second stone, at most `reach` cells from the
 * centre: RIF positions built on it keep a mirror symmetry, so equivalent 5th-move offers occur.
 */
function onOpeningLine(rng, board, reach) {
  const half = Math.floor(board.rules.size / 2);
  const second = board.moves[1];
  const dc = second.charCodeAt(0) - 65 - half;
  const dr = Number(second.slice(1)) - 1 - half;
  const k = (1 + Math.floor(rng() * reach)) * (rng() < 0.5 ? 1 : -1);
  return squareName(half + k * dc, half + k * dr);
}

/** One opening action for the machine's step, sometimes a wrong one on purpose. */
function openingAction(rng, machine) {
  const size = machine.board.rules.size;
  const roll = rng();
  if (roll < 0.05) return { kind: pick(rng, ALL_KINDS.filter((k) => !machine.allowed.includes(k))), square: "A1", color: "X" };
  if (roll < 0.07) return "place H8";
  switch (machine.state) {
    case Step.PLACE_THREE: case Step.SECOND_PLACE:
      return { kind: "place", square: rng() < 0.7 ? centralSquare(rng, size, 3) : candidate(rng, machine.board) ?? "A1" };
    case Step.SECOND_CHOICE:
      return rng() < 0.25 ? { kind: "place", square: centralSquare(rng, size, 3) } : { kind: "choose", color: pick(rng, [X, O, X, O, "x"]) };
    case Step.FIRST_CHOICE:
      return { kind: "choose", color: pick(rng, [X, O, X, O, "black", null]) };
    case Step.PLACE_1: return { kind: "place", square: centralSquare(rng, size, rng() < 0.8 ? 0 : 1) };
    case Step.PLACE_2: return { kind: "place", square: centralSquare(rng, size, rng() < 0.85 ? 1 : 2) };
    case Step.PLACE_3: // often on the line through the centre and move 2: the position keeps a mirror
      return { kind: "place", square: rng() < 0.5 ? onOpeningLine(rng, machine.board, 2) : centralSquare(rng, size, rng() < 0.85 ? 2 : 3) };
    case Step.SWAP: return { kind: pick(rng, ["swap", "keep"]) };
    case Step.PLACE_4:
      return { kind: "place", square: rng() < 0.4 ? onOpeningLine(rng, machine.board, 4) : centralSquare(rng, size, 3) };
    case Step.OFFER_5: {
      const a = centralSquare(rng, size, 3);
      const r = rng();
      if (r < 0.1) return { kind: "offer", squares: [a] };
      if (r < 0.15) return { kind: "offer", squares: [a, a.toLowerCase()] };
      if (r < 0.45) { // the image of a under a symmetry of the position: equivalent unless a itself
        const syms = symmetries(machine.board);
        const t = pick(rng, syms.length > 1 ? syms.slice(1) : syms);
        const [c, w] = t(a.charCodeAt(0) - 65, Number(a.slice(1)) - 1);
        return { kind: "offer", squares: [a, squareName(c, w)] };
      }
      return { kind: "offer", squares: [a, centralSquare(rng, size, 3)] };
    }
    case Step.SELECT_5: {
      if (rng() < 0.2) return { kind: "select", square: centralSquare(rng, size, 3) };
      const square = pick(rng, machine.offers);
      return { kind: "select", square: rng() < 0.3 ? square.toLowerCase() : square };
    }
    default: return { kind: "place", square: "A1" };
  }
}

function caroGame(rng, spec, full) {
  const rules = Rules.fromDict(spec.rules);
  const rec = new Recorder(full);
  let machine = null;
  let board;
  if (spec.opening !== "free") {
    machine = new OPENINGS[spec.opening](rules);
    board = machine.board;
  } else {
    board = new Board(rules);
  }
  const fields = (result) => caroFields(board, machine, result);
  let openingStones = 0;
  while (machine !== null && !machine.finished && board.outcome === null) {
    const action = openingAction(rng, machine);
    const other = machine.actor === "first" ? "second" : "first";
    if (rng() < 0.05) rec.attempt(["a", action, other], () => machine.apply(action, other), fields);
    rec.attempt(["a", action, rng() < 0.5 ? machine.actor : null], () => machine.apply(action, machine.actor), fields);
    openingStones = board.ply;
  }
  if (machine !== null) rec.attempt(["a", { kind: "place", square: "A1" }, null], () => machine.apply({ kind: "place", square: "A1" }), fields);
  while (board.outcome === null) {
    moveTries(rng, rec, board, fields);
    if (board.ply > openingStones && rng() < 0.03) {
      rec.attempt(["u"], () => board.undo(), fields);
      continue;
    }
    if (!playMove(rng, rec, board, fields)) break;
  }
  const square = candidate(rng, board) ?? "A1";
  rec.attempt(["p", square, null], () => board.play(square), fields);
  return rec.steps;
}

function reversiGame(rng, full) {
  const board = new ReversiBoard();
  const rec = new Recorder(full);
  let last = null; // what the last accepted move did; an undo forgets it
  const fields = (result) => reversiFields(board, result, last);
  const play = (square, side = null) => {
    last = board.play(square, side);
    return last;
  };
  while (board.outcome === null) {
    const legal = board.legalMoves();
    const empties = [];
    for (let i = 0; i < 64; i += 1) {
      const name = `${"abcdefgh"[i % 8]}${Math.floor(i / 8) + 1}`;
      if (board.discAt(name) === null && !legal.includes(name)) empties.push(name);
    }
    const discs = Object.keys(board.discs());
    if (empties.length && rng() < 0.1) {
      const square = pick(rng, empties);
      rec.attempt(["p", square, null], () => play(square), fields);
    }
    if (rng() < 0.05) {
      const square = pick(rng, discs);
      rec.attempt(["p", square, null], () => play(square), fields);
    }
    if (rng() < 0.03) {
      const square = pick(rng, ["i1", "a9", "z9", "", "a", "a0", "b10", null, "A1"]);
      rec.attempt(["p", square, null], () => play(square), fields);
    }
    if (rng() < 0.03) {
      const other = board.turn === "black" ? "white" : "black";
      const square = pick(rng, legal);
      rec.attempt(["p", square, other], () => play(square, other), fields);
    }
    if (board.ply > 0 && rng() < 0.03) {
      rec.attempt(["u"], () => {
        const square = board.undo();
        last = null;
        return square;
      }, fields);
      continue;
    }
    const square = pick(rng, legal);
    const move = rng() < 0.2 ? square.toUpperCase() : square;
    const side = rng() < 0.5 ? board.turn : null;
    rec.attempt(["p", move, side], () => play(move, side), fields);
  }
  rec.attempt(["p", "a1", null], () => play("a1"), fields);
  rec.attempt(["x"], () => board.passTurn(), fields);
  return rec.steps;
}

/** The games of one rule set: game k is seeded from (seed, set name, k) alone. */
export function* games(setName, count, seed, { only = null, full = false } = {}) {
  const spec = SETS[setName];
  if (spec === undefined) throw new RangeError(`unknown rule set ${setName}`);
  for (let k = 0; k < count; k += 1) {
    if (only !== null && k !== only) continue;
    const rng = generator(crc32(`${seed}:${setName}:${k}`));
    const steps = spec.rules === null ? reversiGame(rng, full) : caroGame(rng, spec, full);
    yield { set: setName, game: k, rules: spec.rules, opening: spec.opening, steps };
  }
}

function main(argv) {
  const args = { set: null, games: 1, seed: 1, game: null, full: false, list: false };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    if (flag === "--full") args.full = true;
    else if (flag === "--list") args.list = true;
    else if (flag === "--set") args.set = argv[++i];
    else if (flag === "--games") args.games = Number(argv[++i]);
    else if (flag === "--seed") args.seed = Number(argv[++i]);
    else if (flag === "--game") args.game = Number(argv[++i]);
    else throw new RangeError(`unknown argument ${flag}`);
  }
  if (args.list) {
    process.stdout.write(`${JSON.stringify(SETS)}\n`);
    return;
  }
  const out = [];
  for (const game of games(args.set, args.games, args.seed, { only: args.game, full: args.full })) {
    out.push(JSON.stringify(game));
    if (out.length >= 200) {
      process.stdout.write(`${out.join("\n")}\n`);
      out.length = 0;
    }
  }
  if (out.length) process.stdout.write(`${out.join("\n")}\n`);
}

main(process.argv.slice(2));
