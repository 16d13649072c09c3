// Random numbers: the computer's levels that randomise (Easy, Medium, the opening steps) and the
// searches' fixed keys (Zobrist keys, table variants).

/** A deterministic generator of 32-bit signed integers (mulberry32) seeded with `seed`. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) | 0;
  };
}

/**
 * An rng object {random() -> [0, 1), randrange(n) -> 0..n-1, choice(items)} from `rng`: an
 * integer seed (a deterministic sequence: tests and benches), a function returning [0, 1)
 * (Math.random or the caller's own), an rng object already, or null/undefined (Math.random).
 */
export function makeRng(rng) {
  if (rng && typeof rng === "object" && typeof rng.random === "function") return rng;
  let random;
  if (typeof rng === "function") {
    random = rng;
  } else if (Number.isInteger(rng)) {
    const next = mulberry32(rng);
    random = () => (next() >>> 0) / 4294967296;
  } else {
    random = Math.random;
  }
  return {
    random,
    randrange: (n) => Math.floor(random() * n),
    choice: (items) => items[Math.floor(random() * items.length)],
  };
}
