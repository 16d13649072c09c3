"""Compiled alpha-beta of caro Hard (numba, ``cache=True``): the same search as the pure-Python
:class:`bench.pybots.caro_bots.HardSearch` (principal-variation search over restricted candidates,
fewer the deeper it goes, a transposition table, the shape evaluation with threat terms), run
over :class:`~bench.pybots.fastboard.FastBoard`'s compiled state ``st`` (layout: :mod:`.nbcore`).

Internal only; :class:`bench.pybots.caro_bots.CompiledSearch` drives it and keeps the Python
search as the reference the tests compare with (``bench/pybots/tests/test_bots_nbsearch.py``).
Every rule set but Renju: Renju's foul test asks the engine in Python, so Renju rooms keep the
Python search.

The rules stay written once: a stone is placed and the windows around it re-classified by
:func:`bench.pybots.nbcore.move`, whose classes come from the rule-aware pattern table. A window
missing from the table is classified on the spot by the table's Python classifier (through
``numba.objmode``) when the table has room (the caller reserves it, see
``fastboard._Patterns.reserve``); else the search stops (``ctl[STOP] == STOP_MISS``, the missing
keys in ``out[OUT_MISS:OUT_MISS + ctl[NMISS]]``), every move on the way is taken back, and the
caller classifies the keys and searches again (the transposition table keeps the finished
subtrees).

Arrays shared by one search (all ``int64`` but ``tm``):

* ``cnts`` (24): how many empty cells are in each threat set, index ``side * 8 + class``
  (classes THREE..FIVE; kept up to date from the kernel's set changes);
* ``zob`` (``3 x NC``): the board's Zobrist keys (``FastBoard.zob`` as signed 64-bit);
* ``tkeys`` / ``tdata``: the transposition table (:data:`TT_BITS`), packed entries, see
  :func:`_pack`;
* ``prm``: the parameters (offsets ``P_*`` below: rules, widths, evaluation weights);
* ``ctl``: ``[nodes, max_nodes, next_check, stop, nmiss]``; ``tm`` (``float64``): ``[deadline]``
  in ``time.perf_counter()`` seconds, read by :func:`.nbclock.tick` every :data:`CHECK_EVERY`
  nodes (so ``bench/* --cpu-clock``, which replaces ``time.perf_counter``, is obeyed);
* ``mv`` (``PLIES x MAXMOVES``): per-ply move lists.
"""

from __future__ import annotations

from .nbclock import CHECK_EVERY, MAX_NODES, NEXT_CHECK, NODES, STOP, STOP_NONE, STOP_TIME  # noqa: F401 (first: numba's cache folder)
from .nbclock import tick as _tick

import numba  # noqa: E402
import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from .nbcore import OUT_MISS, block_candidates, move  # noqa: E402

THREE, FOUR, OPEN4, FIVE = 4, 5, 6, 7  # fastboard's classes kept in threat sets
WIN = 10_000_000  # caro_bots.WIN
PLIES = 48  # deepest ply (forced five-threat replies stop at ply 40)
MAXMOVES = 64  # moves of one node (more are not generated)
TT_BITS = 18  # 2**18 entries per table (2 x 2 MB)
VALUE_OFF = 1 << 40  # packed values are stored with this offset (always non-negative)

# ctl
NMISS = 4  # ctl entries after the clock's (nbclock: nodes, max_nodes, next_check, stop)
STOP_MISS = 2  # ctl[STOP]: a window the table had not classified (STOP_TIME: the clock's)
# prm
(P_NC, P_BLOCKED, P_WIN_LENGTH, P_WIDTH, P_SCHED, P_NSCHED, P_ATTACK, P_DEFENCE, P_MY_OPEN3,
 P_MY_FOUR_THREE, P_MY_THREE_THREE, P_OPP_DOUBLE, P_OPP_OPEN3, P_TT_MASK, P_USE_TT,
 P_FORCE_DEFENCE, P_TABLE) = (0, 1, 2, 3, 4, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20)
PRM_LEN = 21
SIDE_KEY = np.int64(0x5BD1E9955BD1E995)  # xor-ed into the key when O is to move


