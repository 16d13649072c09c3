"""Fit the pattern tables of Reversi Hard's evaluation (static/js/computer/reversi/patterns.js).

Usage (from the repository root; numpy)::

    nice -n 19 .venv/bin/python bench/reversi_pattern_fit.py ~/caro-gate/reversi-tune/positions-*.txt

Reads the positions of bench/reversi_pattern_data.py (side to move's discs, the other side's, the
judge's expected final disc difference) and fits, per phase (PHASES by discs on the board), a
value for every configuration of every pattern (each square empty / the side to move's / the
other side's: index = sum of 3**i * state of the i-th square) and two linear terms (mobility
difference, parity), by ridge least squares (conjugate gradients on the normal equations). Every
pattern's instances share one table; the instances are images of each other under the board's
symmetries, their squares listed in corresponding order. Each phase trains on the positions within
PHASE_MARGIN discs of it too (neighbouring phases stay close). Prints per phase the positions, the
fit's RMS error on the training positions and on held-out ones (every HOLD-th position), and writes
static/js/computer/reversi/weights.js: the tables as int8 in units of a per-table step,
base64. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "static" / "js" / "computer" / "reversi" / "weights.js"

PHASES = 8  # phase = min(PHASES - 1, (discs - 4) // PHASE_DISCS)
PHASE_DISCS = 8
PHASE_MARGIN = 3
RIDGE = 3.0  # per table entry, in squared discs per position
HOLD = 10


def sq(col: int, row: int) -> int:
    return col + 8 * row


def flip_v(s: int) -> int:
    return sq(s % 8, 7 - s // 8)


def mirror(s: int) -> int:
    return sq(7 - s % 8, s // 8)


def transpose(s: int) -> int:
    return sq(s // 8, s % 8)


def line_instances(squares: list[int]) -> list[list[int]]:
    """A row pattern (listed along a row from column a), its vertical flip and both transposes."""
    a = squares
    b = [flip_v(s) for s in a]
    return [a, b, [transpose(s) for s in a], [transpose(s) for s in b]]


def corner_instances(squares: list[int]) -> list[list[int]]:
    """A pattern at corner a1, at h1 (mirror), a8 (vertical flip) and h8 (both)."""
    return [squares, [mirror(s) for s in squares], [flip_v(s) for s in squares],
            [flip_v(mirror(s)) for s in squares]]


def patterns() -> list[tuple[str, list[list[int]]]]:
    """(name, instances): the order of patterns.js's PATTERNS (its fast indexes follow these lists)."""
    out = []
    for name, row in (("hv2", 1), ("hv3", 2), ("hv4", 3)):
        out.append((name, line_instances([sq(c, row) for c in range(8)])))
    out.append(("d8", [[sq(i, i) for i in range(8)], [sq(7 - i, i) for i in range(8)]]))
    for s in (1, 2, 3, 4):
        first = [sq(s + i, i) for i in range(8 - s)]
        out.append((f"d{8 - s}", corner_instances(first)))
    out.append(("edge2x", [[sq(c, 0) for c in range(8)] + [sq(1, 1), sq(6, 1)],
                           [sq(c, 7) for c in range(8)] + [sq(1, 6), sq(6, 6)],
                           [sq(0, r) for r in range(8)] + [sq(1, 1), sq(1, 6)],
                           [sq(7, r) for r in range(8)] + [sq(6, 1), sq(6, 6)]]))
    out.append(("corner3x3", corner_instances([sq(c, r) for r in range(3) for c in range(3)])))
    return out


