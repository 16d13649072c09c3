"""Opening state machines: Swap2 and RIF; every out-of-step action is refused with its code."""

from __future__ import annotations

import json

import pytest

from caro.engine.caro import Rules
from caro.engine.errors import IllegalMove
from caro.engine.openings import RifOpening, Step, Swap2Opening, opening_from_dict, symmetries

SWAP2_RULES = Rules(exact=True, blocked="none")
RENJU = Rules(renju=True, blocked="none")
ALL_KINDS = [
    {"kind": "place", "square": "A1"}, {"kind": "choose", "color": "X"}, {"kind": "swap"}, {"kind": "keep"},
    {"kind": "offer", "squares": ["A1", "O15"]}, {"kind": "select", "square": "A1"}, {"kind": "resign"},
]

SWAP2_PATHS = {
    "second-takes-x": ([("first", {"kind": "place", "square": "H8"}), ("first", {"kind": "place", "square": "H9"}),
                        ("first", {"kind": "place", "square": "I9"}), ("second", {"kind": "choose", "color": "X"})],
                       {"first": "O", "second": "X"}, "first"),
    "second-takes-o": ([("first", {"kind": "place", "square": "H8"}), ("first", {"kind": "place", "square": "H9"}),
                        ("first", {"kind": "place", "square": "I9"}), ("second", {"kind": "choose", "color": "O"})],
                       {"first": "X", "second": "O"}, "second"),
    "hand-back": ([("first", {"kind": "place", "square": "H8"}), ("first", {"kind": "place", "square": "H9"}),
                   ("first", {"kind": "place", "square": "I9"}), ("second", {"kind": "place", "square": "G7"}),
                   ("second", {"kind": "place", "square": "J10"}), ("first", {"kind": "choose", "color": "X"})],
                  {"first": "X", "second": "O"}, "second"),
}

RIF_PATH = [
    ("first", {"kind": "place", "square": "H8"}), ("first", {"kind": "place", "square": "I9"}),
    ("first", {"kind": "place", "square": "J10"}), ("second", {"kind": "swap"}),
    # after the swap the second seat is Black: First plays White's 4th move
    ("first", {"kind": "place", "square": "G7"}), ("second", {"kind": "offer", "squares": ["K10", "H7"]}),
    ("first", {"kind": "select", "square": "H7"}),
]


def run_path(opening, path):
    for seat, action in path:
        assert opening.actor == seat
        for wrong in ALL_KINDS:
            if wrong["kind"] not in opening.allowed:
                with pytest.raises(IllegalMove) as info:
                    opening.apply(wrong)
                assert info.value.reason == "opening_step"
        other = "second" if seat == "first" else "first"
        with pytest.raises(IllegalMove) as info:
            opening.apply(action, seat=other)
        assert info.value.reason == "wrong_turn"
        state = opening.state
        opening.apply(action, seat=seat)
        assert opening.state != state or state == Step.PLACE_THREE
        # persistence at every step: replaying the stored actions gives the same machine
        again = opening_from_dict(json.loads(json.dumps(opening.to_dict())))
        assert (again.state, again.actor, again.colors, again.board.stones()) == (
            opening.state, opening.actor, opening.colors, opening.board.stones())


@pytest.mark.parametrize("name", SWAP2_PATHS)
def test_swap2_paths(name):
    path, colors, to_move_seat = SWAP2_PATHS[name]
    opening = Swap2Opening(SWAP2_RULES)
    assert opening.state == Step.PLACE_THREE and opening.actor == "first"
    run_path(opening, path)
    assert opening.finished and opening.colors == colors
    assert opening.actor == to_move_seat == opening.seat_of(opening.board.turn)
    with pytest.raises(IllegalMove) as info:
        opening.apply({"kind": "place", "square": "A1"})
    assert info.value.reason == "opening_over"
    assert opening.allowed == frozenset()


def test_swap2_stones_alternate_colours():
    opening = Swap2Opening(SWAP2_RULES)
    run_path(opening, SWAP2_PATHS["hand-back"][0][:5])
    assert opening.board.stones() == {"H8": "X", "H9": "O", "I9": "X", "G7": "O", "J10": "X"}
    assert opening.state == Step.FIRST_CHOICE


def test_swap2_refusals():
    opening = Swap2Opening(SWAP2_RULES)
    opening.apply({"kind": "place", "square": "H8"})
    for action, reason in [
        ({"kind": "place", "square": "H8"}, "occupied"), ({"kind": "place", "square": "9Z"}, "bad_square"),
        ({"kind": "place", "square": "P1"}, "out_of_board"), ({"kind": "place"}, "opening_step"),
        ("place H8", "opening_step"), ({"kind": "choose", "color": "X"}, "opening_step"),
    ]:
        with pytest.raises(IllegalMove) as info:
            opening.apply(action)
        assert info.value.reason == reason
    assert opening.board.moves == ["H8"] and opening.state == Step.PLACE_THREE
    opening.apply({"kind": "place", "square": "A1"})
    opening.apply({"kind": "place", "square": "B1"})
    for color in ("black", None, "x"):
        with pytest.raises(IllegalMove) as info:
            opening.apply({"kind": "choose", "color": color})
        assert info.value.reason == "bad_color"
    assert opening.state == Step.SECOND_CHOICE