@njit(cache=True)
def count_sets(st, nc, cnts):
    """Fill ``cnts`` from the per-cell class counts of ``st``."""
    o_cnt = 8 * nc + 8
    cnts[:] = 0
    for s in range(1, 3):
        for k in range(THREE, FIVE + 1):
            base = o_cnt + (s * 8 + k) * nc
            n = 0
            for c in range(nc):
                if st[base + c] > 0 and st[c] == 0:
                    n += 1
            cnts[s * 8 + k] = n


@njit(cache=True, inline="always")
def _apply(out, cnts, ns):
    for i in range(ns):
        e = out[i]
        if e & 1:
            cnts[e >> 11] += 1
        else:
            cnts[e >> 11] -= 1


_TABLES: list = []  # the pattern tables the compiled search may fill, by P_TABLE (see register)


def register(pat) -> int:
    """The index of pattern table ``pat`` (a ``fastboard._Patterns``) for ``prm[P_TABLE]``."""
    for i, known in enumerate(_TABLES):
        if known is pat:
            return i
    _TABLES.append(pat)
    return len(_TABLES) - 1


def _fill_py(table: int, keys: np.ndarray) -> int:
    """Classify the missed window ``keys`` into table ``table`` in place: 1, or 0 when it would
    have to grow (its arrays would be replaced under the running search)."""
    pat = _TABLES[table]
    if not pat.fits(len(keys)):
        return 0
    pat.fill(keys.tolist())
    return 1


@njit(cache=True)
def _fill(table, keys):
    with numba.objmode(ok="int64"):
        ok = _fill_py(table, keys)
    return ok


@njit(cache=True)
def _put(st, geo, mkeys, mvals, out, cnts, ctl, prm, q, s):
    """Place ``s`` on ``q``. Windows missing from the table are classified on the spot (the
    rule-aware Python classifier, through ``objmode``), as ``FastBoard._apply`` does; False
    (the board unchanged, ``ctl`` says MISS) only when the table would have to grow."""
    r = move(st, geo, mkeys, mvals, out, q, s)
    while r >> 48:
        nmiss = r >> 48
        if not _fill(prm[P_TABLE], out[OUT_MISS:OUT_MISS + nmiss]):
            ctl[NMISS] = nmiss
            ctl[STOP] = STOP_MISS
            move(st, geo, mkeys, mvals, out, q, 0)  # no class had changed: nothing to take back
            return False
        r = move(st, geo, mkeys, mvals, out, q, -1)
    _apply(out, cnts, r & 0xFFFF)
    return True


@njit(cache=True)
def _take(st, geo, mkeys, mvals, out, cnts, q):
    """Take the stone off ``q`` (the windows it leaves are in the table: no miss)."""
    r = move(st, geo, mkeys, mvals, out, q, 0)
    _apply(out, cnts, r & 0xFFFF)


@njit(cache=True)
def defences(a, st, geo, mkeys, mvals, out, cnts, ctl, prm, buf):
    """Cells where the side not ``a`` stops every five of ``a`` with one stone, written to
    ``buf``; returns how many (-1 on a table miss). As ``FastBoard.defences``, in cell order."""
    if cnts[a * 8 + FIVE] == 0:
        return 0
    cand = np.empty(geo[0], np.int64)  # at most every cell once
    k = block_candidates(st, geo, a, prm[P_BLOCKED], prm[P_WIN_LENGTH], cand)
    if prm[P_BLOCKED] == 0:
        if k != 1:
            return 0
        buf[0] = cand[0]
        return 1
    n = 0
    for i in range(k):
        c = cand[i]
        if not _put(st, geo, mkeys, mvals, out, cnts, ctl, prm, c, 3 - a):
            return -1
        ok = cnts[a * 8 + FIVE] == 0
        _take(st, geo, mkeys, mvals, out, cnts, c)
        if ok and n < buf.shape[0]:
            buf[n] = c
            n += 1
    return n