def read(paths: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    me, opp, val = [], [], []
    for p in paths:
        with open(os.path.expanduser(p)) as f:
            for line in f:
                parts = line.split()
                if len(parts) != 3:
                    continue
                me.append(int(parts[0], 16))
                opp.append(int(parts[1], 16))
                val.append(int(parts[2]))
    return (np.array(me, dtype=np.uint64), np.array(opp, dtype=np.uint64), np.array(val, dtype=np.float64))


def bits(boards: np.ndarray) -> np.ndarray:
    """(N, 64) 0/1 of uint64 boards, bit i = square i."""
    return ((boards[:, None] >> np.arange(64, dtype=np.uint64)) & np.uint64(1)).astype(np.int64)


def legal(me: np.ndarray, opp: np.ndarray) -> np.ndarray:
    """(N,) uint64 legal-move boards of `me` (the usual shift-and-mask generator, vectorised)."""
    full = np.uint64(0xFFFFFFFFFFFFFFFF)
    inner = opp & np.uint64(0x7E7E7E7E7E7E7E7E)
    empty = ~(me | opp) & full
    moves = np.zeros_like(me)
    for shift, mask in ((1, inner), (8, opp), (7, inner), (9, inner)):
        s = np.uint64(shift)
        t = mask & (me << s)
        for _ in range(5):
            t |= mask & (t << s)
        moves |= t << s
        t = mask & (me >> s)
        for _ in range(5):
            t |= mask & (t >> s)
        moves |= t >> s
    return moves & empty


def popcount(b: np.ndarray) -> np.ndarray:
    return bits(b).sum(axis=1)


def design(me: np.ndarray, opp: np.ndarray, pats) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Column indexes (N, instances) into one weight vector (tables one after another) and the
    linear features (N, 2): mobility difference, parity (+1 with an odd number of empties)."""
    state = bits(me) + 2 * bits(opp)
    cols, offsets, off = [], [], 0
    for _, insts in pats:
        n = len(insts[0])
        pow3 = 3 ** np.arange(n)
        offsets.append(off)
        for inst in insts:
            cols.append(off + state[:, inst] @ pow3)
        off += 3 ** n
    offsets.append(off)
    mob = popcount(legal(me, opp)) - popcount(legal(opp, me))
    empties = 64 - popcount(me | opp)
    lin = np.stack([mob, np.where(empties % 2 == 1, 1, -1)], axis=1).astype(np.float64)
    return np.stack(cols, axis=1), lin, offsets


def fit(cols: np.ndarray, lin: np.ndarray, y: np.ndarray, size: int, ridge: float, iters: int = 300):
    """Ridge least squares by conjugate gradients: weights (size,), linear (2,), bias."""
    n = len(y)
    flat = cols.ravel()
    k = cols.shape[1]

    def apply(w):  # A w
        return w[:size][cols].sum(axis=1) + lin @ w[size:size + 2] + w[-1]

    def apply_t(r):  # A^T r
        g = np.bincount(flat, weights=np.repeat(r, k), minlength=size)
        return np.concatenate([g, lin.T @ r, [r.sum()]])

    reg = np.full(size + 3, ridge)
    reg[size:] = 1e-6

    def normal(w):
        return apply_t(apply(w)) + reg * w

    w = np.zeros(size + 3)
    b = apply_t(y)
    r = b - normal(w)
    p = r.copy()
    rs = r @ r
    for _ in range(iters):
        ap = normal(p)
        alpha = rs / (p @ ap)
        w += alpha * p
        r -= alpha * ap
        rs_new = r @ r
        if rs_new < 1e-10 * (b @ b):
            break
        p = r + (rs_new / rs) * p
        rs = rs_new
    return w, apply


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--ridge", type=float, default=RIDGE)
    parser.add_argument("--iters", type=int, default=300)
    parser.add_argument("--phases", type=int, default=PHASES)
    parser.add_argument("--phase-discs", type=int, default=PHASE_DISCS)
    parser.add_argument("--margin", type=int, default=PHASE_MARGIN)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    me, opp, y = read(args.files)
    pats = patterns()
    cols, lin, offsets = design(me, opp, pats)
    size = offsets[-1]
    discs = popcount(me | opp)
    phases, width = args.phases, args.phase_discs
    phase = np.minimum(phases - 1, (discs - 4) // width)
    held = (np.arange(len(y)) % HOLD) == 0
    print(f"{len(y)} positions, {size} table entries a phase")
    tables, linear = [], []
    for p in range(phases):
        lo = 4 + p * width - args.margin
        hi = (4 + (p + 1) * width - 1 if p < phases - 1 else 64) + args.margin
        train = (discs >= lo) & (discs <= hi) & ~held
        test = (phase == p) & held
        w, _ = fit(cols[train], lin[train], y[train], size, args.ridge, args.iters)

        def predict(mask):
            return w[:size][cols[mask]].sum(axis=1) + lin[mask] @ w[size:size + 2] + w[-1]

        rms_train = np.sqrt(np.mean((predict(train) - y[train]) ** 2))
        rms_test = np.sqrt(np.mean((predict(test) - y[test]) ** 2)) if test.any() else float("nan")
        base = np.sqrt(np.mean(y[test] ** 2)) if test.any() else float("nan")
        print(f"phase {p} (discs {max(lo, 4)}-{min(hi, 64)}): {train.sum()} positions, rms train {rms_train:.2f}, "
              f"held-out {rms_test:.2f} (of {base:.2f}) discs", flush=True)
        tables.append(w[:size])
        linear.append([float(w[size]), float(w[size + 1]), float(w[-1])])
    write(args.out, pats, offsets, tables, linear, len(y), width)
    return 0


def write(path: Path, pats, offsets, tables, linear, n_positions: int, phase_discs: int) -> None:
    """patterns.js's data: per phase and pattern an int8 table and its step (evaluation units)."""
    scale = 100  # evaluation units per disc (evaluation.js SCALE)
    blobs, steps = [], []
    for table in tables:
        phase_steps = []
        for i in range(len(pats)):
            t = table[offsets[i]:offsets[i + 1]] * scale
            step = max(1, int(np.ceil(np.abs(t).max() / 127)))
            q = np.clip(np.round(t / step), -127, 127).astype(np.int8)
            blobs.append(q.tobytes())
            phase_steps.append(step)
        steps.append(phase_steps)
    data = base64.b64encode(b"".join(blobs)).decode()
    lin = [[round(v * scale) for v in row] for row in linear]
    text = (
        "// Generated by bench/reversi_pattern_fit.py (do not edit): the pattern tables of Reversi Hard's\n"
        f"// evaluation, fitted on {n_positions} positions scored by Egaroucid (bench/reversi_pattern_data.py), per\n"
        "// phase and pattern an int8 table (3**squares entries) times its step, in evaluation units.\n"
        f"export const PATTERN_SQUARES = {json.dumps([[name, insts] for name, insts in pats])};\n"
        f"export const PHASES = {len(tables)};\n"
        f"export const PHASE_DISCS = {phase_discs};\n"
        f"export const STEPS = {json.dumps(steps)};\n"
        "// per phase: mobility difference, parity (+ with an odd number of empties), bias\n"
        f"export const LINEAR = {json.dumps(lin)};\n"
        f'export const TABLES = "{data}";\n'
    )
    path.write_text(text)
    print(f"wrote {path} ({len(text)} bytes)")


if __name__ == "__main__":
    raise SystemExit(main())
