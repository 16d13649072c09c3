// The analysis on the record page (issue 29): the "Analyse this game" button, the progress bar
// and its cancel, and once a result exists (just computed, or kept in the browser from an
// earlier visit) the marks in the move list and on the board, the evaluation graph, the verdict
// on the move shown, the forced line as numbered stones that can be stepped through (caro) and
// the exact result of every legal move in the endgame (Reversi).
//
// The analysis runs in a module worker of its own (worker.js); the page only draws. Texts come
// from Django's JavaScript catalogue (gettext / interpolate, /jsi18n/). record.js owns the board
// and the replay and calls `update(ply)` after each redraw; this module draws over the board
// (data-mark, data-line, numbers) and asks record.js for a position with `paint(ply)` and for a
// ply with `go(ply)`.
//
// State for tests and styles: the record's root gets data-analysis = "idle" | "running" |
// "done" | "cancelled" | "error", and data-analysis-source = "stored" | "run" once a result is
// shown.

import { analysisKey, load, save } from "./store.js";
import { analysisVersion } from "./version.js";
import { graphSvg, plyAt, plyX, WIDTH } from "./graph.js";
import { hasEndgame } from "./verdicts.js";

const _ = (text) => (typeof globalThis.gettext === "function" ? globalThis.gettext(text) : text);
const n_ = (one, many, n) => (typeof globalThis.ngettext === "function" ? globalThis.ngettext(one, many, n)
  : (n === 1 ? one : many));
const fill = (text, values) => text.replace(/%\((\w+)\)s/g, (m, key) => (key in values ? String(values[key]) : m));

/** Verdicts drawn as marks, and their signs (the words are in WORDS). */
const SIGNS = { missed: "?", allowed: "??", decisive: "!", mistake: "?", blunder: "??" };
const MARKED = Object.keys(SIGNS);

function words() {
  return {
    missed: _("missed a win"),
    allowed: _("allowed a forced loss"),
    decisive: _("the deciding move"),
    mistake: _("lost discs"),
    blunder: _("threw away the result"),
    vcf: _("VCF, by fours"),
    vct: _("VCT, by threes and fours"),
    quiet: _("with a quiet move, then threes and fours"),
  };
}

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0");

export class AnalysisPanel {
  /**
   * `data`: the record's data (record-data JSON); `root`: the record's element; `squares`: Map
   * square -> board cell; `moveLinks`: the move list's links (data-ply); `paint(ply)`: draw the
   * board at a ply (no other change); `go(ply)`: show a ply as the replay does.
   */
  constructor({ data, root, squares, moveLinks, paint, go }) {
    this.data = data;
    this.root = root;
    this.squares = squares;
    this.moveLinks = moveLinks;
    this.paint = paint;
    this.go = go;
    this.result = null;
    this.worker = null;
    this.ply = data.ply;
    this.lineView = null;
    this.game = data.kind === "reversi" ? "reversi" : "caro";
    this.moves = data.steps.map((s) => s[0]);
    this.key = analysisKey(data.game_id, analysisVersion(this.game), this.moves);
    this.build();
    this.setState("idle");
    if (data.analysable) {
      load(this.key).then((result) => {
        if (result && !this.result && !this.worker) this.show(result, "stored");
      });
    }
  }

  // -- the panel ------------------------------------------------------------------------------

