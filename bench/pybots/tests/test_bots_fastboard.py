"""The bots' fast board agrees with the engine: wins, the five table, incremental updates."""

import random

import pytest

from bench.pybots import fastboard_v1
from bench.pybots.fastboard import FIVE, OS, XS, FastBoard
from caro.engine.caro import PRESETS, Board, Rules


def _random_position(rules, rnd, n):
    names = Board(rules).legal_moves()
    rnd.shuffle(names)
    x, o = names[: (n + 1) // 2], names[(n + 1) // 2 : n]
    return Board.from_stones(rules, x=x, o=o, to_move="X" if len(x) == len(o) else "O")


@pytest.mark.parametrize("slug", sorted(PRESETS))
def test_wins_and_five_table_agree_with_engine(slug):
    rules = PRESETS[slug].rules
    rnd = random.Random(slug)
    checked = 0
    for _ in range(3):
        board = _random_position(rules, rnd, rnd.randint(20, 90))
        fb = FastBoard.from_engine(board)
        for q in fb.geo.reals:
            if fb.cells[q]:
                continue
            name = fb.name(q)
            for s, side in ((XS, "X"), (OS, "O")):
                stones = board.stones()
                stones[name] = side
                probe = Board.from_stones(rules, x=[k for k, v in stones.items() if v == "X"],
                                          o=[k for k, v in stones.items() if v == "O"])
                engine = probe.winning_line(name) is not None
                assert fb.wins_at(q, s) == engine, (slug, name, side)
                assert (q in fb.sets[s][FIVE]) == engine, (slug, name, side)
                checked += 1
    assert checked > 500


@pytest.mark.parametrize("rules", [PRESETS["caro-vn"].rules, Rules(size=11, win_length=4, blocked="none"),
                                   Rules(size=19, win_length=6, exact=True), Rules(size=13, blocked="opponent")],
                         ids=["caro-vn", "11-k4", "19-k6-exact", "13-opponent"])
def test_incremental_updates_match_a_fresh_board(rules):
    """The compiled incremental update leaves the same classes, scores and sets as a fresh build,
    and as the pure-Python board of before (``fastboard_v1``) on the same stones. A third of the
    moves go anywhere on the board, so edges and corners are reached."""
    rnd = random.Random(5)
    fb = FastBoard(rules)
    for _ in range(300):
        if fb.history and rnd.random() < 0.4:
            fb.undo()
        else:
            empties = [q for q in fb.geo.reals if fb.cells[q] == 0]
            cand = fb.cand
            near = [q for q in empties if q in cand] or empties
            fb.play(rnd.choice(near if rnd.random() < 0.67 else empties))
    fresh = FastBoard(rules)
    for q in fb.geo.reals:
        if fb.cells[q]:
            fresh.put(q, fb.cells[q])
    assert [c.tolist() for c in fresh.codes] == [c.tolist() for c in fb.codes]
    assert [fresh.score[s].tolist() for s in (XS, OS)] == [fb.score[s].tolist() for s in (XS, OS)]
    assert fresh.total.tolist() == fb.total.tolist()
    assert fresh.hash == fb.hash
    assert fresh.cand == fb.cand
    for s in (XS, OS):
        assert [fresh.sets[s][k] for k in range(3, 8)] == [fb.sets[s][k] for k in range(3, 8)]
    old = fastboard_v1.FastBoard(rules)
    for q in fb.geo.reals:
        if fb.cells[q]:
            old.put(q, fb.cells[q])
    assert [c.tolist() for c in fb.codes] == [c for c in old.codes]
    assert fb.total.tolist() == old.total
    assert fb.cand == old.cand
    for s in (XS, OS):
        assert [fb.sets[s][k] for k in range(3, 8)] == [old.sets[s][k] for k in range(3, 8)]


def test_renju_foul_filter_agrees_with_engine():
    rules = PRESETS["renju"].rules
    rnd = random.Random(9)
    fouls = 0
    for _ in range(25):
        board = Board(rules)
        for _ in range(rnd.randint(10, 50)):
            moves = board.legal_moves()
            if not moves or board.outcome:
                break
            centreish = [m for m in moves if abs(ord(m[0]) - 72) <= 4 and abs(int(m[1:]) - 8) <= 4] or moves
            board.play(rnd.choice(centreish))
        if board.outcome:
            continue
        board.turn = "X"
        fb = FastBoard.from_engine(board)
        for q in fb.geo.reals:
            if fb.cells[q] == 0:
                engine = board.foul(fb.name(q)) is not None
                assert fb.is_foul(q) == engine
                fouls += engine
    assert fouls > 0


def test_warm_up_fills_the_window_table_of_every_preset():
    from bench.pybots import warm_up
    from bench.pybots.fastboard import patterns

    assert warm_up() >= 0
    for preset in PRESETS.values():
        table = patterns(preset.rules)
        assert table.stored > 0 and table.template is not None, preset.slug
