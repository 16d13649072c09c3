// The evaluation graph's SVG (static/js/analysis/graph.js).

import test from "node:test";
import assert from "node:assert/strict";

import { HEIGHT, WIDTH, graphSvg, plyAt, plyX } from "../../../static/js/analysis/graph.js";

test("one point per ply, X's advantage up, dots for the marks, a line at the ply shown", () => {
  const svg = graphSvg({ values: [0, 1, -1, null, 0.5], marks: [{ ply: 2, verdict: "allowed" }], ply: 1,
    label: 'Graph "X" & <O>' });
  const points = svg.match(/<polyline class="eg-line" points="([^"]+)"/)[1].split(" ");
  assert.equal(points.length, 5);
  const [x1, y1] = points[1].split(",").map(Number);
  const [, y2] = points[2].split(",").map(Number);
  const [, y3] = points[3].split(",").map(Number);
  assert.equal(x1, WIDTH / 4);
  assert.ok(y1 < HEIGHT / 2 && y2 > HEIGHT / 2, "X up, O down");
  assert.equal(y3, HEIGHT / 2, "an unknown value is drawn in the middle");
  assert.match(svg, /<line class="eg-dot" data-ply="2" data-verdict="allowed"/);
  assert.match(svg, new RegExp(`class="eg-now" x1="${(WIDTH / 4).toFixed(1)}"`));
  assert.match(svg, /aria-label="Graph &quot;X&quot; &amp; &lt;O&gt;"/);
  assert.match(svg, /role="img"/);
});

test("a click's place on the width gives the nearest ply", () => {
  assert.equal(plyAt(0, 60), 0);
  assert.equal(plyAt(1, 60), 60);
  assert.equal(plyAt(0.5, 60), 30);
  assert.equal(plyAt(0.509, 60), 31);
  assert.equal(plyAt(-0.2, 60), 0);
  assert.equal(plyAt(1.3, 60), 60);
  assert.equal(plyX(30, 60), WIDTH / 2);
  assert.equal(plyAt(plyX(17, 60) / WIDTH, 60), 17);
});
