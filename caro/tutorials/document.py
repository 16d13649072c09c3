"""A whole guide: Markdown prose with diagram blocks -> HTML, a table of contents and errors with
line numbers (pure Python: the ``markdown`` library plus our own modules, no Django).

Guide source format (``caro/tutorials/guides/<lang>/*.md``)::

    ---
    key: caro-rules            # the same in every language: links and translations use it
    slug: luat-choi-caro       # the URL slug in this language
    title: Luật chơi cờ caro
    summary: One sentence for the guide list.
    order: 1
    preset: caro-vn            # "play now with these rules" (a preset slug, or "reversi")
    ---
    Markdown prose. ## headings become the table of contents.

    ```diagram
    ...                        # see caro.tutorials.markup
    ```

Links: ``[text](guide:blocked-ends)`` or ``[text](guide:blocked-ends#anchor)`` point to another
guide in the same language; ``[text](play:renju)`` to "play now" with a preset. Raw HTML in the
prose is shown as text, never passed through.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Callable

import markdown

from caro.engine.caro import PRESETS
from caro.engine.names import REVERSI, RULE_SET_NAMES

from .claims import check_claims
from .markup import Diagram, DiagramError, parse_diagram
from .svg import caption_parts, render_svg

__all__ = ["GuideSource", "RenderedGuide", "parse_source", "render_guide", "extract_diagrams", "slugify",
           "RULES_NAMES", "PLAY_TARGETS", "play_url"]


def _(text: str) -> str:
    """Mark a msgid for extraction; translated later through the caller's ``tr``."""
    return text


RULES_NAMES = RULE_SET_NAMES
"""Display msgids of the preset slugs used in diagrams and "play now" links."""

PLAY_TARGETS = frozenset(PRESETS) | {REVERSI}
"""What a "play now" link may name: every caro preset, and Reversi."""

FRONT_KEYS = ("key", "slug", "title", "summary", "order", "preset")


def play_url(target: str) -> str:
    """The "play now with these rules" URL: the home page with ``?preset=<target>``."""
    return f"/?preset={target}"


def slugify(text: str, separator: str = "-") -> str:
    """ASCII anchor slug for a heading, Vietnamese-aware: ``"Luật chặn hai đầu"`` ->
    ``"luat-chan-hai-dau"`` (đ becomes d, other marks are dropped)."""
    text = text.replace("đ", "d").replace("Đ", "D")
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    return re.sub(r"[^a-z0-9]+", separator, text).strip(separator) or "section"


@dataclass
class GuideSource:
    """A guide source file split into its front matter fields and Markdown ``body``;
    ``body_line`` is the file line number of the body's first line."""

    key: str
    slug: str
    title: str
    summary: str
    order: int
    preset: str
    body: str
    body_line: int = 1


def parse_source(text: str) -> GuideSource:
    """Read a guide source file (front matter between ``---`` lines, then the body).

    Raises DiagramError (with a line number) for missing or unknown front matter keys.
    """
    lines = text.replace("\r\n", "\n").split("\n")
    if not lines or lines[0].strip() != "---":
        raise DiagramError("a guide file starts with a '---' line, then its front matter", 1)
    meta: dict[str, str] = {}
    for number, line in enumerate(lines[1:], start=2):
        if line.strip() == "---":
            body_line = number + 1
            break
        key, colon, value = line.partition(":")
        key = key.strip()
        if not colon or key not in FRONT_KEYS:
            raise DiagramError(f"front matter lines are 'key: value' with key one of {', '.join(FRONT_KEYS)}", number)
        meta[key] = value.strip()
    else:
        raise DiagramError("the front matter has no closing '---' line", 1)
    missing = [k for k in FRONT_KEYS if not meta.get(k)]
    if missing:
        raise DiagramError(f"front matter is missing: {', '.join(missing)}", 1)
    if not (meta["order"].isascii() and meta["order"].isdigit()):
        raise DiagramError("order must be a whole number", 1)
    if meta["preset"] not in PLAY_TARGETS:
        raise DiagramError(f"preset must be one of: {', '.join(sorted(PLAY_TARGETS))}", 1)
    body = "\n".join(lines[body_line - 1:])
    return GuideSource(meta["key"], meta["slug"], meta["title"], meta["summary"], int(meta["order"]),
                       meta["preset"], body, body_line)


@dataclass
class RenderedGuide:
    """``html`` (safe to insert: raw HTML in the prose is escaped), ``toc`` as a list of
    ``(anchor id, heading text)`` for the ``##`` headings, and the parsed ``diagrams``."""

    html: str
    toc: list[tuple[str, str]] = field(default_factory=list)
    diagrams: list[Diagram] = field(default_factory=list)


