"""Compiled threat search (numba, ``cache=True``): the df-pn VCF / VCT of
:class:`bench.pybots.threats.ThreatSearch` over the compiled board state of :mod:`.nbcore`.

Internal only; :class:`~bench.pybots.threats.ThreatSearch` dispatches here for every rule set but
Renju (Renju's foul test calls the engine in Python, so Renju keeps the Python search).

Node semantics are the Python ``dfpn``'s, move for move (same move sets, same order, same
thresholds; ``bench/pybots/tests/test_bots_nbthreats.py`` checks verdicts and node counts):

- attacker (OR) node: its five wins; facing a five-threat it plays the blocks after which it
  still has a five-threat (VCT: or an open-four cell); else with depth left its fours (winning
  shapes first, then by score) and, for a VCT with at least two moves left, its open threes
  (only those that stop the defender's own open three when it has one; after the first attacker
  move only within ``zone`` of its last two moves; the ``width`` best by shape);
- defender (AND) node: its own five refutes; facing a five-threat it plays the blocks (none:
  proven); facing an open three (VCT) every exact three defence (the rule-aware window table's
  verdict on the open-four cells' windows with the stone added) and its own fours;
- depth counts attacker moves; an attacker's block of a five-threat does not count.

Nothing about the rules is written here: classes come from the window table ``mkeys/mvals``
(filled by the rule-aware Python classifier), a block of a would-be five is verified by playing
it and re-classifying. The one rule input is ``blocked`` (1 when a five can be stopped at a far
end of its run, i.e. ``rules.blocked != "none"``) with ``win_length``: the candidate blocks are
then the five cells and the empty ends of the runs through them (as :meth:`FastBoard.defences`).

Memo misses: the kernel stops with status :data:`MISS`, undoes its moves and reports the missing
window keys; the caller classifies them (``fb.pat.fill``) and calls again. Node budget: it stops
with :data:`BUDGET` after ``budget`` nodes (numba has no clock; the caller checks its deadline
between calls). Either way the transposition table keeps what was learnt, so the next call
resumes cheaply from the root.

Transposition table: open addressing on the Zobrist hash (with the side to move and the
attacker folded in): ``tk`` keys (0 = empty), ``tpn``/``tdn`` (int32), ``tdep`` (the depth a
disproof holds for; for a proof the depth it needs: a VCF takes a stored proof only when the
depth left covers it, so its line stays within its cap), ``meta[0]`` entries stored. Bounded: a full probe run replaces a
non-proof entry; the caller clears the table when it is over :data:`TT_FILL` full.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .nbcore import OUT_MISS, block_candidates, memo_get, move

INF = 10 ** 9
DONE, BUDGET, MISS = 0, 1, 2
MAXPLY = 160  # plies of one line (a deeper node counts as disproven, never stored)
MAXM = 192  # children of one node (more are dropped)
PROBES = 8
TT_FILL = 0.6
FIVE_K, OPEN4_K, FOUR_K, THREE_K = 7, 6, 5, 4
BIG = 1 << 40
MISS_CAP = 512


def new_table(bits: int):
    """A fresh transposition table of ``2 ** bits`` slots: (tk, tpn, tdn, tdep, meta)."""
    n = 1 << bits
    return (np.zeros(n, np.int64), np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros(n, np.int16),
            np.zeros(2, np.int64))


def clear_table(table) -> None:
    """Empty a table made by :func:`new_table`."""
    table[0][:] = 0
    table[4][0] = 0


@njit(cache=True, inline="always")
def _tslot(key, mask):
    return ((key ^ (key >> 29)) * 0x9E3779B1 >> 11) & mask


@njit(cache=True)
def tt_get(tk, key):
    """Slot index of ``key`` or -1."""
    if key == 0:
        key = 1
    mask = tk.shape[0] - 1
    i = _tslot(key, mask)
    for _ in range(PROBES):
        k = tk[i]
        if k == key:
            return i
        if k == 0:
            return -1
        i = (i + 1) & mask
    return -1


@njit(cache=True)
def _tt_put(tk, tpn, tdn, tdep, meta, key, pn, dn, dep):
    if key == 0:
        key = 1
    mask = tk.shape[0] - 1
    i = _tslot(key, mask)
    victim = -1
    for _ in range(PROBES):
        k = tk[i]
        if k == key:
            tpn[i] = pn
            tdn[i] = dn
            tdep[i] = dep
            return
        if k == 0:
            tk[i] = key
            tpn[i] = pn
            tdn[i] = dn
            tdep[i] = dep
            meta[0] += 1
            return
        if victim < 0 and tpn[i] != 0:
            victim = i
        i = (i + 1) & mask
    if victim < 0:
        victim = _tslot(key, mask)
    tk[victim] = key
    tpn[victim] = pn
    tdn[victim] = dn
    tdep[victim] = dep


@njit(cache=True)
def scan_sizes(st, nc, reals, sizes):
    """``sizes[s * 8 + k]``: number of cells where side ``s`` makes class ``k`` (k >= THREE)."""
    o_cnt = 8 * nc + 8
    for i in range(24):
        sizes[i] = 0
    for s in range(1, 3):
        for k in range(4, 8):
            base = o_cnt + (s * 8 + k) * nc
            n = 0
            for c in reals:
                if st[base + c] > 0:
                    n += 1
            sizes[s * 8 + k] = n


@njit(cache=True)
def _put(st, geo, mkeys, mvals, out, q, s, sizes, miss, res):
    """Place ``s`` on ``q`` (``s = 0``: remove) and keep ``sizes``; False on a window-table miss
    (then nothing changed; the missing keys are added to ``miss``)."""
    r = move(st, geo, mkeys, mvals, out, q, s)
    nm = r >> 48
    if nm:
        k = res[4]
        for i in range(nm):
            if k < miss.shape[0]:
                miss[k] = out[OUT_MISS + i]
                k += 1
        res[4] = k
        if s > 0:
            move(st, geo, mkeys, mvals, out, q, 0)  # the old keys are all in the table
        return False
    ns = r & 0xFFFF
    for i in range(ns):
        e = out[i]
        if e & 1:
            sizes[e >> 11] += 1
        else:
            sizes[e >> 11] -= 1
    return True


@njit(cache=True)
def _sort(mv, key, lo, hi):
    """Insertion sort of ``mv[lo:hi]`` by (``key``, cell) ascending (``key`` sorted along)."""
    for i in range(lo + 1, hi):
        m = mv[i]
        k = key[i]
        j = i - 1
        while j >= lo and (key[j] > k or (key[j] == k and mv[j] > m)):
            mv[j + 1] = mv[j]
            key[j + 1] = key[j]
            j -= 1
        mv[j + 1] = m
        key[j + 1] = k


@njit(cache=True)
def _cells(st, nc, reals, s, k, buf):
    """Cells where ``s`` makes class ``k`` into ``buf``, ascending; their count."""
    base = 8 * nc + 8 + (s * 8 + k) * nc
    n = 0
    for c in reals:
        if st[base + c] > 0:
            buf[n] = c
            n += 1
    return n


@njit(cache=True)
def _defences(st, geo, mkeys, mvals, out, reals, sizes, a, blocked, L, buf, tmp, miss, res):
    """Cells (ascending, into ``buf``) where the side not ``a`` stops every five of ``a`` with one
    stone: their count, -1 on a table miss. As :meth:`FastBoard.defences`."""
    n = block_candidates(st, geo, a, blocked, L, tmp)
    if blocked == 0:
        if n == 1:
            buf[0] = tmp[0]
            return 1
        return 0
    dside = 3 - a
    m = 0
    for i in range(n):
        c = tmp[i]
        if not _put(st, geo, mkeys, mvals, out, c, dside, sizes, miss, res):
            return -1
        ok = sizes[a * 8 + FIVE_K] == 0
        _put(st, geo, mkeys, mvals, out, c, 0, sizes, miss, res)
        if ok:
            buf[m] = c
            m += 1
    return m


@njit(cache=True)
def _three_defences(st, geo, mkeys, mvals, reals, a, buf, tmp, info, miss, res):
    """Cells (into ``buf``) where the side not ``a`` stops all of ``a``'s open-four cells with
    one stone: their count, -1 on a table miss. As :func:`bench.pybots.threats.three_defences`."""
    nc = geo[0]
    H = geo[1]
    o_keys = 33 * nc + 8
    shift = 0 if a == 1 else 3
    dside = 3 - a
    nt = _cells(st, nc, reals, a, OPEN4_K, tmp)
    # info[i]: (threat cell, its one open-four direction or -1 when several)
    ncand = -1
    for i in range(nt):
        t = tmp[i]
        k = -1
        nd = 0
        for d in range(4):
            if (st[nc + d * nc + t] >> shift) & 7 == OPEN4_K:
                nd += 1
                k = d
        if nd != 1:
            k = -1
        info[2 * i] = t
        info[2 * i + 1] = k
        # the cells that stop this one: t itself, and the empty cells on its line within H
        if ncand < 0:
            ncand = 0
            buf[ncand] = t
            ncand += 1
            if k >= 0:
                step = geo[2 + k]
                for sgn in (1, -1):
                    c = t
                    for _ in range(H):
                        c += sgn * step
                        if c < 0 or st[c] == 3:
                            break
                        if st[c] == 0:
                            buf[ncand] = c
                            ncand += 1
        else:
            keep = 0
            for j in range(ncand):
                z = buf[j]
                inside = z == t
                if not inside and k >= 0:
                    step = geo[2 + k]
                    for sgn in (1, -1):
                        c = t
                        for _ in range(H):
                            c += sgn * step
                            if c < 0 or st[c] == 3:
                                break
                            if c == z:
                                inside = True
                                break
                        if inside:
                            break
                if inside:
                    buf[keep] = z
                    keep += 1
            ncand = keep
        if ncand == 0:
            return 0
    if ncand <= 0:
        return 0
    m = 0
    for j in range(ncand):
        z = buf[j]
        ok = True
        for i in range(nt):
            t = info[2 * i]
            if z == t:
                continue
            k = info[2 * i + 1]
            if k < 0:
                ok = False
                break
            step = geo[2 + k]
            off = 0
            for sgn in (1, -1):
                c = t
                for o in range(1, H + 1):
                    c += sgn * step
                    if c < 0 or st[c] == 3:
                        break
                    if c == z:
                        off = sgn * o
                        break
                if off != 0:
                    break
            wkey = st[o_keys + k * nc + t] | (dside << (2 * (H + off)))
            code = memo_get(mkeys, mvals, wkey)
            if code < 0:
                kk = res[4]
                if kk < miss.shape[0]:
                    miss[kk] = wkey
                    res[4] = kk + 1
                return -1
            if (code >> shift) & 7 >= OPEN4_K:
                ok = False
                break
        if ok:
            buf[m] = z
            m += 1
    return m


@njit(cache=True)
def _children(st, geo, mkeys, mvals, out, reals, sizes, me, att, depth, vct, width, zone, zr, blocked, L,
              path, plen, mv, pn0, dn0, buf, tmp, tmp2, info, kbuf, miss, res):
    """Children of the node to move into ``mv`` (with their starting pn/dn): returns
    (kind, count): kind 0 open, 1 proven, 2 disproven, -1 table miss."""
    nc = geo[0]
    opp = 3 - me
    o_score = 5 * nc
    o_cnt = 8 * nc + 8
    if me == att:
        if sizes[me * 8 + FIVE_K] > 0:
            return 1, 0
        if sizes[opp * 8 + FIVE_K] > 0:
            nd = _defences(st, geo, mkeys, mvals, out, reals, sizes, opp, blocked, L, buf, tmp, miss, res)
            if nd < 0:
                return -1, 0
            n = 0
            for i in range(nd):
                z = buf[i]
                if not _put(st, geo, mkeys, mvals, out, z, me, sizes, miss, res):
                    return -1, 0
                keep = sizes[me * 8 + FIVE_K] > 0 or (vct != 0 and sizes[me * 8 + OPEN4_K] > 0)
                _put(st, geo, mkeys, mvals, out, z, 0, sizes, miss, res)
                if keep and n < MAXM:
                    mv[n] = z
                    pn0[n] = 1
                    dn0[n] = 1
                    n += 1
            return (0, n) if n else (2, 0)
        if depth <= 0:
            return 2, 0
        # fours: (FOUR | OPEN4) - FIVE, winning shapes first, then by score
        n = 0
        c4 = o_cnt + (me * 8 + FOUR_K) * nc
        c5 = o_cnt + (me * 8 + OPEN4_K) * nc
        c6 = o_cnt + (me * 8 + FIVE_K) * nc
        sc = o_score + me * nc
        so = o_score + opp * nc
        for c in reals:
            if (st[c4 + c] > 0 or st[c5 + c] > 0) and st[c6 + c] == 0 and n < MAXM:
                mv[n] = c
                win = 1 if (st[c5 + c] > 0 or st[c4 + c] + st[c5 + c] > 1) else 0
                kbuf[n] = -(st[sc + c] + 10000 * win)
                n += 1
        _sort(mv, kbuf, 0, n)
        for i in range(n):
            pn0[i] = 1
            dn0[i] = 1
        if vct != 0 and depth > 1:
            # open threes: THREE - FOUR - OPEN4 - FIVE
            c3 = o_cnt + (me * 8 + THREE_K) * nc
            ns = -1
            if sizes[opp * 8 + OPEN4_K] > 0:
                ns = _three_defences(st, geo, mkeys, mvals, reals, opp, tmp2, tmp, info, miss, res)
                if ns < 0:
                    return -1, 0
            n3 = n
            for c in reals:
                if st[c3 + c] > 0 and st[c4 + c] == 0 and st[c5 + c] == 0 and st[c6 + c] == 0:
                    if ns >= 0:
                        found = False
                        for j in range(ns):
                            if tmp2[j] == c:
                                found = True
                                break
                        if not found:
                            continue
                    if plen > 0 and zr >= 0:
                        near = False
                        for j in range(max(0, plen - 2), plen):
                            off = c - path[j]
                            if -zr <= off <= zr and zone[off + zr] > 0:
                                near = True
                                break
                        if not near:
                            continue
                    if n3 < MAXM:
                        mv[n3] = c
                        kbuf[n3] = -(st[sc + c] * 2 + st[so + c])
                        n3 += 1
            _sort(mv, kbuf, n, n3)
            if n3 - n > width:
                n3 = n + width
            for i in range(n, n3):
                pn0[i] = 3
                dn0[i] = 1
            n = n3
        return (0, n) if n else (2, 0)
    a = opp
    if sizes[me * 8 + FIVE_K] > 0:
        return 2, 0
    if sizes[a * 8 + FIVE_K] > 0:
        nd = _defences(st, geo, mkeys, mvals, out, reals, sizes, a, blocked, L, buf, tmp, miss, res)
        if nd < 0:
            return -1, 0
        n = min(nd, MAXM)
        for i in range(n):
            mv[i] = buf[i]
            pn0[i] = 1
            dn0[i] = 1
        return (0, n) if n else (1, 0)
    if vct == 0 or depth <= 0 or sizes[a * 8 + OPEN4_K] == 0:
        return 2, 0
    nd = _three_defences(st, geo, mkeys, mvals, reals, a, buf, tmp, info, miss, res)
    if nd < 0:
        return -1, 0
    sd = o_score + me * nc
    c5a = o_cnt + (a * 8 + OPEN4_K) * nc
    n = 0
    for i in range(nd):
        if n < MAXM:
            c = buf[i]
            mv[n] = c
            kbuf[n] = (0 if st[c5a + c] > 0 else BIG) - st[sd + c]
            n += 1
    _sort(mv, kbuf, 0, n)
    # then its own fours that are not defences, ascending
    c4 = o_cnt + (me * 8 + FOUR_K) * nc
    c5 = o_cnt + (me * 8 + OPEN4_K) * nc
    c6 = o_cnt + (me * 8 + FIVE_K) * nc
    for c in reals:
        if (st[c4 + c] > 0 or st[c5 + c] > 0) and st[c6 + c] == 0:
            dup = False
            for j in range(nd):
                if buf[j] == c:
                    dup = True
                    break
            if not dup and n < MAXM:
                mv[n] = c
                n += 1
    for i in range(n):
        pn0[i] = 1
        dn0[i] = 1
    return (0, n) if n else (1, 0)


@njit(cache=True)
def search(st, geo, mkeys, mvals, out, reals, zob, sidekeys, tk, tpn, tdn, tdep, meta, h0, att, depth, budget,
           vct, width, zone, zr, blocked, L, miss, res):
    """df-pn from the root (the side to move is ``att``) with infinite thresholds, at most
    ``budget`` nodes. ``zob``: Zobrist keys (3 x NC, int64), ``h0`` the root's hash (int64),
    ``sidekeys[me]`` folded into the table key; ``zone[zr + offset] > 0`` for the cell offsets
    of a three's zone (``zr < 0``: no zone). ``res`` out: [status, nodes, root pn, root dn,
    misses]. The board is left as it was."""
    res[0] = DONE
    res[1] = 0
    res[4] = 0
    nc = geo[0]
    sizes = np.zeros(24, np.int64)
    scan_sizes(st, nc, reals, sizes)
    fm = np.empty((MAXPLY, MAXM), np.int64)
    fpn = np.empty((MAXPLY, MAXM), np.int64)
    fdn = np.empty((MAXPLY, MAXM), np.int64)
    fpd = np.empty((MAXPLY, MAXM), np.int64)  # the depth a proven child needs (read once set)
    strict = vct == 0  # a VCF takes a proof only when it needs no more depth than is left
    fn = np.zeros(MAXPLY, np.int64)
    fthpn = np.zeros(MAXPLY, np.int64)
    fthdn = np.zeros(MAXPLY, np.int64)
    fdep = np.zeros(MAXPLY, np.int64)
    fcdep = np.zeros(MAXPLY, np.int64)
    fbest = np.zeros(MAXPLY, np.int64)
    fkey = np.zeros(MAXPLY, np.int64)
    path = np.zeros(MAXPLY, np.int64)
    n_reals = reals.shape[0]
    buf = np.empty(n_reals + 8, np.int64)
    tmp = np.empty(4 * n_reals + 8, np.int64)
    tmp2 = np.empty(n_reals + 8, np.int64)
    info = np.empty(2 * n_reals + 8, np.int64)
    kbuf = np.empty(MAXM, np.int64)
    pn0 = np.empty(MAXM, np.int64)
    dn0 = np.empty(MAXM, np.int64)
    plen = 0
    nodes = 0
    ply = 0
    h = h0
    fthpn[0] = INF
    fthdn[0] = INF
    fdep[0] = depth
    entering = True
    returning = False
    rpn = 0
    rdn = 0
    rpd = 0
    status = DONE
    while True:
        if returning:
            returning = False
            if ply == 0:
                break
            ply -= 1
            pme = att if ply % 2 == 0 else 3 - att
            q = fm[ply, fbest[ply]]
            _put(st, geo, mkeys, mvals, out, q, 0, sizes, miss, res)
            h ^= zob[pme, q]
            if pme == att:
                plen -= 1
            fpn[ply, fbest[ply]] = rpn
            fdn[ply, fbest[ply]] = rdn
            fpd[ply, fbest[ply]] = rpd
        me = att if ply % 2 == 0 else 3 - att
        other = 3 - me
        is_or = me == att
        if entering:
            entering = False
            nodes += 1
            dep = fdep[ply]
            key = h ^ sidekeys[me]
            if nodes > budget:
                status = BUDGET
                break
            if ply >= MAXPLY - 1:
                rpn, rdn = INF, 0
                returning = True
                continue
            kind, n = _children(st, geo, mkeys, mvals, out, reals, sizes, me, att, dep, vct, width, zone, zr,
                                blocked, L, path, plen, fm[ply], pn0, dn0, buf, tmp, tmp2, info, kbuf, miss, res)
            if kind < 0:
                status = MISS
                break
            if kind == 1 or kind == 2:
                if kind == 1:
                    rpn, rdn = 0, INF
                    # the depth it needs: none for a five or an unstoppable five-threat, one more
                    # attacker move against threes that nothing stops
                    rpd = 0 if is_or or sizes[att * 8 + FIVE_K] > 0 else 1
                    _tt_put(tk, tpn, tdn, tdep, meta, key, rpn, rdn, rpd)
                else:
                    rpn, rdn = INF, 0
                    _tt_put(tk, tpn, tdn, tdep, meta, key, rpn, rdn, dep)
                returning = True
                continue
            fn[ply] = n
            fkey[ply] = key
            fcdep[ply] = dep - 1 if is_or and sizes[other * 8 + FIVE_K] == 0 else dep
            cd = fcdep[ply]
            for j in range(n):
                q = fm[ply, j]
                e = tt_get(tk, (h ^ zob[me, q]) ^ sidekeys[other])
                if e < 0:
                    fpn[ply, j] = pn0[j]
                    fdn[ply, j] = dn0[j]
                elif tpn[e] == 0:
                    if strict and tdep[e] > cd:  # a win that needs more depth than is left
                        fpn[ply, j] = 1
                        fdn[ply, j] = 1
                    else:
                        fpn[ply, j] = 0
                        fdn[ply, j] = INF
                        fpd[ply, j] = tdep[e]
                elif tdn[e] == 0:
                    if tdep[e] >= cd:
                        fpn[ply, j] = INF
                        fdn[ply, j] = 0
                    else:
                        fpn[ply, j] = 1
                        fdn[ply, j] = 1
                else:
                    fpn[ply, j] = tpn[e]
                    fdn[ply, j] = tdn[e]
        # one step of the node at ply
        n = fn[ply]
        thpn = fthpn[ply]
        thdn = fthdn[ply]
        if is_or:
            pn = INF + 1
            best = 0
            dn = 0
            for j in range(n):
                if fpn[ply, j] < pn:
                    pn = fpn[ply, j]
                    best = j
                dn += fdn[ply, j]
            if dn > INF:
                dn = INF
            stop = pn >= thpn or dn >= thdn
            if not stop:
                second = INF
                for j in range(n):
                    if j != best and fpn[ply, j] < second:
                        second = fpn[ply, j]
                cth_pn = min(thpn, second + 1 + second // 4)
                cth_dn = min(INF, thdn - dn + fdn[ply, best])
        else:
            dn = INF + 1
            best = 0
            pn = 0
            for j in range(n):
                if fdn[ply, j] < dn:
                    dn = fdn[ply, j]
                    best = j
                pn += fpn[ply, j]
            if pn > INF:
                pn = INF
            stop = pn >= thpn or dn >= thdn
            if not stop:
                second = INF
                for j in range(n):
                    if j != best and fdn[ply, j] < second:
                        second = fdn[ply, j]
                cth_dn = min(thdn, second + 1 + second // 4)
                cth_pn = min(INF, thpn - pn + fpn[ply, best])
        if ply == 0:
            res[2] = pn
            res[3] = dn
        if stop:
            rpn, rdn = pn, dn
            if pn == 0:
                # a proof stores the depth it needs (an OR node: its best proven child's, plus
                # the move when it counts; an AND node: its worst child's)
                if is_or:
                    rpd = INF
                    for j in range(n):
                        if fpn[ply, j] == 0 and fpd[ply, j] < rpd:
                            rpd = fpd[ply, j]
                    rpd += fdep[ply] - fcdep[ply]
                else:
                    rpd = 0
                    for j in range(n):
                        if fpd[ply, j] > rpd:
                            rpd = fpd[ply, j]
                _tt_put(tk, tpn, tdn, tdep, meta, fkey[ply], pn, dn, rpd)
            else:
                _tt_put(tk, tpn, tdn, tdep, meta, fkey[ply], pn, dn, fdep[ply])
            returning = True
            continue
        q = fm[ply, best]
        fbest[ply] = best
        if not _put(st, geo, mkeys, mvals, out, q, me, sizes, miss, res):
            status = MISS
            break
        h ^= zob[me, q]
        if is_or:
            path[plen] = q
            plen += 1
        fthpn[ply + 1] = cth_pn
        fthdn[ply + 1] = cth_dn
        fdep[ply + 1] = fcdep[ply]
        ply += 1
        entering = True
    # unwind what is still on the board (a stop by budget or miss)
    if status != DONE:
        for p in range(ply - 1, -1, -1):
            q = fm[p, fbest[p]]
            _put(st, geo, mkeys, mvals, out, q, 0, sizes, miss, res)
    else:
        res[2] = rpn
        res[3] = rdn
    res[0] = status
    res[1] = nodes
    return status