@njit(cache=True)
def winning_four(s, st, geo, mkeys, mvals, out, cnts, ctl, prm, buf):
    """1 if ``s`` has a cell making a five-threat the other side cannot stop with one stone (an
    open four or two fours, checked by playing it), 0 if not, -1 on a table miss."""
    if cnts[s * 8 + FOUR] == 0 and cnts[s * 8 + OPEN4] == 0:
        return 0
    nc = prm[P_NC]
    o4 = 8 * nc + 8 + (s * 8 + FOUR) * nc
    o5 = 8 * nc + 8 + (s * 8 + OPEN4) * nc
    for q in range(nc):
        if st[q] == 0 and (st[o5 + q] > 0 or st[o4 + q] >= 2):
            if not _put(st, geo, mkeys, mvals, out, cnts, ctl, prm, q, s):
                return -1
            n = defences(s, st, geo, mkeys, mvals, out, cnts, ctl, prm, buf)
            _take(st, geo, mkeys, mvals, out, cnts, q)
            if n < 0:
                return -1
            if n == 0:
                return 1
    return 0


@njit(cache=True)
def double_threats(s, st, nc, cnts):
    """(four-three, three-three) of side ``s``, as ``caro_bots.double_threats`` (no Renju)."""
    if cnts[s * 8 + THREE] == 0:
        return False, False
    o_cnt = 8 * nc + 8
    o3 = o_cnt + (s * 8 + THREE) * nc
    o4 = o_cnt + (s * 8 + FOUR) * nc
    o5 = o_cnt + (s * 8 + OPEN4) * nc
    ft = False
    tt = False
    for q in range(nc):
        if st[q] != 0:
            continue
        c3 = st[o3 + q]
        if c3 == 0:
            continue
        if st[o4 + q] > 0 or st[o5 + q] > 0:
            ft = True
        elif c3 >= 2:
            tt = True
        if ft and tt:
            break
    return ft, tt


@njit(cache=True)
def evaluate(me, st, nc, cnts, prm):
    """``HardSearch.evaluate``: static score for the side to move ``me`` (pattern units)."""
    opp = 3 - me
    o_total = 8 * nc
    value = (st[o_total + me] * prm[P_ATTACK] - st[o_total + opp] * prm[P_DEFENCE]) // 10
    opp_fours = cnts[opp * 8 + FOUR] > 0 or cnts[opp * 8 + OPEN4] > 0
    if cnts[me * 8 + OPEN4] > 0:
        value += prm[P_MY_OPEN3]
    else:
        ft, tt = double_threats(me, st, nc, cnts)
        if ft:
            value += prm[P_MY_FOUR_THREE] if not opp_fours else prm[P_MY_FOUR_THREE] // 3
        elif tt and not opp_fours:
            value += prm[P_MY_THREE_THREE]
    my_fours = cnts[me * 8 + FOUR] > 0 or cnts[me * 8 + OPEN4] > 0
    if cnts[opp * 8 + OPEN4] > 0 and not my_fours:
        value -= prm[P_OPP_OPEN3]
    ft, tt = double_threats(opp, st, nc, cnts)
    if (ft or tt) and not my_fours:
        value -= prm[P_OPP_DOUBLE]
    return value


@njit(cache=True, inline="always")
def _better(v, c, bv, bc):
    """Order of candidates: higher value first, then lower cell."""
    return v > bv or (v == bv and c < bc)


