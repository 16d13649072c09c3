"""The rating-history chart as a server-rendered SVG (pure Python, no Django, no JavaScript).

`history_svg(points, title)` draws a rating after each rated game as a line in a fixed 320×180
viewBox that scales to the page width; its text stays readable on a 360 px phone (11 units
≈ 11 px there). The caller passes already translated, plain-text `title` and `summary`; every
text is escaped here.
"""

from __future__ import annotations

import math
from html import escape

#: The drawing's own units; the SVG scales to the width of its box (`width="100%"`).
WIDTH, HEIGHT = 320, 180
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 10, 22
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
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (plot_w * i / (len(points) - 1) if len(points) > 1 else plot_w / 2)

    def y(value: float) -> float:
        return TOP + plot_h * (top - value) / (top - bottom)

    parts = [
        f'<svg class="rating-chart" id="{escape(element_id)}" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" '
        f'role="img" aria-labelledby="{escape(element_id)}-title {escape(element_id)}-desc" '
        'xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{escape(element_id)}-title">{escape(title)}</title>'
        f'<desc id="{escape(element_id)}-desc">{escape(summary)}</desc>',
    ]
    for value in ticks:
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}"/>')
        parts.append(f'<text class="axis" x="{LEFT - 4}" y="{y(value) + 4:.1f}" text-anchor="end">{value}</text>')
    games = len(points) - 1
    parts.append(f'<text class="axis" x="{LEFT}" y="{HEIGHT - 6}" text-anchor="start">0</text>')
    if games:
        parts.append(f'<text class="axis" x="{WIDTH - RIGHT}" y="{HEIGHT - 6}" text-anchor="end">{games}</text>')
    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points))
    parts.append(f'<polyline class="line" fill="none" points="{line}"/>')
    parts.append(f'<circle class="last" cx="{x(len(points) - 1):.1f}" cy="{y(points[-1]):.1f}" r="3.5"/>')
    parts.append("</svg>")
    return "".join(parts)
