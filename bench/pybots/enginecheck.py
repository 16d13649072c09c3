"""Engine-only checks of caro tactics, used by the tests and the bench scripts.

Everything here asks :mod:`caro.engine.caro` (never the bots' own pattern tables), so a bot's
claim can be verified independently.
"""

from __future__ import annotations

from typing import Callable

from caro.engine.caro import Board
from caro.engine.coords import parse_square, square_name
from caro.engine.errors import IllegalMove


def winning_cells(board: Board, side: str) -> list[str]:
    """Squares where ``side`` would complete a winning run now (engine judgement, any turn)."""
    out = []
    probe = board.copy()
    probe.turn = side
    probe.outcome = None
    stones = probe.stones()
    size = board.rules.size
    seen = set()
    for name, owner in stones.items():
        if owner != side:
            continue
        col, row = parse_square(name, size)
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                c, r = col + dc, row + dr
                if (dc or dr) and 0 <= c < size and 0 <= r < size:
                    seen.add(square_name(c, r))
    for name in sorted(seen):
        if name in stones:
            continue
        trial = probe.copy()
        try:
            outcome = trial.play(name)
        except IllegalMove:
            continue
        if outcome is not None and outcome.winner == side:
            out.append(name)
    return out


def _other(side: str) -> str:
    return "O" if side == "X" else "X"


def stopping_replies(board: Board) -> list[str]:
    """Replies of the side to move that leave the opponent no winning cell.

    A reply can only stop a five by taking its cell or by blocking an end of its run, so only
    cells on the four lines through the opponent's winning cells are tried (exactly, with the
    engine). Renju fouls are not replies (the engine refuses them).
    """
    me = board.turn
    opp = _other(me)
    threats = winning_cells(board, opp)
    if not threats:
        return []
    size = board.rules.size
    cands = set()
    for name in threats:
        col, row = parse_square(name, size)
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            for k in range(-size, size + 1):
                c, r = col + k * dc, row + k * dr
                if 0 <= c < size and 0 <= r < size:
                    cands.add(square_name(c, r))
    stones = board.stones()
    out = []
    for name in sorted(cands):
        if name in stones:
            continue
        trial = board.copy()
        try:
            if trial.play(name) is not None:
                out.append(name)  # the reply itself wins
                continue
        except IllegalMove:
            continue
        still = False
        for w in threats:
            if w == name:
                continue
            probe = trial.copy()
            probe.turn = opp
            if probe.play(w) is not None and probe.outcome.winner == opp:
                still = True
                break
        if not still:
            out.append(name)
    return out


def forced_vcf(board: Board, depth: int, propose: Callable[[Board], str], leaves: list | None = None) -> bool:
    """Whether the side to move wins by continuous fours in at most ``depth`` fours, playing the
    moves ``propose(board)`` suggests, against EVERY defence the engine allows.

    Each proposed move must make a five-threat (else False); the defender may answer with any
    reply that stops all five-threats (:func:`stopping_replies`); if it has none, or the last
    move made five, the attacker has won. ``leaves`` (optional list) collects the final boards.
    """
    att = board.turn
    if winning_cells(board, att):
        return True
    if depth <= 0:
        return False
    move = propose(board)
    after = board.copy()
    outcome = after.play(move)
    if outcome is not None:
        return outcome.winner == att
    if not winning_cells(after, att):
        return False  # not a four
    if winning_cells(after, _other(att)):
        return False  # the defender has a five first
    replies = stopping_replies(after)
    if not replies and leaves is not None:
        leaves.append(after)
    for reply in replies:
        nxt = after.copy()
        nxt.play(reply)
        if not forced_vcf(nxt, depth - 1, propose, leaves):
            return False
    return True
