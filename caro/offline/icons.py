"""Draw the web app manifest's PNG icons from the site's mark (static/favicon.svg) with Chromium.

    .venv/bin/python -m caro.offline.icons        # writes static/icons/*.png (committed)

Run once after the mark changes; the site serves the committed PNGs (never drawn at request time).
Needs Playwright (the test extra) and Debian's Chromium (CHROMIUM_PATH or /usr/bin/chromium).

- ``icon-192.png``, ``icon-512.png`` (purpose "any"): the favicon as it is, transparent corners.
- ``icon-maskable-512.png``: the paper colour to the edges and the mark inside the central circle
  of 40 % radius that every mask shape keeps (https://www.w3.org/TR/appmanifest/#icon-masks).
- ``apple-touch-icon.png`` (180×180): the paper colour to the edges (iOS rounds the corners itself
  and shows transparency as black), the mark a little smaller.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FAVICON = ROOT / "static" / "favicon.svg"
OUT = ROOT / "static" / "icons"
#: The favicon's square (its viewBox side, in its units) and the middle of its mark (the X and the
#: O with their strokes span 3.25..29.75 on both axes).
FAVICON_SIDE = 32
MARK_CENTRE = 16.5
#: Side of the square shown around the mark, favicon units: the mark's farthest point is 18 units
#: from its centre, so 45 units put it 18/22.5 = 80 % of the way to the edge, inside the 40 % radius
#: safe circle once the 512 px icon is masked (0.8 × 256 px = 204.8 px).
MASKABLE_SIDE = 45
APPLE_SIDE = 40


def _bleed(svg: str, side: float) -> str:
    """The favicon with the paper colour to the edges of a `side`-unit square centred on the mark."""
    paper = re.search(r'<rect[^>]*fill="(#[0-9a-fA-F]{6})"', svg).group(1)
    start = MARK_CENTRE - side / 2
    svg = re.sub(r'viewBox="[^"]*"', f'viewBox="{start} {start} {side} {side}"', svg, count=1)
    return re.sub(r"<rect[^>]*/>", f'<rect x="{start}" y="{start}" width="{side}" height="{side}" fill="{paper}"/>',
                  svg, count=1)


def icons() -> dict[str, tuple[str, int]]:
    """{file name: (SVG text, size in px)} of every icon."""
    svg = FAVICON.read_text(encoding="utf-8").strip()
    return {
        "icon-192.png": (svg, 192),
        "icon-512.png": (svg, 512),
        "icon-maskable-512.png": (_bleed(svg, MASKABLE_SIDE), 512),
        "apple-touch-icon.png": (_bleed(svg, APPLE_SIDE), 180),
    }


def main() -> int:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox"])
        for name, (svg, size) in icons().items():
            page = browser.new_page(viewport={"width": size, "height": size}, device_scale_factor=1)
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<!doctype html><style>html,body{{margin:0;background:transparent}}"
                             f"svg{{display:block}}</style>{sized}")
            page.screenshot(path=str(OUT / name), omit_background=True)
            page.close()
            print(f"{OUT / name}: {size}x{size}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
