"""Check what a diagram claims with the real rules engine (pure Python, no Django).

A guide says "X to play I8: no win under blocked two ends" or "A is the only block"; the diagram
states it as a ``claim`` line (see :mod:`caro.tutorials.markup`) and :func:`check_claims` asks
:mod:`caro.engine` whether it is true.
"""

from __future__ import annotations

from caro.engine import caro, reversi
from caro.engine.errors import IllegalMove

from .markup import Claim, Diagram, DiagramError

__all__ = ["caro_board", "reversi_board", "winning_moves", "check_claims", "check_claim"]


def caro_board(diagram: Diagram, to_move: str | None = None) -> caro.Board:
    """The engine position of a caro diagram, ``to_move`` (default: the diagram's turn, else X)
    to play. Raises DiagramError if the engine refuses the position."""
    stones = diagram.stones
    try:
        return caro.Board.from_stones(
            diagram.rules,
            x=[s for s, v in stones.items() if v == "X"],
            o=[s for s, v in stones.items() if v == "O"],
            to_move=to_move or diagram.turn or "X",
        )
    except (IllegalMove, ValueError) as exc:
        raise DiagramError(f"the engine refuses this position: {exc}", diagram.first_line) from exc


def reversi_board(diagram: Diagram) -> reversi.Board:
    """The engine position of a Reversi diagram: played from ``moves`` or set up from discs
    (with the diagram's turn, default black). Raises DiagramError for an illegal move list."""
    try:
        if diagram.moves:
            board = reversi.Board.from_moves("".join(diagram.moves))
            if diagram.turn and diagram.turn != board.turn:
                raise DiagramError(f"after these moves it is {board.turn} to move, not {diagram.turn}",
                                   diagram.first_line)
            return board
        return reversi.Board.from_discs(
            black=[s for s, v in diagram.stones.items() if v == "black"],
            white=[s for s, v in diagram.stones.items() if v == "white"],
            turn=diagram.turn or "black",
        )
    except IllegalMove as exc:
        raise DiagramError(f"the engine refuses this position: {exc}", diagram.first_line) from exc


def winning_moves(board: caro.Board) -> set[str]:
    """Every empty square where the side to move wins at once (the board is left unchanged)."""
    wins = set()
    for square in board.legal_moves():
        outcome = board.play(square)
        if outcome is not None and outcome.winner is not None:
            wins.add(square)
        board.undo()
    return wins


def _wins(board: caro.Board, square: str, side: str) -> bool:
    """Whether ``side`` (to move on ``board``) wins at once on ``square``; board unchanged."""
    outcome = board.play(square)
    board.undo()
    return outcome is not None and outcome.winner == side


def _names(squares) -> str:
    return " ".join(sorted(squares, key=lambda s: (int(s[1:]), s[0].upper()))) or "none"


def check_claim(diagram: Diagram, claim: Claim) -> None:
    """Raise DiagramError (at the claim's line) when ``claim`` is false for ``diagram``."""

    def fail(message: str) -> None:
        raise DiagramError(f"claim '{claim.text}' is false: {message}", claim.line)

    if diagram.game == "reversi":
        _check_reversi(diagram, claim, fail)
        return
    kind = claim.kind
    if kind in ("win", "no-win"):
        board = caro_board(diagram, claim.side)
        square = claim.squares[0]
        if square in diagram.stones:
            fail(f"{square} is not empty")
        outcome = board.play(square)
        won = outcome is not None and outcome.winner == claim.side
        if won != (kind == "win"):
            fail(f"{claim.side} playing {square} {'does not win' if kind == 'win' else 'wins'}")
    elif kind == "wins":
        found = winning_moves(caro_board(diagram, claim.side))
        if found != claim.expected:
            fail(f"{claim.side}'s winning moves are {_names(found)}")
    elif kind in ("five", "no-five"):
        board = caro_board(diagram)
        line = board.winning_line(claim.squares[0])
        if (line is not None) != (kind == "five"):
            fail(f"the run through {claim.squares[0]} {'does not win' if kind == 'five' else 'wins'}")
    elif kind == "blocks":
        attacker = "X" if claim.side == "O" else "O"
        threats = winning_moves(caro_board(diagram, attacker))
        if not threats:
            fail(f"{attacker} has no winning move to block")
        board = caro_board(diagram, claim.side)
        blocks = set()
        # A defender's stone can only take away winning moves (it never lengthens the attacker's
        # run nor opens an end), so after a defence the attacker's wins are a subset of `threats`.
        for square in board.legal_moves():
            if board.play(square) is not None:  # the defender wins or fills the board
                blocks.add(square)
            elif not any(_wins(board, threat, attacker) for threat in threats - {square}):
                blocks.add(square)
            board.undo()
        if blocks != claim.expected:
            fail(f"the moves that stop every {attacker} win are {_names(blocks)}")
    elif kind in ("foul", "no-foul"):
        if not diagram.rules.renju:
            fail("fouls exist only under Renju rules (add 'rules renju')")
        board = caro_board(diagram, "X")
        found = board.foul(claim.squares[0])
        if kind == "foul" and found != claim.extra[0]:
            fail(f"{claim.squares[0]} is {'not a foul' if found is None else 'a ' + str(found)}")
        if kind == "no-foul" and found is not None:
            fail(f"{claim.squares[0]} is a {found}")


def _check_reversi(diagram: Diagram, claim: Claim, fail) -> None:
    board = reversi_board(diagram)
    kind = claim.kind
    if kind in ("legal", "flips"):
        # Ask about the named side whoever is to move (a side with no move must pass).
        discs = board.discs()
        side_board = reversi.Board.from_discs(
            black=[s for s, v in discs.items() if v == "black"],
            white=[s for s, v in discs.items() if v == "white"],
            turn=claim.side,
        )
        if kind == "legal":
            found = set(side_board.legal_moves())
            if found != claim.expected:
                fail(f"{claim.side}'s legal moves are {_names_lower(found)}")
        else:
            found = set(side_board.flips(claim.squares[0]))
            if found != claim.expected:
                fail(f"{claim.side} at {claim.squares[0]} flips {_names_lower(found)}")
    elif kind == "over":
        if board.outcome is None:
            fail("a side can still move")
    elif kind == "count":
        if board.count() != claim.extra:
            fail(f"the count is {board.count()[0]} black, {board.count()[1]} white")


def _names_lower(squares) -> str:
    return " ".join(sorted(squares, key=lambda s: (int(s[1:]), s[0]))) or "none"


def check_claims(diagram: Diagram) -> None:
    """Check every claim of ``diagram``; raise DiagramError at the first false one."""
    for claim in diagram.claims:
        check_claim(diagram, claim)
