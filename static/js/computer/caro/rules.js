// What the caro computer needs of the rules engine, in one place (an adapter).
//
// The browser rules engine (static/js/engine/, docs/architecture.md) is the judge in the page;
// the computer asks it nothing per node (its search board, board.js, keeps its own incremental
// state), only these pure functions: the winning rule on one run, the Renju foul test of one
// point, and the square names. They mirror caro/engine/caro.py (`run_wins`), caro/engine/renju.py
// (`foul_at`), caro/engine/coords.py and the presets' rules exactly.
//
// ADAPTER: until static/js/engine/ is on main this module carries its own copy of those
// functions; once it is, they are imported from there and this file only re-exports them
// (the computer's other modules import from here, never from the engine directly).

/** Cell codes of the computer's boards: empty, X (moves first, Black in Renju), O, off the board. */
export const EMPTY = 0;
export const XS = 1;
export const OS = 2;
export const EDGE = 3;

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** Board sizes the site offers (caro/engine/caro.py SIZES). */
export const SIZES = Object.freeze([11, 13, 15, 19]);

const rules = (over) => Object.freeze({ size: 15, win_length: 5, exact: false, blocked: "opponent_or_edge",
  renju: false, ...over });

/** The named rule sets (caro/engine/caro.py PRESETS): slug -> {slug, rules, opening}. */
export const PRESETS = Object.freeze(Object.fromEntries([
  ["caro-vn", rules({}), "free"],
  ["freestyle", rules({ blocked: "none" }), "free"],
  ["exact-five", rules({ exact: true, blocked: "none" }), "free"],
  ["caro-exact", rules({ exact: true }), "free"],
  ["caro-edge-open", rules({ exact: true, blocked: "opponent" }), "free"],
  ["renju", rules({ blocked: "none", renju: true }), "free"],
  ["renju-rif", rules({ blocked: "none", renju: true }), "rif"],
  ["swap2", rules({ exact: true, blocked: "none" }), "swap2"],
].map(([slug, r, opening]) => [slug, Object.freeze({ slug, rules: r, opening })])));

/** The caro name of 0-based (col, row): squareName(7, 7) === "H8" (row 1 at the top). */
export function squareName(col, row) {
  return `${LETTERS[col]}${row + 1}`;
}

/**
 * Parse a caro square name ("H8", case-insensitive) on a size x size board into [col, row],
 * 0-based. Throws Error for a malformed name or one off the board.
 */
export function parseSquare(name, size) {
  const m = typeof name === "string" ? /^([A-Za-z])([1-9][0-9]?)$/.exec(name) : null;
  if (!m) throw new Error(`not a square name: ${JSON.stringify(name)}`);
  const col = LETTERS.indexOf(m[1].toUpperCase());
  const row = Number(m[2]) - 1;
  if (col >= size || row >= size) throw new Error(`${name} is off the ${size}x${size} board`);
  return [col, row];
}

/**
 * Whether a WHOLE contiguous run of `me`'s stones wins under `rules` (the site's winning rule,
 * caro/engine/caro.py run_wins). `me`: 1 (X) or 2 (O); `length`: stones in the whole run;
 * `left`, `right`: codes of the cells just beyond its ends (0 empty, 1 X, 2 O, 3 edge). A run
 * wins when length >= win_length (== win_length when exact, and always for X under Renju),
 * unless both ends are blocked ("opponent": by an opponent stone; "opponent_or_edge": by an
 * opponent stone or the edge; "none": never).
 */
export function runWins(rules, me, length, left, right) {
  const k = rules.win_length;
  if (length < k || (length > k && (rules.exact || (rules.renju && me === XS)))) return false;
  if (rules.blocked === "none") return true;
  const opp = 3 - me;
  if (rules.blocked === "opponent") return !(left === opp && right === opp);
  return !((left === opp || left === EDGE) && (right === opp || right === EDGE));
}

// -- Renju fouls (RIF rules §9.2-9.4), caro/engine/renju.py ----------------------------------

const AXES = [[1, 0], [0, 1], [1, 1], [1, -1]];
const RAYS = new Map();

/** rays[i][k]: cell indices (row-major) walking away from i to the edge; k = 0..3 along AXES,
 * k + 4 the opposite way (caro/engine/caro.py geometry). Cached per size. */
