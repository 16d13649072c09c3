"""The SVG renderer: well-formed, coordinates on top and left (row 1 at the top, I included),
heavy real edges, run-out lines on cut edges, stones in the right cells, and a text alternative."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from caro.tutorials.markup import parse_diagram
from caro.tutorials.svg import CELL, describe, render_svg

NS = {"s": "http://www.w3.org/2000/svg"}


def svg_of(text: str, **kwargs) -> ET.Element:
    return ET.fromstring(render_svg(parse_diagram(text), **kwargs))


def coords(root: ET.Element) -> list[tuple[str, float, float]]:
    group = root.find("s:g[@class='coords']", NS)
    return [(t.text, float(t.get("x")), float(t.get("y"))) for t in group.findall("s:text", NS)]


def test_accessible_svg_with_title_and_description():
    root = svg_of("view D4:L12\nx E8 F8\no D8\nmark A I8\nturn O", ident="dg-7")
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "dg-7-t dg-7-d"
    desc = root.find("s:desc", NS).text
    assert "columns D to L, rows 4 to 12" in desc
    assert "X: E8, F8." in desc and "O: D8." in desc and "Marker A on I8." in desc and "O to move." in desc


def test_coordinates_letters_on_top_numbers_on_the_left_row_one_at_the_top():
    root = svg_of("x H8")
    labels = coords(root)
    letters = [(t, x, y) for t, x, y in labels if t.isalpha()]
    numbers = [(t, x, y) for t, x, y in labels if t.isdigit()]
    assert [t for t, _, _ in letters] == list("ABCDEFGHIJKLMNO")  # I included, 15 columns
    assert [t for t, _, _ in numbers] == [str(n) for n in range(1, 16)]
    assert all(y == letters[0][2] for _, _, y in letters)  # one row of letters ...
    assert all(y < numbers[0][2] for _, _, y in letters)  # ... above the board
    assert all(x < letters[0][1] for _, x, _ in numbers)  # numbers left of column A
    assert [y for _, _, y in numbers] == sorted(y for _, _, y in numbers)  # 1 at the top


def test_stones_are_drawn_in_their_cells():
    root = svg_of("view D4:L12\nx E8\no I5")
    labels = {t: (x, y) for t, x, y in coords(root)}
    x_mark = root.find("s:path[@class='x']", NS)
    # The X path starts at the top-left of the cross, CELL*0.28 from the centre of E8.
    mx, my = (float(v) for v in x_mark.get("d")[1:].split("L")[0].split())
    assert abs(mx + CELL * 0.28 - labels["E"][0]) < 0.01
    ring = root.find("s:circle[@class='o']", NS)
    assert float(ring.get("cx")) == labels["I"][0]
    assert abs(float(ring.get("cy")) - (labels["5"][1] - 12 / 3)) < 0.01


def test_real_edges_are_heavy_and_cut_edges_run_out():
    full = svg_of("x H8")
    assert len(full.find("s:g[@class='edge']", NS)) == 4
    cropped = svg_of("view D4:L12\nx H8")
    assert cropped.find("s:g[@class='edge']", NS) is None
    corner = svg_of("view A1:H8\nx B2")
    edges = corner.find("s:g[@class='edge']", NS)
    assert len(edges) == 2  # left and top only
    # Grid lines run past the last cell on the cut right and bottom sides.
    grid = corner.find("s:g[@class='grid']", NS)
    vertical = [ln for ln in grid if ln.get("x1") == ln.get("x2")]
    horizontal = [ln for ln in grid if ln.get("y1") == ln.get("y2")]
    last_v = max(float(ln.get("x1")) for ln in vertical)
    assert max(float(ln.get("x2")) for ln in horizontal) > last_v  # run-out to the right
    first_h = min(float(ln.get("y1")) for ln in horizontal)
    assert min(float(ln.get("y1")) for ln in vertical) == first_h  # no run-out above the real top edge


def test_markers_highlights_and_line():
    root = svg_of("view D4:L12\nx E8-I8\nline E8-I8\nhl J8\nmark A J8\nmark B E8")
    assert len(root.findall("s:rect[@class='hl']", NS)) == 1
    assert root.find("s:line[@class='win']", NS) is not None
    marks = {t.text: float(t.get("font-size")) for t in root.findall("s:text[@class='mk']", NS)}
    assert marks == {"A": 18.0, "B": 10.0}  # on a stone, the marker is small and in the corner


def test_reversi_discs_and_legal_move_dots():
    root = svg_of("game reversi\nstart\ndots legal\nturn black")
    assert len(root.findall("s:circle[@class='disc black']", NS)) == 2
    assert len(root.findall("s:circle[@class='disc white']", NS)) == 2
    assert len(root.findall("s:circle[@class='dot']", NS)) == 4
    assert [t for t, _, _ in coords(root) if t.isalpha()] == list("abcdefgh")
    root = svg_of("game reversi\nmoves f5 d6 c3")
    assert len(root.findall("s:circle[@class='disc black']", NS)) + len(root.findall("s:circle[@class='disc white']", NS)) == 7


def test_texts_go_through_the_translator():
    table = {"%(side)s to move": "%(side)s đi tiếp", "Black": "Đen", "%(side)s: %(squares)s.": "%(side)s: %(squares)s."}
    text = describe(parse_diagram("game reversi\nstart\nturn black"), tr=lambda s: table.get(s, s))
    assert "Đen đi tiếp." in text and "Đen: e4, d5." in text  # reading order: row by row


def test_text_is_escaped():
    root = svg_of("x H8\ncaption <b>&</b>")
    assert "<b>&</b>" in root.find("s:desc", NS).text  # parsed back from escaped XML
