"""Draw a parsed :class:`~caro.tutorials.markup.Diagram` as accessible inline SVG (pure Python).

Layout, in SVG user units (1 unit = 1 CSS px at natural size; the SVG scales down to fit the
screen): every cell is :data:`CELL` units square; column letters sit on the top edge and row
numbers on the left (row 1 at the top); the real board edge is drawn heavy, a cut edge (the
crop window stops before the board does) as grid lines running out past the last cell.

Caro stones: X is a red cross, O a blue ring, so they differ in shape as well as colour and
stay readable in black-and-white print and for colour-blind readers. Reversi: black and white
discs (white with a dark outline) on green, legal moves as small dots. Highlighted cells get a
pale fill and a dashed frame (visible without colour); markers are bold letters or numbers.

Every SVG has ``role="img"``, a ``<title>`` and a ``<desc>`` listing the whole position for
screen readers. Texts come from a ``tr(msgid) -> str`` callable so the Django layer can pass a
gettext bound to the guide's language; the default leaves the English msgids.
"""

from __future__ import annotations

from html import escape
from typing import Callable

from caro.engine.coords import parse_square

from .claims import reversi_board
from .markup import Diagram

__all__ = ["CELL", "render_svg", "describe", "resolved_position", "caption_parts"]

CELL = 32
LABEL_FONT = 12  # coordinate font size for windows up to 10 columns; wider windows scale it up
RUN_OUT = 11  # how far grid lines run out past a cut edge
PAD = 3  # room for the heavy edge stroke
SCALE = 1.15  # natural display size relative to user units

Translate = Callable[[str], str]


def _identity(text: str) -> str:
    return text


def _(text: str) -> str:
    """Mark a msgid for extraction (makemessages); translated at run time through ``tr``."""
    return text


def resolved_position(diagram: Diagram) -> tuple[dict[str, str], list[str]]:
    """The stones/discs to draw and the dot squares, after playing Reversi ``moves`` and
    working out ``dots legal`` with the engine. Returns ``(stones, dots)``."""
    if diagram.game != "reversi" or not (diagram.moves or diagram.dots_legal):
        return dict(diagram.stones), list(diagram.dots)
    board = reversi_board(diagram)
    stones = board.discs() if diagram.moves else dict(diagram.stones)
    dots = board.legal_moves() if diagram.dots_legal else list(diagram.dots)
    return stones, dots


def _side_name(side: str, tr: Translate) -> str:
    return {"X": "X", "O": "O", "black": tr(_("Black")), "white": tr(_("White"))}[side]


def caption_parts(diagram: Diagram, tr: Translate = _identity, turn: str | None = None) -> list[str]:
    """Visible caption pieces: "O to move" (or "Black to move") then the free captions."""
    parts = []
    side = turn or diagram.turn
    if side:
        parts.append(tr(_("%(side)s to move")) % {"side": _side_name(side, tr)})
    parts.extend(diagram.captions)
    return parts


def _sort_key(square: str) -> tuple[int, str]:
    return int(square[1:]), square[0].upper()


def describe(diagram: Diagram, tr: Translate = _identity, rules_name: str | None = None) -> str:
    """A plain-text account of the diagram for screen readers: board, window, every stone by
    side, markers, highlights, the line, dots and whose turn it is."""
    stones, dots = resolved_position(diagram)
    d = diagram
    col0, row0, col1, row1 = d.window
    parts = []
    if d.view:
        parts.append(tr(_("Part of a %(size)s by %(size)s board, columns %(c0)s to %(c1)s, rows %(r0)s to %(r1)s.")) % {
            "size": d.size, "c0": d.square_name(col0, 0)[0], "c1": d.square_name(col1, 0)[0],
            "r0": row0 + 1, "r1": row1 + 1})
    else:
        parts.append(tr(_("A %(size)s by %(size)s board.")) % {"size": d.size})
    if rules_name:
        parts.append(tr(_("Rules: %(rules)s.")) % {"rules": rules_name})
    sides = ("black", "white") if d.game == "reversi" else ("X", "O")
    for side in sides:
        squares = sorted((s for s, v in stones.items() if v == side), key=_sort_key)
        label = _side_name(side, tr)
        if squares:
            parts.append(tr(_("%(side)s: %(squares)s.")) % {"side": label, "squares": ", ".join(squares)})
        else:
            parts.append(tr(_("%(side)s: none.")) % {"side": label})
    for square, label in sorted(d.markers.items(), key=lambda kv: kv[1]):
        parts.append(tr(_("Marker %(label)s on %(square)s.")) % {"label": label, "square": square})
    if d.highlights:
        parts.append(tr(_("Highlighted: %(squares)s.")) % {"squares": ", ".join(d.highlights)})
    if d.line:
        parts.append(tr(_("Line drawn from %(a)s to %(b)s.")) % {"a": d.line[0], "b": d.line[1]})
    if dots:
        parts.append(tr(_("Legal moves: %(squares)s.")) % {"squares": ", ".join(sorted(dots, key=_sort_key))})
    parts.extend(p + ("" if p.endswith((".", "!", "?")) else ".") for p in caption_parts(d, tr))
    return " ".join(parts)


