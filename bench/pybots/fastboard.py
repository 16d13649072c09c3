"""A fast caro board for search: flat padded cells, incremental window patterns, threat sets.

The incremental update (placing / removing a stone and re-classifying the windows around it) is
compiled (:mod:`.nbcore`, numba); the classification of a window stays here in Python, asked
once per distinct window and kept in a table the compiled code reads.

Internal only (the public interface is :func:`bench.pybots.choose_move`). Cells are indices into a
padded array: real square ``(col, row)`` is ``(row + 1) * W + col`` with ``W = size + 1``; the
extra column and the top and bottom rows hold ``EDGE``. Sides are ``1`` (X, moves first) and
``2`` (O).

For each empty cell and direction (row, column, diagonal, anti-diagonal), the window of
``2H + 1`` cells around it (``H = win_length + 1``; two bits per cell, ``EDGE`` beyond the board)
is looked up in a memoised table that classifies what a stone of each side on that cell would
make on that line, under the room's rules:

``FIVE`` a winning run (exact, blocked ends, Renju exact five for X all honoured); ``OPEN4`` a
four with two completions (an open four); ``FOUR`` a four with one completion; ``THREE`` an open
three (one more stone makes an open four); ``CTHREE`` a closed three (one more stone makes a
four); ``TWO`` / ``ONE`` weaker shapes. Classes are updated incrementally after every move and
undo, together with per-side cell scores, score totals and sets of threat cells.

The winning rule is asked in one place: :func:`run_ends` walks the whole contiguous run
through a cell (on the padded board and on a pattern window alike) and the engine's pure
:func:`caro.engine.caro.run_wins` gives the verdict on its length and two end cells. The
pattern table's ``FIVE``, :meth:`FastBoard.wins_at` (exact, used for the bots' own fives and
blocks) and :meth:`FastBoard.defences` (the end cells of a would-be run) all use it;
``bench/pybots/tests/test_bots_fastboard*.py`` check the verdicts against the engine's
:meth:`~caro.engine.caro.Board.play` on random positions of every rule set.
Renju fouls are decided by the engine's :func:`caro.engine.renju.foul_at`, called only when a
cheap filter says a foul is possible.
"""

from __future__ import annotations

import functools
import random

import numpy as np

from caro.engine.caro import Rules, geometry, run_wins
from caro.engine.renju import foul_at

from . import nbcore
from .nbcore import OUT_LEN, OUT_MISS

EMPTY, XS, OS, EDGE = 0, 1, 2, 3
NONE, ONE, TWO, CTHREE, THREE, FOUR, OPEN4, FIVE = range(8)

# Score of a cell for a side, per direction class.
WEIGHT = (0, 2, 8, 30, 120, 100, 900, 6000)
_WX = WEIGHT
_WO = WEIGHT


class _Geo:
    """Geometry of one board size (cached)."""

    def __init__(self, size: int, half: int) -> None:
        self.size = size
        self.W = W = size + 1
        self.NC = (size + 2) * W
        self.steps = (1, W, W + 1, 1 - W)
        self.reals = [(r + 1) * W + c for r in range(size) for c in range(size)]
        self.eng = [-1] * self.NC  # padded index -> engine index (row-major size*size)
        for i, q in enumerate(self.reals):
            self.eng[q] = i
        self.names = geometry(size).names
        # neighbourhood (distance <= 2) of each real cell, real cells only
        self.near = [()] * self.NC
        for q in self.reals:
            c, r = q % W, q // W - 1
            self.near[q] = tuple((rr + 1) * W + cc for rr in range(r - 2, r + 3) for cc in range(c - 2, c + 3)
                                 if 0 <= rr < size and 0 <= cc < size and (rr, cc) != (r, c))
        # the compiled kernel's geometry (nbcore's ``geo``): header, neighbours, class weights
        arr = np.full(8 + self.NC * nbcore.NEAR + 8, -1, dtype=np.int64)
        arr[0:8] = (self.NC, half, *self.steps, 0, 0)
        for q in self.reals:
            base = 8 + q * nbcore.NEAR
            arr[base:base + len(self.near[q])] = self.near[q]
        arr[8 + self.NC * nbcore.NEAR:] = WEIGHT
        self.arr = arr
        self.layout = nbcore.layout(self.NC)


