"""Compiled hot path of :class:`~bench.pybots.fastboard.FastBoard`: placing / removing a stone and
re-classifying the line windows around it (numba, ``cache=True``).

Internal only. The board's whole incremental state lives in ONE flat ``int64`` array ``st`` so
a call unboxes few arguments; the Python side keeps views of its parts (see :func:`layout`).
Offsets for a board of ``NC`` padded cells:

=============  ===========  ==========================================================
part           offset       shape
=============  ===========  ==========================================================
cells          0            ``NC`` (0 empty, 1 X, 2 O, 3 edge)
codes          ``NC``       ``4 x NC`` (packed window class per direction, see fastboard)
score          ``5 NC``     ``3 x NC`` (row 0 unused)
total          ``8 NC``     3 (+5 padding)
cnt            ``8 NC + 8`` ``3 x 8 x NC`` (lines on which a side makes class k at a cell)
nearc          ``32 NC + 8`` ``NC`` (stones within distance 2)
keys           ``33 NC + 8`` ``4 x NC`` (window key per direction, kept up to date)
=============  ===========  ==========================================================

``geo`` (also ``int64``): ``[NC, H, s0, s1, s2, s3, 0, 0]``, then ``near`` (``NC x 24``, -1
padded), then the eight class weights.

The window classes themselves are NOT computed here: the kernel looks window keys up in an
open-addressing table (``mkeys``/``mvals``, filled from the rule-aware Python classifier
:meth:`bench.pybots.fastboard._Patterns.code`, which asks the engine's :func:`run_wins`). On a
miss the kernel changes nothing but the stone itself (its cell, the neighbour counts, the window
keys) and reports the missing keys; the caller
fills them in and calls again with ``s = -1`` (refresh only). So the rules stay written once.

Results come back in ``out`` and a packed return value ``ns | nmiss << 48``: ``out[0:ns]``
threat-set changes ``((s * 8 + k) << 10 | q) << 1 | added`` (net: at most one per side, class
and cell; a cell index fits 10 bits on every board size), ``out[M:M+nmiss]`` window keys missing
from the table (``M`` = :data:`OUT_MISS`). The candidate cells (empty, ``nearc > 0``) are read
from ``st`` by the caller.
"""

from __future__ import annotations

from . import nbclock  # noqa: F401 (first: it sets numba's cache folder)

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

THREE_CLASS = 4  # fastboard.THREE: classes from here on are kept in threat sets
OUT_MISS, OUT_LEN = 4096, 4096 + 512
NEAR = 24  # cells within distance 2 (5 x 5 minus the centre)
EMPTY_KEY = -1


def layout(nc: int) -> dict[str, int]:
    """Offsets of the parts of ``st`` for ``nc`` padded cells (see the module docstring)."""
    return {"cells": 0, "codes": nc, "score": 5 * nc, "total": 8 * nc, "cnt": 8 * nc + 8,
            "nearc": 32 * nc + 8, "keys": 33 * nc + 8, "len": 37 * nc + 8}


@njit(cache=True, inline="always")
def _slot(key, m):
    return ((key ^ (key >> 13)) * 2654435761 >> 7) & m


@njit(cache=True)
def memo_get(mkeys, mvals, key):
    """The stored code of window ``key``, or -1."""
    m = mkeys.shape[0] - 1
    i = _slot(key, m)
    while True:
        k = mkeys[i]
        if k == key:
            return mvals[i]
        if k == EMPTY_KEY:
            return -1
        i = (i + 1) & m


@njit(cache=True)
def memo_put(mkeys, mvals, keys, vals):
    """Store ``vals[i]`` for ``keys[i]`` (the table must have room)."""
    m = mkeys.shape[0] - 1
    for j in range(keys.shape[0]):
        key = keys[j]
        i = _slot(key, m)
        while mkeys[i] != EMPTY_KEY and mkeys[i] != key:
            i = (i + 1) & m
        mkeys[i] = key
        mvals[i] = vals[j]


@njit(cache=True, inline="always")
def _key(st, q, step, H):
    """Window key of cell ``q`` along ``step``: cell ``q + (j - H) * step`` in bits ``2j``, the
    edge (3) beyond the board."""
    key = 0
    c = q
    j = H
    while j > 0:
        c -= step
        if c < 0:  # above the top-left corner (diagonal from row 1, column A)
            break
        v = st[c]
        if v == 3:
            break
        j -= 1
        key |= v << (2 * j)
    while j > 0:  # off the board on the low side
        j -= 1
        key |= 3 << (2 * j)
    c = q
    j = H
    while j < 2 * H:
        c += step
        v = st[c]
        if v == 3:
            break
        j += 1
        key |= v << (2 * j)
    while j < 2 * H:
        j += 1
        key |= 3 << (2 * j)
    return key


