"""Caro tactics: fives taken, fours blocked under every rule set, dead fours ignored, Renju fouls
used against X, and Hard's VCF wins of depth 3 to 11 checked against every defence with the engine."""

import json
import pathlib
import random

import pytest

from bench.pybots import choose_move
from bench.pybots.caro_bots import CaroHard
from bench.pybots.enginecheck import forced_vcf, stopping_replies, winning_cells
from caro.engine.caro import PRESETS, Board

LEVELS = ("easy", "medium", "hard")
SLUGS = sorted(PRESETS)
HERE = pathlib.Path(__file__).parent

# Four shapes along a line: offsets of the four stones from the first cell (the fifth cell is
# left empty somewhere in the 5-cell span).
SHAPES = ((0, 1, 2, 3), (0, 1, 2, 4), (0, 1, 3, 4), (0, 2, 3, 4))
DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))


def _four_positions(rules, attacker, seed, count):
    """Positions where ``attacker`` has a winning cell, with some noise stones around."""
    rnd = random.Random(seed)
    size = rules.size
    out = []
    tries = 0
    while len(out) < count and tries < 2000:
        tries += 1
        dc, dr = rnd.choice(DIRS)
        shape = rnd.choice(SHAPES)
        c0 = rnd.randrange(size)
        r0 = rnd.randrange(size)
        cells = [(c0 + k * dc, r0 + k * dr) for k in shape]
        if not all(0 <= c < size and 0 <= r < size for c, r in cells):
            continue
        names = {f"{chr(65 + c)}{r + 1}" for c, r in cells}
        others = [m for m in Board(rules).legal_moves() if m not in names]
        rnd.shuffle(others)
        noise_att, noise_def = others[:2], others[2:8]
        att = sorted(names) + noise_att
        dfd = noise_def
        if rnd.random() < 0.5:  # sometimes block one end of the four
            end = (c0 - dc, r0 - dr)
            if 0 <= end[0] < size and 0 <= end[1] < size:
                e = f"{chr(65 + end[0])}{end[1] + 1}"
                if e not in att and e not in dfd:
                    dfd = dfd + [e]
        x, o = (att, dfd) if attacker == "X" else (dfd, att)
        defender = "O" if attacker == "X" else "X"
        board = Board.from_stones(rules, x=x, o=o, to_move=attacker)
        if any(board.winning_line(s) for s in board.stones()):
            continue
        if rules.renju and any(board.foul(s) for s in []):
            continue
        if not winning_cells(board, attacker) or winning_cells(board, defender):
            continue
        out.append(board)
    return out


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_takes_an_available_five(slug, level):
    rules = PRESETS[slug].rules
    boards = _four_positions(rules, "X", f"five-{slug}", 5) + _four_positions(rules, "O", f"five-o-{slug}", 5)
    assert len(boards) == 10
    for k, board in enumerate(boards):
        move = choose_move(board, level, budget_ms=300, rng=k)
        assert move in winning_cells(board, board.turn), (slug, level, board.stones())


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("level", ("medium", "hard"))
def test_medium_and_hard_block_every_four(slug, level):
    rules = PRESETS[slug].rules
    checked = 0
    for attacker in ("X", "O"):
        for board in _four_positions(rules, attacker, f"block-{slug}-{attacker}", 12):
            # the bot defends: flip the turn to the defender
            defender = "O" if attacker == "X" else "X"
            board = Board.from_stones(rules, x=[s for s, v in board.stones().items() if v == "X"],
                                      o=[s for s, v in board.stones().items() if v == "O"], to_move=defender)
            replies = stopping_replies(board)
            if not replies:
                continue  # cannot be stopped (e.g. an open four): nothing to test
            move = choose_move(board, level, budget_ms=300, rng=1)
            assert move in replies, (slug, level, board.stones(), move, replies)
            checked += 1
    assert checked >= 12


def _dead_four_board(rules):
    # O: A2-A5 with X on A6: the only completion A1 makes A1-A5, blocked by the edge and X.
    # X (to move) has an open three H8-I8-J8 of its own.
    return Board.from_stones(rules, x=["A6", "H8", "I8", "J8", "C12"],
                             o=["A2", "A3", "A4", "A5", "M3", "N14"], to_move="X")


@pytest.mark.parametrize("slug", ["caro-vn", "caro-exact"])
@pytest.mark.parametrize("level", ("medium", "hard"))
def test_dead_four_needs_no_block_under_blocked_two_ends(slug, level):
    board = _dead_four_board(PRESETS[slug].rules)
    assert winning_cells(board, "O") == []  # the engine agrees: A1 would not win
    move = choose_move(board, level, budget_ms=500, rng=1)
    assert move != "A1"
    after = board.copy()
    after.play(move)
    assert not stopping_replies(after) or winning_cells(after, "X")  # it attacks instead


@pytest.mark.parametrize("slug", ["caro-edge-open", "freestyle", "exact-five"])
@pytest.mark.parametrize("level", ("medium", "hard"))
def test_same_four_is_live_when_the_edge_does_not_block(slug, level):
    board = _dead_four_board(PRESETS[slug].rules)
    assert winning_cells(board, "O") == ["A1"]
    assert choose_move(board, level, budget_ms=500, rng=1) in stopping_replies(board)


