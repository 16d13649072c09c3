"""Compiled search of Reversi Hard (numba, ``cache=True``): the same move generation,
evaluation, negascout and exact endgame as the pure-Python reference in
:mod:`bench.pybots.reversi_search`, on ``uint64`` bitboards.

Internal only; :func:`bench.pybots.reversi_search.choose` drives it. Bit ``row * 8 + col`` is a
square (a1 = bit 0). Every score is from the side to move's view, in the units of
:func:`bench.pybots.reversi_search.evaluate` (``SCALE`` per disc; a finished game ``+-WIN``).

State shared by one move's searches (all small numpy arrays, made by :func:`new_context`):

* ``st`` (``int64``): ``[nodes, max_nodes, next_check, stop, root_best_value, root_best_sq,
  root_moves_done, 0]``. ``stop`` becomes 1 when the node limit or the deadline passed; every
  search then returns at once and its value must be thrown away.
* ``tm`` (``float64``): ``[deadline]`` in ``time.perf_counter()`` seconds (read from compiled
  code every :data:`CHECK_EVERY` nodes by :func:`.nbclock.tick`).
* ``w`` (``int64[4, 9]``): the evaluation weights per phase (``reversi_search._W``).
* midgame table ``tk`` (``uint64[N, 2]``: me, opp) and ``tv`` (``int64[N, 4]``: depth, flag,
  value, move); endgame table ``ek`` / ``ev`` (``[lo, hi]``); ``hist`` (``int64[64]``) and
  ``killers`` (``int64[128]`` by depth); ``buf`` (``int64[PLIES, 128]``) and ``bb``
  (``uint64[PLIES, 128]``): per-ply move lists for sorting children.
"""

from __future__ import annotations

from .nbclock import CHECK_EVERY  # noqa: F401 (first: numba's cache folder)
from .nbclock import tick as _tick

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

U = np.uint64
ZERO = U(0)
ONE = U(1)
FULL = U(0xFFFFFFFFFFFFFFFF)
NOT_A = U(0xFEFEFEFEFEFEFEFE)
NOT_H = U(0x7F7F7F7F7F7F7F7F)
COL_A = U(0x0101010101010101)
COL_MAGIC = U(0x0102040810204080)
CORNERS = U((1 << 0) | (1 << 7) | (1 << 56) | (1 << 63))
EDGES = U(0xFF818181818181FF)
M1 = U(0x5555555555555555)
M2 = U(0x3333333333333333)
M4 = U(0x0F0F0F0F0F0F0F0F)
H01 = U(0x0101010101010101)
K1 = U(0x9E3779B97F4A7C15)
K2 = U(0xC2B2AE3D27D4EB4F)
S1, S2, S4, S7, S8, S9, S14, S16, S18, S28, S32, S36, S56 = (U(k) for k in (1, 2, 4, 7, 8, 9, 14, 16, 18, 28, 32, 36, 56))

WIN = 1_000_000
SCALE = 100
INF = 10**9
PLIES = 80  # deepest ply of one search (depth plus passes)
TT_BITS = 18  # 2**18 entries per table
MOBILITY_ORDER_DEPTH = 3  # from this remaining depth, children are sorted by opponent replies
END_TT_EMPTIES = 7  # endgame positions with more empties than this are stored
END_SORT_EMPTIES = 6  # with more empties than this, endgame children are sorted by replies