def render_svg(diagram: Diagram, tr: Translate = _identity, ident: str = "dg", rules_name: str | None = None) -> str:
    """Return the ``<svg>`` element for ``diagram``.

    ``ident`` makes the ids of ``<title>``/``<desc>`` unique on the page (``"dg-3"``);
    ``rules_name`` (already translated) is mentioned in the description when given.
    Raises DiagramError only if the engine refuses a Reversi move list.
    """
    d = diagram
    stones, dots = resolved_position(d)
    col0, row0, col1, row1 = d.window
    ncols, nrows = col1 - col0 + 1, row1 - row0 + 1
    cut_left, cut_top = col0 > 0, row0 > 0
    cut_right, cut_bottom = col1 < d.size - 1, row1 < d.size - 1
    # Wide boards are scaled down more on a phone, so their coordinates are drawn larger.
    font = round(LABEL_FONT * max(1.0, ncols / 10), 1)
    label_top, label_left = font + 6, round(font * 1.5 + 6)
    gx = label_left + (RUN_OUT if cut_left else PAD)
    gy = label_top + (RUN_OUT if cut_top else PAD)
    gw, gh = ncols * CELL, nrows * CELL
    width = gx + gw + (RUN_OUT if cut_right else PAD)
    height = gy + gh + (RUN_OUT if cut_bottom else PAD)
    reversi = d.game == "reversi"

    def centre(square: str) -> tuple[float, float]:
        col, row = parse_square(square, d.size)
        return gx + (col - col0 + 0.5) * CELL, gy + (row - row0 + 0.5) * CELL

    title = tr(_("Diagram: %(size)s by %(size)s board")) % {"size": d.size}
    out = [
        f'<svg class="diagram-svg {"reversi" if reversi else "caro"}" xmlns="http://www.w3.org/2000/svg" '
        f'viewBox="0 0 {width} {height}" width="{round(width * SCALE)}" height="{round(height * SCALE)}" '
        f'role="img" aria-labelledby="{ident}-t {ident}-d">',
        f'<title id="{ident}-t">{escape(title)}</title>',
        f'<desc id="{ident}-d">{escape(describe(d, tr, rules_name))}</desc>',
    ]
    # Paper (the run-out margin included, so cut edges fade into the page less abruptly).
    px0 = gx - (RUN_OUT if cut_left else 0)
    py0 = gy - (RUN_OUT if cut_top else 0)
    px1 = gx + gw + (RUN_OUT if cut_right else 0)
    py1 = gy + gh + (RUN_OUT if cut_bottom else 0)
    paper = "#2f7d4f" if reversi else "#fffdf6"
    grid = "#14472c" if reversi else "#b9b09c"
    out.append(f'<rect x="{px0}" y="{py0}" width="{px1 - px0}" height="{py1 - py0}" fill="{paper}"/>')
    # Highlights under the grid lines.
    for square in d.highlights:
        x, y = centre(square)
        out.append(f'<rect class="hl" x="{x - CELL / 2 + 1.5}" y="{y - CELL / 2 + 1.5}" width="{CELL - 3}" '
                   f'height="{CELL - 3}" fill="{"#9ccc65" if reversi else "#ffe08a"}" stroke="#5d4300" '
                   f'stroke-width="1.2" stroke-dasharray="3 2"/>')
    # Grid: thin inner lines; the real edges heavy; lines run out past cut edges.
    lines = ['<g class="grid" stroke="%s" stroke-width="1">' % grid]
    for k in range(ncols + 1):
        x = gx + k * CELL
        lines.append(f'<line x1="{x}" y1="{py0}" x2="{x}" y2="{py1}"/>')
    for k in range(nrows + 1):
        y = gy + k * CELL
        lines.append(f'<line x1="{px0}" y1="{y}" x2="{px1}" y2="{y}"/>')
    lines.append("</g>")
    out.extend(lines)
    edge = "#0e2f1d" if reversi else "#3b3326"
    edges = []
    if not cut_left:
        edges.append(f'<line x1="{gx}" y1="{py0}" x2="{gx}" y2="{py1}"/>')
    if not cut_right:
        edges.append(f'<line x1="{gx + gw}" y1="{py0}" x2="{gx + gw}" y2="{py1}"/>')
    if not cut_top:
        edges.append(f'<line x1="{px0}" y1="{gy}" x2="{px1}" y2="{gy}"/>')
    if not cut_bottom:
        edges.append(f'<line x1="{px0}" y1="{gy + gh}" x2="{px1}" y2="{gy + gh}"/>')
    if edges:
        out.append(f'<g class="edge" stroke="{edge}" stroke-width="3" stroke-linecap="square">{"".join(edges)}</g>')
    # Coordinates: letters on top, numbers on the left, row 1 at the top.
    labels = ['<g class="coords" fill="#555" font-family="system-ui, sans-serif" font-size="%s" text-anchor="middle">' % font]
    for k in range(ncols):
        letter = d.square_name(col0 + k, 0)[0]
        labels.append(f'<text x="{gx + (k + 0.5) * CELL}" y="{label_top - 5}">{letter}</text>')
    for k in range(nrows):
        labels.append(f'<text x="{label_left / 2}" y="{gy + (k + 0.5) * CELL + font / 3}">{row0 + k + 1}</text>')
    labels.append("</g>")
    out.extend(labels)
    # Dots for legal moves (Reversi) or any marked empty point.
    for square in dots:
        x, y = centre(square)
        out.append(f'<circle class="dot" cx="{x}" cy="{y}" r="5.5" fill="#111" fill-opacity=".6"/>')
    # Stones and discs.
    for square, side in stones.items():
        x, y = centre(square)
        if side == "X":
            a = CELL * 0.28
            out.append(f'<path class="x" d="M{x - a} {y - a}L{x + a} {y + a}M{x + a} {y - a}L{x - a} {y + a}" '
                       f'stroke="#c62828" stroke-width="4.2" stroke-linecap="round"/>')
        elif side == "O":
            out.append(f'<circle class="o" cx="{x}" cy="{y}" r="{CELL * 0.3}" fill="none" stroke="#1546a0" stroke-width="3.6"/>')
        else:
            fill = "#111" if side == "black" else "#fafafa"
            out.append(f'<circle class="disc {side}" cx="{x}" cy="{y}" r="{CELL * 0.4}" fill="{fill}" '
                       f'stroke="#111" stroke-width="1.5"/>')
    # The winning line, over the stones.
    if d.line:
        (x1, y1), (x2, y2) = centre(d.line[0]), centre(d.line[1])
        length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1)
        ex, ey = (x2 - x1) / length * CELL * 0.38, (y2 - y1) / length * CELL * 0.38
        out.append(f'<line class="win" x1="{x1 - ex:.1f}" y1="{y1 - ey:.1f}" x2="{x2 + ex:.1f}" y2="{y2 + ey:.1f}" '
                   f'stroke="#111" stroke-opacity=".7" stroke-width="3.5" stroke-linecap="round"/>')
    # Markers: a bold label in an empty cell; on a stone, a small label in the cell's corner.
    for square, label in d.markers.items():
        x, y = centre(square)
        if square in stones:
            out.append(f'<text class="mk" x="{x + CELL * 0.33}" y="{y - CELL * 0.2}" font-size="10" font-weight="700" '
                       f'text-anchor="middle" fill="#111" font-family="system-ui, sans-serif">{escape(label)}</text>')
        else:
            fill = "#fff" if reversi else "#111"
            out.append(f'<text class="mk" x="{x}" y="{y + 6.5}" font-size="18" font-weight="700" text-anchor="middle" '
                       f'fill="{fill}" font-family="system-ui, sans-serif">{escape(label)}</text>')
    out.append("</svg>")
    return "".join(out)
