"""Renju fouls for Black (X): double-three, double-four and overline (RIF rules §9.2-9.4).

Pure functions over a board given as a flat list of cells (0 empty, 1 Black, 2 White) and the
per-square rays of :func:`caro.engine.caro.geometry`. They never change the caller's list: the
public entry point works on a copy.

Definitions used (RIF rules, "Renju rules" §9):

* a *five* is exactly five Black stones in a row; six or more is an *overline*;
* a *four* is a line that one more Black move turns into a five; a *straight four* has two such
  moves (an open ``_XXXX_``), and still counts as one four; two fours on one line
  (``XXX_?_XXX``, ``X_XX?_X``) count as two;
* a *three* is a line that one more Black move turns into a straight four, where that move is not
  itself a foul; this is judged recursively on the position after the move;
* a move that makes a five is never a foul, whatever else it makes (RIF §9.2);
* otherwise overline, then double-four, then double-three, is reported.

Only lines through the new stone count: a foul is made by the move itself.
"""

from __future__ import annotations

from enum import StrEnum

EMPTY, BLACK = 0, 1


class Foul(StrEnum):
    """A Renju foul kind; the value is the site-wide name."""

    DOUBLE_THREE = "double-three"
    """The move makes two or more threes at once."""
    DOUBLE_FOUR = "double-four"
    """The move makes two or more fours at once (possibly on one line)."""
    OVERLINE = "overline"
    """The move makes six or more Black stones in a row."""


def _side(cells: list[int], ray: tuple[int, ...]) -> tuple[int, int, int]:
    """Walk ``ray`` away from a Black stone.

    Returns ``(n, end, beyond)``: ``n`` contiguous Black stones, ``end`` the index of the empty
    cell just after them (-1 when that cell is White or off the board), ``beyond`` the contiguous
    Black stones after ``end`` (0 when ``end`` is -1).
    """
    n, length = 0, len(ray)
    while n < length and cells[ray[n]] == BLACK:
        n += 1
    if n == length or cells[ray[n]] != EMPTY:
        return n, -1, 0
    k = n + 1
    while k < length and cells[ray[k]] == BLACK:
        k += 1
    return n, ray[n], k - n - 1


def _is_straight_four(cells: list[int], rays: list[tuple[tuple[int, ...], ...]], p: int, axis: int) -> bool:
    """Whether the Black run through ``p`` on ``axis`` is an open four ``_XXXX_`` whose two
    completions are both exact fives."""
    n_f, end_f, beyond_f = _side(cells, rays[p][axis])
    n_b, end_b, beyond_b = _side(cells, rays[p][axis + 4])
    return n_f + n_b == 3 and end_f >= 0 and end_b >= 0 and beyond_f == 0 and beyond_b == 0


def _foul(cells: list[int], rays: list[tuple[tuple[int, ...], ...]], p: int) -> Foul | None:
    """Foul kind of a Black move at empty ``p`` (restores ``cells`` before returning)."""
    cells[p] = BLACK
    try:
        sides = []
        overline = False
        for axis in range(4):
            fwd = _side(cells, rays[p][axis])
            back = _side(cells, rays[p][axis + 4])
            run = 1 + fwd[0] + back[0]
            if run == 5:
                return None  # a five is never a foul
            overline = overline or run > 5
            sides.append((run, fwd, back))
        if overline:
            return Foul.OVERLINE
        fours = 0
        four_axes = []
        for run, (_, end_f, beyond_f), (_, end_b, beyond_b) in sides:
            to_five_f = end_f >= 0 and run + 1 + beyond_f == 5
            to_five_b = end_b >= 0 and run + 1 + beyond_b == 5
            count = to_five_f + to_five_b - (to_five_f and to_five_b and run == 4)
            fours += count
            four_axes.append(count > 0)
        if fours >= 2:
            return Foul.DOUBLE_FOUR
        threes = 0
        for axis, (run, (_, end_f, beyond_f), (_, end_b, beyond_b)) in enumerate(sides):
            if four_axes[axis]:
                continue  # a four on this line is not also a three
            for end, beyond in ((end_f, beyond_f), (end_b, beyond_b)):
                if end < 0 or run + 1 + beyond != 4:
                    continue
                cells[end] = BLACK
                straight = _is_straight_four(cells, rays, p, axis)
                cells[end] = EMPTY
                if straight and _foul(cells, rays, end) is None:
                    threes += 1
                    break
            if threes >= 2:
                return Foul.DOUBLE_THREE
        return None
    finally:
        cells[p] = EMPTY


#: How far along a line the other Black stones of a three, a four or an overline through a point can
#: be from it and still be part of it (a five spans 4 cells beyond the point; a three, 3).
FOUL_REACH = 4
#: Other Black stones within FOUL_REACH on one line that a three or a four through a point needs.
THREE_STONES = 2
#: Other Black stones within FOUL_REACH on one line that two fours on that line or an overline need.
ONE_LINE_FOUL_STONES = 4
_AXES = 4


def foul_map(cells: list[int], rays: list[tuple[tuple[int, ...], ...]]) -> dict[int, Foul]:
    """Every empty cell where a Black stone would be a foul: ``{index: Foul}``, in index order.

    The same judgement as :func:`foul_at` on every empty cell, only faster (a legal-move list
    needs all of them): :func:`foul_at`'s test runs only on cells that could be fouls. A foul
    needs two threes or fours on two lines (each with at least ``THREE_STONES`` other Black
    stones within ``FOUL_REACH`` cells of the point on its line), or two fours or an overline on
    one line (at least ``ONE_LINE_FOUL_STONES`` there); other cells are no foul. ``cells`` is
    not modified.
    """
    near = [0] * (_AXES * len(cells))  # other Black stones within reach, per cell and axis
    lines = [0] * len(cells)  # lines through a cell with THREE_STONES of them
    candidates = set()
    for b, value in enumerate(cells):
        if value != BLACK:
            continue
        for k, ray in enumerate(rays[b]):
            axis = k % _AXES  # rays k and k + 4 lie on one line
            for j in ray[:FOUL_REACH]:
                key = _AXES * j + axis
                count = near[key] = near[key] + 1
                if count == THREE_STONES:
                    lines[j] += 1
                    if lines[j] == 2:
                        candidates.add(j)
                elif count == ONE_LINE_FOUL_STONES:
                    candidates.add(j)
    fouls = {}
    work = list(cells)
    for i in sorted(candidates):
        if cells[i] == EMPTY:
            kind = _foul(work, rays, i)
            if kind is not None:
                fouls[i] = kind
    return fouls


def foul_at(cells: list[int], rays: list[tuple[tuple[int, ...], ...]], index: int) -> Foul | None:
    """Return the foul a Black stone at empty cell ``index`` would make, or None.

    ``cells`` is the flat board (row-major, 0 empty, 1 Black, 2 White) and ``rays`` the geometry
    of its size; ``cells`` is not modified. Source: RIF rules §9.2-9.4 (see module docstring).
    """
    if cells[index] != EMPTY:
        raise ValueError("foul_at needs an empty cell")
    return _foul(list(cells), rays, index)
