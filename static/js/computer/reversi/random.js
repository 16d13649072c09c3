// A seeded random number generator (mulberry32) for reproducible games: matches, tests, the CLI.

/** A function returning numbers in [0, 1) from the 32-bit `seed`, the same sequence for the same seed. */
export function seededRandom(seed) {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
