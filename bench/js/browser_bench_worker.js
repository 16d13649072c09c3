// The worker of bench/computer_browser.py: Hard's move on each position it is sent, with the time
// the worker measured, the alpha-beta's depth and nodes, and the phase that chose. Not used by the site.

import { choosePositionMove } from "../../static/js/computer/caro/index.js";

globalThis.onmessage = (event) => {
  const { id, position, budgetMs } = event.data;
  const stats = {};
  const t0 = performance.now();
  const square = choosePositionMove(position, "hard", { budgetMs, stats });
  globalThis.postMessage({ id, square, ms: performance.now() - t0, ...stats });
};
