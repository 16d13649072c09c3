"""The computer's steps in the opening procedures (RIF, Swap2), at every level.

``choose_opening_action(machine, level, budget_ms=1000, rng=None) -> dict`` takes an engine
machine (:class:`caro.engine.openings.RifOpening` or :class:`~caro.engine.openings.Swap2Opening`,
not changed) whose ``actor`` is the computer's seat, and returns an engine action dict for its
current step:

* **placing opening stones**: Easy takes one of a small set of known, fairly balanced openings
  (:data:`SWAP2_OPENINGS`, :data:`RIF_OPENINGS`); Medium and Hard score candidate placements
  with a search (:func:`position_value`) and take the one closest to balance, because the other
  seat then picks the colour it prefers: a lopsided position would hand it a won game.
* **swap or keep** (RIF), **choose a colour or place two more** (Swap2): the colour its
  evaluation prefers; Easy's and Medium's second seat in Swap2 hands the choice back when the
  position is close to balance (within :data:`BALANCED`). Hard never hands it back (placing two
  stones it cannot use gives the opponent a free, informed choice) and in a close Swap2 position
  takes X, the side with the extra tempo: it gives up X only when O is clearly better (by more
  than :data:`FIRST_MOVE_EDGE`, or O has a forced win).
* **offering two 5th moves** (RIF, Black): White will select whichever is worse for Black, so
  Black offers the pair whose weaker move is the best it can get (two strong, non-equivalent
  points; never a foul).
* **selecting an offered 5th move** (RIF, White): the one its evaluation says is weaker for Black.

Values are from Black's (X's) point of view, in the pattern units of :mod:`.caro_bots`. Renju
fouls are respected: every square comes from the engine's legal moves.
"""

from __future__ import annotations

import random
import time

from caro.engine.caro import O, X
from caro.engine.coords import parse_square, square_name
from caro.engine.openings import RifOpening, Step, symmetries

from .caro_bots import WIN, AlphaBeta
from .fastboard import XS, FastBoard
from .threats import ThreatSearch, Timeout

#: Known openings for Swap2's first three stones (X, O, X) on 15×15, centred on H8: spread shapes
#: in which neither colour has an easy attack. Easy picks one; Medium and Hard score them too.
SWAP2_OPENINGS = [
    ("H8", "J10", "G10"), ("H8", "K8", "H10"), ("H8", "J7", "F9"), ("H8", "G11", "J9"),
    ("H8", "K10", "F8"), ("H8", "H11", "J9"), ("H8", "E9", "J10"), ("H8", "J11", "G9"),
]
#: Known RIF openings (moves 2 and 3 after H8), direct and indirect, that are not the strong
#: Black wins of the 26 standard openings (far third stones).
RIF_OPENINGS = [
    ("H7", "H6"), ("H7", "J6"), ("H7", "F6"), ("H7", "J10"),
    ("I7", "J9"), ("I7", "F9"), ("I7", "F6"), ("I7", "J10"),
]
#: |value| under which a position counts as balanced (pattern units: about an open two).
BALANCED = 120
#: How much better O must look before Hard gives up X in Swap2 (pattern units): in free gomoku
#: the side with the extra tempo keeps the initiative, so a close position favours X.
FIRST_MOVE_EDGE = 2 * BALANCED
#: Search depth of the evaluation per level (plies) and the candidate placements scored.
DEPTHS = {"easy": 2, "medium": 3, "hard": 6}
CANDIDATES = {"easy": 6, "medium": 8, "hard": 12}


class _Balanced(AlphaBeta):
    """The search with a symmetric leaf evaluation (each side's pattern total counts the same):
    the bots' move search weighs the opponent's shapes more, which is right for choosing a move
    but makes the value swing with the parity of the depth; a colour choice needs the value of
    the position itself."""

    attack, defence = 10, 10


