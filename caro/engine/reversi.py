"""Reversi (Othello) on bitboards.

Squares are ``a1``-``h8``: column a at the left, row 1 at the TOP. Bit ``row * 8 + col`` of a
Python int stands for a square (a1 = bit 0, h1 = bit 7, a8 = bit 56). The game starts with d4
and e5 white, d5 and e4 black, Black to move.

Rules (``shared/reference/reversi-rules-ttakji.txt``; World Othello Federation rules): a move
must flip at least one disc; every opponent line bracketed by the new disc and the nearest own
disc, in all eight directions, flips. A side with no legal move passes; the pass is automatic
and only then (:meth:`Board.play` reports it). The game ends when neither side can move (empty
squares may remain); more discs wins, equal counts draw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .coords import parse_reversi_square, reversi_square_name
from .errors import GAME_OVER, MUST_PASS, MUST_PLAY, NO_FLIP, OCCUPIED, WRONG_TURN, IllegalMove

__all__ = ["BLACK", "WHITE", "Board", "MoveResult", "Outcome", "perft", "legal_bits", "flips_bits"]

BLACK, WHITE = "black", "white"
FULL = (1 << 64) - 1
_INNER = 0x7E7E7E7E7E7E7E7E  # columns b-g: a bracketed run never crosses the a/h edge
NAMES = tuple(reversi_square_name(i % 8, i // 8) for i in range(64))
_START_BLACK = (1 << (4 * 8 + 3)) | (1 << (3 * 8 + 4))  # d5, e4
_START_WHITE = (1 << (3 * 8 + 3)) | (1 << (4 * 8 + 4))  # d4, e5

_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))


def _rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    rays = []
    for i in range(64):
        per_square = []
        for dc, dr in _DIRECTIONS:
            c, r, ray = i % 8 + dc, i // 8 + dr, []
            while 0 <= c < 8 and 0 <= r < 8:
                ray.append(1 << (r * 8 + c))
                c, r = c + dc, r + dr
            if len(ray) >= 2:  # a flip needs an opponent disc and an own disc beyond it
                per_square.append(tuple(ray))
        rays.append(tuple(per_square))
    return tuple(rays)


_RAYS = _rays()  # per square: single-bit masks walking away from it, one tuple per direction


def legal_bits(me: int, opp: int) -> int:
    """Bitboard of the legal moves for the side owning ``me`` against ``opp`` (both bitboards)."""
    empty = ~(me | opp) & FULL
    inner = opp & _INNER
    moves = 0
    for shift, mask in ((1, inner), (8, opp), (7, inner), (9, inner)):
        t = mask & (me << shift)
        t |= mask & (t << shift)
        t |= mask & (t << shift)
        t |= mask & (t << shift)
        t |= mask & (t << shift)
        t |= mask & (t << shift)
        moves |= t << shift
        t = mask & (me >> shift)
        t |= mask & (t >> shift)
        t |= mask & (t >> shift)
        t |= mask & (t >> shift)
        t |= mask & (t >> shift)
        t |= mask & (t >> shift)
        moves |= t >> shift
    return moves & empty


def flips_bits(me: int, opp: int, square: int) -> int:
    """Bitboard of the discs a move on bit index ``square`` flips (0 if none): in each direction,
    the opponent discs up to the nearest own disc."""
    flips = 0
    for ray in _RAYS[square]:
        run = 0
        for bit in ray:
            if opp & bit:
                run |= bit
            elif me & bit:
                flips |= run
                break
            else:
                break
    return flips


def _names(bits: int) -> list[str]:
    return [NAMES[i] for i in range(64) if bits >> i & 1]


@dataclass(frozen=True)
class Outcome:
    """A finished game: ``winner`` is ``"black"``, ``"white"`` or None (draw); ``black`` and
    ``white`` are the final disc counts."""

    winner: str | None
    black: int
    white: int


@dataclass(frozen=True)
class MoveResult:
    """What one :meth:`Board.play` did: the ``square`` played, the ``flips`` (square names in
    board order: a1, b1, ..., h8), ``passed`` = the next side had no legal move and passed automatically (the mover
    moves again), and the ``outcome`` if the game ended."""

    square: str
    flips: tuple[str, ...]
    passed: bool
    outcome: Outcome | None


class Board:
    """A Reversi position: ``turn`` (``"black"``/``"white"``), ``moves`` (squares played, passes
    implied), ``passes`` (automatic passes so far), ``outcome`` (None while playing). Queries
    never change the board."""

    def __init__(self) -> None:
        self._black, self._white = _START_BLACK, _START_WHITE
        self.turn = BLACK
        self.outcome: Outcome | None = None
        self._history: list[tuple[int, int, str, str]] = []  # (black, white, turn, square) before each move
        self.passes = 0

    @classmethod
    def from_moves(cls, moves: str) -> Board:
        """Play a move string such as ``"f5d6c3"`` (case-insensitive; passes are not written,
        they happen automatically). Raises IllegalMove for an illegal move or bad square."""
        board = cls()
        text = moves.strip()
        if len(text) % 2:
            raise IllegalMove("bad_square", f"odd-length move string: {moves!r}")
        for k in range(0, len(text), 2):
            board.play(text[k:k + 2])
        return board

    @classmethod
    def from_discs(cls, black: Iterable[str] = (), white: Iterable[str] = (), turn: str = BLACK) -> Board:
        """Set up any position (diagrams, tests). No pass is applied: if ``turn`` has no move
        but the other side does, :meth:`pass_turn` must be called. If neither side can move the
        outcome is set. Raises IllegalMove for bad or repeated squares, ValueError for ``turn``."""
        if turn not in (BLACK, WHITE):
            raise ValueError(f"turn must be 'black' or 'white', not {turn!r}")
        board = cls()
        board._black = board._white = 0
        for colour, squares in ((BLACK, black), (WHITE, white)):
            for square in squares:
                bit = 1 << board._index(square)
                if (board._black | board._white) & bit:
                    raise IllegalMove(OCCUPIED, f"{square} is listed twice", square=square)
                if colour == BLACK:
                    board._black |= bit
                else:
                    board._white |= bit
        board.turn = turn
        if not legal_bits(board._black, board._white) and not legal_bits(board._white, board._black):
            board.outcome = board._final()
        return board

    def position(self) -> str:
        """The position as a compact string: the side to move and the two bitboards in hex
        (``"black:0000000810000000:0000001008000000"``). The moves, passes and outcome are not
        part of it: :meth:`from_position` gives a board to play on."""
        return f"{self.turn}:{self._black:016x}:{self._white:016x}"

    @classmethod
    def from_position(cls, text: str) -> Board:
        """The board of :meth:`position`'s ``text``, ready to play on: the same discs and side to
        move, ``moves`` empty, ``passes`` 0 and ``outcome`` None (the position of a game in play;
        after a pass the side stored is the one that moves). Raises ValueError for a string that
        is not a position."""
        try:
            turn, black, white = text.split(":")
            black, white = int(black, 16), int(white, 16)
        except (AttributeError, ValueError):
            raise ValueError("not a Reversi position") from None
        if turn not in (BLACK, WHITE) or black & white or not (0 <= black < 1 << 64 and 0 <= white < 1 << 64):
            raise ValueError("not a Reversi position")
        board = cls()
        board._black, board._white, board.turn = black, white, turn
        return board

    def copy(self) -> Board:
        """An independent copy."""
        other = Board()
        other._black, other._white, other.turn, other.outcome = self._black, self._white, self.turn, self.outcome
        other._history, other.passes = list(self._history), self.passes
        return other

    # -- queries -------------------------------------------------------------------------------

    @property
    def moves(self) -> list[str]:
        """Squares played so far, in order (passes implied)."""
        return [entry[3] for entry in self._history]

    @property
    def ply(self) -> int:
        """Number of discs played (passes not counted)."""
        return len(self._history)

    def _me_opp(self) -> tuple[int, int]:
        return (self._black, self._white) if self.turn == BLACK else (self._white, self._black)

    def legal_moves(self) -> list[str]:
        """Legal squares for the side to move, sorted by name; empty when it must pass or the
        game is over."""
        if self.outcome is not None:
            return []
        return sorted(_names(legal_bits(*self._me_opp())))

    def disc_at(self, square: str) -> str | None:
        """``"black"``, ``"white"`` or None for ``square``; IllegalMove for bad names."""
        bit = 1 << self._index(square)
        return BLACK if self._black & bit else WHITE if self._white & bit else None

    def discs(self) -> dict[str, str]:
        """Every disc as ``{square name: "black" | "white"}``."""
        return {**{n: BLACK for n in _names(self._black)}, **{n: WHITE for n in _names(self._white)}}

    def count(self) -> tuple[int, int]:
        """Disc counts ``(black, white)``."""
        return self._black.bit_count(), self._white.bit_count()

    def flips(self, square: str) -> list[str]:
        """Squares a move on ``square`` by the side to move would flip, in board order (a1, b1,
        ..., h8); empty if none or if the square is occupied."""
        index = self._index(square)
        if (self._black | self._white) >> index & 1:
            return []
        return _names(flips_bits(*self._me_opp(), index))

    # -- moves ---------------------------------------------------------------------------------

    def play(self, square: str, side: str | None = None) -> MoveResult:
        """Play ``square`` for the side to move and return a :class:`MoveResult`.

        If the next side then has no legal move but the mover does, the next side passes
        automatically (``passed``); if neither can move the game ends (``outcome``). Raises
        IllegalMove: ``game_over``, ``wrong_turn`` (``side`` given and not ``turn``),
        ``bad_square``, ``out_of_board``, ``must_pass`` (no legal move at all: only in set-up
        positions), ``occupied``, ``no_flip``, checked in that order.
        """
        if self.outcome is not None:
            raise IllegalMove(GAME_OVER, "the game is over")
        if side is not None and side != self.turn:
            raise IllegalMove(WRONG_TURN, f"it is {self.turn}'s turn, not {side}'s")
        index = self._index(square)
        name = NAMES[index]
        me, opp = self._me_opp()
        if not legal_bits(me, opp):
            raise IllegalMove(MUST_PASS, f"{self.turn} has no legal move and must pass")
        bit = 1 << index
        if (me | opp) & bit:
            raise IllegalMove(OCCUPIED, f"{name} is occupied", square=name)
        flipped = flips_bits(me, opp, index)
        if not flipped:
            raise IllegalMove(NO_FLIP, f"{name} flips no disc", square=name)
        self._history.append((self._black, self._white, self.turn, name))
        me |= bit | flipped
        opp &= ~flipped
        mover = self.turn
        if mover == BLACK:
            self._black, self._white = me, opp
        else:
            self._white, self._black = me, opp
        passed = False
        if legal_bits(opp, me):
            self.turn = WHITE if mover == BLACK else BLACK
        elif legal_bits(me, opp):
            passed = True  # the opponent must pass: the mover plays again
            self.passes += 1
        else:
            self.turn = WHITE if mover == BLACK else BLACK
            self.outcome = self._final()
        return MoveResult(name, tuple(_names(flipped)), passed, self.outcome)

    def pass_turn(self) -> None:
        """Pass for the side to move. Passes are normally automatic (see :meth:`play`); this is
        only accepted in a set-up position where the side to move has no legal move. Raises
        IllegalMove ``game_over`` or ``must_play`` (a legal move exists: passing is refused)."""
        if self.outcome is not None:
            raise IllegalMove(GAME_OVER, "the game is over")
        if legal_bits(*self._me_opp()):
            raise IllegalMove(MUST_PLAY, f"{self.turn} has a legal move and may not pass")
        self.turn = WHITE if self.turn == BLACK else BLACK

    def undo(self) -> str:
        """Take back the last move (and any automatic pass after it); return its square.
        Raises IndexError when no move was played."""
        if not self._history:
            raise IndexError("no move to undo")
        black, white, turn, name = self._history.pop()
        me_after = self.turn
        if self.outcome is None and me_after == turn:
            self.passes -= 1  # the move had forced a pass
        self._black, self._white, self.turn, self.outcome = black, white, turn, None
        return name

    # -- internals -----------------------------------------------------------------------------

    @staticmethod
    def _index(square: str) -> int:
        col, row = parse_reversi_square(square)
        return row * 8 + col

    def _final(self) -> Outcome:
        black, white = self.count()
        winner = BLACK if black > white else WHITE if white > black else None
        return Outcome(winner, black, white)

    def __str__(self) -> str:
        rows = ["  a b c d e f g h"]
        for r in range(8):
            cells = []
            for c in range(8):
                bit = 1 << (r * 8 + c)
                cells.append("X" if self._black & bit else "O" if self._white & bit else ".")
            rows.append(f"{r + 1} " + " ".join(cells))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"<reversi.Board turn={self.turn} ply={self.ply} outcome={self.outcome!r}>"


def perft(board: Board, depth: int) -> int:
    """Count the leaf positions ``depth`` plies below ``board``.

    A forced pass counts as one ply; a finished game is a leaf as soon as it ends (as in
    ``shared/cases/reversi.json``). The board is not changed. Raises ValueError for depth < 0.
    """
    if depth < 0:
        raise ValueError("depth must be >= 0")
    if board.outcome is not None or depth == 0:
        return 1
    return _perft(*board._me_opp(), depth)


def _perft(me: int, opp: int, depth: int) -> int:
    moves = legal_bits(me, opp)
    if not moves:
        if not legal_bits(opp, me):
            return 1  # game over: a leaf
        return 1 if depth == 1 else _perft(opp, me, depth - 1)  # forced pass: one ply
    if depth == 1:
        return moves.bit_count()
    total = 0
    while moves:
        bit = moves & -moves
        moves ^= bit
        flipped = flips_bits(me, opp, bit.bit_length() - 1)
        total += _perft(opp & ~flipped, me | bit | flipped, depth - 1)
    return total
