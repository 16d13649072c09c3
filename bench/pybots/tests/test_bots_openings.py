"""The computer's opening steps (bench.pybots.openings): every step at every level is accepted by the
engine's machine, Hard's swap decisions agree with a deeper search of its own, and the opening
stones it places do not hand over a won position."""

import time

import pytest

from bench.pybots import choose_opening_action
from bench.pybots.caro_bots import WIN
from bench.pybots.openings import DEPTHS, FIRST_MOVE_EDGE, SWAP2_OPENINGS, position_value
from caro.engine.caro import PRESETS
from caro.engine.coords import parse_square, square_name
from caro.engine.openings import FIRST, RifOpening, Step, Swap2Opening, symmetries

RIF_RULES = PRESETS["renju-rif"].rules
SWAP2_RULES = PRESETS["swap2"].rules
#: Depth of the "deeper search of its own" the swap decisions are checked against (Hard: 6).
DEEPER = 8
#: The share of swap decisions that must agree with the deeper search (issue 15).
AGREEMENT = 0.8


def _rif_openings():
    """The 26 RIF openings (H8; move 2 in the 3×3, direct or indirect; move 3 in the 5×5), one
    per class of symmetric positions."""
    m = 14
    maps = [lambda c, r: (c, r), lambda c, r: (m - r, c), lambda c, r: (m - c, m - r), lambda c, r: (r, m - c),
            lambda c, r: (m - c, r), lambda c, r: (c, m - r), lambda c, r: (r, c), lambda c, r: (m - r, m - c)]
    seen, out = set(), []
    for second in ("H7", "I7"):
        for r in range(5, 10):
            for c in range(5, 10):
                third = square_name(c, r)
                if third in ("H8", second):
                    continue
                key = min(tuple(t(*parse_square(s, 15)) for s in ("H8", second, third)) for t in maps)
                if key not in seen:
                    seen.add(key)
                    out.append(("H8", second, third))
    return out


def _balanced(count=20):
    """The `count` RIF openings closest to balance by a short search (the fairest of the 26)."""
    scored = []
    for line in _rif_openings():
        machine = RifOpening(RIF_RULES)
        for sq in line:
            machine.apply({"kind": "place", "square": sq})
        scored.append((abs(position_value(machine.board, 4, time.perf_counter() + 10)), line, machine))
    scored.sort(key=lambda t: t[0])
    return [machine for _v, _line, machine in scored[:count]]


def test_there_are_26_rif_openings():
    assert len(_rif_openings()) == 26


@pytest.mark.timeout(1200)  # twenty searches to depth 8: minutes on a busy machine
def test_hard_swap_decisions_agree_with_a_deeper_search_of_its_own():
    openings = _balanced(20)
    agree = 0
    for machine in openings:
        assert machine.state == Step.SWAP
        # a generous budget: Hard reaches its own depth on a busy machine too
        decision = choose_opening_action(machine, "hard", budget_ms=60_000)["kind"]
        deeper = position_value(machine.board, DEEPER, time.perf_counter() + 120)
        agree += decision == ("swap" if deeper > 0 else "keep")
    assert agree >= AGREEMENT * len(openings), f"{agree}/{len(openings)}"


def _answer(machine, rng_seed):
    """A simple legal action for whoever acts (the other seat in the tests below)."""
    board = machine.board
    legal = [sq for sq in board.legal_moves() if max(abs(a - 7) for a in parse_square(sq, 15)) <= 3]
    if machine.state == Step.PLACE_1:
        return {"kind": "place", "square": "H8"}
    if machine.state in (Step.PLACE_2, Step.PLACE_3):
        radius = 1 if machine.state == Step.PLACE_2 else 2
        return {"kind": "place", "square": next(s for s in legal if max(abs(a - 7) for a in parse_square(s, 15)) <= radius)}
    if machine.state == Step.SWAP:
        return {"kind": "keep"}
    if machine.state in (Step.SECOND_CHOICE, Step.SECOND_PLACE, Step.PLACE_THREE, Step.PLACE_4):
        return {"kind": "place", "square": legal[rng_seed % len(legal)]}
    if machine.state == Step.FIRST_CHOICE:
        return {"kind": "choose", "color": "X"}
    if machine.state == Step.SELECT_5:
        return {"kind": "select", "square": machine.offers[0]}
    assert machine.state == Step.OFFER_5
    size, syms = 15, symmetries(board)
    first = legal[0]
    other = next(sq for sq in legal[1:] if not any(t(*parse_square(first, size)) == parse_square(sq, size) for t in syms))
    return {"kind": "offer", "squares": [first, other]}


