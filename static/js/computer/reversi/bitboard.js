// Reversi bitboards in two 32-bit halves, for the computer's search.
//
// Bit `row * 8 + col` is a square (a1 = bit 0, h1 = bit 7, a8 = bit 56), as in caro/engine/reversi.py
// and bench/pybots/reversi_nb.py. A board of one side is the pair (lo, hi): `lo` holds bits 0-31
// (rows 1-4), `hi` bits 32-63 (rows 5-8), both as signed 32-bit integers (what JavaScript's bitwise
// operators give). Two 32-bit halves instead of one BigInt: bench/reversi_js_speed.mjs measures both
// representations side by side (the halves are many times faster in V8; BigInt allocates).
//
// A function that yields a bitboard returns its low half and leaves the high half in `out[0]`
// (`moves`, `flips`), so the hot paths allocate nothing.

export const NAMES = Object.freeze(
  Array.from({ length: 64 }, (_, i) => "abcdefgh"[i & 7] + String((i >> 3) + 1)));
export const INDEX = Object.freeze(Object.fromEntries(NAMES.map((name, i) => [name, i])));

const NOT_A = 0xfefefefe | 0; // every column but a, in each half
const NOT_H = 0x7f7f7f7f; // every column but h

/** The high half of the last bitboard a function of this module returned (see the header). */
export const out = new Int32Array(1);