def test_rif_path():
    opening = RifOpening(RENJU)
    assert opening.state == Step.PLACE_1
    run_path(opening, RIF_PATH)
    assert opening.finished
    assert opening.colors == {"first": "O", "second": "X"}
    assert opening.board.moves == ["H8", "I9", "J10", "G7", "H7"]
    assert opening.board.turn == "O" and opening.actor == "first"  # White plays the 6th move


@pytest.mark.parametrize("prefix, square", [(0, "H9"), (0, "A1"), (1, "J10"), (1, "H6"), (2, "K11"), (2, "E8"), (2, "H4")])
def test_rif_central_areas(prefix, square):
    opening = RifOpening(RENJU)
    for _, action in RIF_PATH[:prefix]:
        opening.apply(action)
    with pytest.raises(IllegalMove) as info:
        opening.apply({"kind": "place", "square": square})
    assert info.value.reason == "not_central"
    assert opening.board.ply == prefix


def test_rif_fifth_move_offers():
    opening = RifOpening(RENJU)
    for _, action in RIF_PATH[:5]:
        opening.apply(action)
    assert opening.state == Step.OFFER_5
    # stones all lie on the main diagonal: the transpose (c, r) -> (r, c) is a symmetry
    assert len(symmetries(opening.board)) == 2
    for squares, reason in [
        (["K10", "J11"], "equivalent_fifth"), (["G9", "I7"], "equivalent_fifth"),
        (["K10"], "offer_count"), (["K10", "K10"], "offer_count"), (["K10", "k10"], "offer_count"),
        (["K10", "H7", "A1"], "offer_count"), ("K10", "offer_count"), (["K10", "H8"], "occupied"),
        (["K10", "P1"], "out_of_board"),
    ]:
        with pytest.raises(IllegalMove) as info:
            opening.apply({"kind": "offer", "squares": squares})
        assert info.value.reason == reason, squares
    assert opening.state == Step.OFFER_5
    opening.apply({"kind": "offer", "squares": ["K10", "K11"]})
    with pytest.raises(IllegalMove) as info:
        opening.apply({"kind": "select", "square": "H7"})
    assert info.value.reason == "not_offered"
    opening.apply({"kind": "select", "square": "k11"})
    assert opening.board.stone_at("K11") == "X" and opening.board.stone_at("K10") is None


def test_symmetry_group_sizes():
    opening = RifOpening(RENJU)
    assert len(symmetries(opening.board)) == 8  # empty board
    opening.apply({"kind": "place", "square": "H8"})
    assert len(symmetries(opening.board)) == 8
    opening.apply({"kind": "place", "square": "H7"})
    assert len(symmetries(opening.board)) == 2  # mirror through column H
    opening.apply({"kind": "place", "square": "J9"})
    assert len(symmetries(opening.board)) == 1


def test_opening_from_dict_rejects_unknown_kind():
    with pytest.raises(ValueError):
        opening_from_dict({"kind": "soosyrv8", "rules": {}, "actions": []})
    with pytest.raises(ValueError):
        RifOpening.from_dict(Swap2Opening().to_dict())
    assert type(Swap2Opening.from_dict(Swap2Opening().to_dict())) is Swap2Opening


def test_stored_actions_are_checked_on_replay():
    data = {"kind": "rif", "rules": RENJU.to_dict(), "actions": [{"kind": "place", "square": "A1"}]}
    with pytest.raises(IllegalMove) as info:
        opening_from_dict(data)
    assert info.value.reason == "not_central"


@pytest.mark.parametrize("data", [
    None, [], "rif", {"kind": "rif"}, {"kind": "rif", "rules": None}, {"kind": ["rif"]},
    {"kind": "rif", "rules": {}, "actions": None}, {"kind": "swap2", "rules": {}, "actions": "place"},
    {"kind": "rif", "rules": {"size": "15"}, "actions": []},
])
def test_opening_from_bad_data_raises_value_error(data):
    with pytest.raises(ValueError) as info:
        opening_from_dict(data)
    assert type(info.value) is ValueError  # malformed data, not a refused action


def test_opening_from_dict_without_actions_is_a_fresh_machine():
    assert opening_from_dict({"kind": "rif", "rules": RENJU.to_dict()}).state == Step.PLACE_1
    with pytest.raises(ValueError):
        RifOpening.from_dict(None)
