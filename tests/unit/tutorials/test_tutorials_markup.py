"""Diagram markup parser and guide document rendering: shapes, ranges, markers, and errors that
name the right line."""

from __future__ import annotations

import pytest

from caro.tutorials.document import extract_diagrams, parse_source, render_guide, slugify
from caro.tutorials.markup import DiagramError, parse_diagram

EXAMPLE = """\
size 15
view D4:L12          # columns D-L, rows 4-12
rules caro-exact
x E8-H8 F6
o D8 J8
mark A I8
mark 1 G5
hl I8 J8
line E8-I8
turn O
caption O to move # the caption keeps its hash
claim blocks O: A
"""


def test_example_parses_into_exact_values():
    d = parse_diagram(EXAMPLE)
    assert d.game == "caro" and d.size == 15 and d.rules_slug == "caro-exact"
    assert d.view == (3, 3, 11, 11)  # D=3 .. L=11 (I included), rows 4..12 -> 3..11
    assert d.stones == {"E8": "X", "F8": "X", "G8": "X", "H8": "X", "F6": "X", "D8": "O", "J8": "O"}
    assert d.markers == {"I8": "A", "G5": "1"}
    assert d.highlights == ["I8", "J8"]
    assert d.line == ("E8", "I8")
    assert d.turn == "O"
    assert d.captions == ["O to move # the caption keeps its hash"]
    (claim,) = d.claims
    assert claim.kind == "blocks" and claim.side == "O" and claim.expected == frozenset({"I8"})
    assert claim.line == 12
    assert d.rules.exact is True and d.rules.blocked == "opponent_or_edge"


def test_ranges_expand_along_rows_columns_and_both_diagonals():
    d = parse_diagram("x A1-A3 C1-E1 G1-I3\no O15-M13")
    assert [s for s, v in d.stones.items() if v == "X"] == ["A1", "A2", "A3", "C1", "D1", "E1", "G1", "H2", "I3"]
    assert [s for s, v in d.stones.items() if v == "O"] == ["O15", "N14", "M13"]


def test_letters_include_i_and_size_changes_the_board():
    d = parse_diagram("size 19\nx J10 S19")
    assert d.stones == {"J10": "X", "S19": "X"}
    with pytest.raises(DiagramError, match="off the 15x15 board"):
        parse_diagram("x P8")


def test_reversi_diagram():
    d = parse_diagram("game reversi\nstart\ndots legal\nturn black\nclaim legal black: d3 c4 f5 e6")
    assert d.size == 8 and d.game == "reversi"
    assert d.stones == {"d5": "black", "e4": "black", "d4": "white", "e5": "white"}
    assert d.dots_legal and d.turn == "black"
    assert d.claims[0].expected == frozenset({"d3", "c4", "f5", "e6"})
    d = parse_diagram("game reversi\nmoves F5 d6")
    assert d.moves == ["f5", "d6"]


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("size 16", 1, "size must be one of 11, 13, 15, 19"),
        ("x E8\nx Z9", 2, "off the 15x15 board"),
        ("x E8\no 8E", 2, "not a square name"),
        ("x E8\n\no E8", 3, "E8 already holds a stone"),
        ("x E8\nstone F8", 2, "unknown keyword 'stone'"),
        ("view A1:B2", 1, "at least 3 columns by 3 rows"),
        ("view A1-H8", 1, "two corner squares"),
        ("view D4:L12\nx A1", 1, "A1 is outside the view"),
        ("x E8-G9", 1, "not a straight row, column or diagonal"),
        ("rules chess", 1, "unknown rule set 'chess'"),
        ("turn Z", 1, "write 'turn X' or 'turn O'"),
        ("mark a I8", 1, "write 'mark A I8'"),
        ("mark A I8\nmark A J8", 2, "marker 'A' is used twice"),
        ("x E8\nclaim wins X I8", 2, "write it like 'claim wins X: I8 J8'"),
        ("x E8\nclaim win X B", 2, "marker 'B' is not on the diagram"),
        ("x E8\nclaim flips X: A", 2, "unknown claim 'flips' for a caro diagram"),
        ("x E8\nclaim foul E9 triple", 2, "foul kind must be one of"),
        ("claim five E8", 1, "E8 holds no stone"),
        ("game reversi\nsize 15", 2, "always 8x8"),
        ("game reversi\nx d3", 2, "unknown keyword 'x' for a reversi diagram"),
        ("game reversi\nstart\nmoves f5", 1, "either 'moves' or"),
        ("line E8-G8\nline E9-G9", 2, "'line' is given twice"),
    ],
)
def test_bad_markup_names_the_line(text, line, fragment):
    with pytest.raises(DiagramError) as info:
        parse_diagram(text)
    assert info.value.line == line
    assert fragment in info.value.message
    assert str(info.value).startswith(f"Line {line}: ")