/** Set bits of a 32-bit integer. */
export function pop32(x) {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Index (0-31) of the lowest set bit of a non-zero 32-bit integer. */
export function low32(x) {
  return 31 - Math.clz32(x & -x);
}

/**
 * Writes the set squares of (lo, hi) into `list` from index `at`, lowest first; returns their count.
 * @param {Int8Array|Int32Array} list
 */
export function squaresInto(lo, hi, list, at) {
  let n = at;
  for (; lo; lo &= lo - 1) list[n++] = low32(lo);
  for (; hi; hi &= hi - 1) list[n++] = 32 + low32(hi);
  return n - at;
}

/** Low half of a single-square board. */
export function bitLo(sq) {
  return sq < 32 ? 1 << sq : 0;
}

/** High half of a single-square board. */
export function bitHi(sq) {
  return sq < 32 ? 0 : 1 << (sq - 32);
}

/** Whether square `sq` is set in (lo, hi). */
export function has(lo, hi, sq) {
  return sq < 32 ? (lo >>> sq) & 1 : (hi >>> (sq - 32)) & 1;
}

/**
 * Legal moves of `me` against `opp` (the side to move's discs and the other's), by Kogge-Stone fills
 * through runs of opponent discs in the eight directions (three shift steps per direction, as
 * reversi_search.moves). Returns the low half; the high half is in `out[0]`.
 */
export function moves(mlo, mhi, olo, ohi) {
  let rlo, rhi, glo, ghi, qlo, qhi, plo, phi, tlo, thi;
  // east +1 (no carry)
  plo = olo & NOT_A; phi = ohi & NOT_A;
  glo = mlo | (plo & (mlo << 1)); ghi = mhi | (phi & (mhi << 1));
  qlo = plo & (plo << 1); qhi = phi & (phi << 1);
  glo |= qlo & (glo << 2); ghi |= qhi & (ghi << 2);
  qlo &= qlo << 2; qhi &= qhi << 2;
  glo |= qlo & (glo << 4); ghi |= qhi & (ghi << 4);
  rlo = ((glo & olo) << 1) & NOT_A; rhi = ((ghi & ohi) << 1) & NOT_A;
  // west -1
  plo = olo & NOT_H; phi = ohi & NOT_H;
  glo = mlo | (plo & (mlo >>> 1)); ghi = mhi | (phi & (mhi >>> 1));
  qlo = plo & (plo >>> 1); qhi = phi & (phi >>> 1);
  glo |= qlo & (glo >>> 2); ghi |= qhi & (ghi >>> 2);
  qlo &= qlo >>> 2; qhi &= qhi >>> 2;
  glo |= qlo & (glo >>> 4); ghi |= qhi & (ghi >>> 4);
  rlo |= ((glo & olo) >>> 1) & NOT_H; rhi |= ((ghi & ohi) >>> 1) & NOT_H;
  // south +8 (carry lo -> hi)
  ghi = mhi | (ohi & ((mhi << 8) | (mlo >>> 24))); glo = mlo | (olo & (mlo << 8));
  qhi = ohi & ((ohi << 8) | (olo >>> 24)); qlo = olo & (olo << 8);
  ghi |= qhi & ((ghi << 16) | (glo >>> 16)); glo |= qlo & (glo << 16);
  qhi &= (qhi << 16) | (qlo >>> 16); qlo &= qlo << 16;
  ghi |= qhi & glo; // << 32: lo moves wholly into hi
  tlo = glo & olo; thi = ghi & ohi;
  rhi |= (thi << 8) | (tlo >>> 24); rlo |= tlo << 8;
  // north -8
  glo = mlo | (olo & ((mlo >>> 8) | (mhi << 24))); ghi = mhi | (ohi & (mhi >>> 8));
  qlo = olo & ((olo >>> 8) | (ohi << 24)); qhi = ohi & (ohi >>> 8);
  glo |= qlo & ((glo >>> 16) | (ghi << 16)); ghi |= qhi & (ghi >>> 16);
  qlo &= (qlo >>> 16) | (qhi << 16); qhi &= qhi >>> 16;
  glo |= qlo & ghi;
  tlo = glo & olo; thi = ghi & ohi;
  rlo |= (tlo >>> 8) | (thi << 24); rhi |= thi >>> 8;
  // +9
  plo = olo & NOT_A; phi = ohi & NOT_A;
  ghi = mhi | (phi & ((mhi << 9) | (mlo >>> 23))); glo = mlo | (plo & (mlo << 9));
  qhi = phi & ((phi << 9) | (plo >>> 23)); qlo = plo & (plo << 9);
  ghi |= qhi & ((ghi << 18) | (glo >>> 14)); glo |= qlo & (glo << 18);
  qhi &= (qhi << 18) | (qlo >>> 14); qlo &= qlo << 18;
  ghi |= qhi & (glo << 4); // << 36: lo bits move up by 4 into hi
  tlo = glo & olo; thi = ghi & ohi;
  rhi |= ((thi << 9) | (tlo >>> 23)) & NOT_A; rlo |= (tlo << 9) & NOT_A;
  // -9
  plo = olo & NOT_H; phi = ohi & NOT_H;
  glo = mlo | (plo & ((mlo >>> 9) | (mhi << 23))); ghi = mhi | (phi & (mhi >>> 9));
  qlo = plo & ((plo >>> 9) | (phi << 23)); qhi = phi & (phi >>> 9);
  glo |= qlo & ((glo >>> 18) | (ghi << 14)); ghi |= qhi & (ghi >>> 18);
  qlo &= (qlo >>> 18) | (qhi << 14); qhi &= qhi >>> 18;
  glo |= qlo & (ghi >>> 4);
  tlo = glo & olo; thi = ghi & ohi;
  rlo |= ((tlo >>> 9) | (thi << 23)) & NOT_H; rhi |= (thi >>> 9) & NOT_H;
  // +7
  ghi = mhi | (phi & ((mhi << 7) | (mlo >>> 25))); glo = mlo | (plo & (mlo << 7));
  qhi = phi & ((phi << 7) | (plo >>> 25)); qlo = plo & (plo << 7);
  ghi |= qhi & ((ghi << 14) | (glo >>> 18)); glo |= qlo & (glo << 14);
  qhi &= (qhi << 14) | (qlo >>> 18); qlo &= qlo << 14;
  ghi |= qhi & ((ghi << 28) | (glo >>> 4)); glo |= qlo & (glo << 28);
  tlo = glo & olo; thi = ghi & ohi;
  rhi |= ((thi << 7) | (tlo >>> 25)) & NOT_H; rlo |= (tlo << 7) & NOT_H;
  // -7
  plo = olo & NOT_A; phi = ohi & NOT_A;
  glo = mlo | (plo & ((mlo >>> 7) | (mhi << 25))); ghi = mhi | (phi & (mhi >>> 7));
  qlo = plo & ((plo >>> 7) | (phi << 25)); qhi = phi & (phi >>> 7);
  glo |= qlo & ((glo >>> 14) | (ghi << 18)); ghi |= qhi & (ghi >>> 14);
  qlo &= (qlo >>> 14) | (qhi << 18); qhi &= qhi >>> 14;
  glo |= qlo & ((glo >>> 28) | (ghi << 4)); ghi |= qhi & (ghi >>> 28);
  tlo = glo & olo; thi = ghi & ohi;
  rlo |= ((tlo >>> 7) | (thi << 25)) & NOT_A; rhi |= (thi >>> 7) & NOT_A;
  out[0] = rhi & ~(mhi | ohi);
  return rlo & ~(mlo | olo);
}

// Flips by lines ("kindergarten" tables): for the row, column, diagonal and anti-diagonal through
// the square played, the line's opponent and own discs as bytes (indexed by column, or by row for the
// column), then OUTFLANK[p * 64 + inner six opponent bits] = the squares just beyond the opponent runs
// that touch position p, and FLIPPED[p * 256 + (outflank & own)] = the line squares that flip.
const OUTFLANK = new Uint8Array(8 * 64);
const FLIPPED = new Uint8Array(8 * 256);
for (let p = 0; p < 8; p++) {
  for (let inner = 0; inner < 64; inner++) {
    const opp = (inner << 1) & ~(1 << p);
    let k = p + 1;
    while (k < 8 && (opp >> k) & 1) k++;
    if (k > p + 1 && k < 8) OUTFLANK[p * 64 + inner] |= 1 << k;
    k = p - 1;
    while (k >= 0 && (opp >> k) & 1) k--;
    if (k < p - 1 && k >= 0) OUTFLANK[p * 64 + inner] |= 1 << k;
  }
  for (let outflank = 0; outflank < 256; outflank++) {
    for (let k = 0; k < 8; k++) {
      if (!((outflank >> k) & 1)) continue;
      for (let j = Math.min(k, p) + 1; j < Math.max(k, p); j++) FLIPPED[p * 256 + outflank] |= 1 << j;
    }
  }
}
// the number of squares FLIPPED flips
const FLIP_COUNT = Uint8Array.from(FLIPPED, (f) => pop32(f));
// per square: its diagonal (column - row constant) and anti-diagonal (column + row constant)
const DIAG_LO = new Int32Array(64);
const DIAG_HI = new Int32Array(64);
const ANTI_LO = new Int32Array(64);
const ANTI_HI = new Int32Array(64);
for (let sq = 0; sq < 64; sq++) {
  for (let s = 0; s < 64; s++) {
    if ((s & 7) - (s >> 3) === (sq & 7) - (sq >> 3)) {
      if (s < 32) DIAG_LO[sq] |= 1 << s;
      else DIAG_HI[sq] |= 1 << (s - 32);
    }
    if ((s & 7) + (s >> 3) === (sq & 7) + (sq >> 3)) {
      if (s < 32) ANTI_LO[sq] |= 1 << s;
      else ANTI_HI[sq] |= 1 << (s - 32);
    }
  }
}
// a column byte (bit r = row r) back onto column a
const COLUMN_LO = Int32Array.from({ length: 256 }, (_, b) => (b & 1) | ((b & 2) << 7) | ((b & 4) << 14) | ((b & 8) << 21));
const COLUMN_HI = Int32Array.from({ length: 256 }, (_, b) => COLUMN_LO[b >> 4]);

/** Column a of (lo, hi) as a byte, bit r = row r (multiplications gather the four rows of each half). */
export function columnByte(lo, hi) {
  return ((Math.imul(lo & 0x01010101, 0x01020408) >>> 24) & 15) | (((Math.imul(hi & 0x01010101, 0x01020408) >>> 24) & 15) << 4);
}

/** Row `r` of (lo, hi) as a byte, bit c = column c. */
function rowByte(lo, hi, r) {
  return ((r < 4 ? lo : hi) >>> ((r & 3) << 3)) & 0xff;
}

/** The squares of a diagonal (dlo, dhi) in (lo, hi) as a byte, bit c = column c (the rows fold). */
function diagonalByte(lo, hi, dlo, dhi) {
  const v = (lo & dlo) | (hi & dhi);
  return (v | (v >>> 8) | (v >>> 16) | (v >>> 24)) & 0xff;
}

/** Index into FLIPPED / FLIP_COUNT for position `p` of a line with opponent byte `o` and own byte `m`. */
function lineIndex(p, o, m) {
  return (p << 8) | (OUTFLANK[(p << 6) | ((o >>> 1) & 63)] & m);
}

/**
 * Discs flipped by `me` playing square `sq` (0 if none), line by line (see OUTFLANK above). Returns
 * the low half; the high half is in `out[0]`.
 */
export function flips(mlo, mhi, olo, ohi, sq) {
  const r = sq >> 3;
  const c = sq & 7;
  let flo = 0;
  let fhi = 0;
  // the row
  const row = FLIPPED[lineIndex(c, rowByte(olo, ohi, r), rowByte(mlo, mhi, r))] << ((r & 3) << 3);
  if (r < 4) flo = row;
  else fhi = row;
  // the column (indexed by row)
  const f = FLIPPED[lineIndex(r, columnByte(olo >>> c, ohi >>> c), columnByte(mlo >>> c, mhi >>> c))];
  flo |= COLUMN_LO[f] << c;
  fhi |= COLUMN_HI[f] << c;
  // the diagonals (indexed by column), back onto every row and masked
  let dlo = DIAG_LO[sq];
  let dhi = DIAG_HI[sq];
  let v = Math.imul(FLIPPED[lineIndex(c, diagonalByte(olo, ohi, dlo, dhi), diagonalByte(mlo, mhi, dlo, dhi))], 0x01010101);
  flo |= v & dlo;
  fhi |= v & dhi;
  dlo = ANTI_LO[sq];
  dhi = ANTI_HI[sq];
  v = Math.imul(FLIPPED[lineIndex(c, diagonalByte(olo, ohi, dlo, dhi), diagonalByte(mlo, mhi, dlo, dhi))], 0x01010101);
  out[0] = fhi | (v & dhi);
  return flo | (v & dlo);
}

/**
 * How many discs `me` playing square `sq` would flip (0: not a legal move there), as flips() but
 * without making the board: the solver's last empty square needs only the count.
 */
export function countFlips(mlo, mhi, olo, ohi, sq) {
  const r = sq >> 3;
  const c = sq & 7;
  return FLIP_COUNT[lineIndex(c, rowByte(olo, ohi, r), rowByte(mlo, mhi, r))]
    + FLIP_COUNT[lineIndex(r, columnByte(olo >>> c, ohi >>> c), columnByte(mlo >>> c, mhi >>> c))]
    + FLIP_COUNT[lineIndex(c, diagonalByte(olo, ohi, DIAG_LO[sq], DIAG_HI[sq]), diagonalByte(mlo, mhi, DIAG_LO[sq], DIAG_HI[sq]))]
    + FLIP_COUNT[lineIndex(c, diagonalByte(olo, ohi, ANTI_LO[sq], ANTI_HI[sq]), diagonalByte(mlo, mhi, ANTI_LO[sq], ANTI_HI[sq]))];
}

/** The board after a move, from the view of the side to move next: [its lo, hi, the other's lo, hi]. */
export const after = new Int32Array(4);

/**
 * `me` plays square `sq`: writes the position after the move into `after` (the other side to move).
 * Returns 0 when `sq` flips nothing (not a legal move; `after` then means nothing), else non-zero.
 */
export function play(mlo, mhi, olo, ohi, sq) {
  const flo = flips(mlo, mhi, olo, ohi, sq);
  const fhi = out[0];
  after[0] = olo & ~flo;
  after[1] = ohi & ~fhi;
  after[2] = mlo | flo | (sq < 32 ? 1 << sq : 0);
  after[3] = mhi | fhi | (sq < 32 ? 0 : 1 << (sq - 32));
  return flo | fhi;
}
