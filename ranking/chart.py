"""The rating-history chart as a server-rendered SVG (pure Python, no Django, no JavaScript).

`history_svg(points, title)` draws a rating after each rated game as a line. The chart is as wide
as its box and `HEIGHT` pixels tall, and its labels are real pixels (the stylesheet's font size)
at every width: the outer SVG has no viewBox, so nothing scales its text. Across, positions are
percentages of the width (the labels' gutter on the left, the gridlines, the last point); the line
itself lies in a nested SVG whose viewBox is `SPAN` units across, stretched to the plot's width
(`preserveAspectRatio="none"`, a stroke that does not scale), and exactly `HEIGHT` units down, so
its heights are the outer pixels. An earlier version scaled a fixed 320-unit drawing to the box,
which made its 11-unit labels about 19 px tall in a profile card at 1280 px. The caller passes
already translated, plain-text `title` and `summary`; every text is escaped here.
"""

from __future__ import annotations

import math
from html import escape

#: The chart's height in CSS pixels (its width is its box's); the margins above and below the
#: plot, in pixels, leave room for the top label and the game counts.
HEIGHT, TOP, BOTTOM = 180, 10, 22
#: The plot's left and right edges, in % of the width: the rating labels sit in the gutter left of
#: it, right-aligned (a 4-digit label at 12 px needs about 28 px: 10 % of a 300 px phone chart).
LEFT_PCT, RIGHT_PCT = 10.0, 97.0
#: The nested SVG's units across (any number; the stretch makes them percentages of the width).
SPAN = 1000
#: The rating axis never spans fewer points than this (a flat history is not drawn as a cliff).
MIN_SPAN = 100
#: Gridlines are a multiple of this many points apart.
TICK_STEPS = (25, 50, 100, 200, 250, 500)
#: Aim for about this many gridlines.
TICKS = 4


def _ticks(low: int, high: int) -> tuple[int, int, list[int]]:
    """A rounded axis (bottom, top, gridline values) that holds every rating in low..high."""
    span = max(MIN_SPAN, high - low)
    step = next((s for s in TICK_STEPS if span / s <= TICKS), TICK_STEPS[-1])
    middle = (low + high) / 2
    bottom = math.floor((middle - span / 2) / step) * step
    top = math.ceil((middle + span / 2) / step) * step
    return bottom, top, list(range(bottom, top + 1, step))


def history_svg(points: list[int], *, title: str, summary: str, element_id: str = "rating-chart") -> str:
    """An SVG document fragment (a string of markup) drawing `points`, the rating before the first
    game then after each game, left to right. `title` names the chart (its accessible name) and
    `summary` describes it in words. Raises ValueError for an empty `points`."""
    if not points:
        raise ValueError("a chart needs at least one rating")
    bottom, top, ticks = _ticks(min(points), max(points))
    plot_h = HEIGHT - TOP - BOTTOM

    def pct(i: int) -> float:
        """Game `i`'s position across, in % of the chart's width."""
        share = i / (len(points) - 1) if len(points) > 1 else 0.5
        return LEFT_PCT + (RIGHT_PCT - LEFT_PCT) * share

    def y(value: float) -> float:
        return TOP + plot_h * (top - value) / (top - bottom)

    eid = escape(element_id)
    parts = [
        f'<svg class="rating-chart" id="{eid}" width="100%" height="{HEIGHT}" '
        f'role="img" aria-labelledby="{eid}-title {eid}-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{eid}-title">{escape(title)}</title><desc id="{eid}-desc">{escape(summary)}</desc>',
    ]
    for value in ticks:
        parts.append(f'<line class="grid" x1="{LEFT_PCT}%" x2="{RIGHT_PCT}%" y1="{y(value):.1f}" y2="{y(value):.1f}"/>')
        parts.append(f'<text class="axis" x="{LEFT_PCT}%" dx="-4" y="{y(value) + 4:.1f}" text-anchor="end">{value}</text>')
    games = len(points) - 1
    parts.append(f'<text class="axis" x="{LEFT_PCT}%" y="{HEIGHT - 6}" text-anchor="start">0</text>')
    if games:
        parts.append(f'<text class="axis" x="{RIGHT_PCT}%" y="{HEIGHT - 6}" text-anchor="end">{games}</text>')
    line = " ".join(f"{pct(i) * SPAN / 100:.1f},{y(v):.1f}" for i, v in enumerate(points))
    parts.append(f'<svg class="plot" width="100%" height="{HEIGHT}" viewBox="0 0 {SPAN} {HEIGHT}" '
                 'preserveAspectRatio="none" aria-hidden="true">'
                 f'<polyline class="line" fill="none" vector-effect="non-scaling-stroke" points="{line}"/></svg>')
    parts.append(f'<circle class="last" cx="{pct(len(points) - 1):.2f}%" cy="{y(points[-1]):.1f}" r="3.5"/>')
    parts.append("</svg>")
    return "".join(parts)
