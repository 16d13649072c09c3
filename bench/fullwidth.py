"""An independent check of a claimed forced win, for the puzzle benchmark (``bench/puzzles.py``).

A bot's threat search prunes: the defender answers an open three only on the cells that stop it
and with its own fours, and the attacker's threes are tried near its last moves. So a win it
finds is only as sound as that model. This check leaves the model out where it matters: after
every attacker move the defender tries **every empty cell**, and fives are decided by the
engine's run rule (:meth:`FastBoard.wins_at`, :func:`caro.engine.caro.run_wins`), not by the
pattern tables. Only the attacker's moves are suggested: the block when the defender made a four
(the defender then moves again), else a cell that makes two five-threats at once, else the first
move of a compiled df-pn VCT (wide: open threes anywhere); each is then checked here, so a wrong
suggestion can only make the check fail to prove, never prove a false win.

For freestyle and exact five without blocked ends (the puzzle file's rules): a position where
the attacker has two cells that each complete a five, and the defender has none, is lost for
the defender. Not part of the test suite's runtime paths; used by the benchmark and its test.
"""

from __future__ import annotations

import time

from bench.pybots.fastboard import FastBoard
from bench.pybots.threats import ThreatSearch
from caro.engine.caro import Board

SUGGEST_NODES = 500_000  # node cap of one df-pn suggestion of the attacker's next move
SUGGEST_S = 2.0  # and its time cap (seconds)


class _OutOfTime(Exception):
    pass


class FullWidthCheck:
    """``proves(board, move, depth, seconds)``: True when ``move`` (by the side to move of the
    engine ``board``) wins by force within ``depth`` further attacker moves against every reply;
    None when the check could not show it (it never claims a position is not a win)."""

    def __init__(self) -> None:
        self.nodes = 0
        self._memo: dict = {}

    def proves(self, board: Board, move: str, depth: int = 12, seconds: float | None = 60.0) -> bool | None:
        """``depth``: attacker moves after ``move``; ``seconds``: wall-time cap (None: none, the
        node caps of the suggestions alone bound the work, so the answer does not depend on the
        machine's speed). Raises ValueError for Renju or blocked ends."""
        rules = board.rules
        if rules.renju or rules.blocked != "none":
            raise ValueError("the full-width check covers freestyle and exact five without blocked ends")
        fb = FastBoard.from_engine(board)
        att = fb.turn
        self._deadline = time.perf_counter() + seconds if seconds is not None else float("inf")
        self._memo = {}
        fb.put(fb.index(move), att)
        try:
            return True if self._defender_loses(fb, att, depth) else None
        except _OutOfTime:
            return None

    # -- the AND-OR search -------------------------------------------------------------------

    def _empties(self, fb: FastBoard) -> list[int]:
        return [q for q in fb.geo.reals if fb.cells[q] == 0]

    def _fives(self, fb: FastBoard, s: int) -> list[int]:
        return [q for q in self._empties(fb) if fb.wins_at(q, s)]

    def _double_threats(self, fb: FastBoard, s: int) -> list[int]:
        out = []
        for q in fb.four_moves(s):
            fb.put(q, s)
            if len(self._fives(fb, s)) >= 2:
                out.append(q)
            fb.remove(q)
        return out[:2]

    def _suggestions(self, fb: FastBoard, att: int, depth: int) -> list[int]:
        """The attacker's moves worth checking: its double five-threats, then the first move of a
        wide compiled df-pn VCT of at most `depth` attacker moves."""
        tries = self._double_threats(fb, att)
        turn = fb.turn
        fb.turn = att
        try:
            limit = min(self._deadline, time.perf_counter() + SUGGEST_S) if self._deadline != float("inf") \
                else float("inf")
            ts = ThreatSearch(fb, limit, max_nodes=SUGGEST_NODES, compiled=True, three_width=40, zone=False)
            line = ts.dfpn(depth=depth)
        finally:
            fb.turn = turn
        if line and line[0] is not None and line[0] not in tries:
            tries.append(line[0])
        return tries

    def _attacker_wins(self, fb: FastBoard, att: int, depth: int) -> bool:
        self.nodes += 1
        if time.perf_counter() > self._deadline:
            raise _OutOfTime
        key = (fb.hash, att, depth, "A")
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        won = False
        if self._fives(fb, att):
            won = True
        elif depth > 0:
            # the defender made a four: the attacker blocks it (and the defender moves again); else
            # the attacker's suggested moves
            tries = self._fives(fb, 3 - att) or self._suggestions(fb, att, depth)
            for m in tries:
                fb.put(m, att)
                try:
                    won = self._defender_loses(fb, att, depth - 1)
                finally:
                    fb.remove(m)
                if won:
                    break
        self._memo[key] = won
        return won

    def _defender_loses(self, fb: FastBoard, att: int, depth: int) -> bool:
        d = 3 - att
        key = (fb.hash, att, depth, "D")
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        lost = True
        if self._fives(fb, d):
            lost = False  # the defender completes a five first
        else:
            threats = self._fives(fb, att)
            if len(threats) >= 2:
                replies = []  # two fives to stop with one stone
            elif threats:
                replies = threats  # the only cell that stops the five
            else:
                replies = self._empties(fb)  # every cell: nothing is assumed about the defence
            for r in replies:
                fb.put(r, d)
                try:
                    ok = self._attacker_wins(fb, att, depth)
                finally:
                    fb.remove(r)
                if not ok:
                    lost = False
                    break
        self._memo[key] = lost
        return lost
