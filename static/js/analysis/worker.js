// The post-game analysis in a module Web Worker of its own, so the record page never freezes
// while it runs (`new Worker(new URL("./worker.js", import.meta.url), {type: "module"})`).
//
// Out, first: {ready: true} once the worker listens (the page sends nothing before it).
// In:  {id, op: "analyse", game: "caro", rules: {size, win_length, exact, blocked, renju},
//       moves: [square, ...], winner: "X" | "O" | null}
//      {id, op: "analyse", game: "reversi", moves: [square, ...]}
//      {id, op: "cancel"}
// Out: {id, progress: {done, total}} (plies analysed; fractional inside a Reversi endgame ply)
//      {id, result} (caro.js / reversi.js describe it) | {id, error: "<code>"}: "bad_request"
//      (not a record: bad rules, no moves list), "illegal_record" (a move the rules refuse) or
//      "failed" (anything else); the page shows one translated sentence, never an exception's text.
//
// One analysis at a time: a new request cancels the one running. The analysis is a generator
// run one step (a ply, or one endgame move) at a time, with the event loop let in between, so a
// cancel is seen within a step; the page may also simply terminate the worker.
//
// createHandler(post, yieldNow) is the whole protocol without the worker around it (tests drive
// it in Node).

import { caroAnalysis } from "./caro.js";
import { reversiAnalysis } from "./reversi.js";
import { IllegalMove } from "../engine/errors.js";

/** The most moves a record may have (a 19×19 board full; Reversi has at most 60). */
export const MAX_MOVES = 361;
/** Progress messages are sent at most this often (ms), and after the last step. */
export const PROGRESS_EVERY_MS = 100;

const nextTick = () => new Promise((resolve) => setTimeout(resolve, 0));

function checkRequest(data) {
  const { game, moves } = data;
  if (game !== "caro" && game !== "reversi") return false;
  if (!Array.isArray(moves) || moves.length > MAX_MOVES || !moves.every((m) => typeof m === "string")) return false;
  if (game === "caro" && (!data.rules || typeof data.rules !== "object")) return false;
  return true;
}

/** The error code of an exception: a move the rules refuse, data that is not a record, or else. */
function errorCode(e) {
  if (e instanceof IllegalMove) return "illegal_record";
  if (e instanceof RangeError) return "bad_request";
  return "failed";
}

function run(data) {
  if (data.game === "caro") {
    const winner = data.winner === "X" || data.winner === "O" ? data.winner : null;
    return caroAnalysis({ rules: data.rules, moves: data.moves, winner });
  }
  return reversiAnalysis({ moves: data.moves });
}

/**
 * The worker's message handler: `post(message)` sends a message, `yieldNow()` resolves once
 * other messages had their turn (default: a zero timeout). Returns a function taking one
 * incoming message's data; for an analysis it returns a promise settled when it ends.
 */
export function createHandler(post, yieldNow = nextTick, clock = () => performance.now()) {
  let current = null; // id of the analysis running
  return async (data) => {
    if (!data || typeof data !== "object") return;
    const { id } = data;
    if (data.op === "cancel") {
      if (current === id) current = null;
      return;
    }
    if (data.op !== "analyse" || !checkRequest(data)) {
      post({ id, error: "bad_request" });
      return;
    }
    current = id;
    const steps = run(data); // (a generator: its errors come with the first step)
    let last = -Infinity;
    for (;;) {
      let step;
      try {
        step = steps.next();
      } catch (e) {
        post({ id, error: errorCode(e) });
        if (current === id) current = null;
        return;
      }
      if (step.done) {
        post({ id, result: step.value });
        current = null;
        return;
      }
      const now = clock();
      if (now - last >= PROGRESS_EVERY_MS) {
        last = now;
        post({ id, progress: step.value });
      }
      await yieldNow();
      if (current !== id) return; // cancelled, or replaced by a newer request
    }
  };
}

if (typeof WorkerGlobalScope !== "undefined" && globalThis instanceof WorkerGlobalScope) {
  const handle = createHandler((message) => globalThis.postMessage(message));
  globalThis.onmessage = (event) => handle(event.data);
  globalThis.postMessage({ ready: true });
}
