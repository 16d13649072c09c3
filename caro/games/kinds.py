"""The two games the site hosts, behind one small interface the service layer uses.

Seats are always "X" (moves first) and "O". In Reversi, X plays Black and O plays White. The rules
themselves live in the pure engine (`caro.engine.caro`, `caro.engine.reversi`); this module only
translates between the engine's vocabulary and the site's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from caro.engine import caro as caro_engine
from caro.engine import reversi as reversi_engine
from caro.engine.errors import IllegalMove

SEAT_OF_COLOR = {"black": "X", "white": "O"}
COLOR_OF_SEAT = {"X": "black", "O": "white"}


@dataclass
class Played:
    """What one move did. `winner` ("X", "O" or "" for a draw) and `termination` are set when the
    game ended; `extra` holds kind-specific event fields (Reversi: `flips`, `passed`)."""

    square: str
    finished: bool = False
    winner: str = ""
    termination: str = ""
    line: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict)


class Caro:
    """Caro / gomoku with every rule option (`Game.rules` is `caro.engine.caro.Rules.to_dict()`)."""

    name = "caro"
    _TERMINATIONS = {"five": "five", "draw": "full_board", "no_legal_move": "no_legal_move"}

    def board(self, rules: dict, squares: list[str]) -> caro_engine.Board:
        """The position after `squares` (stored moves, all legal)."""
        board = caro_engine.Board(caro_engine.Rules.from_dict(rules))
        for square in squares:
            board.play(square)
        return board

    def play(self, board: caro_engine.Board, square: str, seat: str) -> Played:
        """Play `square` for `seat`; raises IllegalMove (with `.reason`)."""
        outcome = board.play(square, side=seat)
        played = Played(square=board.moves[-1])
        if outcome is not None:
            played.finished = True
            played.winner = outcome.winner or ""
            played.termination = self._TERMINATIONS[str(outcome.termination)]
            played.line = tuple(outcome.line)
        return played

    def turn(self, board: caro_engine.Board) -> str:
        return board.turn

    def stones(self, board: caro_engine.Board) -> dict[str, str]:
        return board.stones()

    def legal_hints(self, board: caro_engine.Board) -> list[str]:
        """Squares to mark as playable (none for caro: every empty square is)."""
        return []


class Reversi:
    """Reversi 8×8 (`Game.rules` is empty); passes are automatic and never stored as moves."""

    name = "reversi"

    def board(self, rules: dict, squares: list[str]) -> reversi_engine.Board:
        board = reversi_engine.Board()
        for square in squares:
            board.play(square)
        return board

    def play(self, board: reversi_engine.Board, square: str, seat: str) -> Played:
        if board.outcome is not None:
            raise IllegalMove("game_over", "the game is over")
        if COLOR_OF_SEAT[seat] != board.turn:
            raise IllegalMove("wrong_turn", f"it is {board.turn}'s turn")
        result = board.play(square.lower())
        played = Played(square=result.square, extra={"flips": list(result.flips)})
        if result.passed:
            played.extra["passed"] = SEAT_OF_COLOR[board.turn == "black" and "white" or "black"]
        if result.outcome is not None:
            played.finished = True
            played.winner = SEAT_OF_COLOR.get(result.outcome.winner, "")
            played.termination = "discs"
            played.extra["count"] = {"X": result.outcome.black, "O": result.outcome.white}
        return played

    def turn(self, board: reversi_engine.Board) -> str:
        return SEAT_OF_COLOR[board.turn]

    def stones(self, board: reversi_engine.Board) -> dict[str, str]:
        return {square: SEAT_OF_COLOR[color] for square, color in board.discs().items()}

    def legal_hints(self, board: reversi_engine.Board) -> list[str]:
        return board.legal_moves() if board.outcome is None else []


KINDS = {"caro": Caro(), "reversi": Reversi()}
