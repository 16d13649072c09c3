"""Diagram claims are checked with the real engine: every claim kind true and false, the rule
table of guide 1, and every diagram of every guide source file."""

from __future__ import annotations

from pathlib import Path

import pytest

from caro.engine.caro import PRESETS, Board
from caro.tutorials.claims import check_claims
from caro.tutorials.document import extract_diagrams, parse_source
from caro.tutorials.markup import DiagramError, parse_diagram

GUIDES = Path(__file__).resolve().parents[3] / "caro" / "tutorials" / "guides"
SOURCE_FILES = sorted(GUIDES.glob("*/*.md"))


def holds(text: str) -> bool:
    try:
        check_claims(parse_diagram(text))
    except DiagramError:
        return False
    return True


FOUR_BLOCKED = "x E8-H8\no D8\nmark A I8\nmark B J8\n"


@pytest.mark.parametrize(
    ("text", "true"),
    [
        (FOUR_BLOCKED + "claim win X A", True),
        (FOUR_BLOCKED + "claim no-win X A", False),
        (FOUR_BLOCKED + "claim wins X: A", True),
        (FOUR_BLOCKED + "claim wins X: A B", False),
        # Under blocked two ends the square past the completing one also blocks ...
        (FOUR_BLOCKED + "claim blocks O: A B", True),
        (FOUR_BLOCKED + "claim blocks O: A", False),
        # ... but not under freestyle.
        ("rules freestyle\n" + FOUR_BLOCKED + "claim blocks O: A", True),
        ("rules freestyle\n" + FOUR_BLOCKED + "claim blocks O: A B", False),
        # An open four cannot be blocked; nothing to block is itself a false claim.
        ("x E8-H8\nclaim blocks O: none", True),
        ("x E8-G8\nclaim blocks O: none", False),
        # Five blocked at both ends (caro-vn) vs freestyle.
        ("x E8-I8\no D8 J8\nclaim no-five G8", True),
        ("x E8-I8\no D8 J8\nclaim five G8", False),
        ("rules freestyle\nx E8-I8\no D8 J8\nclaim five G8", True),
        # The edge blocks under caro-vn but not under caro-edge-open.
        ("x A8-E8\no F8\nclaim no-five C8", True),
        ("rules caro-edge-open\nx A8-E8\no F8\nclaim five C8", True),
        # Renju fouls, for X only.
        ("rules renju\nx F8 G8 H6 H7\nclaim foul H8 double-three", True),
        ("rules renju\nx F8 G8 H6 H7\nclaim foul H8 overline", False),
        ("rules renju\nx F8 G8 H6 H7\nclaim no-foul H8", False),
        ("rules renju\nx F8 G8\nclaim no-foul H8", True),
        ("x F8 G8 H6 H7\nclaim foul H8 double-three", False),  # not Renju
        # A claim about a non-empty square is false, not an engine crash.
        (FOUR_BLOCKED + "claim win X E8", False),
    ],
)
def test_caro_claims(text, true):
    assert holds(text) is true


@pytest.mark.parametrize(
    ("text", "true"),
    [
        ("game reversi\nstart\nclaim legal black: d3 c4 f5 e6", True),
        ("game reversi\nstart\nclaim legal black: d3 c4 f5", False),
        ("game reversi\nstart\nclaim legal white: e3 f4 c5 d6", True),
        ("game reversi\nmoves c4 c3 d3 e3 f4\nclaim flips white c5: c4 d4 d5", True),
        ("game reversi\nmoves c4 c3 d3 e3 f4\nclaim flips white c5: c4 d4", False),
        ("game reversi\nmoves c4 c3 e6 b4 a4 a5 c2 a3\nclaim legal black: none", True),
        ("game reversi\nmoves d3 c3 b3 e3 f3 f4 f5 d2 d1\nclaim over\nclaim count 13 0", True),
        ("game reversi\nmoves d3 c3 b3 e3 f3 f4 f5 d2 d1\nclaim count 12 1", False),
        ("game reversi\nstart\nclaim over", False),
        ("game reversi\nmoves f5 d6\nturn black\nclaim over", False),
    ],
)
def test_reversi_claims(text, true):
    assert holds(text) is true


