// Versions of the analysis (a stored result of another version is run again) and the name of the
// browser storage that keeps the results. Imported by the page without the analysis itself.

/** Caro analysis: change it when the searches, budgets or verdicts change. */
export const CARO_VERSION = 4; // 2: a quiet move that keeps a win is "likely" kept; budgets x3; 3: the second look (caro-deep.js); 4: its quiet search after up to three threes or fours
/** Reversi analysis: change it when the searches, budgets or verdicts change. */
export const REVERSI_VERSION = 1;

/** The version of `game` ("caro" | "reversi"). */
export function analysisVersion(game) {
  return game === "reversi" ? REVERSI_VERSION : CARO_VERSION;
}