@functools.cache
def _geo(size: int, half: int) -> _Geo:
    return _Geo(size, half)


def run_ends(cells: list[int], q: int, step: int, s: int) -> tuple[int, int]:
    """The two cells just beyond the whole contiguous run of ``s`` through ``q`` along ``step``.

    ``cells``: a flat list of cell codes (0 empty, 1 X, 2 O, 3 edge) whose ends hold a cell that
    is never ``s`` (the padded board's ``EDGE`` cells, a pattern window's two ``EMPTY`` pads), so
    the walk needs no bounds check. ``q`` itself counts as ``s`` whatever it holds (an empty cell
    being tried). Returns ``(a, b)``, indices with ``a < q < b``; the run is ``a + step .. b -
    step`` and has ``(b - a) // step - 1`` stones; ``cells[a]`` and ``cells[b]`` are what
    :func:`caro.engine.caro.run_wins` takes as its ends.
    """
    a = q - step
    while cells[a] == s:
        a -= step
    b = q + step
    while cells[b] == s:
        b += step
    return a, b


class _Patterns:
    """Memoised window classifier for one rule set.

    A window is the ``n = 2H + 1`` cells of one line centred on an empty cell; it is classified
    as a list of ``n + 2`` codes, the window between two ``EMPTY`` pads (what lies beyond the
    window counts as empty), so the centre is index ``C = H + 1``.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.L = rules.win_length
        self.H = self.L + 1
        self.C = self.H + 1
        self.R = self.L - 1
        self.n = 2 * self.H + 1
        self.mask = (1 << (2 * self.n)) - 1
        self.blocked = rules.blocked
        self.memo: dict[int, int] = {}
        self.side_memo: dict[tuple, int] = {}
        # position-keyed caches shared by every board of these rules (Zobrist hash keys):
        # defences() results, and the threat searches' proven failures (see threats.py)
        self.def_cache: dict[tuple[int, int], tuple[int, ...]] = {}
        self.fail_cache: dict[tuple, int] = {}
        self.win_cache: dict[tuple, int] = {}
        # Hard's alpha-beta transposition table, kept across its searches and moves (see
        # caro_bots.HardSearch), one table per search class and width:
        # (hash, side to move) -> (depth, bound flag, value, best move)
        self.search_tt: dict[tuple, dict[tuple[int, int], tuple[int, int, int, int]]] = {}
        # the compiled alpha-beta's transposition tables (caro_bots.CompiledSearch), per search
        # class and width: (keys, packed entries) arrays
        self.nb_search: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        # the compiled kernel's copy of ``memo`` (open addressing, see nbcore), grown 4x when half full
        self.mkeys = np.full(1 << 16, nbcore.EMPTY_KEY, dtype=np.int64)
        self.mvals = np.zeros(1 << 16, dtype=np.int64)
        self.stored = 0
        self.template: tuple | None = None  # an empty board's state (see FastBoard.__init__)

    def fill(self, keys: list[int]) -> None:
        """Classify the window ``keys`` the compiled kernel missed and store them in its table."""
        memo = self.memo
        vals = [memo[k] if k in memo else self.code(k) for k in keys]
        self.stored += len(keys)
        if self.stored * 2 > len(self.mkeys):
            size = len(self.mkeys) * 4
            self.mkeys = np.full(size, nbcore.EMPTY_KEY, dtype=np.int64)
            self.mvals = np.zeros(size, dtype=np.int64)
            keys, vals = list(memo), list(memo.values())
            self.stored = len(keys)
        nbcore.memo_put(self.mkeys, self.mvals, np.array(keys, dtype=np.int64), np.array(vals, dtype=np.int64))

    def fits(self, n: int) -> bool:
        """Whether ``n`` more keys fit in the compiled table without it growing (growing
        replaces its arrays: see :meth:`fill`)."""
        return (self.stored + n) * 2 <= len(self.mkeys)

    def reserve(self, n: int) -> None:
        """Grow the compiled table now, if need be, so that ``n`` more keys fit without growing
        (the compiled alpha-beta classifies the windows it meets into it, see :mod:`.nbsearch`)."""
        size = len(self.mkeys)
        while (self.stored + n) * 2 > size:
            size *= 4
        if size != len(self.mkeys):
            self.mkeys = np.full(size, nbcore.EMPTY_KEY, dtype=np.int64)
            self.mvals = np.zeros(size, dtype=np.int64)
            keys, vals = list(self.memo), list(self.memo.values())
            self.stored = len(keys)
            nbcore.memo_put(self.mkeys, self.mvals, np.array(keys, dtype=np.int64), np.array(vals, dtype=np.int64))

    def code(self, key: int) -> int:
        """Packed classes: bits 0-2 class for X, 3-5 class for O, 6-9 X stones within R."""
        n, H, R = self.n, self.H, self.R
        w = [(key >> (2 * j)) & 3 for j in range(n)]
        cx = self._side_class(w, XS)
        co = self._side_class(w, OS)
        nx = sum(1 for j in range(H - R, H + R + 1) if w[j] == XS)
        value = cx | (co << 3) | (nx << 6)
        self.memo[key] = value
        return value

    def _side_class(self, w: list[int], s: int) -> int:
        """Class for side ``s``, memoised on a canonical window: cells beyond the first
        opponent stone or edge on each side cannot matter, and a window and its mirror image
        classify alike."""
        opp, C, n = 3 - s, self.H, self.n
        c = list(w)
        j = C - 1
        while j >= 0 and c[j] != opp and c[j] != EDGE:
            j -= 1
        for i in range(j):
            c[i] = opp
        j = C + 1
        while j < n and c[j] != opp and c[j] != EDGE:
            j += 1
        for i in range(j + 1, n):
            c[i] = opp
        key = tuple(c)
        mirror = key[::-1]
        if mirror < key:
            key = mirror
        hit = self.side_memo.get((s, key))
        if hit is None:
            hit = self.side_memo[(s, key)] = self._classify([EMPTY, *key, EMPTY], s)
        return hit

    def _wins(self, w: list[int], e: int, s: int, need: int) -> bool:
        """Whether the run of ``s`` through ``e`` in the padded window ``w`` wins (and covers
        index ``need``)."""
        a, b = run_ends(w, e, 1, s)
        return a < need < b and run_wins(self.rules, s, b - a - 1, w[a], w[b])

    def _completions(self, w: list[int], s: int) -> int:
        C, R = self.C, self.R
        count = 0
        for e in range(C - R, C + R + 1):
            if w[e] == EMPTY:
                w[e] = s
                if self._wins(w, e, s, C):
                    count += 1
                w[e] = EMPTY
        return count

    def _four_kind(self, w: list[int], s: int) -> int:
        """0: no four through the centre; 1: a four; 2: an open four (no single defender
        stone in the window stops every completion; under blocked ends a four whose two
        completions depend on each other is only a four)."""
        comps = self._completions(w, s)
        if comps < 2:
            return comps
        if self.blocked == "none":
            return 2
        opp = 3 - s
        for y in range(1, self.n + 1):  # the window, not its pads
            if w[y] == EMPTY:
                w[y] = opp
                left = self._completions(w, s)
                w[y] = EMPTY
                if left == 0:
                    return 1
        return 2

    def _classify(self, w: list[int], s: int) -> int:
        C, R, L = self.C, self.R, self.L
        if w[C] != EMPTY:
            return NONE
        w[C] = s
        try:
            if self._wins(w, C, s, C):
                return FIVE
            kind = self._four_kind(w, s)
            if kind == 2:
                return OPEN4
            if kind == 1:
                return FOUR
            best = 0
            for e in range(C - R, C + R + 1):
                if w[e] == EMPTY:
                    w[e] = s
                    best = max(best, self._four_kind(w, s))
                    w[e] = EMPTY
                    if best >= 2:
                        return THREE
            if best == 1:
                return CTHREE
            m = 0
            for start in range(C - L + 1, C + 1):
                seg = w[start:start + L]
                if all(v == s or v == EMPTY for v in seg):
                    m = max(m, seg.count(s))
            return TWO if m >= 3 else ONE if m == 2 else NONE
        finally:
            w[C] = EMPTY


_PATTERNS: dict[Rules, _Patterns] = {}


def patterns(rules: Rules) -> _Patterns:
    """The (shared, memoised) pattern table of ``rules``."""
    table = _PATTERNS.get(rules)
    if table is None:
        table = _PATTERNS[rules] = _Patterns(rules)
    return table


_ZOBRIST: dict[int, list[list[int]]] = {}


def _zobrist(nc: int) -> list[list[int]]:
    table = _ZOBRIST.get(nc)
    if table is None:
        rnd = random.Random(20240604 + nc)
        table = _ZOBRIST[nc] = [[0] * nc, [rnd.getrandbits(64) for _ in range(nc)],
                                [rnd.getrandbits(64) for _ in range(nc)]]
    return table


class FastBoard:
    """Search board. ``turn`` is 1 (X) or 2 (O); ``history`` the cells played by :meth:`play`.

    ``sets[s][k]`` for ``k`` in THREE, FOUR, OPEN4, FIVE: the empty cells where side ``s`` would
    make that class on at least one line. ``score[s][q]``: sum over the four lines of
    ``WEIGHT[class]``; ``total[s]``: the sum of ``score[s]`` over empty cells.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.pat = pat = patterns(rules)
        self.geo = g = _geo(rules.size, self.pat.H)
        self.size = rules.size
        self.cells = [EDGE] * g.NC  # a Python mirror of the compiled state's cells (fast reads)
        for q in g.reals:
            self.cells[q] = EMPTY
        self.ecells = [0] * (rules.size ** 2)  # engine layout, for foul checks
        self._out = np.zeros(OUT_LEN, dtype=np.int64)
        self.sets = [None] + [[set() if k >= THREE else None for k in range(8)] for _ in (1, 2)]
        if pat.template is None:
            # an empty board's classes, computed once per rule set and copied from then on
            st = np.zeros(g.layout["len"], dtype=np.int64)
            st[:g.NC] = EDGE
            st[g.reals] = EMPTY
            self._st = st
            nbcore.init_keys(st, g.arr, np.array(g.reals, dtype=np.int64))
            for q in g.reals:
                self._apply(nbcore.move(st, g.arr, pat.mkeys, pat.mvals, self._out, q, -1), q)
            pat.template = (st.copy(), [None] + [[set(x) if x is not None else None for x in side]
                                                 for side in self.sets[1:]])
        else:
            self._st = pat.template[0].copy()
            self.sets = [None] + [[set(x) if x is not None else None for x in side] for side in pat.template[1][1:]]
        st, nc, lay = self._st, g.NC, g.layout
        self._flat = [self.sets[sk >> 3][sk & 7] if 8 <= sk and sk & 7 >= THREE else None for sk in range(24)]
        # views into the compiled state (same memory): read by the searches
        self.codes = [st[lay["codes"] + d * nc:lay["codes"] + (d + 1) * nc] for d in range(4)]
        self.score = [None] + [st[lay["score"] + s * nc:lay["score"] + (s + 1) * nc] for s in (1, 2)]
        self.total = st[lay["total"]:lay["total"] + 3]
        cnt0 = lay["cnt"]
        self.cnt = [None] + [[st[cnt0 + (s * 8 + k) * nc:cnt0 + (s * 8 + k + 1) * nc] if k >= THREE else None
                              for k in range(8)] for s in (1, 2)]
        self.nearc = st[lay["nearc"]:lay["nearc"] + nc]
        self.hash = 0
        self.zob = _zobrist(g.NC)
        self.turn = XS
        self.history: list[int] = []
        self.stones = 0
        self._foul_cache: dict[tuple[int, int], bool] = {}
        self.renju = rules.renju

    # -- set-up ---------------------------------------------------------------------------------

    @classmethod
    def from_engine(cls, board) -> FastBoard:
        """Build from a :class:`caro.engine.caro.Board` (its stones and turn)."""
        fb = cls(board.rules)
        g = fb.geo
        index = {name: g.reals[i] for i, name in enumerate(g.names)}
        for name, side in board.stones().items():
            fb.put(index[name], XS if side == "X" else OS)
        fb.history.clear()
        fb.turn = XS if board.turn == "X" else OS
        return fb

    def index(self, name: str) -> int:
        """Padded index of a square name (upper case, e.g. ``"H8"``)."""
        return self.geo.reals[self.geo.names.index(name.upper())]

    def name(self, q: int) -> str:
        """Square name of padded index ``q``."""
        return self.geo.names[self.geo.eng[q]]

    # -- moves ----------------------------------------------------------------------------------

    def put(self, q: int, s: int) -> None:
        """Place a stone of side ``s`` on empty cell ``q`` (no turn change, no history)."""
        self.cells[q] = s
        self.ecells[self.geo.eng[q]] = s
        self.hash ^= self.zob[s][q]
        self.stones += 1
        pat = self.pat
        self._apply(nbcore.move(self._st, self.geo.arr, pat.mkeys, pat.mvals, self._out, q, s), q)

    def remove(self, q: int) -> None:
        """Take the stone off cell ``q`` (no turn change, no history)."""
        s = self.cells[q]
        self.cells[q] = EMPTY
        self.ecells[self.geo.eng[q]] = 0
        self.hash ^= self.zob[s][q]
        self.stones -= 1
        pat = self.pat
        self._apply(nbcore.move(self._st, self.geo.arr, pat.mkeys, pat.mvals, self._out, q, 0), q)

    def _apply(self, r: int, q: int) -> None:
        """Take over a kernel call's results (packed counts ``r``, see :mod:`.nbcore`): the
        missed windows (classified, then the refresh is redone) and the threat-set changes.
        (The candidate cells are read from the compiled state when asked, see :attr:`cand`.)"""
        out = self._out
        while r >> 48:
            pat = self.pat
            pat.fill(out[OUT_MISS:OUT_MISS + (r >> 48)].tolist())
            r = nbcore.move(self._st, self.geo.arr, pat.mkeys, pat.mvals, out, q, -1)
        ns = r & 0xFFFF
        if ns:
            flat = self._flat
            for e in out[:ns].tolist():
                if e & 1:
                    flat[e >> 11].add((e >> 1) & 1023)
                else:
                    flat[e >> 11].discard((e >> 1) & 1023)

    @property
    def cand(self) -> set[int]:
        """Empty cells within distance 2 of a stone (a new set on every call)."""
        st, nc = self._st, self.geo.NC
        return set(np.flatnonzero((st[:nc] == EMPTY) & (self.nearc > 0)).tolist())

    def play(self, q: int) -> None:
        """Play the side to move on ``q`` and pass the turn."""
        self.put(q, self.turn)
        self.history.append(q)
        self.turn = 3 - self.turn

    def undo(self) -> None:
        """Take back the last :meth:`play`."""
        q = self.history.pop()
        self.remove(q)
        self.turn = 3 - self.turn

    # -- queries --------------------------------------------------------------------------------

    def cls(self, q: int, s: int) -> int:
        """Best class side ``s`` would make on cell ``q`` over the four lines."""
        shift = 0 if s == XS else 3
        return int(max((self.codes[d][q] >> shift) & 7 for d in range(4)))

    def four_count(self, q: int, s: int) -> int:
        """Number of lines on which ``s`` at ``q`` makes a four (open or not)."""
        return self.cnt[s][FOUR][q] + self.cnt[s][OPEN4][q]

    def wins_at(self, q: int, s: int) -> bool:
        """Exactly whether a stone of ``s`` on empty ``q`` completes a winning run (the
        engine's rule, :func:`caro.engine.caro.run_wins`, on the whole contiguous run through
        ``q`` on each of the four lines and its two end cells)."""
        cells, rules = self.cells, self.rules
        for step in self.geo.steps:
            a, b = run_ends(cells, q, step, s)
            if run_wins(rules, s, (b - a) // step - 1, cells[a], cells[b]):
                return True
        return False

    def is_foul(self, q: int) -> bool:
        """Whether X on empty ``q`` is a Renju foul (always False outside Renju)."""
        if not self.renju:
            return False
        heavy = 0
        for d in range(4):
            nx = self.codes[d][q] >> 6
            if nx >= 4:
                heavy = 2
                break
            if nx >= 2:
                heavy += 1
        if heavy < 2:
            return False
        key = (self.hash, q)
        hit = self._foul_cache.get(key)
        if hit is None:
            if len(self._foul_cache) > 200000:
                self._foul_cache.clear()
            hit = self._foul_cache[key] = foul_at(self.ecells, geometry(self.size).rays, self.geo.eng[q]) is not None
        return hit

    def legal(self, q: int, s: int) -> bool:
        """Whether side ``s`` may play empty cell ``q`` (Renju fouls excluded for X)."""
        return not (s == XS and self.renju and self.is_foul(q))

    def fives(self, s: int) -> list[int]:
        """Cells where ``s`` completes a winning run now (from the pattern table)."""
        return list(self.sets[s][FIVE])

    def four_moves(self, s: int) -> list[int]:
        """Legal cells where ``s`` makes at least one four (open or not), not a five."""
        st = self.sets[s]
        moves = (st[FOUR] | st[OPEN4]) - st[FIVE]
        if s == XS and self.renju:
            return [q for q in moves if not self.is_foul(q)]
        return list(moves)

    def three_moves(self, s: int) -> list[int]:
        """Legal cells where ``s`` makes an open three (and no four)."""
        st = self.sets[s]
        moves = st[THREE] - st[FOUR] - st[OPEN4] - st[FIVE]
        if s == XS and self.renju:
            return [q for q in moves if not self.is_foul(q)]
        return list(moves)

    def defences(self, a: int) -> list[int]:
        """Cells where the side not ``a`` can stop every five of ``a`` with one stone.

        Empty list: ``a`` has a five threat that cannot be stopped (or has none; check
        ``sets[a][FIVE]`` first). Under blocked ends a five-threat can also be stopped by
        blocking the far end of the would-be run; those cells are tried too. Renju legality of
        the reply is not checked here (see :meth:`legal`).
        """
        fives = self.sets[a][FIVE]
        if not fives:
            return []
        if self.rules.blocked == "none":
            return list(fives) if len(fives) == 1 else []
        cache = self.pat.def_cache
        key = (self.hash, a)
        hit = cache.get(key)
        if hit is not None:
            return list(hit)
        if len(cache) > 400000:
            cache.clear()
        cells = self.cells
        cands = set(fives)
        for z in fives:
            for step in self.geo.steps:
                lo, hi = run_ends(cells, z, step, a)
                if (hi - lo) // step - 1 >= self.rules.win_length:
                    if cells[lo] == EMPTY:
                        cands.add(lo)
                    if cells[hi] == EMPTY:
                        cands.add(hi)
        d = 3 - a
        out = []
        for c in cands:
            self.put(c, d)
            if not self.sets[a][FIVE]:
                out.append(c)
            self.remove(c)
        out.sort()  # cell order: the searches try the replies alike (the compiled one too)
        cache[key] = tuple(out)
        return out

    def winning_four_moves(self, s: int) -> list[int]:
        """Legal cells where ``s`` makes a five-threat the opponent cannot stop with one stone
        (an open four or two fours), checked by playing it."""
        cnt4, cnt5 = self.cnt[s][FOUR], self.cnt[s][OPEN4]
        out = []
        for q in self.sets[s][OPEN4] | self.sets[s][FOUR]:
            if cnt5[q] or cnt4[q] >= 2:
                if self.legal(q, s):
                    self.put(q, s)
                    unstoppable = not self.defences(s)
                    self.remove(q)
                    if unstoppable:
                        out.append(q)
        return out

    def candidates(self) -> list[int]:
        """Empty cells within distance 2 of a stone (the centre on an empty board)."""
        cand = self.cand
        if not cand:
            g = self.geo
            c = self.size // 2
            return [(c + 1) * g.W + c]
        return list(cand)
