// The game an on-device page's address asks for (CONTRACTS.md section 3): pure, so Node tests it.
// `params`: the query string (URLSearchParams); `known`: the page's table of rule choices
// ({choices: {"<preset>|<size>|<win length>" | "reversi": {rules, opening, line, plain}},
// presets: {slug: {size, win_length}}, default: slug}). Anything missing or not on the site's
// lists falls back to the preset's own numbers and the site's defaults, as the home page does.

export const LEVELS = ["easy", "medium", "hard"]; // the computer's levels, Easy first (the default)
export const MAX_MOVES = 400; // more than any board holds: a longer list is not a position

// "H8,I9,…" -> ["H8", "I9", …]: square names as written (the engine judges them); [] for none.
export function parseMoves(text) {
  if (!text) return [];
  const squares = text.split(",").map((s) => s.trim()).filter(Boolean);
  return squares.length <= MAX_MOVES && squares.every((s) => /^[A-Za-z][1-9][0-9]?$/.test(s)) ? squares : null;
}

// {config, note}: `config` for DeviceGame.start; `note` says what was not understood ("" if all was).
export function gameConfig(mode, params, known, random = Math.random) {
  let note = "";
  let preset = params.get("preset") || known.default;
  if (!(preset in known.presets)) preset = known.default;
  const reversi = preset === "reversi";
  let choice = known.choices.reversi;
  if (!reversi) {
    const own = known.presets[preset];
    const key = (size, win) => `${preset}|${size}|${win}`;
    const size = params.get("size") || own.size;
    const win = params.get("win_length") || own.win_length;
    // a pair the rules refuse (Renju is 15×15, five) falls back to the preset's own numbers
    choice = known.choices[key(size, win)] || known.choices[key(size, own.win_length)] || known.choices[key(own.size, own.win_length)];
  }
  let level = params.get("level") || "easy";
  if (!LEVELS.includes(level)) level = "easy";
  let moves = parseMoves(params.get("moves"));
  if (moves === null) {
    moves = [];
    note = gettext("That position cannot be continued: a new game starts from the empty board.");
  }
  let side = params.get("side");
  if (side === "random") side = random() < 0.5 ? "X" : "O";
  // continuing a position without a side: the person plays the side to move there
  if (side !== "X" && side !== "O") side = moves.length ? "to-move" : "X";
  return {
    note,
    config: {
      mode, kind: reversi ? "reversi" : "caro", preset, rules: choice.rules, opening: choice.opening,
      level, hostSide: side, moves,
    },
  };
}