function rays(size) {
  let out = RAYS.get(size);
  if (!out) {
    out = [];
    for (let i = 0; i < size * size; i++) {
      const col = i % size;
      const row = (i / size) | 0;
      const per = [];
      for (const sign of [1, -1]) {
        for (const [dc, dr] of AXES) {
          const ray = [];
          let c = col + sign * dc;
          let r = row + sign * dr;
          while (c >= 0 && c < size && r >= 0 && r < size) {
            ray.push(r * size + c);
            c += sign * dc;
            r += sign * dr;
          }
          per.push(ray);
        }
      }
      out.push(per);
    }
    RAYS.set(size, out);
  }
  return out;
}

function side(cells, ray) {
  let n = 0;
  const length = ray.length;
  while (n < length && cells[ray[n]] === XS) n++;
  if (n === length || cells[ray[n]] !== EMPTY) return [n, -1, 0];
  let k = n + 1;
  while (k < length && cells[ray[k]] === XS) k++;
  return [n, ray[n], k - n - 1];
}

function isStraightFour(cells, rs, p, axis) {
  const [nf, ef, bf] = side(cells, rs[p][axis]);
  const [nb, eb, bb] = side(cells, rs[p][axis + 4]);
  return nf + nb === 3 && ef >= 0 && eb >= 0 && bf === 0 && bb === 0;
}

function foul(cells, rs, p) {
  cells[p] = XS;
  try {
    const sides = [];
    let overline = false;
    for (let axis = 0; axis < 4; axis++) {
      const fwd = side(cells, rs[p][axis]);
      const back = side(cells, rs[p][axis + 4]);
      const run = 1 + fwd[0] + back[0];
      if (run === 5) return null; // a five is never a foul
      overline = overline || run > 5;
      sides.push([run, fwd, back]);
    }
    if (overline) return "overline";
    let fours = 0;
    const fourAxes = [];
    for (const [run, [, ef, bf], [, eb, bb]] of sides) {
      const f = ef >= 0 && run + 1 + bf === 5;
      const b = eb >= 0 && run + 1 + bb === 5;
      const count = (f ? 1 : 0) + (b ? 1 : 0) - (f && b && run === 4 ? 1 : 0);
      fours += count;
      fourAxes.push(count > 0);
    }
    if (fours >= 2) return "double-four";
    let threes = 0;
    for (let axis = 0; axis < 4; axis++) {
      if (fourAxes[axis]) continue; // a four on this line is not also a three
      const [run, [, ef, bf], [, eb, bb]] = sides[axis];
      for (const [end, beyond] of [[ef, bf], [eb, bb]]) {
        if (end < 0 || run + 1 + beyond !== 4) continue;
        cells[end] = XS;
        const straight = isStraightFour(cells, rs, p, axis);
        cells[end] = EMPTY;
        if (straight && foul(cells, rs, end) === null) {
          threes++;
          break;
        }
      }
      if (threes >= 2) return "double-three";
    }
    return null;
  } finally {
    cells[p] = EMPTY;
  }
}

/**
 * The Renju foul ("double-three", "double-four", "overline") a Black (X) stone at empty cell
 * `index` would make, or null. `cells`: the flat board, row-major, size * size (0 empty, 1 X,
 * 2 O); it is not changed. Source: RIF rules §9.2-9.4 (caro/engine/renju.py foul_at).
 */
export function foulAt(cells, size, index) {
  if (cells[index] !== EMPTY) throw new Error("foulAt needs an empty cell");
  return foul(Array.from(cells), rays(size), index);
}

// -- symmetries of a position (caro/engine/openings.py symmetries) ---------------------------

function transforms(size) {
  const m = size - 1;
  return [
    (c, r) => [c, r], (c, r) => [m - r, c], (c, r) => [m - c, m - r], (c, r) => [r, m - c],
    (c, r) => [m - c, r], (c, r) => [c, m - r], (c, r) => [r, c], (c, r) => [m - r, m - c],
  ];
}

/**
 * The rotations and reflections of the square board (about its centre) that map every stone of
 * the engine `board` onto a stone of the same colour: the symmetry group of the position,
 * identity first. Each is a function (col, row) -> [col, row] on 0-based coordinates.
 */
export function symmetries(board) {
  const size = board.rules.size;
  const stones = new Map();
  for (const [name, side] of Object.entries(board.stones())) {
    const [c, r] = parseSquare(name, size);
    stones.set(r * size + c, side);
  }
  return transforms(size).filter((t) => [...stones].every(([i, side]) => {
    const [c, r] = t(i % size, Math.floor(i / size));
    return stones.get(r * size + c) === side;
  }));
}
