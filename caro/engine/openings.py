"""Opening procedures as explicit state machines: Swap2 and the RIF Renju opening.

Players sit in *seats*, ``"first"`` and ``"second"``; which seat plays X (Black) is only known
when the opening ends, because colours can be swapped. A machine has a ``state`` (a step
name), an ``actor`` (the seat that must act now), ``allowed`` (action kinds accepted now) and
:meth:`apply`, which takes an :class:`Action` or the equivalent dict::

    {"kind": "place", "square": "H8"}          # put the next stone (colours alternate X, O, X, ...)
    {"kind": "choose", "color": "X"}           # Swap2: the acting seat takes this colour
    {"kind": "swap"} / {"kind": "keep"}        # RIF: tentative White swaps colours or not
    {"kind": "offer", "squares": ["J9", "G9"]} # RIF: Black offers two 5th moves
    {"kind": "select", "square": "J9"}         # RIF: White picks one of them (it is played)

Out-of-step actions raise :class:`~caro.engine.errors.IllegalMove` with a reason code
(``opening_step``, ``opening_over``, ``wrong_turn``, ``not_central``, ``offer_count``,
``equivalent_fifth``, ``not_offered``, ``bad_color``, plus the board's own ``occupied``,
``bad_square``, ``out_of_board`` and ``foul``). A machine persists as the list of applied
actions (:meth:`to_dict` / :func:`opening_from_dict` replay them). When ``state == "done"``,
``colors`` is final and the game continues with ordinary moves on ``board`` (those later moves
are not part of the opening's state).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Callable

from .caro import O, X, Board, Rules
from .coords import parse_square, square_name
from .errors import (
    BAD_COLOR, EQUIVALENT_FIFTH, FOUL, NOT_CENTRAL, NOT_OFFERED, OCCUPIED, OFFER_COUNT,
    OPENING_OVER, OPENING_STEP, WRONG_TURN, IllegalMove,
)

__all__ = ["FIRST", "SECOND", "Action", "Step", "Swap2Opening", "RifOpening", "OPENINGS", "opening_from_dict", "symmetries"]

FIRST, SECOND = "first", "second"
_OTHER = {FIRST: SECOND, SECOND: FIRST}


class Step(StrEnum):
    """A state of an opening machine."""

    PLACE_THREE = "place_three"
    """Swap2: the first seat places X, O, X anywhere."""
    SECOND_CHOICE = "second_choice"
    """Swap2: the second seat chooses a colour or places the 4th stone (O)."""
    SECOND_PLACE = "second_place"
    """Swap2: the second seat places the 5th stone (X), then hands the choice back."""
    FIRST_CHOICE = "first_choice"
    """Swap2: the first seat chooses a colour after five stones."""
    PLACE_1 = "place_1"
    """RIF: tentative Black (first seat) plays move 1 on the centre point."""
    PLACE_2 = "place_2"
    """RIF: tentative Black places move 2 (White) inside the central 3x3."""
    PLACE_3 = "place_3"
    """RIF: tentative Black places move 3 (Black) inside the central 5x5."""
    SWAP = "swap"
    """RIF: tentative White (second seat) may swap colours."""
    PLACE_4 = "place_4"
    """RIF: White plays move 4 anywhere."""
    OFFER_5 = "offer_5"
    """RIF: Black offers two non-equivalent 5th moves."""
    SELECT_5 = "select_5"
    """RIF: White selects one offered 5th move (it is played); White then plays move 6."""
    DONE = "done"
    """The opening is over; colours are final and the game goes on on ``board``."""


@dataclass(frozen=True)
class Action:
    """One opening action: ``kind`` plus ``square``, ``squares`` or ``color`` as the kind needs."""

    kind: str
    square: str | None = None
    squares: tuple[str, ...] = ()
    color: str | None = None

    @classmethod
    def coerce(cls, action: Action | dict[str, Any]) -> Action:
        """Accept an Action or its dict form; raises IllegalMove ``opening_step`` for junk."""
        if isinstance(action, Action):
            return action
        if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
            raise IllegalMove(OPENING_STEP, f"not an opening action: {action!r}")
        squares = action.get("squares") or ()
        if isinstance(squares, str) or not isinstance(squares, (list, tuple)):
            raise IllegalMove(OFFER_COUNT, "squares must be a list of two square names")
        return cls(action["kind"], action.get("square"), tuple(squares), action.get("color"))

    def to_dict(self) -> dict[str, Any]:
        """The JSON-friendly dict form (only the fields that are set)."""
        data: dict[str, Any] = {"kind": self.kind}
        if self.square is not None:
            data["square"] = self.square
        if self.squares:
            data["squares"] = list(self.squares)
        if self.color is not None:
            data["color"] = self.color
        return data


Transform = Callable[[int, int], tuple[int, int]]


def _transforms(size: int) -> list[Transform]:
    m = size - 1
    return [
        lambda c, r: (c, r), lambda c, r: (m - r, c), lambda c, r: (m - c, m - r), lambda c, r: (r, m - c),
        lambda c, r: (m - c, r), lambda c, r: (c, m - r), lambda c, r: (r, c), lambda c, r: (m - r, m - c),
    ]


def symmetries(board: Board) -> list[Transform]:
    """The rotations and reflections of the square board (about its centre) that map every
    stone onto a stone of the same colour: the symmetry group of the position, identity first.
    Each is a function ``(col, row) -> (col, row)`` on 0-based coordinates."""
    size = board.rules.size
    stones = {parse_square(name, size): side for name, side in board.stones().items()}
    return [t for t in _transforms(size) if all(stones.get(t(c, r)) == side for (c, r), side in stones.items())]


class _Opening:
    """Shared machinery: seats, colours, the board, the action log."""

    kind = ""
    _first_state: Step

    def __init__(self, rules: Rules | None = None) -> None:
        self.board = Board(rules)
        self.colors = {FIRST: X, SECOND: O}  # tentative until state == "done"
        self.state = self._first_state
        self.actions: list[Action] = []

    @property
    def finished(self) -> bool:
        """Whether the opening is over (``state == "done"``)."""
        return self.state == Step.DONE

    def seat_of(self, color: str) -> str:
        """The seat currently holding ``color`` (``"X"`` or ``"O"``)."""
        return FIRST if self.colors[FIRST] == color else SECOND

    @property
    def actor(self) -> str:
        """The seat that must act now (after the opening: the seat whose colour is to move)."""
        return self.seat_of(self.board.turn) if self.finished else self._actor()

    @property
    def allowed(self) -> frozenset[str]:
        """The action kinds accepted in the current state (empty when done)."""
        return frozenset(self._allowed[self.state])

    def apply(self, action: Action | dict[str, Any], seat: str | None = None) -> Step:
        """Apply one action (optionally asserting the acting ``seat``) and return the new state.

        Raises IllegalMove (see the module docstring); a refused action changes nothing.
        """
        act = Action.coerce(action)
        if self.finished:
            raise IllegalMove(OPENING_OVER, "the opening is over")
        if seat is not None and seat != self.actor:
            raise IllegalMove(WRONG_TURN, f"it is the {self.actor} seat's turn in the opening")
        if act.kind not in self._allowed[self.state]:
            raise IllegalMove(OPENING_STEP, f"{act.kind!r} is not allowed in step {self.state.value!r}")
        self._apply(act)
        self.actions.append(act)
        return self.state

    def _place(self, act: Action) -> None:
        if not isinstance(act.square, str):
            raise IllegalMove(OPENING_STEP, "a place action needs a square")
        self.board.play(act.square)

    def _choose(self, act: Action) -> None:
        if act.color not in (X, O):
            raise IllegalMove(BAD_COLOR, f"colour must be 'X' or 'O', not {act.color!r}")
        seat = self._actor()
        self.colors = {seat: act.color, _OTHER[seat]: O if act.color == X else X}
        self.state = Step.DONE

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly state: opening kind, rules and the applied actions in order."""
        return {"kind": self.kind, "rules": self.board.rules.to_dict(), "actions": [a.to_dict() for a in self.actions]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> _Opening:
        """Rebuild a machine from :meth:`to_dict` output by replaying its actions.

        Raises ValueError for malformed data: not a dict, another opening kind, missing or bad
        ``rules``, ``actions`` present but not a list; IllegalMove (a ValueError too) if a
        stored action is refused.
        """
        _check_data(data)
        if data.get("kind") != cls.kind:
            raise ValueError(f"not a {cls.kind} opening: {data.get('kind')!r}")
        if "rules" not in data:
            raise ValueError("opening data has no 'rules'")
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise ValueError(f"opening actions must be a list, not {type(actions).__name__}")
        opening = cls(Rules.from_dict(data["rules"]))
        for action in actions:
            opening.apply(action)
        return opening

    def __repr__(self) -> str:
        return f"<{type(self).__name__} state={self.state.value} actor={self.actor} colors={self.colors}>"


class Swap2Opening(_Opening):
    """Swap2 (Gomoku World Championship opening): the first seat places X, O, X; the second
    seat chooses X or O, or places two more stones (O then X) and lets the first seat choose.
    Source: Gomocup / RIF Swap2 rule."""

    kind = "swap2"
    _first_state = Step.PLACE_THREE
    _allowed = {
        Step.PLACE_THREE: ("place",), Step.SECOND_CHOICE: ("choose", "place"),
        Step.SECOND_PLACE: ("place",), Step.FIRST_CHOICE: ("choose",), Step.DONE: (),
    }

    def _actor(self) -> str:
        return FIRST if self.state in (Step.PLACE_THREE, Step.FIRST_CHOICE) else SECOND

    def _apply(self, act: Action) -> None:
        if act.kind == "choose":
            self._choose(act)
            return
        self._place(act)
        if self.state == Step.PLACE_THREE and self.board.ply == 3:
            self.state = Step.SECOND_CHOICE
        elif self.state == Step.SECOND_CHOICE:
            self.state = Step.SECOND_PLACE
        elif self.state == Step.SECOND_PLACE:
            self.state = Step.FIRST_CHOICE


class RifOpening(_Opening):
    """The RIF Renju opening: tentative Black (first seat) places move 1 on the centre, move 2
    (White) in the central 3x3 and move 3 (Black) in the central 5x5; tentative White may swap;
    White plays move 4 anywhere; Black offers two 5th moves not equivalent under the position's
    symmetries; White selects one (it is played) and then plays move 6 as an ordinary move.
    Source: RIF opening rules (renju.net, "RIF rules" §4)."""

    kind = "rif"
    _first_state = Step.PLACE_1
    _allowed = {
        Step.PLACE_1: ("place",), Step.PLACE_2: ("place",), Step.PLACE_3: ("place",),
        Step.SWAP: ("swap", "keep"), Step.PLACE_4: ("place",), Step.OFFER_5: ("offer",),
        Step.SELECT_5: ("select",), Step.DONE: (),
    }
    _zone = {Step.PLACE_1: 0, Step.PLACE_2: 1, Step.PLACE_3: 2}  # Chebyshev radius from the centre
    _next = {Step.PLACE_1: Step.PLACE_2, Step.PLACE_2: Step.PLACE_3, Step.PLACE_3: Step.SWAP,
             Step.PLACE_4: Step.OFFER_5}

    def __init__(self, rules: Rules | None = None) -> None:
        super().__init__(rules)
        self.offers: tuple[str, ...] = ()

    def _actor(self) -> str:
        if self.state in (Step.PLACE_1, Step.PLACE_2, Step.PLACE_3):
            return FIRST
        if self.state == Step.SWAP:
            return SECOND
        return self.seat_of(X if self.state == Step.OFFER_5 else O)

    def _apply(self, act: Action) -> None:
        size = self.board.rules.size
        if act.kind == "place":
            radius = self._zone.get(self.state)
            if radius is not None and isinstance(act.square, str):
                col, row = parse_square(act.square, size)
                if max(abs(col - size // 2), abs(row - size // 2)) > radius:
                    area = "the centre point" if radius == 0 else f"the central {2 * radius + 1}x{2 * radius + 1}"
                    raise IllegalMove(NOT_CENTRAL, f"move {self.board.ply + 1} must be on {area}", square=act.square)
            self._place(act)
            self.state = self._next[self.state]
        elif act.kind in ("swap", "keep"):
            if act.kind == "swap":
                self.colors = {FIRST: O, SECOND: X}
            self.state = Step.PLACE_4
        elif act.kind == "offer":
            self.offers = self._check_offers(act.squares)
            self.state = Step.SELECT_5
        else:  # select
            chosen = self._normal(act.square) if isinstance(act.square, str) else None
            if chosen not in self.offers:
                raise IllegalMove(NOT_OFFERED, f"{act.square!r} was not offered", square=act.square)
            self.board.play(chosen)
            self.state = Step.DONE

    def _normal(self, name: str) -> str:
        return square_name(*parse_square(name, self.board.rules.size))

    def _check_offers(self, squares: tuple[str, ...]) -> tuple[str, ...]:
        if len(squares) != 2 or not all(isinstance(s, str) for s in squares):
            raise IllegalMove(OFFER_COUNT, "offer exactly two 5th moves")
        a, b = (self._normal(s) for s in squares)
        if a == b:
            raise IllegalMove(OFFER_COUNT, "the two 5th moves must differ")
        for name in (a, b):
            if self.board.stone_at(name) is not None:
                raise IllegalMove(OCCUPIED, f"{name} is occupied", square=name)
            kind = self.board.foul(name)
            if kind is not None:
                raise IllegalMove(FOUL, f"{name} is a foul for X ({kind})", square=name, foul=kind)
        size = self.board.rules.size
        pa, pb = parse_square(a, size), parse_square(b, size)
        if any(t(*pa) == pb for t in symmetries(self.board)):
            raise IllegalMove(EQUIVALENT_FIFTH, f"{a} and {b} are symmetric in this position")
        return (a, b)


def _check_data(data: Any) -> None:
    if not isinstance(data, dict):
        raise ValueError(f"opening data must be a dict, not {type(data).__name__}")


OPENINGS: dict[str, type[_Opening]] = {"swap2": Swap2Opening, "rif": RifOpening}


def opening_from_dict(data: dict[str, Any]) -> _Opening:
    """Rebuild whichever opening machine ``data`` describes (see :meth:`_Opening.from_dict`).

    Raises ValueError for malformed data (not a dict, unknown kind, missing or bad rules,
    actions not a list), IllegalMove (a ValueError subclass) if a stored action is refused.
    """
    _check_data(data)
    kind = data.get("kind")
    cls = OPENINGS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown opening kind: {data.get('kind')!r}")
    return cls.from_dict(data)