@njit(cache=True)
def gen_moves(me, limit, st, nc, cnts, prm, buf):
    """``HardSearch.moves`` for ``me`` into ``buf``; returns how many. Under an open three of
    the other side: its open-four cells, its four best four cells, and (unless force_defence)
    ``me``'s four cells; else the ``limit`` best candidates (empty, within distance 2 of a
    stone) by ``10 * own score + 9 * other's``. Ties go to the lower cell."""
    opp = 3 - me
    o_cnt = 8 * nc + 8
    sm = 5 * nc + me * nc
    so = 5 * nc + opp * nc
    cap = buf.shape[0]
    n = 0
    if cnts[opp * 8 + OPEN4] > 0:
        o_open = o_cnt + (opp * 8 + OPEN4) * nc
        o_four = o_cnt + (opp * 8 + FOUR) * nc
        m4 = o_cnt + (me * 8 + FOUR) * nc
        m5 = o_cnt + (me * 8 + OPEN4) * nc
        m6 = o_cnt + (me * 8 + FIVE) * nc
        take = np.zeros(nc, np.bool_)
        # the other side's four best four cells (by its score, then lower cell)
        best = np.full(4, -1, np.int64)
        for q in range(nc):
            if st[q] != 0:
                continue
            if st[o_open + q] > 0:
                take[q] = True
            if prm[P_FORCE_DEFENCE] == 0 and (st[m4 + q] > 0 or st[m5 + q] > 0) and st[m6 + q] == 0:
                take[q] = True
            if st[o_four + q] > 0:
                v = st[so + q]
                j = 4
                while j > 0 and (best[j - 1] < 0 or _better(v, q, st[so + best[j - 1]], best[j - 1])):
                    j -= 1
                if j < 4:
                    for i in range(3, j, -1):
                        best[i] = best[i - 1]
                    best[j] = q
        for i in range(4):
            if best[i] >= 0:
                take[best[i]] = True
        for q in range(nc):
            if take[q]:
                v = st[sm + q] + st[so + q]
                j = n if n < cap else cap
                while j > 0 and _better(v, q, st[sm + buf[j - 1]] + st[so + buf[j - 1]], buf[j - 1]):
                    j -= 1
                if j < cap:
                    for i in range(min(n, cap - 1), j, -1):
                        buf[i] = buf[i - 1]
                    buf[j] = q
                    if n < cap:
                        n += 1
        return n
    if limit > cap:
        limit = cap
    o_near = 32 * nc + 8
    vals = np.empty(limit, np.int64)
    for q in range(nc):
        if st[q] != 0 or st[o_near + q] <= 0:
            continue
        v = st[sm + q] * 10 + st[so + q] * 9
        j = n
        while j > 0 and _better(v, q, vals[j - 1], buf[j - 1]):
            j -= 1
        if j < limit:
            for i in range(min(n, limit - 1), j, -1):
                buf[i] = buf[i - 1]
                vals[i] = vals[i - 1]
            buf[j] = q
            vals[j] = v
            if n < limit:
                n += 1
    return n


@njit(cache=True, inline="always")
def _pack(depth, flag, value, best):
    return ((value + VALUE_OFF) << 20) | (depth << 14) | ((flag + 1) << 12) | (best + 1)


_SEARCH_SIG = ("int64(int64, int64, int64, int64, int64, int64, int64[::1], int64[::1], int64[::1], "
               "int64[::1], int64[::1], int64[::1], int64[:, ::1], int64[::1], int64[::1], int64[::1], "
               "int64[::1], float64[::1], int64[:, ::1])")