def position_value(board, depth: int, deadline: float) -> int:
    """The value of ``board`` for X (Black): the mean of the alpha-beta values at the last two
    depths reached (iterative deepening up to ``depth`` plies, stopping at ``deadline``, a
    perf_counter time); positive when Black is better. A forced win for the side to move (a
    VCF) counts as ``WIN``."""
    if board.outcome is not None:
        winner = board.outcome.winner
        return 0 if winner is None else (WIN if winner == X else -WIN)
    fb = FastBoard.from_engine(board)
    sign = 1 if fb.turn == XS else -1
    if ThreatSearch(fb, min(deadline, time.perf_counter() + 0.05), max_nodes=2000).vcf(depth=8):
        return sign * WIN
    ab = _Balanced(fb, deadline, width=8)
    moves = ab.moves(fb.turn, 10)
    if not moves:
        return sign * ab.evaluate()
    values = [ab.evaluate()]
    for d in range(1, depth + 1):
        try:
            values.append(ab.root(moves, d)[0][0])
        except Timeout:
            break
    # the value swings with the parity of the depth (the side that placed the last stone of the
    # line looks better): the mean of the last two depths cancels the swing
    return sign * (values[-1] + values[-2]) // 2 if len(values) > 1 else sign * values[0]


def choose_opening_action(machine, level: str, budget_ms: int = 1000,
                          rng: random.Random | int | None = None) -> dict:
    """The action dict for the machine's current step (see the module docstring).

    ``level``: "easy", "medium" or "hard"; ``budget_ms``: thinking time (Hard uses about 0.8 of
    it); ``rng``: a Random, an int seed or None. Raises ValueError for an unknown level or a
    machine whose opening is over.
    """
    if level not in DEPTHS:
        raise ValueError(f"unknown level {level!r}")
    if machine.finished:
        raise ValueError("the opening is over")
    if isinstance(rng, int) or rng is None:
        rng = random.Random(rng)
    deadline = time.perf_counter() + max(budget_ms, 50) / 1000 * 0.8
    return _Chooser(machine, level, rng, deadline).choose()