@njit(cache=True)
def move(st, geo, mkeys, mvals, out, q, s):
    """Place ``s`` (1/2) on empty ``q``, remove the stone on ``q`` (``s == 0``) or only refresh
    around ``q`` (``s == -1``); then re-classify ``q`` and the empty cells within ``H`` of it on
    its four lines. Returns the packed counts (module docstring)."""
    nc = geo[0]
    H = geo[1]
    o_codes = nc
    o_score = 5 * nc
    o_total = 8 * nc
    o_cnt = 8 * nc + 8
    o_near = 32 * nc + 8
    g_near = 8
    g_w = 8 + nc * NEAR
    o_keys = 33 * nc + 8
    if s >= 0:
        st[q] = s
        inc = 1 if s > 0 else -1
        for k in range(NEAR):
            nb = geo[g_near + q * NEAR + k]
            if nb < 0:
                break
            st[o_near + nb] += inc
        # the window keys that hold q: q sits at index H - t of the window of q + t * step
        for d in range(4):
            step = geo[2 + d]
            base = o_keys + d * nc
            st[base + q] = (st[base + q] & ~(3 << (2 * H))) | (s << (2 * H))
            for sgn in (1, -1):
                c = q
                for t in range(1, H + 1):
                    c += sgn * step
                    if c < 0 or st[c] == 3:
                        break
                    j = 2 * (H - sgn * t)
                    st[base + c] = (st[base + c] & ~(3 << j)) | (s << j)
    # pass 1: the new code of every affected (direction, cell); stop on misses
    cq = np.empty(4 * (2 * H + 1), np.int64)
    cd = np.empty(4 * (2 * H + 1), np.int64)
    cv = np.empty(4 * (2 * H + 1), np.int64)
    n = 0
    nmiss = 0
    for d in range(4):
        step = geo[2 + d]
        for t in range(3):
            if t == 0:
                if st[q] != 0:
                    cq[n] = q
                    cd[n] = d
                    cv[n] = 0
                    n += 1
                    continue
                lim = 1
                sgn = 0
            else:
                lim = H
                sgn = step if t == 1 else -step
            c = q
            for _ in range(lim):
                c += sgn
                if c < 0:
                    break
                v = st[c]
                if v == 3:
                    break
                if v != 0:
                    continue
                key = st[o_keys + d * nc + c]
                code = memo_get(mkeys, mvals, key)
                if code < 0:
                    out[OUT_MISS + nmiss] = key
                    nmiss += 1
                    continue
                cq[n] = c
                cd[n] = d
                cv[n] = code
                n += 1
    if nmiss:
        return nmiss << 48
    # pass 2: apply the changes
    ns = 0
    for i in range(n):
        c = cq[i]
        d = cd[i]
        new = cv[i]
        old = st[o_codes + d * nc + c]
        if new == old:
            continue
        st[o_codes + d * nc + c] = new
        for side in range(1, 3):
            shift = 0 if side == 1 else 3
            co = (old >> shift) & 7
            cn = (new >> shift) & 7
            if co == cn:
                continue
            delta = geo[g_w + cn] - geo[g_w + co]
            st[o_score + side * nc + c] += delta
            st[o_total + side] += delta
            if co >= THREE_CLASS:
                j = o_cnt + (side * 8 + co) * nc + c
                st[j] -= 1
                if st[j] == 0:
                    out[ns] = ((side * 8 + co) << 10 | c) << 1
                    ns += 1
            if cn >= THREE_CLASS:
                j = o_cnt + (side * 8 + cn) * nc + c
                st[j] += 1
                if st[j] == 1:
                    out[ns] = ((side * 8 + cn) << 10 | c) << 1 | 1
                    ns += 1
    # net changes only: an add and a remove of the same (side, class, cell) cancel
    if ns > 1:
        k = 0
        for i in range(ns):
            e = out[i]
            hit = -1
            for j in range(k):
                if out[j] >> 1 == e >> 1:
                    hit = j
                    break
            if hit >= 0:
                k -= 1
                out[hit] = out[k]
            else:
                out[k] = e
                k += 1
        ns = k
    return ns


@njit(cache=True)
def init_keys(st, geo, reals):
    """Compute every real cell's four window keys from the cells (a board's first set-up)."""
    nc = geo[0]
    H = geo[1]
    o_keys = 33 * nc + 8
    for d in range(4):
        step = geo[2 + d]
        for i in range(reals.shape[0]):
            c = reals[i]
            st[o_keys + d * nc + c] = _key(st, c, step, H)


@njit(cache=True)
def block_candidates(st, geo, a, blocked, win_length, cand):
    """The cells that may stop ``a``'s five-threats with one stone, into ``cand``, ascending;
    returns how many. Every cell where ``a`` would make a five (``cnt`` class FIVE) and, when
    ``blocked`` (blocked ends: a run closed at both ends does not win), the empty cells just
    beyond each would-be run of at least ``win_length`` stones through one of them (the walk of
    ``fastboard.run_ends``). The caller tries each (as ``FastBoard.defences`` does): the
    verdict is the pattern table's, so no rule is decided here."""
    nc = geo[0]
    o5 = 8 * nc + 8 + (a * 8 + 7) * nc
    n = 0
    for z in range(nc):
        if st[o5 + z] > 0 and st[z] == 0:
            cand[n] = z
            n += 1
    nf = n
    if blocked:
        for i in range(nf):
            z = cand[i]
            for d in range(4):
                step = geo[2 + d]
                lo = z - step
                while lo >= 0 and st[lo] == a:
                    lo -= step
                hi = z + step
                while st[hi] == a:
                    hi += step
                if (hi - lo) // step - 1 >= win_length:
                    for e in (lo, hi):
                        if e >= 0 and st[e] == 0:
                            dup = False
                            for j in range(n):
                                if cand[j] == e:
                                    dup = True
                                    break
                            if not dup:
                                cand[n] = e
                                n += 1
    for i in range(1, n):  # ascending
        v = cand[i]
        j = i - 1
        while j >= 0 and cand[j] > v:
            cand[j + 1] = cand[j]
            j -= 1
        cand[j + 1] = v
    return n
