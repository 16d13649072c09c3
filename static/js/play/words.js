// The words a game page shows, as pure functions of a game state (the `state` frame of
// docs/protocol.md, which the on-device source builds too). No DOM here, so Node tests run them.
// Strings come from Django's JavaScript catalogue (/jsi18n/, loaded before the page's modules):
// gettext(), ngettext() and interpolate() are globals it defines. Each msgid stays a literal, for
// makemessages.

// "%(name)s" placeholders, as in the Python code.
export function fmt(template, values) {
  return interpolate(template, values, true);
}

const BOT_NAMES = () => ({ easy: gettext("Computer (Easy)"), medium: gettext("Computer (Medium)"),
  hard: gettext("Computer (Hard)") });
const FOUL_KINDS = () => ({ "double-three": gettext("double-three"), "double-four": gettext("double-four"),
  overline: gettext("overline") });
const YOU_WON = () => ({
  five: gettext("You won with %(count)s in a row (%(rule)s)!"),
  discs: gettext("You won: more discs!"),
  timeout: gettext("You won: your opponent ran out of time."),
  resign: gettext("You won: your opponent resigned."),
  left: gettext("You won: your opponent left the table."),
  absence: gettext("You won: your opponent did not come back."),
});
const YOU_LOST = () => ({
  five: gettext("You lost: your opponent made %(count)s in a row (%(rule)s)."),
  discs: gettext("You lost: fewer discs."),
  timeout: gettext("You lost: your time ran out."),
  resign: gettext("You resigned."),
  left: gettext("You left the table and lost this game."),
  absence: gettext("You lost: you did not come back in time."),
});
const SIDE_WON = () => ({
  five: gettext("%(side)s won with %(count)s in a row (%(rule)s)."),
  discs: gettext("%(side)s won on discs."),
  timeout: gettext("%(side)s won: the opponent ran out of time."),
  resign: gettext("%(side)s won: the opponent resigned."),
  left: gettext("%(side)s won: %(left)s left the table."),
  absence: gettext("%(side)s won: %(absent)s did not come back."),
});
const DRAW = () => ({
  full_board: gettext("Draw: the board is full."),
  no_legal_move: gettext("Draw: X has only foul points left."),
  discs: gettext("Draw: as many discs each."),
  agreement: gettext("Draw by agreement."),
  absence: gettext("Draw: %(absent)s did not come back, and the opponent called it a draw."),
});
const NOTES = () => ({
  blocked: gettext("%(from)s–%(to)s does not win: both ends are blocked (blocked two ends rule)."),
  overline: gettext("%(from)s–%(to)s does not win: it is longer than %(n)s in a row (exact rule)."),
});

export const foulKind = (kind) => FOUL_KINDS()[kind] || kind;
export const botName = (level) => BOT_NAMES()[level] || level;

// The rule notice of a move whose run does not win (`note` of a `move` event: {kind, line}).
export function ruleNote(state, note) {
  return fmt(NOTES()[note.kind], { from: note.line[0], to: note.line[note.line.length - 1], n: state.rules.win_length });
}

export function isReversi(state) {
  return state.kind === "reversi";
}

// The mark a side's stones are drawn with: in caro each person keeps their mark (X or O) for the
// whole room, so the first mover may draw O; Reversi: the side itself (Black is "X").
export function markOf(state, side) {
  return isReversi(state) ? side : ((state.marks || {})[side] || side);
}

// "X"/"O" (the mark that side's player holds) for caro; Black/White (translated) for Reversi.
export function sideName(state, side) {
  return isReversi(state) ? (side === "X" ? gettext("Black") : gettext("White")) : markOf(state, side);
}

// Black/White: Reversi's colours (caro's opening procedures name their sides X and O, as drawn).
export function colourName(side) {
  return side === "X" ? gettext("Black") : gettext("White");
}

// Reversi: "black"/"white" inside a sentence.
export function colourWord(side) {
  return side === "X" ? gettext("black") : gettext("white");
}

// Who holds `side`, in words. On one device one person holds both seats: each seat is named by
// its side ("X side", "Black side"), not by the same name twice.
export function playerName(state, side) {
  if (state.local) return fmt(gettext("%(side)s side"), { side: sideName(state, side) });
  const p = (state.players || {})[side];
  return !p ? gettext("free seat") : p.bot ? botName(p.bot) : p.name;
}

// The winner of a game as a spectator reads it: the name with the mark or colour, "Lan (X)"; on
// one device the side alone.
export function winnerWords(state, side) {
  if (state.local) return sideName(state, side);
  return fmt(gettext("%(name)s (%(side)s)"), { name: playerName(state, side), side: sideName(state, side) });
}