class _Chooser:
    def __init__(self, machine, level: str, rng: random.Random, deadline: float) -> None:
        self.machine, self.level, self.rng, self.deadline = machine, level, rng, deadline
        self.board = machine.board
        self.depth = DEPTHS[level]

    def value(self, board, share: float = 1.0) -> int:
        now = time.perf_counter()
        return position_value(board, self.depth, now + max(0.0, self.deadline - now) * share)

    def after(self, *squares: str):
        board = self.board.copy()
        for square in squares:
            board.play(square)
        return board

    def choose(self) -> dict:
        state = self.machine.state
        if state in (Step.PLACE_1, Step.PLACE_2, Step.PLACE_3, Step.PLACE_THREE):
            return {"kind": "place", "square": self.first_stones()}
        if state == Step.SWAP:
            return {"kind": "swap" if self.value(self.board) > 0 else "keep"}
        if state == Step.SECOND_CHOICE:
            value = self.value(self.board)
            if self.level == "hard":
                return {"kind": "choose", "color": self.hard_colour(value)}
            if abs(value) < BALANCED:
                return {"kind": "place", "square": self.balancing_stone()}
            return {"kind": "choose", "color": X if value > 0 else O}
        if state == Step.SECOND_PLACE:
            return {"kind": "place", "square": self.balancing_stone()}
        if state == Step.FIRST_CHOICE:
            return {"kind": "choose", "color": X if self.value(self.board) > 0 else O}
        if state == Step.PLACE_4:
            return {"kind": "place", "square": self.best_for_mover()}
        if state == Step.OFFER_5:
            return {"kind": "offer", "squares": self.offer()}
        if state == Step.SELECT_5:
            scored = [(self.value(self.after(sq), 0.5), sq) for sq in self.machine.offers]
            return {"kind": "select", "square": min(scored)[1]}
        raise ValueError(f"no action for step {state!r}")  # pragma: no cover - DONE is refused above

    def hard_colour(self, value: int) -> str:
        """Hard's colour in Swap2 for a position worth ``value`` (for X): X unless O is clearly
        better (by more than :data:`FIRST_MOVE_EDGE`)."""
        return O if value < -FIRST_MOVE_EDGE else X

    # -- placing the first stones (the placer wants balance: the other seat picks the colour)

    def first_stones(self) -> str:
        plies = self.board.ply
        if isinstance(self.machine, RifOpening):
            if plies == 0:
                return _centre(self.board)
            pool = [("H8", *line) for line in RIF_OPENINGS]
        else:
            pool = list(SWAP2_OPENINGS)
        pool = [_shift(line, self.board.rules.size) for line in pool]
        played = self.board.moves
        going = [line for line in pool if list(line[:plies]) == played]
        if going:  # keep to the opening begun (one stone per step)
            if self.level == "easy" or len(going) == 1:
                return going[self.rng.randrange(len(going))][plies]
            return self.most_balanced([line[plies:] for line in going])[0]
        if self.level == "easy":
            return self.rng.choice(self.legal_near())
        return self.balancing_stone()

    def most_balanced(self, continuations: list[tuple[str, ...]]) -> tuple[str, ...]:
        scored = []
        for k, rest in enumerate(continuations):
            share = 1 / (len(continuations) - k)
            scored.append((abs(self.value(self.after(*rest), share)), rest))
        return min(scored)[1]

    def balancing_stone(self) -> str:
        """The legal stone (of the colour to place) after which the position is closest to balance."""
        options = self.legal_near()[:CANDIDATES[self.level]]
        scored = []
        for k, square in enumerate(options):
            share = 1 / (len(options) - k)
            scored.append((abs(self.value(self.after(square), share)), square))
        return min(scored)[1]

    def best_for_mover(self) -> str:
        options = self.legal_near()[:CANDIDATES[self.level]]
        sign = 1 if self.board.turn == X else -1
        scored = []
        for k, square in enumerate(options):
            scored.append((sign * self.value(self.after(square), 1 / (len(options) - k)), square))
        return max(scored)[1]

    def legal_near(self) -> list[str]:
        """Legal squares for the stone to place, the most promising first (near the stones, and
        inside the RIF area when the step has one)."""
        fb = FastBoard.from_engine(self.board)
        me, opp = fb.turn, 3 - fb.turn
        zone = _rif_radius(self.machine)
        size = self.board.rules.size
        legal = set(self.board.legal_moves())
        names = [fb.name(q) for q in sorted(fb.candidates(), key=lambda q: -(fb.score[me][q] + fb.score[opp][q]))]
        names = [n for n in names if n in legal] or sorted(legal)
        if zone is not None:
            c0 = size // 2
            names = [n for n in legal if max(abs(a - c0) for a in parse_square(n, size)) <= zone]
            names.sort()
        return names

    # -- RIF: the 5th move

    def offer(self) -> list[str]:
        """Two non-equivalent 5th moves, the pair whose weaker one is best for Black."""
        options = self.legal_near()[:CANDIDATES[self.level]]
        scored = []
        for k, square in enumerate(options):
            scored.append((self.value(self.after(square), 1 / (len(options) - k)), square))
        scored.sort(reverse=True)
        size = self.board.rules.size
        syms = symmetries(self.board)
        first = scored[0][1]
        pa = parse_square(first, size)
        for _value, square in scored[1:]:
            if not any(t(*pa) == parse_square(square, size) for t in syms):
                return [first, square]
        for square in self.board.legal_moves():  # every candidate mirrored the first: any other
            if square != first and not any(t(*pa) == parse_square(square, size) for t in syms):
                return [first, square]
        raise ValueError("no second 5th move to offer")  # pragma: no cover - a near-empty board


def _centre(board) -> str:
    size = board.rules.size
    return square_name(size // 2, size // 2)


def _rif_radius(machine) -> int | None:
    return {Step.PLACE_1: 0, Step.PLACE_2: 1, Step.PLACE_3: 2}.get(machine.state) if isinstance(machine, RifOpening) else None


def _shift(line: tuple[str, ...], size: int) -> tuple[str, ...]:
    """`line` (written for 15×15, centred on H8) moved to the centre of a `size` board."""
    d = size // 2 - 7
    return tuple(square_name(c + d, r + d) for c, r in (parse_square(sq, 15) for sq in line))