_FENCE_OPEN = re.compile(r"^```\s*diagram\s*$")
_FENCE_CLOSE = re.compile(r"^```\s*$")


def extract_diagrams(body: str, first_line: int = 1) -> tuple[str, list[Diagram]]:
    """Cut the diagram blocks out of ``body``: returns the prose with one placeholder paragraph
    per diagram, and the parsed diagrams. Raises DiagramError (document line numbers)."""
    lines = body.split("\n")
    prose: list[str] = []
    diagrams: list[Diagram] = []
    k = 0
    while k < len(lines):
        if _FENCE_OPEN.match(lines[k].strip()):
            start = k
            k += 1
            while k < len(lines) and not _FENCE_CLOSE.match(lines[k].strip()):
                k += 1
            if k == len(lines):
                raise DiagramError("this diagram block is never closed (add a line with ``` after it)",
                                   first_line + start)
            block = "\n".join(lines[start + 1:k])
            diagrams.append(parse_diagram(block, first_line + start + 1))
            prose.extend(["", f"DIAGRAMPLACEHOLDER{len(diagrams) - 1}X", ""])
        else:
            prose.append(lines[k])
        k += 1
    return "\n".join(prose), diagrams


_LINK_RE = re.compile(r'href="(guide|play):([a-z0-9-]*)(#[a-z0-9-]*)?"')


def _line_of(body: str, needle: str, first_line: int) -> int | None:
    index = body.find(needle)
    return None if index < 0 else first_line + body.count("\n", 0, index)


def render_guide(body: str, tr: Callable[[str], str] = lambda s: s,
                 guide_url: Callable[[str], str | None] = lambda key: None,
                 check: bool = True, first_line: int = 1) -> RenderedGuide:
    """Render a guide body to HTML.

    ``tr`` translates the renderer's fixed texts into the guide's language; ``guide_url(key)``
    returns the URL of another guide in that language (None: unknown key, an error);
    ``check`` also verifies every diagram claim with the engine and refuses links to unknown
    guides (without it they point at the guide list, ``../``); ``first_line`` is the
    document line of the body's first line, so errors point at the right line.
    Raises DiagramError with a line number for bad markup, false claims and bad links.
    """
    prose, diagrams = extract_diagrams(body, first_line)
    if check:
        for diagram in diagrams:
            check_claims(diagram)
    md = markdown.Markdown(
        extensions=["tables", "sane_lists", "toc"],
        extension_configs={"toc": {"slugify": slugify, "toc_depth": "2"}},
        output_format="html",
    )
    # Raw HTML is not allowed in guides: drop the passes that would let it through.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    html = md.convert(prose)
    toc = [(token["id"], token["name"]) for token in md.toc_tokens]

    def link(match: re.Match) -> str:
        kind, key, anchor = match.group(1), match.group(2), match.group(3) or ""
        if kind == "play":
            if key not in PLAY_TARGETS:
                raise DiagramError(f"unknown rule set in link 'play:{key}'", _line_of(body, f"play:{key}", first_line))
            return f'href="{play_url(key)}"'
        url = guide_url(key)
        if url is None and not check:
            return 'href="../"'  # an unpublished guide: point at the guide list instead
        if url is None:
            raise DiagramError(f"no guide with key '{key}' (link 'guide:{key}')", _line_of(body, f"guide:{key}", first_line))
        return f'href="{url}{anchor}"'

    html = _LINK_RE.sub(link, html)
    # A table wider than a phone scrolls inside its box, which a keyboard must reach too (tabindex;
    # the region is named by the table's first row for screen readers).
    table_label = _escape(tr(_("Table (scroll it sideways to see every column)")))
    html = html.replace("<table>", f'<div class="table-wrap" tabindex="0" role="region" aria-label="{table_label}"><table>'
                        ).replace("</table>", "</table></div>")
    for index, diagram in enumerate(diagrams):
        ident = f"dg-{index + 1}"
        rules_name = tr(RULES_NAMES[diagram.rules_slug]) if diagram.rules_slug else None
        parts = [f'<span class="dg-num">{index + 1}</span>']
        parts.extend(f"<span>{_escape(p)}</span>" for p in caption_parts(diagram, tr))
        if rules_name:
            label = tr(_("Rules: %(rules)s")) % {"rules": rules_name}
            parts.append(f'<span class="dg-rules">{_escape(label)}</span>')
        figure = (f'<figure class="diagram" id="{ident}">{render_svg(diagram, tr, ident, rules_name)}'
                  f'<figcaption>{" ".join(parts)}</figcaption></figure>')
        html = html.replace(f"<p>DIAGRAMPLACEHOLDER{index}X</p>", figure)
    return RenderedGuide(html, toc, diagrams)


def _escape(text: str) -> str:
    from html import escape

    return escape(text, quote=False)
