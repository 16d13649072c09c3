// The evaluation graph of an analysis as SVG markup (a pure function: the page puts it in, the
// tests read it). X axis: the plies 0..total; Y axis: the computer's score for X (Black in
// Reversi) squashed into [-1, 1] (verdicts.js), X's advantage up. The area above the middle line
// takes X's colour, below it O's; the marked moves get a dot (data-ply, data-verdict), the ply
// shown a vertical line. It scales to its box (viewBox, width 100 %), and stays readable from
// 360 px wide: strokes do not scale (vector-effect), and no text is drawn inside it.

/** Size of the drawing in its own units (the page sets the CSS height). */
export const WIDTH = 600;
export const HEIGHT = 150;
const PAD = 6;

const esc = (text) => String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

/** The x (drawing units) of ply `ply` of `total`. */
export function plyX(ply, total) {
  return total ? (ply / total) * WIDTH : WIDTH / 2;
}

/** The ply nearest to x (a fraction 0..1 of the width) on a graph of `total` plies. */
export function plyAt(fraction, total) {
  return Math.max(0, Math.min(total, Math.round(fraction * total)));
}

function y(value) {
  return PAD + ((1 - value) / 2) * (HEIGHT - 2 * PAD);
}

/**
 * SVG markup of the graph. `values`: the graph value of each ply (null where unknown: drawn as
 * the middle); `marks`: [{ply, verdict}] (dots); `ply`: the ply shown; `label`: the SVG's
 * accessible name.
 */
export function graphSvg({ values, marks = [], ply = null, label = "" }) {
  const total = values.length - 1;
  const pts = values.map((v, i) => `${plyX(i, total).toFixed(1)},${y(v ?? 0).toFixed(1)}`);
  const mid = y(0).toFixed(1);
  const area = `M0,${mid} L${pts.join(" L")} L${WIDTH},${mid} Z`;
  const parts = [
    `<svg class="eval-graph" viewBox="0 0 ${WIDTH} ${HEIGHT}" preserveAspectRatio="none" width="100%" height="100%"`,
    ` role="img" aria-label="${esc(label)}" xmlns="http://www.w3.org/2000/svg">`,
    `<defs><clipPath id="eg-up"><rect x="0" y="0" width="${WIDTH}" height="${mid}"/></clipPath>`,
    `<clipPath id="eg-down"><rect x="0" y="${mid}" width="${WIDTH}" height="${HEIGHT}"/></clipPath></defs>`,
    `<rect class="eg-bg" x="0" y="0" width="${WIDTH}" height="${HEIGHT}"/>`,
    `<path class="eg-x" d="${area}" clip-path="url(#eg-up)"/>`,
    `<path class="eg-o" d="${area}" clip-path="url(#eg-down)"/>`,
    `<line class="eg-mid" x1="0" y1="${mid}" x2="${WIDTH}" y2="${mid}" vector-effect="non-scaling-stroke"/>`,
    `<polyline class="eg-line" points="${pts.join(" ")}" fill="none" vector-effect="non-scaling-stroke"/>`,
  ];
  if (ply !== null) {
    const x = plyX(ply, total).toFixed(1);
    parts.push(`<line class="eg-now" x1="${x}" y1="0" x2="${x}" y2="${HEIGHT}" vector-effect="non-scaling-stroke"/>`);
  }
  for (const m of marks) {
    const x = plyX(m.ply, total).toFixed(1);
    const v = values[m.ply] ?? 0;
    parts.push(`<line class="eg-dot" data-ply="${m.ply}" data-verdict="${esc(m.verdict)}" x1="${x}" y1="${y(v).toFixed(1)}"`
      + ` x2="${x}" y2="${y(v).toFixed(1)}" vector-effect="non-scaling-stroke"/>`);
  }
  parts.push("</svg>");
  return parts.join("");
}
