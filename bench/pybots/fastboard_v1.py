"""The pure-Python search board of before issue 16, frozen with :mod:`.hard_v1` (benchmark only).

``hard_v1`` is measured against the new Hard as it was, speed included, so it keeps this board;
every level players meet uses the compiled :mod:`.fastboard`. What follows is the old text.

Internal only (the public interface is :func:`bench.pybots.choose_move`). Cells are indices into a
padded array: real square ``(col, row)`` is ``(row + 1) * W + col`` with ``W = size + 1``; the
extra column and the top and bottom rows hold ``EDGE``. Sides are ``1`` (X, moves first) and
``2`` (O).

Every line (row, column, diagonal, anti-diagonal) is also kept as one Python int, two bits per
cell, padded with ``EDGE`` cells. For each empty cell and direction, the window of ``2H + 1``
cells around it (``H = win_length + 1``) is looked up in a memoised table that classifies what a
stone of each side on that cell would make on that line, under the room's rules:

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

from caro.engine.caro import Rules, geometry, run_wins
from caro.engine.renju import foul_at

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
        # lines: per direction, per padded cell: line id and bit shift of its window
        self.lid = [[0] * self.NC for _ in range(4)]
        self.sh = [[0] * self.NC for _ in range(4)]
        self.bit = [[0] * self.NC for _ in range(4)]  # bit offset of the cell itself
        self.line_init: list[int] = []
        for d, (dc, dr) in enumerate(((1, 0), (0, 1), (1, 1), (1, -1))):
            starts = []
            for r in range(size):
                for c in range(size):
                    pc, pr = c - dc, r - dr
                    if not (0 <= pc < size and 0 <= pr < size):
                        starts.append((c, r))
            for c, r in starts:
                cells = []
                while 0 <= c < size and 0 <= r < size:
                    cells.append((r + 1) * W + c)
                    c, r = c + dc, r + dr
                lid = len(self.line_init)
                value = 0
                for k in range(half):
                    value |= EDGE << (2 * k)
                    value |= EDGE << (2 * (half + len(cells) + k))
                self.line_init.append(value)
                for k, q in enumerate(cells):
                    pos = half + k
                    self.lid[d][q] = lid
                    self.sh[d][q] = 2 * (pos - half)
                    self.bit[d][q] = 2 * pos
        # neighbourhood (distance <= 2) of each real cell, real cells only
        self.near = [()] * self.NC
        for q in self.reals:
            c, r = q % W, q // W - 1
            self.near[q] = tuple((rr + 1) * W + cc for rr in range(r - 2, r + 3) for cc in range(c - 2, c + 3)
                                 if 0 <= rr < size and 0 <= cc < size and (rr, cc) != (r, c))


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
        self.pat = patterns(rules)
        self.geo = g = _geo(rules.size, self.pat.H)
        self.size = rules.size
        self.cells = [EDGE] * g.NC
        for q in g.reals:
            self.cells[q] = EMPTY
        self.ecells = [0] * (rules.size ** 2)  # engine layout, for foul checks
        self.lines = list(g.line_init)
        self.codes = [[0] * g.NC for _ in range(4)]
        self.score = [None, [0] * g.NC, [0] * g.NC]
        self.total = [0, 0, 0]
        self.cnt = [None] + [[[0] * g.NC if k >= THREE else None for k in range(8)] for _ in (1, 2)]
        self.sets = [None] + [[set() if k >= THREE else None for k in range(8)] for _ in (1, 2)]
        self.nearc = [0] * g.NC
        self.cand: set[int] = set()
        self.hash = 0
        self.zob = _zobrist(g.NC)
        self.turn = XS
        self.history: list[int] = []
        self.stones = 0
        self._foul_cache: dict[tuple[int, int], bool] = {}
        self.renju = rules.renju
        for q in g.reals:
            self._refresh_cell(q)

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
        g = self.geo
        self.cells[q] = s
        self.ecells[g.eng[q]] = s
        self.hash ^= self.zob[s][q]
        self.stones += 1
        lines, lid, bit = self.lines, g.lid, g.bit
        for d in range(4):
            lines[lid[d][q]] |= s << bit[d][q]
        cand, nearc, cells = self.cand, self.nearc, self.cells
        cand.discard(q)
        for nb in g.near[q]:
            nearc[nb] += 1
            if cells[nb] == EMPTY:
                cand.add(nb)
        self._refresh(q)

    def remove(self, q: int) -> None:
        """Take the stone off cell ``q`` (no turn change, no history)."""
        g = self.geo
        s = self.cells[q]
        self.cells[q] = EMPTY
        self.ecells[g.eng[q]] = 0
        self.hash ^= self.zob[s][q]
        self.stones -= 1
        lines, lid, bit = self.lines, g.lid, g.bit
        for d in range(4):
            lines[lid[d][q]] &= ~(3 << bit[d][q])
        cand, nearc = self.cand, self.nearc
        for nb in g.near[q]:
            nearc[nb] -= 1
            if nearc[nb] == 0:
                cand.discard(nb)
        if nearc[q] > 0:
            cand.add(q)
        self._refresh(q)

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

    # -- incremental patterns -------------------------------------------------------------------

    def _refresh(self, p: int) -> None:
        """Re-classify ``p`` and the empty cells within ``H`` of it on its four lines (inlined
        class changes: score deltas from per-code tables, threat sets only for classes >= THREE)."""
        g, cells, H = self.geo, self.cells, self.pat.H
        pat = self.pat
        memo, mask = pat.memo, pat.mask
        lines = self.lines
        wx, wo = _WX, _WO
        score_x, score_o = self.score[XS], self.score[OS]
        tx = to = 0
        for d in range(4):
            step = g.steps[d]
            codes, lid, sh = self.codes[d], g.lid[d], g.sh[d]
            if cells[p] == EMPTY:
                key = (lines[lid[p]] >> sh[p]) & mask
                new = memo.get(key)
                if new is None:
                    new = pat.code(key)
                if new != codes[p]:
                    self._change(d, p, codes[p], new)
            elif codes[p]:
                self._change(d, p, codes[p], 0)
            for sgn in (step, -step):
                q = p
                for _ in range(H):
                    q += sgn
                    c = cells[q]
                    if c == EDGE:
                        break
                    if c:
                        continue
                    key = (lines[lid[q]] >> sh[q]) & mask
                    new = memo.get(key)
                    if new is None:
                        new = pat.code(key)
                    old = codes[q]
                    if new != old:
                        codes[q] = new
                        if (new ^ old) & 63:
                            if (new | old) & 36:  # a class >= THREE (4..7) on either side
                                self._change(d, q, old, new)
                            else:
                                dx = wx[new & 7] - wx[old & 7]
                                do = wo[(new >> 3) & 7] - wo[(old >> 3) & 7]
                                score_x[q] += dx
                                score_o[q] += do
                                tx += dx
                                to += do
        self.total[XS] += tx
        self.total[OS] += to

    def _refresh_cell(self, p: int) -> None:
        g, mask = self.geo, self.pat.mask
        for d in range(4):
            key = (self.lines[g.lid[d][p]] >> g.sh[d][p]) & mask
            new = self.pat.memo.get(key)
            if new is None:
                new = self.pat.code(key)
            if new != self.codes[d][p]:
                self._change(d, p, self.codes[d][p], new)

    def _change(self, d: int, q: int, old: int, new: int) -> None:
        self.codes[d][q] = new
        for s, shift in ((XS, 0), (OS, 3)):
            co = (old >> shift) & 7
            cn = (new >> shift) & 7
            if co == cn:
                continue
            delta = WEIGHT[cn] - WEIGHT[co]
            self.score[s][q] += delta
            self.total[s] += delta
            if co >= THREE:
                arr = self.cnt[s][co]
                arr[q] -= 1
                if arr[q] == 0:
                    self.sets[s][co].discard(q)
            if cn >= THREE:
                arr = self.cnt[s][cn]
                arr[q] += 1
                if arr[q] == 1:
                    self.sets[s][cn].add(q)

    # -- queries --------------------------------------------------------------------------------

    def cls(self, q: int, s: int) -> int:
        """Best class side ``s`` would make on cell ``q`` over the four lines."""
        shift = 0 if s == XS else 3
        return max((self.codes[d][q] >> shift) & 7 for d in range(4))

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
        if not self.cand:
            g = self.geo
            c = self.size // 2
            return [(c + 1) * g.W + c]
        return list(self.cand)