def test_illegal_reversi_move_list_is_a_diagram_error():
    with pytest.raises(DiagramError, match="engine refuses"):
        check_claims(parse_diagram("game reversi\nmoves a1\nclaim over"))


# Guide 1's table: (description, X stones, O stones, square to play) -> wins under
# (freestyle, caro-vn, exact-five, caro-exact).
TABLE = [
    ("five, both ends open", "E8-H8", "", "I8", (True, True, True, True)),
    ("five, one end blocked", "E8-H8", "D8", "I8", (True, True, True, True)),
    ("five, both ends blocked", "E8-H8", "D8 J8", "I8", (True, False, True, False)),
    ("six, one end open", "E8-G8 I8 J8", "D8", "H8", (True, True, False, False)),
    ("six, both ends blocked", "E8-G8 I8 J8", "D8 K8", "H8", (True, False, False, False)),
    ("seven, both ends open", "E8-G8 I8-K8", "", "H8", (True, True, False, False)),
    ("five against the edge, other end blocked", "A8-D8", "F8", "E8", (True, False, True, False)),
]


@pytest.mark.parametrize(("name", "x", "o", "move", "expected"), TABLE, ids=[row[0] for row in TABLE])
def test_the_four_combinations_table(name, x, o, move, expected):
    for slug, want in zip(("freestyle", "caro-vn", "exact-five", "caro-exact"), expected):
        text = f"rules {slug}\nx {x}\n" + (f"o {o}\n" if o else "") + f"claim {'win' if want else 'no-win'} X {move}"
        assert holds(text), f"{name} under {slug}: expected {'a win' if want else 'no win'}"


def test_the_engine_agrees_with_the_checker_directly():
    board = Board.from_stones(PRESETS["caro-vn"].rules, x=["E8", "F8", "G8", "H8"], o=["D8", "J8"], to_move="X")
    assert board.play("I8") is None  # blocked at both ends: no win, as claimed in guide 2


def test_there_are_guide_files():
    assert len(SOURCE_FILES) == 10


@pytest.mark.parametrize("path", SOURCE_FILES, ids=[f"{p.parent.name}/{p.name}" for p in SOURCE_FILES])
def test_every_claim_of_every_guide_diagram_holds(path):
    source = parse_source(path.read_text(encoding="utf-8"))
    _prose, diagrams = extract_diagrams(source.body, source.body_line)
    assert diagrams, "every guide has diagrams"
    for diagram in diagrams:
        check_claims(diagram)  # raises DiagramError "Line N: claim ... is false: ..."
    claimed = sum(1 for d in diagrams if d.claims)
    assert claimed >= len(diagrams) * 0.6, "most diagrams state something the engine can check"


def _diagrams(language: str, key: str):
    for path in SOURCE_FILES:
        source = parse_source(path.read_text(encoding="utf-8"))
        if path.parent.name == language and source.key == key:
            return extract_diagrams(source.body, source.body_line)[1]
    raise AssertionError(f"no {language} guide {key}")


@pytest.mark.parametrize("key", ["caro-rules", "blocked-ends", "rule-sets", "reversi-rules", "glossary"])
def test_both_languages_show_the_same_positions_and_claims(key):
    vi, en = _diagrams("vi", key), _diagrams("en", key)
    assert len(vi) == len(en)
    for a, b in zip(vi, en):
        assert (a.game, a.size, a.view, a.rules_slug, a.stones, a.markers, a.highlights, a.line, a.turn, a.moves) == (
            b.game, b.size, b.view, b.rules_slug, b.stones, b.markers, b.highlights, b.line, b.turn, b.moves)
        assert [c.text for c in a.claims] == [c.text for c in b.claims]
