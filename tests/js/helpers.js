// Helpers for the Node test files under tests/js/ (Node only: the engine files never import this).
// Paths are resolved from the repository root, so a test runs from any working directory.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (the checkout). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The shared rule cases beside the checkout (`../shared/cases`), as the Python tests load them. */
export const CASES_DIR = path.resolve(ROOT, "..", "shared", "cases");
/** The engine vectors both engines' tests load (tests/engine_vectors). */
export const VECTORS_DIR = path.join(ROOT, "tests", "engine_vectors");

/** The parsed JSON of one shared case file, e.g. `sharedCases("caro-rules.json")`. */
export function sharedCases(fileName) {
  const file = path.join(CASES_DIR, fileName);
  if (!fs.existsSync(file)) throw new Error(`shared rule cases missing: ${file} (shared/ must sit beside the checkout)`);
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

/** The parsed JSON of one file of tests/engine_vectors, e.g. `vectors("caro.json")`. */
export function vectors(fileName) {
  return JSON.parse(fs.readFileSync(path.join(VECTORS_DIR, fileName), "utf8"));
}

/** The IllegalMove `fn` throws (fails the test when it throws nothing or something else). */
export function refusal(fn) {
  try {
    fn();
  } catch (error) {
    if (error?.name === "IllegalMove") return error;
    throw error;
  }
  throw new Error("expected an IllegalMove, nothing was thrown");
}

/** A text of the vectors: a string, or parts, each a string or [string, count] (repeated). */
export function vectorText(value) {
  if (typeof value === "string") return value;
  return value.map((part) => (typeof part === "string" ? part : part[0].repeat(part[1]))).join("");
}

/** The RangeError `fn` throws (Python's ValueError; fails the test otherwise). */
export function valueError(fn) {
  try {
    fn();
  } catch (error) {
    if (error instanceof RangeError) return error;
    throw error;
  }
  throw new Error("expected a RangeError, nothing was thrown");
}
