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

/** Nodes between two looks at the clock in the searches, for a clock that does not say
 * (`checkEvery` below): about 3 ms of search, as bench/pybots/nbclock.py's (the CPU clock's read is a
 * system call, far dearer than a node). */
export const CHECK_EVERY = 1024;
/** Nodes between two looks at the wall clock: performance.now() costs a few tens of nanoseconds,
 * and on a slow or busy device 1,024 nodes can take over 100 ms of wall time (the budget's
 * overshoot). */
export const WALL_CHECK_EVERY = 256;

/** Wall-clock milliseconds (performance.now() where there is one). */
export function wallClock() {
  return globalThis.performance ? globalThis.performance.now() : Date.now();
}
wallClock.checkEvery = WALL_CHECK_EVERY;

/** The nodes a search runs between two reads of `clock`: its `checkEvery` property, else
 * CHECK_EVERY. */
export function checkEvery(clock) {
  return clock && clock.checkEvery > 0 ? clock.checkEvery : CHECK_EVERY;
}