// The length of the winning run (the stones of `line`), else the rule's count.
export function winCount(state) {
  return (state.line || []).length || (state.rules || {}).win_length || 5;
}

// The winning rule in a few words: "5 or more to win, blocked two ends", "exactly 4 to win", "Renju rules".
export function ruleText(state) {
  const r = state.rules || {};
  if (r.renju) return gettext("Renju rules");
  const parts = [fmt(r.exact ? gettext("exactly %(n)s to win") : gettext("%(n)s or more to win"), { n: r.win_length || 5 })];
  if (r.blocked && r.blocked !== "none") parts.push(gettext("not blocked at both ends"));
  return parts.join(", ");
}

// The status line: waiting, whose move it is, or the result and why. accountsNeeded: the free
// seat is for accounts only and this visitor has none (the room page's data-accounts-needed).
export function statusText(state, seated, accountsNeeded = false) {
  if (state.status === "waiting") {
    if (seated) return gettext("Waiting for an opponent: share the link or the code.");
    return accountsNeeded ? gettext("A seat is free for a player with an account: sign up or log in to play, or just watch.")
      : gettext("A seat is free: take it to play, or just watch.");
  }
  if (state.status === "aborted" && state.termination === "abandoned") return gettext("Game abandoned: nobody played in it for a long time.");
  if (state.status === "aborted" && state.termination === "moderator") return gettext("A moderator stopped this game. Nobody wins or loses.");
  if (state.status === "aborted") return gettext("Game aborted: it ended before both players had moved. Nobody wins or loses.");
  if (state.status === "finished") {
    const term = state.termination;
    const absent = state.absent ? playerName(state, state.absent) : "";
    if (!state.winner) return fmt(DRAW()[term] || DRAW().full_board, { absent });
    const values = { side: winnerWords(state, state.winner), count: winCount(state), rule: ruleText(state),
      left: state.left ? playerName(state, state.left) : "", absent };
    if (state.you && !state.local) return fmt((state.you === state.winner ? YOU_WON() : YOU_LOST())[term] || "", values);
    return fmt(SIDE_WON()[term] || "", values);
  }
  if (state.local) return fmt(gettext("%(side)s to move."), { side: sideName(state, state.turn) });
  if (state.bot && state.turn === state.bot.side) return gettext("The computer is thinking…");
  if (state.you && state.turn === state.you) return gettext("Your turn.");
  const p = (state.players || {})[state.turn];
  return fmt(gettext("%(side)s to move (%(name)s)."), { side: sideName(state, state.turn), name: p ? (p.bot ? botName(p.bot) : p.name) : "" });
}

// Both players have acted (docs/architecture.md, "Where time and endings live"; caro.games.state.
// both_have_moved): a move each, or with an opening procedure (RIF, Swap2) a step each.
export function bothHaveMoved(state) {
  if (state.opening) return new Set((state.opening.log || []).map((step) => step.by)).size >= 2;
  return (state.ply || 0) >= 2;
}

// The line under the status before both players have moved, in a game between two people with a
// clock: the clock started when the game did (both seats filled: for a ranked or quick game, at the
// pairing), so the first mover's time is already running, and a player who does not make their
// first move in time aborts the game (caro.games.state.ending_on_time: no winner, never rated).
// "" when there is nothing to say (over, no clock, the computer, one device, both have moved).
export function firstMoveNote(state) {
  if (state.status !== "active" || state.local || state.bot || state.deadline_ms == null || bothHaveMoved(state)) return "";
  const side = state.turn;
  const ms = state.banks && state.banks[side] != null ? state.banks[side] : state.move_time_ms;
  if (!ms) return "";
  const rated = Boolean(state.stakes);
  const time = mmss(ms);
  if (state.you && state.you === side) {
    return fmt(rated ? gettext("The clock is already running: make your first move within %(time)s, or the game is aborted and no rating changes.")
      : gettext("The clock is already running: make your first move within %(time)s, or the game is aborted."), { time });
  }
  const name = playerName(state, side);
  return fmt(rated ? gettext("The clock is already running: %(name)s has %(time)s for their first move. A first move not made in time aborts the game, and no rating changes.")
    : gettext("The clock is already running: %(name)s has %(time)s for their first move. A first move not made in time aborts the game."), { name, time });
}

// "m:ss" for a number of milliseconds (rounded up: a clock never shows less time than it has).
export function mmss(ms) {
  const s = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// A rating change with its sign: "+12", "−8" (a true minus), "±0".
export function signedDelta(n) {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "\u00b10";
}