  build() {
    const data = this.data;
    const section = document.createElement("section");
    section.className = "analysis";
    section.setAttribute("aria-labelledby", "analysis-title");
    const intro = this.game === "reversi"
      ? _("The computer scores every move and, from 20 empty squares on, finds the exact result of each move. It runs on this device.")
      : _("The computer looks for forced wins (VCF, VCT) at every move: where one was missed, and which move let the opponent have one. It runs on this device.");
    section.innerHTML = `
      <h2 id="analysis-title">${_("Computer analysis")}</h2>
      <p class="hint" data-role="analysis-intro"></p>
      <p class="analysis-start"><button type="button" class="btn btn-primary" data-role="analyse"></button></p>
      <div class="analysis-run" data-role="analysis-run" hidden>
        <progress max="1000" value="0" data-role="analysis-progress"></progress>
        <span class="analysis-count" data-role="analysis-count" aria-live="polite"></span>
        <button type="button" class="btn" data-role="analysis-cancel"></button>
      </div>
      <p class="analysis-note" data-role="analysis-note" role="status"></p>
      <div class="analysis-result" data-role="analysis-result" hidden>
        <div class="analysis-graph" data-role="analysis-graph"></div>
        <p class="graph-legend hint" data-role="graph-legend"></p>
        <p class="analysis-verdict" data-role="analysis-verdict" aria-live="polite"></p>
        <div class="analysis-line" data-role="line-controls" hidden>
          <button type="button" class="btn" data-role="line-toggle" aria-pressed="false"></button>
          <span class="line-steps" data-role="line-steps" hidden>
            <button type="button" class="btn" data-line="first">«</button>
            <button type="button" class="btn" data-line="prev">‹</button>
            <span class="line-count" data-role="line-count" aria-live="polite"></span>
            <button type="button" class="btn" data-line="next">›</button>
            <button type="button" class="btn" data-line="last">»</button>
          </span>
        </div>
        <ul class="analysis-summary" data-role="analysis-summary"></ul>
      </div>`;
    const q = (role) => section.querySelector(`[data-role="${role}"]`);
    q("analysis-intro").textContent = intro;
    q("analyse").textContent = _("Analyse this game");
    q("analysis-cancel").textContent = _("Cancel");
    q("line-toggle").textContent = _("Show the line");
    for (const [go, label] of [["first", _("Start of the line")], ["prev", _("Previous move of the line")],
      ["next", _("Next move of the line")], ["last", _("End of the line")]]) {
      const b = section.querySelector(`[data-line="${go}"]`);
      b.setAttribute("aria-label", label);
      b.title = label;
    }
    this.el = { section, q };
    const anchor = this.root.querySelector(".toggles");
    anchor.after(section);
    if (!data.analysable) {
      q("analyse").hidden = true;
      q("analysis-note").textContent = _("The analysis is available once the game is over.");
    }
    section.addEventListener("click", (event) => this.click(event));
    q("analysis-graph").addEventListener("click", (event) => {
      const svg = q("analysis-graph").querySelector("svg");
      if (!svg || !this.result) return;
      const box = svg.getBoundingClientRect();
      this.go(plyAt((event.clientX - box.left) / box.width, this.result.total));
    });
  }

  setState(state) {
    this.root.dataset.analysis = state;
  }

  click(event) {
    const target = event.target.closest("button");
    if (!target) return;
    const role = target.dataset.role;
    if (role === "analyse") this.start();
    else if (role === "analysis-cancel") this.cancel();
    else if (role === "line-toggle") {
      if (this.lineView) this.closeLine();
      else this.openLine();
    } else if (target.dataset.line && this.lineView) {
      const n = this.lineView.line.length;
      const steps = { first: 1, prev: this.lineView.step - 1, next: this.lineView.step + 1, last: n };
      this.lineView.step = Math.max(1, Math.min(n, steps[target.dataset.line]));
      this.paintLine();
    }
  }

  // -- running it -----------------------------------------------------------------------------

  start() {
    if (this.worker) return;
    const { q } = this.el;
    q("analyse").hidden = true;
    q("analysis-run").hidden = false;
    q("analysis-note").textContent = "";
    this.progress(0, this.moves.length + 1);
    this.setState("running");
    const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    this.worker = worker;
    const id = Date.now();
    const request = { id, op: "analyse", game: this.game, moves: this.moves };
    if (this.game === "caro") Object.assign(request, { rules: this.data.rules, winner: this.data.winner || null });
    worker.onmessage = (event) => {
      const msg = event.data;
      if (this.worker !== worker) return;
      if (msg.ready) worker.postMessage(request);
      else if (msg.progress) this.progress(msg.progress.done, msg.progress.total);
      else if (msg.result) {
        this.stopWorker();
        save(this.key, msg.result);
        this.show(msg.result, "run");
      } else if (msg.error) this.fail();
    };
    worker.onerror = (event) => {
      event.preventDefault();
      if (this.worker === worker) this.fail();
    };
  }

