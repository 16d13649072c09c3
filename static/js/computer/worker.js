// The computer in a module Web Worker, so the page never freezes while it thinks
// (`new Worker(new URL("computer/worker.js", ...), {type: "module"})`; CONTRACTS.md section 2).
//
// In:  {id, op: "move", game: "caro" | "reversi", rules: {size, win_length, exact, blocked, renju}
//       (caro), moves: [square, ...] (every stone / disc in order, the opening's stones included),
//       opening: <machine.toDict()> | null (while a RIF / Swap2 opening is not done), level, budgetMs,
//       stats: true (optional: a caro move's answer also carries `stats`, what its search reports:
//       {depth, nodes, phase}; for benches)}
//      {id, op: "cancel"}
// Out: {id, square} (a move) | {id, square, stats} | {id, action} (an opening step) | {id, error: "<text>"}.
//
// Requests are answered one at a time, in order. Cancel: a request cancelled before it starts is
// never computed, and one cancelled while it is computed gets no answer (the search itself runs to
// its budget: a page that needs the processor back at once terminates the worker and starts a new
// one). Caro positions need no rules engine (the stones alternate X, O from the first); an opening
// machine is rebuilt with the engine's openingFromDict and a Reversi board with its
// Board.fromMoves (static/js/engine/, loaded when first needed). Deadlines use the wall clock.
//
// createHandler(post) is the whole protocol without the worker around it (tests drive it in Node).

// (no static import of ./index.js: its top-level await for the Reversi computer would hold this
// module's evaluation back, and a module worker's messages that arrive before `onmessage` is set
// are lost; Reversi requests import it when they come)
import { LEVELS, choosePositionMove } from "./caro/index.js";
import { chooseCaroOpeningAction } from "./caro/openings.js";
import { SearchBoard } from "./caro/board.js";
import { SIZES } from "./caro/rules.js";

const DEFAULT_BUDGET_MS = 1000;
const MAX_BUDGET_MS = 60000;
const BLOCKED = ["none", "opponent", "opponent_or_edge"];
const WIN_LENGTHS = [4, 5, 6];

/** The caro rules of a request, checked; throws Error with the reason. */
function checkRules(rules) {
  if (!rules || typeof rules !== "object") throw new Error("caro needs rules");
  const { size, win_length: winLength, exact, blocked, renju } = rules;
  if (!SIZES.includes(size)) throw new Error(`size must be one of ${SIZES.join(", ")}`);
  if (!WIN_LENGTHS.includes(winLength)) throw new Error(`win_length must be one of ${WIN_LENGTHS.join(", ")}`);
  if (typeof exact !== "boolean" || typeof renju !== "boolean") throw new Error("exact and renju must be booleans");
  if (!BLOCKED.includes(blocked)) throw new Error(`blocked must be one of ${BLOCKED.join(", ")}`);
  if (renju && winLength !== 5) throw new Error("Renju is played with win_length 5");
  return { size, win_length: winLength, exact, blocked, renju };
}

/** A caro move for the position the moves make (X first, alternating). */
function caroMove(rules, moves, level, budgetMs, stats) {
  const fb = new SearchBoard(rules);
  for (const square of moves) {
    const q = fb.index(square);
    if (fb.cells[q] !== 0) throw new Error(`${square} is played twice`);
    fb.play(q);
    if (fb.winsAt(q, 3 - fb.turn)) throw new Error("the game is over: no move to choose");
  }
  const x = moves.filter((_, i) => i % 2 === 0);
  const o = moves.filter((_, i) => i % 2 === 1);
  return choosePositionMove({ rules, x, o, toMove: moves.length % 2 ? "O" : "X" }, level, { budgetMs, stats });
}

async function answer(data) {
  const { game, level, moves = [], opening = null } = data;
  if (!LEVELS.includes(level)) throw new Error(`unknown level: ${level}`);
  if (!Array.isArray(moves) || !moves.every((m) => typeof m === "string")) throw new Error("moves must be square names");
  const budgetMs = Math.min(MAX_BUDGET_MS, Number.isFinite(data.budgetMs) && data.budgetMs > 0
    ? data.budgetMs : DEFAULT_BUDGET_MS);
  if (game === "caro") {
    const rules = checkRules(data.rules);
    if (opening) {
      const { openingFromDict } = await import("../engine/openings.js");
      const machine = openingFromDict(opening);
      if (machine.state !== "done") return { action: chooseCaroOpeningAction(machine, level, { budgetMs }) };
    }
    if (data.stats === true) {
      const stats = {};
      return { square: caroMove(rules, moves, level, budgetMs, stats), stats };
    }
    return { square: caroMove(rules, moves, level, budgetMs) };
  }
  if (game === "reversi") {
    const { Board } = await import("../engine/reversi.js");
    const { chooseMove } = await import("./index.js");
    return { square: chooseMove(Board.fromMoves(moves.join("")), level, { budgetMs }) };
  }
  throw new Error(`unknown game: ${game}`);
}

/**
 * The worker's message handler: `post(message)` sends an answer. Returns an async function taking
 * one incoming message's data; it resolves once that message is handled (answers follow the order
 * of the requests).
 */
export function createHandler(post) {
  const cancelled = new Set();
  let queue = Promise.resolve();
  return (data) => {
    if (data && data.op === "cancel") {
      cancelled.add(data.id);
      return queue;
    }
    queue = queue.then(async () => {
      const id = data && data.id;
      if (!data || data.op !== "move") {
        post({ id, error: `unknown op: ${data && data.op}` });
        return;
      }
      if (cancelled.delete(id)) return;
      let reply;
      try {
        reply = { id, ...(await answer(data)) };
      } catch (e) {
        reply = { id, error: e && e.message ? e.message : String(e) };
      }
      // a cancel sent while it was computed is waiting in the event queue: let it in first
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (cancelled.delete(id)) return;
      post(reply);
    });
    return queue;
  };
}

if (typeof WorkerGlobalScope !== "undefined" && globalThis instanceof WorkerGlobalScope) {
  const handle = createHandler((message) => globalThis.postMessage(message));
  globalThis.onmessage = (event) => handle(event.data);
}
