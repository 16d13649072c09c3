// The computer's clock and its one exception.
//
// Every search takes a `clock` (a function returning milliseconds, monotonic) and deadlines in
// that clock's milliseconds. In the page and the worker it is performance.now(); the Node brain
// passes the process's CPU time (brain.js --cpu-clock), so a loaded machine does not weaken it.

/** The deadline passed (or a node cap was reached) inside a search. */
export class Timeout extends Error {
  constructor() {
    super("search stopped: deadline or node cap");
    this.name = "Timeout";
  }
}

/** Wall-clock milliseconds (performance.now() where there is one). */
export function wallClock() {
  return globalThis.performance ? globalThis.performance.now() : Date.now();
}

/** Nodes between two looks at the clock in the searches (a clock read costs far more than a node;
 * the CPU clock's is a system call): about 3 ms of search, as caro/bots/nbclock.py's. */
export const CHECK_EVERY = 1024;