  progress(done, total) {
    const { q } = this.el;
    q("analysis-progress").value = Math.round((1000 * done) / total);
    q("analysis-count").textContent = fill(_("Analysing: move %(done)s of %(total)s"), {
      done: Math.min(total - 1, Math.floor(done)), total: total - 1 });
  }

  stopWorker() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.el.q("analysis-run").hidden = true;
  }

  cancel() {
    this.stopWorker();
    this.el.q("analyse").hidden = false;
    this.el.q("analysis-note").textContent = _("Analysis cancelled.");
    this.setState("cancelled");
  }

  fail() {
    this.stopWorker();
    this.el.q("analyse").hidden = false;
    this.el.q("analysis-note").textContent = _("This game could not be analysed. Reload the page and try again.");
    this.setState("error");
  }

  // -- showing a result -----------------------------------------------------------------------

  show(result, source) {
    this.result = result;
    const { q } = this.el;
    q("analyse").hidden = true;
    q("analysis-intro").hidden = true;
    q("analysis-note").textContent = "";
    q("analysis-result").hidden = false;
    const sides = this.data.labels;
    q("graph-legend").textContent = fill(_("Up: better for %(x)s; down: better for %(o)s. Click the graph to go to a move."),
      { x: sides.X, o: sides.O });
    this.markMoveList();
    this.summary();
    this.drawGraph();
    this.root.dataset.analysisSource = source;
    this.setState("done");
    this.update(this.ply);
  }

  marks() {
    return this.result.plies.filter((p) => p.move && MARKED.includes(p.move.verdict))
      .map((p) => ({ ply: p.ply, verdict: p.move.verdict }));
  }

  drawGraph() {
    const values = this.result.plies.map((p) => p.graph);
    const label = fill(_("Evaluation graph: the computer's score for %(x)s after each move"), { x: this.data.labels.X });
    this.el.q("analysis-graph").innerHTML = graphSvg({ values, marks: this.marks(), ply: this.ply, label });
  }

  markMoveList() {
    const w = words();
    for (const a of this.moveLinks) {
      a.querySelector(".amark")?.remove();
      const p = this.result.plies[Number(a.dataset.ply)];
      const verdict = p && p.move ? p.move.verdict : null;
      if (!MARKED.includes(verdict)) continue;
      const mark = document.createElement("span");
      mark.className = "amark";
      mark.dataset.verdict = verdict;
      let text = w[verdict];
      if (this.game === "reversi") text = fill(_("lost %(n)s discs"), { n: p.move.lost });
      mark.title = text;
      mark.innerHTML = `<span aria-hidden="true">${this.game === "reversi" ? `\u2212${p.move.lost}` : SIGNS[verdict]}</span>`
        + `<span class="visually-hidden">, ${text}</span>`;
      a.append(mark);
    }
  }

  summary() {
    const list = this.el.q("analysis-summary");
    list.innerHTML = "";
    const labels = this.data.labels;
    for (const side of ["X", "O"]) {
      const mine = this.result.plies.filter((p) => p.move && p.move.side === side);
      const count = (v) => mine.filter((p) => p.move.verdict === v).length;
      let text;
      if (this.game === "reversi") {
        const lost = mine.reduce((sum, p) => sum + (p.move.lost || 0), 0);
        // A game over before its last EXACT_EMPTIES squares has no endgame to judge: say so,
        // not "0 endgame moves lost discs" (new-user trial).
        text = hasEndgame(this.result.plies)
          ? fill(_("%(side)s: %(mistakes)s endgame moves lost discs, %(lost)s discs in all"),
            { side: labels[side], mistakes: count("mistake") + count("blunder"), lost })
          : fill(_("%(side)s: the game ended before its last 20 empty squares, so there is no endgame to check"),
            { side: labels[side] });
      } else {
        const missed = mine.filter((p) => p.move.missed).length;
        const allowed = count("allowed");
        text = fill(_("%(side)s: %(missed)s, %(allowed)s"), {
          side: labels[side],
          missed: fill(n_("%(n)s missed win", "%(n)s missed wins", missed), { n: missed }),
          allowed: fill(n_("%(n)s forced loss allowed", "%(n)s forced losses allowed", allowed), { n: allowed }),
        });
      }
      const li = document.createElement("li");
      li.dataset.side = side;
      li.textContent = text;
      list.append(li);
    }
  }

  /** Called by record.js after it drew ply `ply`. */
  update(ply) {
    this.ply = ply;
    if (!this.result) return;
    if (this.lineView) this.closeLine(false);
    this.decorate(ply);
    const now = this.el.q("analysis-graph").querySelector(".eg-now");
    if (now) {
      const x = plyX(ply, this.result.total).toFixed(1);
      now.setAttribute("x1", x);
      now.setAttribute("x2", x);
    }
    this.el.q("analysis-verdict").textContent = this.verdictText(ply);
    const line = this.lineAt(ply);
    this.el.q("line-controls").hidden = !line;
  }

  /** Marks on the board at `ply`: the marked moves' stones, and Reversi's exact values. */
  decorate(ply) {
    const marked = new Map();
    for (const p of this.result.plies.slice(1, ply + 1)) {
      if (MARKED.includes(p.move.verdict)) marked.set(p.move.square, p.move.verdict);
    }
    const here = this.result.plies[ply];
    const exact = here && here.exact ? here.exact : null;
    const best = exact ? Math.max(...Object.values(exact)) : null;
    for (const [sq, el] of this.squares) {
      if (marked.has(sq)) el.dataset.mark = marked.get(sq);
      else delete el.dataset.mark;
      el.querySelector(".ev")?.remove();
      delete el.dataset.best;
      if (exact && sq in exact) {
        const ev = document.createElement("i");
        ev.className = "ev";
        ev.textContent = signed(exact[sq]);
        el.append(ev);
        if (exact[sq] === best) el.dataset.best = "1";
        el.parentElement.setAttribute("aria-label", `${el.parentElement.getAttribute("aria-label")}, ${
          fill(_("exact result %(value)s"), { value: signed(exact[sq]) })}`);
      }
    }
  }

  verdictText(ply) {
    const r = this.result;
    const here = r.plies[ply];
    const labels = this.data.labels;
    const w = words();
    const out = [];
    const mv = here.move;
    if (mv) {
      const head = fill(_("Move %(n)s, %(side)s %(square)s"), { n: ply, side: labels[mv.side], square: mv.square });
      if (this.game === "reversi") {
        if (mv.verdict === "best") out.push(`${head}: ${fill(_("one of the best moves (%(value)s with perfect play)."), { value: signed(r.plies[ply - 1].exact[mv.square]) })}`);
        else if (mv.verdict) {
          out.push(`${head}: ${fill(_("lost %(n)s discs against perfect play; the best was %(best)s (%(value)s)."),
            { n: mv.lost, best: mv.best.join(", "), value: signed(mv.lost + r.plies[ply - 1].exact[mv.square]) })}`);
        }
      } else if (mv.verdict === "missed" || mv.verdict === "allowed") {
        const other = mv.side === "X" ? "O" : "X";
        const detail = mv.verdict === "missed"
          ? fill(_("%(side)s had a forced win (%(kind)s) starting with %(first)s."),
            { side: labels[mv.side], kind: w[r.plies[ply - 1].win.kind], first: r.plies[ply - 1].win.line[0] })
          : fill(_("After it %(side)s has a forced win (%(kind)s) starting with %(first)s."),
            { side: labels[other], kind: w[here.win.kind], first: here.win.line[0] });
        let text = `${head}: ${w[mv.verdict]}. ${detail}`;
        if (mv.verdict === "allowed" && mv.missed) text += ` ${_("It also missed a win of its own.")}`;
        out.push(text);
      } else if (mv.verdict === "decisive") {
        out.push(`${head}: ${w.decisive}. ${fill(_("From this move on %(side)s kept a forced win to the end."), { side: labels[mv.side] })}`);
      } else if (mv.verdict === "kept") {
        out.push(`${head}: ${fill(_("%(side)s keeps its forced win."), { side: labels[mv.side] })}`);
      }
    }
    if (!here.over) {
      if (this.game === "reversi") {
        if (here.exact) {
          out.push(fill(_("With perfect play from here: %(side)s %(value)s discs. Each legal move shows its exact result."),
            { side: labels.X, value: signed(here.score) }));
        } else if (here.score !== null) {
          out.push(fill(_("The computer's estimate: %(side)s %(value)s discs."), { side: labels.X, value: signed(Math.round(here.score)) }));
        }
      } else if (here.win && !(mv && (mv.verdict === "allowed"))) {
        out.push(fill(_("%(side)s, to move, has a forced win (%(kind)s) starting with %(first)s."),
          { side: labels[here.turn], kind: w[here.win.kind], first: here.win.line[0] }));
      } else if (!here.win && here.score !== null && !(mv && mv.verdict === "decisive")) {
        out.push(fill(_("No forced win found for %(side)s, to move."), { side: labels[here.turn] }));
      }
    }
    return out.join(" ");
  }

  // -- the forced line ------------------------------------------------------------------------

  /** The line shown for ply `ply`: {from, line} (the move's own line, else the position's win). */
  lineAt(ply) {
    if (this.game !== "caro") return null;
    const here = this.result.plies[ply];
    const mv = here.move;
    if (mv && mv.line && (mv.verdict === "missed" || mv.verdict === "allowed" || mv.verdict === "decisive")) {
      return { from: mv.lineFrom, line: mv.line };
    }
    if (here.win) return { from: ply, line: here.win.line };
    return null;
  }

  openLine() {
    const found = this.lineAt(this.ply);
    if (!found) return;
    const attacker = this.result.plies[found.from].turn;
    this.lineView = { ...found, attacker, step: found.line.length };
    this.el.q("line-toggle").textContent = _("Hide the line");
    this.el.q("line-toggle").setAttribute("aria-pressed", "true");
    this.el.q("line-steps").hidden = false;
    this.root.dataset.lineView = "1";
    this.paintLine();
  }

  closeLine(redraw = true) {
    this.lineView = null;
    this.el.q("line-toggle").textContent = _("Show the line");
    this.el.q("line-toggle").setAttribute("aria-pressed", "false");
    this.el.q("line-steps").hidden = true;
    delete this.root.dataset.lineView;
    if (redraw) this.go(this.ply);
  }

  paintLine() {
    const { from, line, attacker, step } = this.lineView;
    this.paint(from);
    const defender = attacker === "X" ? "O" : "X";
    const labels = this.data.labels;
    line.slice(0, step).forEach((sq, j) => {
      const el = this.squares.get(sq);
      if (!el) return;
      const side = j % 2 === 0 ? attacker : defender;
      el.dataset.stone = this.data.shown[side];
      el.dataset.line = j === step - 1 ? "last" : "1";
      el.classList.remove("last");
      el.innerHTML = `<i class="ln">${j + 1}</i>`;
      el.parentElement.setAttribute("aria-label", `${sq}, ${labels[side]}, ${fill(_("move %(n)s of the line"), { n: j + 1 })}`);
    });
    this.el.q("line-count").textContent = fill(_("Line: move %(n)s of %(total)s"), { n: step, total: line.length });
  }
}