def test_line_numbers_count_from_the_document():
    body = "Intro.\n\n```diagram\nx E8\n```\n\nMore.\n\n```diagram\nx E8\no F8\nx Q1\n```\n"
    with pytest.raises(DiagramError) as info:
        extract_diagrams(body, first_line=10)
    assert info.value.line == 10 + 11  # "x Q1" is the 12th body line
    with pytest.raises(DiagramError) as info:
        render_guide("Text\n\n```diagram\nx E8\n", first_line=1)
    assert info.value.line == 3 and "never closed" in info.value.message


def test_false_claims_fail_at_their_line():
    body = "# T\n\n```diagram\nx E8-H8\no D8\nturn O\nclaim blocks O: I8\n```\n"
    with pytest.raises(DiagramError) as info:
        render_guide(body)
    assert info.value.line == 7
    assert "I8 J8" in info.value.message  # what the engine actually found
    assert render_guide(body, check=False).diagrams  # without checking it renders


def test_prose_raw_html_is_escaped_and_links_resolve():
    body = 'Hi <script>alert(1)</script> <b>x</b>\n\n## Luật chặn hai đầu\n\n[a](guide:glossary#x) [b](play:renju)\n'
    result = render_guide(body, guide_url={"glossary": "/huong-dan/thuat-ngu/"}.get)
    assert "<script>" not in result.html and "&lt;script&gt;" in result.html
    assert 'href="/huong-dan/thuat-ngu/#x"' in result.html
    assert 'href="/?preset=renju"' in result.html
    assert result.toc == [("luat-chan-hai-dau", "Luật chặn hai đầu")]


def test_bad_links_are_errors_with_lines():
    with pytest.raises(DiagramError) as info:
        render_guide("one\n\ntwo [x](guide:nope)\n", guide_url=lambda key: None)
    assert info.value.line == 3
    with pytest.raises(DiagramError, match="unknown rule set in link 'play:chess'"):
        render_guide("[x](play:chess)")
    # Rendering a stored guide (no checking) never fails on a link to an unpublished guide.
    assert 'href="../"' in render_guide("[x](guide:nope)", check=False).html


def test_tables_are_wrapped_for_narrow_screens_and_reachable_by_keyboard():
    html = render_guide("| a | b |\n|---|---|\n| 1 | 2 |\n").html
    # the wrapper scrolls sideways on a phone; axe asks a scrolling region to take the focus
    # and to have a name (issue 30, rough edge 11)
    assert '<div class="table-wrap" tabindex="0" role="region" aria-label="' in html
    assert '"><table>' in html


def test_slugify_vietnamese():
    assert slugify("Đường 4: phải chặn ngay") == "duong-4-phai-chan-ngay"
    assert slugify("Cách đọc tọa độ") == "cach-doc-toa-do"


def test_front_matter():
    text = "---\nkey: k\nslug: s\ntitle: T\nsummary: S\norder: 2\npreset: renju\n---\nBody\n"
    src = parse_source(text)
    assert (src.key, src.slug, src.order, src.preset, src.body, src.body_line) == ("k", "s", 2, "renju", "Body\n", 9)
    with pytest.raises(DiagramError) as info:
        parse_source("---\nkey: k\ncolour: red\n---\n")
    assert info.value.line == 3
    with pytest.raises(DiagramError, match="preset must be one of"):
        parse_source(text.replace("renju", "chess"))