_ROW_PRIORITY = (
    (9, 1, 7, 5, 5, 7, 1, 9),
    (1, 0, 3, 3, 3, 3, 0, 1),
    (7, 3, 6, 4, 4, 6, 3, 7),
    (5, 3, 4, 4, 4, 4, 3, 5),
    (5, 3, 4, 4, 4, 4, 3, 5),
    (7, 3, 6, 4, 4, 6, 3, 7),
    (1, 0, 3, 3, 3, 3, 0, 1),
    (9, 1, 7, 5, 5, 7, 1, 9),
)
PRIORITY = np.array([_ROW_PRIORITY[i // 8][i % 8] for i in range(64)], dtype=np.int64)
STATIC_ORDER = np.array(sorted(range(64), key=lambda i: -PRIORITY[i]), dtype=np.int64)
# (corner, X square, C square, C square)
CORNER_NEAR = np.array([(0, 9, 1, 8), (7, 14, 6, 15), (56, 49, 48, 57), (63, 54, 55, 62)], dtype=np.int64)
_C = 0
for _c, _x, _c1, _c2 in CORNER_NEAR.tolist():
    _C |= (1 << _c1) | (1 << _c2)
A_EDGES = U(0xFF818181818181FF & ~((1 << 0) | (1 << 7) | (1 << 56) | (1 << 63)) & ~_C)
QUADRANTS = np.array([0x0F0F0F0F, 0xF0F0F0F0, 0x0F0F0F0F << 32, 0xF0F0F0F0 << 32], dtype=np.uint64)
PHASE_OF = np.array([0 if n <= 24 else 1 if n <= 36 else 2 if n <= 48 else 3 for n in range(65)], dtype=np.int64)
DR = np.array([0, 1, 1, 1, 0, -1, -1, -1], dtype=np.int64)
DC = np.array([1, 1, 0, -1, -1, -1, 0, 1], dtype=np.int64)


def _anchored(byte: int) -> int:
    mask = 0
    for order in (range(8), range(7, -1, -1)):
        for i in order:
            if byte >> i & 1:
                mask |= 1 << i
            else:
                break
    return mask.bit_count()


ANCHORED = np.array([_anchored(b) for b in range(256)], dtype=np.int64)


@njit(cache=True, inline="always")
def popcount(x):
    """Set bits of a ``uint64``."""
    x = x - ((x >> S1) & M1)
    x = (x & M2) + ((x >> S2) & M2)
    x = (x + (x >> S4)) & M4
    return np.int64((x * H01) >> S56)


@njit(cache=True, inline="always")
def lowest_index(b):
    """Bit index of the lowest set bit of a non-zero ``uint64``."""
    return popcount((b & (~b + ONE)) - ONE)


@njit(cache=True)
def moves(me, opp):
    """Legal moves of ``me`` (Kogge-Stone fills in 8 directions), as in reversi_search.moves."""
    empty = ~(me | opp)
    out = ZERO
    p = opp & NOT_A
    g = me | (p & (me << S1))
    q = p & (p << S1)
    g |= q & (g << S2)
    q &= q << S2
    g |= q & (g << S4)
    out |= ((g & opp) << S1) & NOT_A
    p = opp & NOT_H
    g = me | (p & (me >> S1))
    q = p & (p >> S1)
    g |= q & (g >> S2)
    q &= q >> S2
    g |= q & (g >> S4)
    out |= ((g & opp) >> S1) & NOT_H
    g = me | (opp & (me << S8))
    q = opp & (opp << S8)
    g |= q & (g << S16)
    q &= q << S16
    g |= q & (g << S32)
    out |= (g & opp) << S8
    g = me | (opp & (me >> S8))
    q = opp & (opp >> S8)
    g |= q & (g >> S16)
    q &= q >> S16
    g |= q & (g >> S32)
    out |= (g & opp) >> S8
    p = opp & NOT_A
    g = me | (p & (me << S9))
    q = p & (p << S9)
    g |= q & (g << S18)
    q &= q << S18
    g |= q & (g << S36)
    out |= ((g & opp) << S9) & NOT_A
    p = opp & NOT_H
    g = me | (p & (me >> S9))
    q = p & (p >> S9)
    g |= q & (g >> S18)
    q &= q >> S18
    g |= q & (g >> S36)
    out |= ((g & opp) >> S9) & NOT_H
    p = opp & NOT_H
    g = me | (p & (me << S7))
    q = p & (p << S7)
    g |= q & (g << S14)
    q &= q << S14
    g |= q & (g << S28)
    out |= ((g & opp) << S7) & NOT_H
    p = opp & NOT_A
    g = me | (p & (me >> S7))
    q = p & (p >> S7)
    g |= q & (g >> S14)
    q &= q >> S14
    g |= q & (g >> S28)
    out |= ((g & opp) >> S7) & NOT_A
    return out & empty


@njit(cache=True)
def flips(me, opp, sq):
    """Discs flipped by ``me`` playing bit index ``sq`` (0 if none)."""
    f = ZERO
    r0 = sq >> 3
    c0 = sq & 7
    for d in range(8):
        dr = DR[d]
        dc = DC[d]
        r = r0 + dr
        c = c0 + dc
        line = ZERO
        while 0 <= r < 8 and 0 <= c < 8:
            b = ONE << U(r * 8 + c)
            if opp & b:
                line |= b
            else:
                if me & b:
                    f |= line
                break
            r += dr
            c += dc
    return f


@njit(cache=True, inline="always")
def neighbours(b):
    return (((b << S1) & NOT_A) | ((b >> S1) & NOT_H) | (b << S8) | (b >> S8) | ((b << S9) & NOT_A)
            | ((b >> S9) & NOT_H) | ((b << S7) & NOT_H) | ((b >> S7) & NOT_A))


@njit(cache=True, inline="always")
def _col_byte(x):
    return np.int64((((x & COL_A) * COL_MAGIC) >> S56) & U(0xFF))


@njit(cache=True)
def evaluate(me, opp, my_moves, opp_moves, w):
    """The evaluation of reversi_search.evaluate (same features, same integer weights ``w``)."""
    occ = me | opp
    empty = ~occ
    n_occ = popcount(occ)
    ph = PHASE_OF[n_occ]
    score = (w[ph, 0] * (popcount(my_moves) - popcount(opp_moves))
             + w[ph, 1] * (popcount(neighbours(opp) & empty) - popcount(neighbours(me) & empty))
             + w[ph, 7] * (popcount(me) - popcount(opp))
             + w[ph, 5] * (popcount(me & A_EDGES) - popcount(opp & A_EDGES)))
    if (64 - n_occ) & 1:
        score += w[ph, 8]
    else:
        score -= w[ph, 8]
    if occ & EDGES:
        corners = occ & CORNERS
        if corners:
            score += w[ph, 2] * (popcount(me & CORNERS) - popcount(opp & CORNERS))
        if corners != CORNERS:
            for k in range(4):
                if not (corners >> U(CORNER_NEAR[k, 0])) & ONE:
                    x = U(CORNER_NEAR[k, 1])
                    c1 = U(CORNER_NEAR[k, 2])
                    c2 = U(CORNER_NEAR[k, 3])
                    score += w[ph, 3] * (np.int64((me >> x) & ONE) - np.int64((opp >> x) & ONE))
                    score += w[ph, 4] * (np.int64((me >> c1) & ONE) + np.int64((me >> c2) & ONE)
                                         - np.int64((opp >> c1) & ONE) - np.int64((opp >> c2) & ONE))
        if corners:
            stab = 0
            for e in range(4):
                if e == 0:
                    om = np.int64(me & U(0xFF))
                    oo = np.int64(opp & U(0xFF))
                    fu = np.int64(occ & U(0xFF))
                elif e == 1:
                    om = np.int64(me >> S56)
                    oo = np.int64(opp >> S56)
                    fu = np.int64(occ >> S56)
                elif e == 2:
                    om = _col_byte(me)
                    oo = _col_byte(opp)
                    fu = _col_byte(occ)
                else:
                    om = _col_byte(me >> S7)
                    oo = _col_byte(opp >> S7)
                    fu = _col_byte(occ >> S7)
                if fu == 0xFF:
                    stab += popcount(U(om)) - popcount(U(oo))
                elif fu & 0x81:
                    stab += ANCHORED[om] - ANCHORED[oo]
            score += w[ph, 6] * stab
    else:
        for k in range(4):
            x = U(CORNER_NEAR[k, 1])
            score += w[ph, 3] * (np.int64((me >> x) & ONE) - np.int64((opp >> x) & ONE))
    return score


@njit(cache=True)
def final_score(me, opp):
    a = popcount(me)
    b = popcount(opp)
    diff = a - b
    if diff > 0:
        return WIN + (diff + 64 - a - b) * SCALE
    if diff < 0:
        return -WIN + (diff - (64 - a - b)) * SCALE
    return 0


@njit(cache=True, inline="always")
def _slot(me, opp):
    return np.int64(((me * K1) ^ (opp * K2)) >> U(64 - TT_BITS))


_SEARCH_SIG = ("int64(uint64, uint64, int64, int64, int64, int64, int64[::1], float64[::1], int64[:, ::1], "
               "uint64[:, ::1], int64[:, ::1], int64[::1], int64[::1], int64[:, ::1], uint64[:, ::1])")
_SOLVE_SIG = ("int64(uint64, uint64, int64, int64, int64, int64[::1], float64[::1], uint64[:, ::1], "
              "int64[:, ::1], uint64[:, ::1], int64[:, ::1])")


@njit(_SEARCH_SIG, cache=True)
def search(me, opp, depth, alpha, beta, ply, st, tm, w, tk, tv, hist, killers, buf, bb):
    """Negascout value for the side to move, ``depth`` plies deep (0 after a stop)."""
    if _tick(st, tm):
        return 0
    legal = moves(me, opp)
    if legal == ZERO:
        opp_legal = moves(opp, me)
        if opp_legal == ZERO:
            return final_score(me, opp)
        v = search(opp, me, depth, -beta, -alpha, ply + 1, st, tm, w, tk, tv, hist, killers, buf, bb)
        return -v
    if depth <= 0:
        return evaluate(me, opp, legal, moves(opp, me), w)
    slot = _slot(me, opp)
    first = -1
    if tk[slot, 0] == me and tk[slot, 1] == opp:
        first = tv[slot, 3]
        if tv[slot, 0] >= depth:
            flag = tv[slot, 1]
            value = tv[slot, 2]
            if flag == 0 or (flag == 1 and value >= beta) or (flag == -1 and value <= alpha):
                return value
    a0 = alpha
    best = -INF
    best_sq = -1
    if depth == 1:
        if first >= 0 and (legal >> U(first)) & ONE:
            k0 = -1
        else:
            k0 = 0
            first = -1
        for k in range(k0, 64):
            sq = first if k < 0 else STATIC_ORDER[k]
            if k >= 0 and sq == first:
                continue
            if not (legal >> U(sq)) & ONE:
                continue
            f = flips(me, opp, sq)
            nme = opp & ~f
            nopp = me | f | (ONE << U(sq))
            st[0] += 1
            nl = moves(nme, nopp)
            if nl:
                value = -evaluate(nme, nopp, nl, moves(nopp, nme), w)
            else:
                value = -search(nme, nopp, depth - 1, -beta, -alpha, ply + 1, st, tm, w, tk, tv, hist, killers, buf, bb)
                if st[3]:
                    return 0
            if value > best:
                best = value
                best_sq = sq
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
    else:
        # children with ordering keys, sorted (insertion sort: a dozen moves)
        n = 0
        killer = killers[depth] if depth < 128 else -1
        rest = legal
        while rest:
            sq = lowest_index(rest)
            rest &= rest - ONE
            f = flips(me, opp, sq)
            nme = opp & ~f
            nopp = me | f | (ONE << U(sq))
            if sq == first:
                key = -INF
            else:
                key = -PRIORITY[sq] * 64 - hist[sq]
                if sq == killer:
                    key -= 5000
                if depth >= MOBILITY_ORDER_DEPTH:
                    key += popcount(moves(nme, nopp)) * 300 - PRIORITY[sq] * 40
            j = n
            while j > 0 and buf[ply, j - 1] > key:
                buf[ply, j] = buf[ply, j - 1]
                buf[ply, 64 + j] = buf[ply, 64 + j - 1]
                bb[ply, j] = bb[ply, j - 1]
                bb[ply, 64 + j] = bb[ply, 64 + j - 1]
                j -= 1
            buf[ply, j] = key
            buf[ply, 64 + j] = sq
            bb[ply, j] = nme
            bb[ply, 64 + j] = nopp
            n += 1
        for i in range(n):
            sq = buf[ply, 64 + i]
            nme = bb[ply, i]
            nopp = bb[ply, 64 + i]
            if i == 0:
                value = -search(nme, nopp, depth - 1, -beta, -alpha, ply + 1, st, tm, w, tk, tv, hist, killers, buf, bb)
            else:
                value = -search(nme, nopp, depth - 1, -alpha - 1, -alpha, ply + 1, st, tm, w, tk, tv, hist, killers, buf, bb)
                if alpha < value < beta and not st[3]:
                    value = -search(nme, nopp, depth - 1, -beta, -value, ply + 1, st, tm, w, tk, tv, hist, killers, buf, bb)
            if st[3]:
                return 0
            if value > best:
                best = value
                best_sq = sq
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        if depth < 128:
                            killers[depth] = sq
                        hist[sq] += depth * depth
                        break
    tk[slot, 0] = me
    tk[slot, 1] = opp
    tv[slot, 0] = depth
    tv[slot, 1] = 1 if best >= beta else (-1 if best <= a0 else 0)
    tv[slot, 2] = best
    tv[slot, 3] = best_sq
    return best


@njit(cache=True)
def root(me, opp, depth, first, st, tm, w, tk, tv, hist, killers, buf, bb):
    """One root iteration at ``depth``: best square (or -1 if stopped before the first move was
    searched). ``st[4]``/``st[5]``/``st[6]`` get the best value, its square and the root moves
    searched so far (a caller may use a partial iteration)."""
    legal = moves(me, opp)
    n = 0
    rest = legal
    ply = 0
    while rest:
        sq = lowest_index(rest)
        rest &= rest - ONE
        f = flips(me, opp, sq)
        nme = opp & ~f
        nopp = me | f | (ONE << U(sq))
        if sq == first:
            key = -INF
        else:
            key = -PRIORITY[sq] * 64 - hist[sq] + popcount(moves(nme, nopp)) * 300 - PRIORITY[sq] * 40
        j = n
        while j > 0 and buf[ply, j - 1] > key:
            buf[ply, j] = buf[ply, j - 1]
            buf[ply, 64 + j] = buf[ply, 64 + j - 1]
            bb[ply, j] = bb[ply, j - 1]
            bb[ply, 64 + j] = bb[ply, 64 + j - 1]
            j -= 1
        buf[ply, j] = key
        buf[ply, 64 + j] = sq
        bb[ply, j] = nme
        bb[ply, 64 + j] = nopp
        n += 1
    # the list is copied: deeper plies reuse row 0 only through ply + 1, but keep it safe
    sqs = buf[0, 64:64 + n].copy()
    mes = bb[0, 0:n].copy()
    opps = bb[0, 64:64 + n].copy()
    alpha = -INF
    beta = INF
    best = -INF
    best_sq = -1
    st[6] = 0
    for i in range(n):
        if i == 0:
            value = -search(mes[i], opps[i], depth - 1, -beta, -alpha, 1, st, tm, w, tk, tv, hist, killers, buf, bb)
        else:
            value = -search(mes[i], opps[i], depth - 1, -alpha - 1, -alpha, 1, st, tm, w, tk, tv, hist, killers, buf, bb)
            if value > alpha and not st[3]:
                value = -search(mes[i], opps[i], depth - 1, -beta, -value, 1, st, tm, w, tk, tv, hist, killers, buf, bb)
        if st[3]:
            break
        if value > best:
            best = value
            best_sq = sqs[i]
            if value > alpha:
                alpha = value
        st[4] = best
        st[5] = best_sq
        st[6] = i + 1
    return best_sq


@njit(_SOLVE_SIG, cache=True)
def solve(me, opp, alpha, beta, ply, st, tm, ek, ev, bb, buf):
    """Exact final disc difference within (alpha, beta), fail-soft (0 after a stop)."""
    if _tick(st, tm):
        return 0
    empty = ~(me | opp)
    if empty & (empty - ONE) == ZERO:
        if empty:
            sq = lowest_index(empty)
            f = flips(me, opp, sq)
            if f:
                return popcount(me | f | empty) - popcount(opp & ~f)
            f = flips(opp, me, sq)
            if f:
                return popcount(me & ~f) - popcount(opp | f | empty)
            diff = popcount(me) - popcount(opp)
            return diff + 1 if diff > 0 else (diff - 1 if diff < 0 else 0)
        return popcount(me) - popcount(opp)
    legal = moves(me, opp)
    if legal == ZERO:
        if moves(opp, me) == ZERO:
            n_empty = popcount(empty)
            diff = popcount(me) - popcount(opp)
            return diff + n_empty if diff > 0 else (diff - n_empty if diff < 0 else 0)
        return -solve(opp, me, -beta, -alpha, ply + 1, st, tm, ek, ev, bb, buf)
    n_empty = popcount(empty)
    slot = -1
    if n_empty > END_TT_EMPTIES:
        slot = _slot(me, opp)
        if ek[slot, 0] == me and ek[slot, 1] == opp:
            lo = ev[slot, 0]
            hi = ev[slot, 1]
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
    a0 = alpha
    b0 = beta
    best = -65
    if n_empty > END_SORT_EMPTIES:
        n = 0
        rest = legal
        while rest:
            sq = lowest_index(rest)
            rest &= rest - ONE
            f = flips(me, opp, sq)
            nme = opp & ~f
            nopp = me | f | (ONE << U(sq))
            key = popcount(moves(nme, nopp)) * 16 - PRIORITY[sq]
            j = n
            while j > 0 and buf[ply, j - 1] > key:
                buf[ply, j] = buf[ply, j - 1]
                bb[ply, j] = bb[ply, j - 1]
                bb[ply, 64 + j] = bb[ply, 64 + j - 1]
                j -= 1
            buf[ply, j] = key
            bb[ply, j] = nme
            bb[ply, 64 + j] = nopp
            n += 1
        for i in range(n):
            value = -solve(bb[ply, i], bb[ply, 64 + i], -beta, -alpha, ply + 1, st, tm, ek, ev, bb, buf)
            if st[3]:
                return 0
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
    else:
        odd = ZERO
        for q in range(4):
            if popcount(empty & QUADRANTS[q]) & 1:
                odd |= QUADRANTS[q]
        for part_k in range(2):
            part = legal & odd if part_k == 0 else legal & ~odd
            while part:
                sq = lowest_index(part)
                part &= part - ONE
                f = flips(me, opp, sq)
                value = -solve(opp & ~f, me | f | (ONE << U(sq)), -beta, -alpha, ply + 1, st, tm, ek, ev, bb, buf)
                if st[3]:
                    return 0
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            return best
    if slot >= 0:
        if ek[slot, 0] == me and ek[slot, 1] == opp:
            lo = ev[slot, 0]
            hi = ev[slot, 1]
        else:
            lo = -65
            hi = 65
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = best
            hi = best
        ek[slot, 0] = me
        ek[slot, 1] = opp
        ev[slot, 0] = lo
        ev[slot, 1] = hi
    return best


@njit(cache=True)
def solve_root(me, opp, first, alpha, beta, st, tm, ek, ev, bb, buf):
    """(value, best square) of an exact solve in the window (``alpha``, ``beta``); the side to
    move must have a legal move. ``first``: a move tried first. Square -1 after a stop."""
    legal = moves(me, opp)
    n = 0
    sqs = np.empty(64, dtype=np.int64)
    if first >= 0 and (legal >> U(first)) & ONE:
        sqs[0] = first
        n = 1
    for k in range(64):
        sq = STATIC_ORDER[k]
        if sq != first and (legal >> U(sq)) & ONE:
            sqs[n] = sq
            n += 1
    best = -65
    best_sq = sqs[0]
    for i in range(n):
        sq = sqs[i]
        f = flips(me, opp, sq)
        value = -solve(opp & ~f, me | f | (ONE << U(sq)), -beta, -alpha, 1, st, tm, ek, ev, bb, buf)
        if st[3]:
            return 0, -1
        if value > best:
            best = value
            best_sq = sq
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    break
    return best, best_sq


class Context:
    """The arrays one move's searches share (see the module docstring); reused across moves of a
    process (tables are cleared by :meth:`reset`)."""

    def __init__(self) -> None:
        n = 1 << TT_BITS
        self.st = np.zeros(8, dtype=np.int64)
        self.tm = np.zeros(1, dtype=np.float64)
        self.tk = np.zeros((n, 2), dtype=np.uint64)
        self.tv = np.zeros((n, 4), dtype=np.int64)
        self.ek = np.zeros((n, 2), dtype=np.uint64)
        self.ev = np.zeros((n, 2), dtype=np.int64)
        self.hist = np.zeros(64, dtype=np.int64)
        self.killers = np.full(128, -1, dtype=np.int64)
        self.buf = np.zeros((PLIES, 128), dtype=np.int64)
        self.bb = np.zeros((PLIES, 128), dtype=np.uint64)

    def reset(self, deadline: float, max_nodes: int | None) -> None:
        """Clear the tables and set the deadline (perf_counter s) and node limit."""
        self.tk[:] = 0
        self.ek[:] = 0
        self.hist[:] = 0
        self.killers[:] = -1
        self.st[:] = 0
        self.st[1] = max_nodes if max_nodes is not None else 1 << 62
        self.st[2] = min(CHECK_EVERY, int(self.st[1]))
        self.tm[0] = deadline

    def restart(self, deadline: float, max_nodes: int | None) -> None:
        """Clear the stop flag, set a new deadline and allow ``max_nodes`` more nodes (None: no
        limit); the tables and the node count stay."""
        self.st[3] = 0
        self.st[1] = int(self.st[0]) + max_nodes if max_nodes is not None else 1 << 62
        self.st[2] = min(int(self.st[0]) + CHECK_EVERY, int(self.st[1]))
        self.tm[0] = deadline


def warm_up() -> None:
    """Load (or compile) every compiled function by a tiny search and solve."""
    ctx = Context()
    ctx.reset(float("inf"), 2000)
    w = np.zeros((4, 9), dtype=np.int64)
    me, opp = U((1 << 27) | (1 << 36)), U((1 << 28) | (1 << 35))
    root(me, opp, 3, -1, ctx.st, ctx.tm, w, ctx.tk, ctx.tv, ctx.hist, ctx.killers, ctx.buf, ctx.bb)
    solve_root(me, opp, -1, -1, 1, ctx.st, ctx.tm, ctx.ek, ctx.ev, ctx.bb, ctx.buf)