@pytest.mark.parametrize("cls,rules", [(RifOpening, RIF_RULES), (Swap2Opening, SWAP2_RULES)])
@pytest.mark.parametrize("level", list(DEPTHS))
@pytest.mark.parametrize("bot_seat", ["first", "second"])
def test_every_step_at_every_level_is_accepted(cls, rules, level, bot_seat):
    machine = cls(rules)
    seen = set()
    for k in range(16):
        if machine.finished:
            break
        if machine.actor == bot_seat:
            action = choose_opening_action(machine, level, budget_ms=150, rng=k)
            seen.add(machine.state)
        else:
            action = _answer(machine, k)
        machine.apply(action)  # raises if the engine refuses it
    assert machine.finished and seen


def test_the_offer_is_two_points_that_are_not_mirror_images_and_never_fouls():
    machine = RifOpening(RIF_RULES)
    for sq in ("H8", "H7", "H6"):
        machine.apply({"kind": "place", "square": sq})
    machine.apply({"kind": "keep"})
    machine.apply({"kind": "place", "square": "H10"})  # the position is its own mirror image
    for level in DEPTHS:
        action = choose_opening_action(machine, level, budget_ms=200, rng=1)
        assert action["kind"] == "offer" and len(action["squares"]) == 2
        for sq in action["squares"]:
            assert machine.board.foul(sq) is None
        copy = RifOpening.from_dict(machine.to_dict())
        copy.apply(action)  # equivalent points would be refused
        assert copy.state == Step.SELECT_5


def test_selecting_takes_the_offered_point_worse_for_black():
    machine = RifOpening(RIF_RULES)
    for sq in ("H8", "H7", "J9"):
        machine.apply({"kind": "place", "square": sq})
    machine.apply({"kind": "keep"})
    machine.apply({"kind": "place", "square": "G9"})
    machine.apply({"kind": "offer", "squares": ["I8", "A1"]})  # a strong point and a wasted one
    assert choose_opening_action(machine, "hard", budget_ms=2000)["square"] == "A1"


@pytest.mark.parametrize("cls,rules", [(RifOpening, RIF_RULES), (Swap2Opening, SWAP2_RULES)])
def test_hard_places_opening_stones_that_hand_over_no_won_position(cls, rules):
    machine = cls(rules)
    while machine.board.ply < 3:
        machine.apply(choose_opening_action(machine, "hard", budget_ms=1000, rng=0))
    assert machine.actor != FIRST or machine.state == Step.PLACE_THREE
    assert abs(position_value(machine.board, 6, time.perf_counter() + 30)) < WIN // 2


def _swap2_after(*squares):
    machine = Swap2Opening(SWAP2_RULES)
    for sq in squares:
        machine.apply({"kind": "place", "square": sq})
    assert machine.state == Step.SECOND_CHOICE
    return machine


@pytest.mark.parametrize("line", SWAP2_OPENINGS)
def test_hard_takes_a_colour_in_swap2_and_keeps_x_in_close_positions(line):
    """Hard's second seat never hands the choice back; the known, fairly balanced openings are
    close, so it takes X (the extra tempo) unless its evaluation says O is clearly better."""
    machine = _swap2_after(*line)
    # a generous budget: Hard reaches its own depth on a busy machine too
    assert choose_opening_action(machine, "hard", budget_ms=3000, rng=0) == {"kind": "choose", "color": "X"}


def test_hard_takes_o_in_swap2_when_x_stones_are_wasted():
    machine = _swap2_after("A1", "H8", "O15")  # both X stones in corners, O on the centre and to move
    assert position_value(machine.board, DEPTHS["hard"], time.perf_counter() + 5) < -FIRST_MOVE_EDGE
    assert choose_opening_action(machine, "hard", budget_ms=300, rng=0) == {"kind": "choose", "color": "O"}