@njit(_SEARCH_SIG, cache=True)
def search(me, depth, alpha, beta, ply, hsh, st, geo, mkeys, mvals, out, cnts, zob, tkeys, tdata,
           prm, ctl, tm, mv):
    """``AlphaBeta.search`` with ``HardSearch``'s children (principal-variation search): the
    value for the side to move ``me`` (0 and ``ctl[STOP]`` set when stopped: the value must be
    thrown away)."""
    if _tick(ctl, tm):
        return 0
    opp = 3 - me
    nc = prm[P_NC]
    buf = mv[ply]
    if cnts[me * 8 + FIVE] > 0:
        return WIN - ply
    forced = cnts[opp * 8 + FIVE] > 0
    key = 0
    slot = 0
    use_tt = False
    if forced:
        # the other side threatens a five: only the blocks (no table, as the Python search)
        n = defences(opp, st, geo, mkeys, mvals, out, cnts, ctl, prm, buf)
        if n < 0:
            return 0
        if n == 0:
            return -(WIN - ply - 1)
        if ply > 40:
            return evaluate(me, st, nc, cnts, prm)
    else:
        if cnts[opp * 8 + FOUR] == 0 and cnts[opp * 8 + OPEN4] == 0:
            w = winning_four(me, st, geo, mkeys, mvals, out, cnts, ctl, prm, buf)
            if w < 0:
                return 0
            if w > 0:
                return WIN - ply - 2
        if depth <= 0:
            return evaluate(me, st, nc, cnts, prm)
        key = hsh ^ SIDE_KEY if me == 2 else hsh
        slot = (key ^ (key >> 29)) & prm[P_TT_MASK]
        first = -1
        use_tt = prm[P_USE_TT] != 0
        if use_tt and tkeys[slot] == key and tdata[slot] != 0:
            e = tdata[slot]
            first = (e & 0xFFF) - 1
            e_depth = (e >> 14) & 0x3F
            flag = ((e >> 12) & 3) - 1
            value = (e >> 20) - VALUE_OFF
            if e_depth >= depth:
                if flag == 0 or (flag == 1 and value >= beta) or (flag == -1 and value <= alpha):
                    return value
        if ply < prm[P_NSCHED]:
            width = prm[P_SCHED + ply]
        else:
            width = prm[P_SCHED + prm[P_NSCHED] - 1]
        if width > prm[P_WIDTH]:
            width = prm[P_WIDTH]
        n = gen_moves(me, width, st, nc, cnts, prm, buf)
        if n == 0:
            for q in range(nc):
                if st[q] == 0:  # the first empty real cell (edges are 3)
                    buf[0] = q
                    n = 1
                    break
            if n == 0:
                return 0
        if first >= 0:
            for i in range(n):
                if buf[i] == first:
                    for j in range(i, 0, -1):
                        buf[j] = buf[j - 1]
                    buf[0] = first
                    break
    # the children: the first with the full window, the others with a null window first
    a0 = alpha
    best = -WIN * 2
    best_move = buf[0]
    for i in range(n):
        q = buf[i]
        if not _put(st, geo, mkeys, mvals, out, cnts, ctl, prm, q, me):
            return 0
        h = hsh ^ zob[me, q]
        if i == 0:
            value = -search(opp, depth - 1, -beta, -alpha, ply + 1, h, st, geo, mkeys, mvals, out,
                            cnts, zob, tkeys, tdata, prm, ctl, tm, mv)
        else:
            value = -search(opp, depth - 1, -alpha - 1, -alpha, ply + 1, h, st, geo, mkeys, mvals,
                            out, cnts, zob, tkeys, tdata, prm, ctl, tm, mv)
            if alpha < value < beta and ctl[STOP] == STOP_NONE:
                value = -search(opp, depth - 1, -beta, -alpha, ply + 1, h, st, geo, mkeys, mvals,
                                out, cnts, zob, tkeys, tdata, prm, ctl, tm, mv)
        _take(st, geo, mkeys, mvals, out, cnts, q)
        if ctl[STOP] != STOP_NONE:
            return 0
        if value > best:
            best = value
            best_move = q
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    if use_tt:
        flag = 1 if best >= beta else (-1 if best <= a0 else 0)
        tkeys[slot] = key
        tdata[slot] = _pack(depth, flag, best, best_move)
    return best


@njit(cache=True)
def root(me, moves, nmoves, depth, hsh, scores, st, geo, mkeys, mvals, out, cnts, zob, tkeys, tdata,
         prm, ctl, tm, mv):
    """``HardSearch.root``: ``scores[i]`` = the value of ``moves[i]`` at ``depth`` for ``me``,
    each searched with the window open upwards from the best so far. Returns how many moves
    were scored (fewer than ``nmoves`` when stopped: see ``ctl[STOP]``)."""
    alpha = -WIN * 2
    for i in range(nmoves):
        q = moves[i]
        if not _put(st, geo, mkeys, mvals, out, cnts, ctl, prm, q, me):
            return i
        value = -search(3 - me, depth - 1, -WIN * 2, -alpha + 1, 1, hsh ^ zob[me, q], st, geo, mkeys,
                        mvals, out, cnts, zob, tkeys, tdata, prm, ctl, tm, mv)
        _take(st, geo, mkeys, mvals, out, cnts, q)
        if ctl[STOP] != STOP_NONE:
            return i
        scores[i] = value
        if value > alpha:
            alpha = value
    return nmoves


def new_ctl() -> np.ndarray:
    """A fresh ``ctl`` array."""
    return np.zeros(8, dtype=np.int64)


def new_tables(bits: int = TT_BITS) -> tuple[np.ndarray, np.ndarray]:
    """An empty transposition table (keys, packed data) of ``2**bits`` entries."""
    return np.zeros(1 << bits, dtype=np.int64), np.zeros(1 << bits, dtype=np.int64)


def signed(x: int) -> int:
    """A Python int of 64 bits as the signed value numba's ``int64`` holds."""
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >> 63 else x
