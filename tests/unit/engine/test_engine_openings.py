"""Opening state machines: Swap2 and RIF; every out-of-step action is refused with its code.

The paths, refusals and malformed data live in ``tests/engine_vectors/openings.json``, which the
browser engine's tests read too."""

from __future__ import annotations

import json

import pytest

from caro.engine.caro import Board, Rules
from caro.engine.coords import parse_square, square_name
from caro.engine.errors import IllegalMove
from caro.engine.openings import RifOpening, Step, Swap2Opening, opening_from_dict, symmetries

SWAP2_RULES = Rules(exact=True, blocked="none")
RENJU = Rules(renju=True, blocked="none")


@pytest.fixture(scope="module")
def vectors(engine_vectors):
    data = engine_vectors("openings.json")
    assert Rules.from_dict(data["swap2_rules"]) == SWAP2_RULES and Rules.from_dict(data["rif_rules"]) == RENJU
    return data


def run_path(opening, path, all_kinds):
    for seat, action in path:
        assert opening.actor == seat
        for wrong in all_kinds:
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


def test_swap2_paths(swap2_path, vectors):
    expected = swap2_path
    opening = Swap2Opening(SWAP2_RULES)
    assert opening.state == Step.PLACE_THREE and opening.actor == "first"
    run_path(opening, expected["path"], vectors["all_kinds"])
    assert opening.finished and opening.colors == expected["colors"]
    assert opening.actor == expected["to_move_seat"] == opening.seat_of(opening.board.turn)
    with pytest.raises(IllegalMove) as info:
        opening.apply({"kind": "place", "square": "A1"})
    assert info.value.reason == "opening_over"
    assert opening.allowed == frozenset()


def test_swap2_stones_alternate_colours(vectors):
    expected = vectors["swap2_five_stones"]
    opening = Swap2Opening(SWAP2_RULES)
    path = next(p["path"] for p in vectors["swap2_paths"] if p["id"] == expected["path"])
    run_path(opening, path[:expected["steps"]], vectors["all_kinds"])
    assert opening.board.stones() == expected["stones"]
    assert opening.state == expected["state"]


def test_swap2_refusals(vectors):
    data = vectors["swap2_refusals"]
    opening = Swap2Opening(SWAP2_RULES)
    for square in data["after"]:
        opening.apply({"kind": "place", "square": square})
    for action, reason in data["refused"]:
        with pytest.raises(IllegalMove) as info:
            opening.apply(action)
        assert info.value.reason == reason
    assert opening.board.moves == data["after"] and opening.state == Step.PLACE_THREE
    for square in data["then"]:
        opening.apply({"kind": "place", "square": square})
    for color in data["bad_colors"]:
        with pytest.raises(IllegalMove) as info:
            opening.apply({"kind": "choose", "color": color})
        assert info.value.reason == "bad_color"
    assert opening.state == Step.SECOND_CHOICE


def test_rif_path(vectors):
    expected = vectors["rif_result"]
    opening = RifOpening(RENJU)
    assert opening.state == Step.PLACE_1
    run_path(opening, vectors["rif_path"], vectors["all_kinds"])
    assert opening.finished
    assert opening.colors == expected["colors"]
    assert opening.board.moves == expected["moves"]
    assert opening.board.turn == expected["turn"] and opening.actor == expected["actor"]  # White plays the 6th move


def test_rif_central_areas(rif_not_central, vectors):
    prefix, square = rif_not_central
    opening = RifOpening(RENJU)
    for _, action in vectors["rif_path"][:prefix]:
        opening.apply(action)
    with pytest.raises(IllegalMove) as info:
        opening.apply({"kind": "place", "square": square})
    assert info.value.reason == "not_central"
    assert opening.board.ply == prefix


def test_rif_fifth_move_offers(vectors):
    data = vectors["rif_offers"]
    opening = RifOpening(RENJU)
    for _, action in vectors["rif_path"][:data["prefix"]]:
        opening.apply(action)
    assert opening.state == Step.OFFER_5
    # stones all lie on the main diagonal: the transpose (c, r) -> (r, c) is a symmetry
    assert len(symmetries(opening.board)) == data["symmetries"]
    for squares, reason in data["refused"]:
        with pytest.raises(IllegalMove) as info:
            opening.apply({"kind": "offer", "squares": squares})
        assert info.value.reason == reason, squares
    assert opening.state == Step.OFFER_5
    opening.apply({"kind": "offer", "squares": data["offer"]})
    with pytest.raises(IllegalMove) as info:
        opening.apply({"kind": "select", "square": data["not_offered"]})
    assert info.value.reason == "not_offered"
    opening.apply({"kind": "select", "square": data["select"]})
    assert opening.board.stone_at(data["played"]) == "X" and opening.board.stone_at(data["not_played"]) is None


def test_symmetry_group_sizes(vectors):
    data = vectors["symmetry_sizes"]
    opening = RifOpening(RENJU)
    assert len(symmetries(opening.board)) == data["empty"]  # empty board
    for square, size in data["places"]:  # H7 below the centre: the mirror through column H
        opening.apply({"kind": "place", "square": square})
        assert len(symmetries(opening.board)) == size


def test_opening_from_dict_rejects_unknown_kind():
    with pytest.raises(ValueError):
        RifOpening.from_dict(Swap2Opening().to_dict())
    assert type(Swap2Opening.from_dict(Swap2Opening().to_dict())) is Swap2Opening


def test_stored_actions_are_checked_on_replay(vectors):
    data = vectors["stored_refused"]
    with pytest.raises(IllegalMove) as info:
        opening_from_dict(data["data"])
    assert info.value.reason == data["reason"]


def test_opening_from_bad_data_raises_value_error(bad_opening_data):
    with pytest.raises(ValueError) as info:
        opening_from_dict(bad_opening_data)
    assert type(info.value) is ValueError  # malformed data, not a refused action


def test_opening_from_dict_without_actions_is_a_fresh_machine():
    assert opening_from_dict({"kind": "rif", "rules": RENJU.to_dict()}).state == Step.PLACE_1
    with pytest.raises(ValueError):
        RifOpening.from_dict(None)


def test_symmetry_groups_of_set_up_positions(vectors):
    """Every kind of symmetry (each reflection axis, the quarter turns) is found, and maps squares
    where it should: the images of a probe square under the group."""
    for position in vectors["symmetry_positions"]:
        board = Board.from_stones(RENJU, x=position["x"], o=position["o"])
        group = symmetries(board)
        assert len(group) == position["size"], position["note"]
        images = [square_name(*t(*parse_square(position["probe"], 15))) for t in group]
        assert images[0] == position["probe"] and sorted(images) == sorted(position["images"]), position["note"]