def test_exact_five_bot_does_not_count_an_overline():
    # X: A1-D1 and F1: E1 makes six, not a win under exact five; F1..? nothing else.
    rules = PRESETS["exact-five"].rules
    board = Board.from_stones(rules, x=["A1", "B1", "C1", "D1", "F1", "H8"], o=["A5", "B7", "C9", "J10", "K11", "L3"],
                              to_move="O")
    assert winning_cells(board, "X") == []
    for level in ("medium", "hard"):
        assert choose_move(board, level, budget_ms=300, rng=1) != "E1"


@pytest.mark.parametrize("level", ("medium", "hard"))
def test_renju_white_uses_a_foul_against_black(level):
    rules = PRESETS["renju"].rules
    # H8 is a double-three for X (F8-G8 and H6-H7). O has I9-J10-K11 with X on M13: O's L12
    # makes a four whose only completion is H8, which X may not play.
    board = Board.from_stones(rules, x=["F8", "G8", "H6", "H7", "M13", "B2"],
                              o=["I9", "J10", "K11", "A15", "O1", "O15"], to_move="O")
    probe = Board.from_stones(rules, x=["F8", "G8", "H6", "H7", "M13", "B2"],
                              o=["I9", "J10", "K11", "A15", "O1", "O15"], to_move="X")
    assert probe.foul("H8") == "double-three"
    move = choose_move(board, level, budget_ms=500, rng=1)
    after = board.copy()
    after.play(move)
    assert winning_cells(after, "O") and stopping_replies(after) == []


def _vcf_positions():
    return json.loads((HERE / "vcf_positions.json").read_text())


def test_vcf_set_covers_depths_3_to_11():
    depths = {p["depth"] for p in _vcf_positions()}
    assert set(range(3, 12)) <= depths


@pytest.mark.parametrize("pos", _vcf_positions(), ids=lambda p: f"{p['preset']}-d{p['depth']}")
def test_hard_finds_vcf(pos):
    rules = PRESETS[pos["preset"]].rules
    board = Board.from_stones(rules, x=pos["x"], o=pos["o"], to_move=pos["to_move"])
    bot = CaroHard()
    # Hard must win by fours against every defence the engine allows, within the depth.
    assert forced_vcf(board, pos["depth"], lambda b: bot.choose(b, budget_ms=3000))
    # ... and the position is no shorter VCF for the fixed line (sanity of the data).
    assert not winning_cells(board, pos["to_move"])


def _open_three_board(slug):
    # O has an open three I8-J8-K8 with room on both sides; X (to move) has nothing forcing.
    return Board.from_stones(PRESETS[slug].rules, x=["H9", "C3", "M13"], o=["I8", "J8", "K8"], to_move="X")


@pytest.mark.parametrize("slug", ["caro-vn", "freestyle", "renju"])
def test_medium_blocks_an_open_three(slug):
    board = _open_three_board(slug)
    move = choose_move(board, "medium", budget_ms=500, rng=1)
    after = board.copy()
    after.play(move)
    # now no O move on row 8 makes a five-threat X cannot stop (engine judgement)
    for col in "ABCDEFGHIJKLMNO":
        square = f"{col}8"
        if after.stone_at(square):
            continue
        probe = after.copy()
        probe.play(square)
        if winning_cells(probe, "O"):
            assert stopping_replies(probe), (slug, move, square)


def test_easy_sometimes_misses_a_needed_block():
    rules = PRESETS["caro-vn"].rules
    board = Board.from_stones(rules, x=["H8", "C3", "M13", "B14"], o=["I8", "J8", "K8", "L8"], to_move="X")
    replies = stopping_replies(board)
    assert replies  # M8, or N8 (which leaves M8 blocked at both ends)
    blocked = sum(choose_move(board, "easy", rng=seed) in replies for seed in range(200))
    assert 100 <= blocked <= 160  # misses with probability 0.35
    assert all(choose_move(board, "medium", rng=seed) in replies for seed in range(5))


def test_shared_threat_tables_agree_with_fresh_search():
    # The rule set's shared failure table and defences cache (reused across moves) must not
    # change what the searcher finds: a fresh search, a shared one, and a shared one on the
    # warmed tables all find a VCF of the same length.
    import time

    from bench.pybots.fastboard import FastBoard
    from bench.pybots.threats import ThreatSearch

    for pos in _vcf_positions():
        board = Board.from_stones(PRESETS[pos["preset"]].rules, x=pos["x"], o=pos["o"], to_move=pos["to_move"])
        fb = FastBoard.from_engine(board)
        lines = []
        for shared in (False, True, True):
            lines.append(ThreatSearch(fb, time.perf_counter() + 60, shared=shared).vcf(depth=pos["depth"]))
        assert all(line is not None for line in lines), pos
        assert len({len(line) for line in lines}) == 1, pos
        fb.pat.def_cache.clear()
        assert fb.history == []
