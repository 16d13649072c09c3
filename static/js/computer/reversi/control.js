// What stops a search: a node limit and a deadline on a clock, looked at every CHECK_EVERY nodes
// (as bench/pybots/nbclock.py). One Control is shared by the searches of one move.

export const CHECK_EVERY = 4096; // nodes between two looks at the clock (about 1 ms of the midgame search in Node, 0.3 ms
// of the solver; a look at Node's CPU clock costs about 5 us)

/** Wall-clock milliseconds (the default clock). */
export const wallClock = () => performance.now();

export class Control {
  /** @param {() => number} clock milliseconds (wall or CPU time; any origin) */
  constructor(clock = wallClock) {
    this.clock = clock;
    this.nodes = 0;
    this.maxNodes = Infinity;
    this.nextCheck = CHECK_EVERY;
    this.deadline = Infinity;
    this.stop = false;
  }

  /** Start counting from 0 nodes: stop after `maxNodes` nodes (Infinity: no limit) or at `deadline` (clock ms). */
  reset(deadline, maxNodes = Infinity) {
    this.nodes = 0;
    this.restart(deadline, maxNodes);
  }

  /**
   * Clear the stop flag, set a new deadline and allow `maxNodes` more nodes (null or undefined: no
   * limit); the node count stays.
   */
  restart(deadline, maxNodes = Infinity) {
    this.stop = false;
    this.deadline = deadline;
    this.maxNodes = this.nodes + (maxNodes ?? Infinity);
    this.nextCheck = Math.min(this.nodes + CHECK_EVERY, this.maxNodes);
  }

  /** Called when `nodes` reached `nextCheck`: sets `stop` at the node limit or past the deadline. */
  check() {
    if (this.nodes >= this.maxNodes || this.clock() > this.deadline) this.stop = true;
    this.nextCheck = Math.min(this.nodes + CHECK_EVERY, this.maxNodes);
  }
}
