"""The board diagram markup: a few keyword lines that describe one caro or Reversi diagram.

Pure Python (no Django). A diagram is written inside a guide as a fenced block::

    ```diagram
    size 15                 # caro board side: 11, 13, 15 (default) or 19
    view D4:L12             # optional crop window: two opposite corner squares
    rules caro-vn           # optional preset slug (caro.engine.caro.PRESETS); default caro-vn
    x E8-H8 C3              # X stones: squares or straight ranges "E8-H8"
    o D8 J8                 # O stones
    mark A I8               # a letter or number marker (1-2 letters, or 1-2 digits) on squares
    hl I8 J8                # highlighted cells
    line E8-I8              # a winning line drawn from one square to another
    turn O                  # side to move; shown as the caption "O to move"
    caption Free text       # caption text, written in the guide's language
    claim win X I8          # a statement the test suite checks with the engine
    ```

Reversi diagrams start with ``game reversi`` (8x8, squares a1-h8) and use ``black``/``white``
for discs, ``start`` for the initial four discs, ``moves f5 d6 c3`` to play from the start, and
``dots legal`` (or ``dots d3 c4``) for legal-move dots. ``turn black`` / ``turn white``.

Claims (checked by :mod:`caro.tutorials.claims`; a marker label may stand for its square):

* ``claim win X I8`` / ``claim no-win X I8``: X playing I8 wins / does not win.
* ``claim wins X: I8 J8`` / ``claim wins X: none``: exactly these X moves win at once.
* ``claim five E8`` / ``claim no-five E8``: the run through the stone on E8 wins / does not.
* ``claim blocks O: A B`` / ``claim blocks O: none``: exactly these O moves leave X no winning
  move (X must have one before).
* ``claim foul I8 double-three`` / ``claim no-foul I8``: Renju, X to move.
* ``claim legal black: d3 c4`` / ``claim legal white: none``: Reversi legal moves, exactly.
* ``claim flips black d3: d4``: exactly these discs flip.
* ``claim over`` / ``claim count 40 24``: Reversi game over / disc counts (black, white).

Errors raise :class:`DiagramError` carrying a 1-based line number of the enclosing document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from caro.engine.caro import PRESETS, SIZES, Rules
from caro.engine.coords import parse_square, square_name
from caro.engine.errors import IllegalMove

__all__ = ["DiagramError", "Claim", "Diagram", "parse_diagram", "CLAIM_KINDS", "MARKER_RE"]

MARKER_RE = re.compile(r"[A-Z]{1,2}|[0-9]{1,2}")
"""A marker label: one or two capital letters, or a number of one or two digits."""

CARO_KEYWORDS = ("size", "view", "rules", "x", "o", "mark", "hl", "line", "turn", "caption", "claim")
REVERSI_KEYWORDS = ("view", "black", "white", "start", "moves", "mark", "hl", "dots", "turn", "caption", "claim")

CLAIM_KINDS = {
    "caro": ("win", "no-win", "wins", "five", "no-five", "blocks", "foul", "no-foul"),
    "reversi": ("legal", "flips", "over", "count"),
}
FOUL_KINDS = ("double-three", "double-four", "overline")


class DiagramError(ValueError):
    """Bad diagram markup or a false claim.

    ``line`` is the 1-based line number in the enclosing document (None when unknown),
    ``message`` the English explanation without the line prefix. ``str(error)`` reads
    ``"Line 12: unknown keyword 'stone'"``.
    """

    def __init__(self, message: str, line: int | None = None) -> None:
        self.message = message
        self.line = line
        super().__init__(f"Line {line}: {message}" if line is not None else message)


@dataclass(frozen=True)
class Claim:
    """One ``claim`` line: ``kind`` (see :data:`CLAIM_KINDS`), ``side`` (``"X"``/``"O"``,
    ``"black"``/``"white"`` or None), ``squares`` (the subject squares, resolved from markers),
    ``expected`` (a frozenset of square names for set claims, else None), ``extra`` (foul kind
    or counts), ``text`` (the original line) and ``line`` (document line number)."""

    kind: str
    side: str | None
    squares: tuple[str, ...]
    expected: frozenset[str] | None
    extra: tuple = ()
    text: str = ""
    line: int = 0


@dataclass
class Diagram:
    """A parsed diagram. Squares are canonical names (``"H8"`` caro, ``"d3"`` Reversi).

    ``game`` is ``"caro"`` or ``"reversi"``; ``size`` the board side; ``view`` the crop window
    as 0-based ``(col0, row0, col1, row1)`` inclusive; ``rules_slug`` the preset slug when a
    ``rules`` line was given (else None, meaning the default caro-vn); ``stones`` maps square to
    ``"X"``/``"O"`` (caro) or ``"black"``/``"white"`` (Reversi); ``markers`` maps square to
    label; ``line`` is the drawn line as two end squares or None; ``dots`` the squares with a
    legal-move dot; ``turn`` the side to move or None; ``captions`` free caption texts;
    ``source`` the block text; ``first_line`` the document line of the block's first line.
    """

    game: str = "caro"
    size: int = 15
    view: tuple[int, int, int, int] | None = None
    rules_slug: str | None = None
    stones: dict[str, str] = field(default_factory=dict)
    markers: dict[str, str] = field(default_factory=dict)
    highlights: list[str] = field(default_factory=list)
    line: tuple[str, str] | None = None
    dots: list[str] = field(default_factory=list)
    dots_legal: bool = False
    turn: str | None = None
    captions: list[str] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    source: str = ""
    first_line: int = 1

    @property
    def rules(self) -> Rules:
        """The engine rules of this caro diagram (the preset's, resized to ``size``)."""
        preset = PRESETS[self.rules_slug or "caro-vn"]
        data = preset.rules.to_dict()
        data["size"] = self.size
        return Rules.from_dict(data)

    @property
    def window(self) -> tuple[int, int, int, int]:
        """The drawn window ``(col0, row0, col1, row1)``, the whole board when no ``view``."""
        return self.view or (0, 0, self.size - 1, self.size - 1)

    def square_name(self, col: int, row: int) -> str:
        """Name of 0-based ``(col, row)`` in this diagram's game (``"H8"`` or ``"h8"``)."""
        name = square_name(col, row)
        return name.lower() if self.game == "reversi" else name

    def marker_square(self, label: str) -> str | None:
        """The square carrying marker ``label``, or None."""
        for square, mark in self.markers.items():
            if mark == label:
                return square
        return None


_RANGE_RE = re.compile(r"^([A-Za-z][0-9]{1,2})-([A-Za-z][0-9]{1,2})$")


class _Parser:
    def __init__(self, text: str, first_line: int) -> None:
        self.text = text
        self.first_line = first_line
        self.diagram = Diagram(source=text, first_line=first_line)
        self.lineno = first_line
        self.seen: set[str] = set()
        self.pending_claims: list[tuple[str, int]] = []

    def fail(self, message: str) -> None:
        raise DiagramError(message, self.lineno)

    # -- squares -------------------------------------------------------------------------------

    def square(self, token: str) -> str:
        """Canonical name of one square token on this board; fails with a clear message."""
        d = self.diagram
        try:
            col, row = parse_square(token, d.size)
        except IllegalMove as exc:
            if exc.reason == "out_of_board":
                last = d.square_name(d.size - 1, d.size - 1)
                self.fail(f"square {token!r} is off the {d.size}x{d.size} board (last square is {last})")
            self.fail(f"{token!r} is not a square name (write a column letter then a row number, like H8)")
        return d.square_name(col, row)

    def squares(self, tokens: list[str]) -> list[str]:
        """Expand square tokens and straight ranges ("E8-H8", "D5-H1") in order."""
        out: list[str] = []
        for token in tokens:
            match = _RANGE_RE.match(token)
            if match is None:
                out.append(self.square(token))
                continue
            a, b = (self.square(match.group(k)) for k in (1, 2))
            ca, ra = parse_square(a, self.diagram.size)
            cb, rb = parse_square(b, self.diagram.size)
            dc, dr = cb - ca, rb - ra
            if not (dc == 0 or dr == 0 or abs(dc) == abs(dr)):
                self.fail(f"range {token!r} is not a straight row, column or diagonal")
            steps = max(abs(dc), abs(dr))
            sc, sr = (dc > 0) - (dc < 0), (dr > 0) - (dr < 0)
            out.extend(self.diagram.square_name(ca + k * sc, ra + k * sr) for k in range(steps + 1))
        return out

    # -- lines ---------------------------------------------------------------------------------

    def parse(self) -> Diagram:
        lines = self.text.split("\n")
        # The game and size decide how squares are read, so they are applied first.
        for offset, raw in enumerate(lines):
            self.lineno = self.first_line + offset
            words = raw.split("#", 1)[0].split()
            if words and words[0].lower() == "game":
                self.keyword_game(words[1:])
            elif words and words[0].lower() == "size":
                self.keyword_size(words[1:])
        for offset, raw in enumerate(lines):
            self.lineno = self.first_line + offset
            stripped = raw.strip()
            keyword, _, rest = stripped.partition(" ")
            keyword = keyword.lower()
            if not stripped or stripped.startswith("#") or keyword in ("game", "size"):
                continue
            if keyword != "caption":  # captions may contain '#'
                rest = rest.split("#", 1)[0]
            allowed = REVERSI_KEYWORDS if self.diagram.game == "reversi" else CARO_KEYWORDS
            if keyword not in allowed:
                self.fail(f"unknown keyword {keyword!r} for a {self.diagram.game} diagram; "
                          f"use one of: {', '.join(allowed)}")
            getattr(self, "keyword_" + keyword)(rest.strip())
        for text, lineno in self.pending_claims:
            self.lineno = lineno
            self.diagram.claims.append(self.claim(text))
        self.finish()
        return self.diagram

    def once(self, keyword: str) -> None:
        if keyword in self.seen:
            self.fail(f"{keyword!r} is given twice")
        self.seen.add(keyword)

    def keyword_game(self, words: list[str]) -> None:
        self.once("game")
        if words not in (["caro"], ["reversi"]):
            self.fail("write 'game caro' or 'game reversi'")
        self.diagram.game = words[0]
        if words[0] == "reversi":
            self.diagram.size = 8

    def keyword_size(self, words: list[str]) -> None:
        self.once("size")
        if self.diagram.game == "reversi":
            self.fail("a Reversi board is always 8x8; remove 'size'")
        if len(words) != 1 or not (words[0].isascii() and words[0].isdigit()) or int(words[0]) not in SIZES:
            self.fail(f"size must be one of {', '.join(map(str, SIZES))}")
        self.diagram.size = int(words[0])

    def keyword_view(self, rest: str) -> None:
        self.once("view")
        match = re.fullmatch(r"([A-Za-z][0-9]{1,2}):([A-Za-z][0-9]{1,2})", rest.replace(" ", ""))
        if match is None:
            self.fail("write the crop window as two corner squares, like 'view D4:L12'")
        a, b = (parse_square(self.square(match.group(k)), self.diagram.size) for k in (1, 2))
        col0, col1 = sorted((a[0], b[0]))
        row0, row1 = sorted((a[1], b[1]))
        if col1 - col0 < 2 or row1 - row0 < 2:
            self.fail("the crop window must be at least 3 columns by 3 rows")
        self.diagram.view = (col0, row0, col1, row1)

    def keyword_rules(self, rest: str) -> None:
        self.once("rules")
        if rest not in PRESETS:
            self.fail(f"unknown rule set {rest!r}; use one of: {', '.join(PRESETS)}")
        self.diagram.rules_slug = rest

    def place(self, side: str, rest: str) -> None:
        for square in self.squares(rest.split()):
            if square in self.diagram.stones:
                self.fail(f"{square} already holds a stone")
            self.diagram.stones[square] = side

    def keyword_x(self, rest: str) -> None:
        self.place("X", rest)

    def keyword_o(self, rest: str) -> None:
        self.place("O", rest)

    def keyword_black(self, rest: str) -> None:
        self.place("black", rest)

    def keyword_white(self, rest: str) -> None:
        self.place("white", rest)

    def keyword_start(self, rest: str) -> None:
        if rest:
            self.fail("'start' takes nothing after it")
        self.place("black", "d5 e4")
        self.place("white", "d4 e5")

    def keyword_moves(self, rest: str) -> None:
        self.once("moves")
        self.diagram.moves = self.squares(rest.split())
        if not self.diagram.moves:
            self.fail("'moves' needs at least one square")

    def keyword_mark(self, rest: str) -> None:
        words = rest.split()
        if len(words) < 2 or not MARKER_RE.fullmatch(words[0]):
            self.fail("write 'mark A I8': a label (1-2 capital letters or 1-2 digits) then squares")
        label = words[0]
        if self.diagram.marker_square(label) is not None:
            self.fail(f"marker {label!r} is used twice")
        squares = self.squares(words[1:])
        if len(squares) != 1:
            self.fail(f"marker {label!r} must mark exactly one square")
        if squares[0] in self.diagram.markers:
            self.fail(f"{squares[0]} already has a marker")
        self.diagram.markers[squares[0]] = label

    def keyword_hl(self, rest: str) -> None:
        if not rest:
            self.fail("'hl' needs at least one square")
        self.diagram.highlights.extend(s for s in self.squares(rest.split()) if s not in self.diagram.highlights)

    def keyword_line(self, rest: str) -> None:
        self.once("line")
        match = _RANGE_RE.match(rest.replace(" ", ""))
        if match is None:
            self.fail("write the line as a range between its end squares, like 'line E8-I8'")
        self.squares([rest.replace(" ", "")])  # checks it is straight
        self.diagram.line = (self.square(match.group(1)), self.square(match.group(2)))

    def keyword_dots(self, rest: str) -> None:
        self.once("dots")
        if rest == "legal":
            self.diagram.dots_legal = True
        elif rest:
            self.diagram.dots = self.squares(rest.split())
        else:
            self.fail("write 'dots legal' or list the squares")

    def keyword_turn(self, rest: str) -> None:
        self.once("turn")
        sides = ("black", "white") if self.diagram.game == "reversi" else ("X", "O")
        value = rest.lower() if self.diagram.game == "reversi" else rest.upper()
        if value not in sides:
            self.fail(f"write 'turn {sides[0]}' or 'turn {sides[1]}'")
        self.diagram.turn = value

    def keyword_caption(self, rest: str) -> None:
        if not rest:
            self.fail("'caption' needs text")
        self.diagram.captions.append(rest)

    def keyword_claim(self, rest: str) -> None:
        # Markers may be defined after the claim, so claims are read last.
        self.pending_claims.append((rest, self.lineno))

    # -- claims --------------------------------------------------------------------------------

    def ref(self, token: str) -> str:
        """A square name or a marker label standing for its square."""
        if MARKER_RE.fullmatch(token) and not re.fullmatch(r"[A-Za-z][0-9]+", token):
            square = self.diagram.marker_square(token)
            if square is None:
                self.fail(f"marker {token!r} is not on the diagram")
            return square
        return self.square(token)

    def ref_set(self, text: str) -> frozenset[str]:
        words = text.split()
        if words == ["none"]:
            return frozenset()
        if not words:
            self.fail("list the squares after ':' (or write 'none')")
        return frozenset(self.ref(w) for w in words)

    def side(self, token: str) -> str:
        if self.diagram.game == "reversi":
            if token.lower() not in ("black", "white"):
                self.fail(f"side must be black or white, not {token!r}")
            return token.lower()
        if token.upper() not in ("X", "O"):
            self.fail(f"side must be X or O, not {token!r}")
        return token.upper()

    def claim(self, text: str) -> Claim:
        game = self.diagram.game
        head, colon, tail = text.partition(":")
        words = head.split()
        if not words:
            self.fail("'claim' needs a statement, like 'claim win X I8'")
        kind, args = words[0].lower(), words[1:]
        if kind not in CLAIM_KINDS[game]:
            self.fail(f"unknown claim {kind!r} for a {game} diagram; use one of: {', '.join(CLAIM_KINDS[game])}")
        usage = {
            "win": "claim win X I8", "no-win": "claim no-win X I8", "wins": "claim wins X: I8 J8",
            "five": "claim five E8", "no-five": "claim no-five E8", "blocks": "claim blocks O: A B",
            "foul": "claim foul I8 double-three", "no-foul": "claim no-foul I8",
            "legal": "claim legal black: d3 c4", "flips": "claim flips black d3: d4",
            "over": "claim over", "count": "claim count 40 24",
        }[kind]
        set_kinds = ("wins", "blocks", "legal", "flips")
        if (kind in set_kinds) != bool(colon):
            self.fail(f"write it like '{usage}'")
        shape = {"win": 2, "no-win": 2, "wins": 1, "five": 1, "no-five": 1, "blocks": 1, "foul": 2,
                 "no-foul": 1, "legal": 1, "flips": 2, "over": 0, "count": 2}[kind]
        if len(args) != shape:
            self.fail(f"write it like '{usage}'")
        side, squares, expected, extra = None, (), None, ()
        if kind in ("win", "no-win"):
            side, squares = self.side(args[0]), (self.ref(args[1]),)
        elif kind in ("wins", "blocks", "legal"):
            side, expected = self.side(args[0]), self.ref_set(tail)
        elif kind in ("five", "no-five"):
            squares = (self.ref(args[0]),)
            if squares[0] not in self.diagram.stones:
                self.fail(f"{squares[0]} holds no stone")
        elif kind == "foul":
            squares = (self.ref(args[0]),)
            if args[1] not in FOUL_KINDS:
                self.fail(f"foul kind must be one of: {', '.join(FOUL_KINDS)}")
            extra = (args[1],)
        elif kind == "no-foul":
            squares = (self.ref(args[0]),)
        elif kind == "flips":
            side, squares, expected = self.side(args[0]), (self.ref(args[1]),), self.ref_set(tail)
        elif kind == "count":
            if not all(a.isascii() and a.isdigit() for a in args):
                self.fail("write it like 'claim count 40 24' (black, then white)")
            extra = (int(args[0]), int(args[1]))
        return Claim(kind, side, squares, expected, extra, text.strip(), self.lineno)

    def finish(self) -> None:
        d = self.diagram
        self.lineno = d.first_line
        if d.moves and any(v for v in d.stones.values()):
            self.fail("use either 'moves' or 'black'/'white'/'start', not both")
        for square in d.markers:
            if square in d.stones and len(d.markers[square]) > 1:
                self.fail(f"a marker on a stone ({square}) must be a single character")
        if d.view is not None:
            col0, row0, col1, row1 = d.view
            shown = list(d.stones) + list(d.markers) + d.highlights + d.dots + list(d.line or ())
            for square in shown:
                col, row = parse_square(square, d.size)
                if not (col0 <= col <= col1 and row0 <= row <= row1):
                    self.fail(f"{square} is outside the view {d.square_name(col0, row0)}:{d.square_name(col1, row1)}")


def parse_diagram(text: str, first_line: int = 1) -> Diagram:
    """Parse one diagram block (the lines between the fences) into a :class:`Diagram`.

    ``first_line`` is the document line number of the block's first line, used in errors.
    Raises :class:`DiagramError` with the offending line for any mistake.
    """
    if len(text) > 5000:
        raise DiagramError("a diagram block may not be longer than 5000 characters", first_line)
    return _Parser(text, first_line).parse()

