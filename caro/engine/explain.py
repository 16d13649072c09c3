"""Explanations of the caro rules for players: where X may not play, and why a run did not win.

Pure functions of a :class:`caro.engine.caro.Board`; the site turns their answers into words
(the "why didn't this win?" note and the foul marks of ``shared/notes/ux.md``).
"""

from __future__ import annotations

from .caro import Board

__all__ = ["foul_points", "refused_five"]


def foul_points(board: Board) -> dict[str, str]:
    """Renju foul points of the side to move: ``{square: "double-three" | "double-four" | "overline"}``.

    Empty unless the rules are Renju, the game is on and X (Black) is to move: under the RIF rules
    (§9) only Black has fouls.
    """
    if not board.rules.renju or board.turn != "X" or board.outcome is not None:
        return {}
    names = board._geo.names
    return {names[i]: str(kind) for i, kind in board._foul_map().items()}


def refused_five(board: Board, square: str) -> dict | None:
    """Why the stone just played on ``square`` made a long enough run that does not win, or None.

    Returns ``{"kind": "blocked" | "overline", "line": [squares]}``: "blocked" when the run is
    closed at both ends under the blocked-two-ends rule, "overline" when it is longer than the win
    length under exact rules. None under Renju (fouls explain themselves), when the game is over,
    or when the rules refuse no run.
    """
    rules = board.rules
    if board.outcome is not None or (rules.blocked == "none" and not rules.exact) or rules.renju:
        return None
    line = board.run_through(square, rules.win_length)  # the win with nothing blocked and no exact rule
    if line is None:
        return None
    kind = "overline" if rules.exact and len(line) > rules.win_length else "blocked"
    return {"kind": kind, "line": list(line)}

