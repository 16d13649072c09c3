"""The image of a position (link previews, "save the picture"): the rules guides' diagram
renderer (`caro.tutorials.svg`) drawing a whole stored board.

A PNG for `og:image` would need an SVG rasteriser: none that is pure Python and well kept exists
(CairoSVG needs the Cairo C library, svglib draws through ReportLab and Cairo), so the image is SVG.
"""

from __future__ import annotations

from django.utils.translation import gettext

from caro.games.display import game_summary
from caro.games.kinds import kind_of
from caro.games.models import Game
from caro.games.records import Position
from caro.tutorials.markup import Diagram
from caro.tutorials.svg import render_svg


def position_svg(game: Game, position: Position, names: dict[str, str] | None = None) -> str:
    """The `<svg>` document of `position` in `game`: the whole board, the last move highlighted,
    the winning line at the end, the side to move in the description. Texts are translated into
    the active language; `names` are not drawn (they are in the page around the image)."""
    kind = kind_of(game)
    diagram = Diagram(
        game=game.kind,
        size=kind.size(game.rules),
        stones=kind.stone_colors(position.stones, game.marks()),
        highlights=[position.last] if position.last else [],
        line=(position.line[0], position.line[-1]) if position.line else None,
    )
    svg = render_svg(diagram, tr=gettext, ident=f"g{game.pk}-{position.ply}", rules_name=game_summary(game))
    return '<?xml version="1.0" encoding="utf-8"?>\n' + svg
