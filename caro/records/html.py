"""The two big, repetitive parts of a record page (the board and the move list) written as HTML in
Python: a 19×19 board is 361 cells, and Django's template loop costs ~10 ms for them; this costs
well under one. Every text that is not a square name or a number is escaped."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def board(columns: list[str], stones: dict[str, str], last: str | None, line: list[str], line_dir: str,
          placed: dict[str, int], words: dict[str, str]) -> SafeString:
    """The `<thead>` and `<tbody>` of the board table: one `span.sq` per square with `data-sq`,
    `data-stone` ("X", "O" or ""), `last` / `win` classes and, for stones, an `i.n` holding the
    move number that placed it (`placed`: {square: ply}); CSS shows the numbers on demand. Each
    cell is labelled for screen readers ("H8, X, last move"): `words` holds the translated
    "X", "O", "empty", "last_move" and "winning_line"."""
    win = set(line)
    head = "<thead><tr><td></td>" + "".join(f'<th scope="col" aria-hidden="true">{c}</th>' for c in columns)
    out = [head, "</tr></thead><tbody>"]
    for row in range(1, len(columns) + 1):
        out.append(f'<tr><th scope="row" aria-hidden="true">{row}</th>')
        for letter in columns:
            sq = f"{letter}{row}"
            stone = stones.get(sq, "")
            classes = "sq" + (" last" if sq == last else "") + (" win" if sq in win else "")
            attrs = f' data-win="{line_dir}"' if sq in win else ""
            number = f'<i class="n">{placed[sq]}</i>' if stone and sq in placed else ""
            label = f"{sq}, {words[stone] if stone else words['empty']}"
            if sq == last:
                label += f", {words['last_move']}"
            if sq in win:
                label += f", {words['winning_line']}"
            out.append(f'<td role="gridcell" aria-label="{escape(label)}"><span class="{classes}" data-sq="{sq}" '
                       f'data-stone="{stone}"{attrs}>{number}</span></td>')
        out.append("</tr>")
    out.append("</tbody>")
    return mark_safe("".join(out))


def move_list(rows: list[tuple[int, str, str, str]], ply: int, numbers: bool, passes: str) -> SafeString:
    """The `<li>` items of the move list, each with its ply number shown. `rows` are `(ply, square, time label, side that passed
    after it or "")`; `passes` is the translated "%(side)s passes"; `ply` gets `aria-current`."""
    suffix = "&amp;numbers=1" if numbers else ""
    out = []
    for n, square, time, passed in rows:
        current = ' aria-current="step"' if n == ply else ""
        note = f' <span class="pass">{escape(passes % {"side": passed})}</span>' if passed else ""
        shown = f' <span class="t">{escape(time)}</span>' if time else ""  # a record without times: none
        out.append(f'<li value="{n}"><span class="n">{n}.</span><a href="?ply={n}{suffix}" data-ply="{n}" rel="nofollow"{current}>'
                   f'<span class="sqname">{escape(square)}</span>{shown}</a>{note}</li>')
    return mark_safe("".join(out))
