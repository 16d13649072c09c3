// The JS side of bench/public_match.py --postmortem: whether the browser computer's threat search
// (threatWin of static/js/computer/caro/index.js, the df-pn Hard uses in play) finds the side to
// move's forced win in a position, under several limits. Reads one JSON object a line on stdin:
// {rules, x, o, toMove, limits: [{depth, maxNodes, zone}, ...]} and prints one JSON line back:
// [{depth, maxNodes, zone, found, plies, nodes, timedOut, cpuMs}, ...] (a VCF first, then a VCT of
// fours and open threes; zone false: threes anywhere; cpuMs: this process's CPU time).

import readline from "node:readline";
import { threatWin } from "../../static/js/computer/caro/index.js";

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const job = JSON.parse(line);
  const out = [];
  for (const { depth, maxNodes, zone } of job.limits) {
    const t0 = cpuMs();
    const r = threatWin({ rules: job.rules, x: job.x, o: job.o, toMove: job.toMove }, { vct: true, depth, maxNodes, zone });
    out.push({ depth, maxNodes, zone, found: r.line !== null, plies: r.line ? r.line.length : 0, nodes: r.nodes,
      timedOut: r.timedOut, cpuMs: Math.round(cpuMs() - t0) });
  }
  console.log(JSON.stringify(out));
}
