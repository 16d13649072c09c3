"""The pure parts of bench/public_match.py (issue 28's match harness against the public engines):
its result file (append, resume after a killed run) and its summary (score, Wilson interval, Elo,
score per role, move times)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))

import public_match as pm  # noqa: E402


def _record(index, ours, score, **extra):
    return {"match": "m", "opening_index": index, "ours": ours, "score": score, **extra}


def test_results_path_names_the_match():
    assert pm.results_path(Path("/x"), "rapfi-freestyle-n10000") == Path("/x/public-rapfi-freestyle-n10000.jsonl")


def test_appended_games_are_read_back_in_order(tmp_path):
    path = tmp_path / "deep" / "public-m.jsonl"
    assert pm.load_records(path) == []
    pm.append_record(path, _record(0, "X", 1.0, moves=["H8", "I9"]))
    pm.append_record(path, _record(0, "O", 0.5))
    assert [(r["opening_index"], r["ours"], r["score"]) for r in pm.load_records(path)] == [(0, "X", 1.0), (0, "O", 0.5)]
    assert pm.load_records(path)[0]["moves"] == ["H8", "I9"]


def test_a_torn_last_line_is_skipped_and_the_next_game_starts_a_new_line(tmp_path):
    path = tmp_path / "public-m.jsonl"
    pm.append_record(path, _record(0, "X", 1.0))
    with path.open("a") as f:
        f.write('{"match": "m", "opening_in')  # the run was killed while writing
    assert len(pm.load_records(path)) == 1
    pm.append_record(path, _record(0, "O", 0.0))
    lines = path.read_text().splitlines()
    assert len(lines) == 3 and json.loads(lines[2])["ours"] == "O"
    with pytest.raises(ValueError, match=":2:"):
        pm.load_records(path)  # a bad line that is not the last one is an error, not silently dropped


def test_pending_games_skip_what_the_file_holds():
    records = [_record(0, "X", 1.0), _record(1, "O", 0.0)]
    assert pm.pending_games(records, 0, 2) == [(0, "O"), (1, "X")]
    assert pm.pending_games(records, 1, 2) == [(1, "X"), (2, "X"), (2, "O")]
    assert pm.pending_games([], 3, 1) == [(3, "X"), (3, "O")]


@pytest.mark.parametrize("winner, ours, score", [("X", "X", 1.0), ("O", "X", 0.0), (None, "O", 0.5), ("O", "O", 1.0)])
def test_game_score(winner, ours, score):
    assert pm.game_score(winner, ours) == score


def test_wilson_interval_is_honest_at_the_ends_and_small_samples():
    lo, hi = pm.wilson_interval(0.0, 12)
    assert lo == 0.0 and 0.2 < hi < 0.3  # 12 losses do not prove a 0 % score
    lo, hi = pm.wilson_interval(1.0, 12)
    assert 0.7 < lo < 0.8 and hi == 1.0
    lo, hi = pm.wilson_interval(0.5, 48)
    assert lo == pytest.approx(0.3639, abs=1e-4) and hi == pytest.approx(0.6361, abs=1e-4)
    lo, hi = pm.wilson_interval(0.5, 4800)
    assert hi - lo < 0.03  # narrows with games
    assert pm.wilson_interval(0.3, 0) == (0.0, 1.0)


def test_elo_of_a_score():
    assert pm.elo_of(0.5) == 0
    assert pm.elo_of(0.75) == pytest.approx(190.85, abs=0.01)
    assert pm.elo_of(0.25) == pytest.approx(-190.85, abs=0.01)
    assert pm.elo_of(0.0) == -pm.ELO_CLAMP and pm.elo_of(1.0) == pm.ELO_CLAMP


def test_summary_splits_first_and_second_player_and_spreads_move_times():
    records = [
        _record(0, "X", 1.0, our_cpu_ms=[700.0, 800.0], our_depth=[9, 10], their_cpu_ms=[10.0], plies=41, load=3.0),
        _record(0, "O", 0.0, our_cpu_ms=[750.0, float("nan")], our_depth=[None, 8], their_cpu_ms=[12.0], plies=30,
                load=5.0, illegal="theirs"),
        _record(1, "X", 0.5, our_cpu_ms=[900.0], our_depth=[0], plies=225, load=4.0),
        _record(1, "O", 0.0, plies=20, load=4.0),
    ]
    s = pm.summarize(records)
    assert (s["games"], s["points"], s["score"]) == (4, 1.5, 0.375)
    assert (s["wins"], s["draws"], s["losses"]) == (1, 1, 2)
    assert s["roles"]["first"] == {"games": 2, "points": 1.5, "score": 0.75}
    assert s["roles"]["second"] == {"games": 2, "points": 0.0, "score": 0.0}
    assert s["interval"] == pm.wilson_interval(0.375, 4)
    assert s["elo"] == pytest.approx(pm.elo_of(0.375))
    assert s["our_cpu_ms"] == {"n": 4, "mean": 787.5, "p95": 900.0, "max": 900.0}  # NaN dropped
    assert s["our_depth"]["n"] == 3 and s["our_depth"]["max"] == 10  # unknown and depth 0 (no search) dropped
    assert s["illegal"] == {"ours": 0, "theirs": 1}
    assert s["load"]["max"] == 5.0


def test_report_prints_score_interval_elo_roles_and_times():
    records = [_record(0, "X", 1.0, our_cpu_ms=[640.0]), _record(0, "O", 0.0, our_cpu_ms=[660.0])]
    text = "\n".join(pm.report_lines("rapfi-freestyle-n10000", records))
    assert "rapfi-freestyle-n10000: 1/2 = 50.0 %" in text
    assert "95 % interval" in text and "Elo +0" in text
    assert "as first 1/1 (100 %), as second 0/1 (0 %)" in text
    assert "our move" in text and "650.0" in text
    assert pm.report_lines("x", []) == ["x: no games yet"]


def test_report_reads_every_match_file(tmp_path, capsys):
    pm.append_record(pm.results_path(tmp_path, "a"), _record(0, "X", 1.0))
    pm.append_record(pm.results_path(tmp_path, "b"), _record(0, "O", 0.0))
    assert pm.report(tmp_path) == 0
    out = capsys.readouterr().out
    assert "a: 1/1" in out and "b: 0/1" in out
    assert pm.report(tmp_path / "none") == 1


@pytest.mark.parametrize("text, value", [("-112", -112), ("57", 57), ("+M3", 29997), ("-M12", -29988), ("M5", 29995)])
def test_rapfi_eval_field_as_a_number(text, value):
    assert pm.eval_value(text) == value


def test_rapfi_eval_is_read_from_its_message_line():
    m = pm.EVAL_IN_MESSAGE.search("MESSAGE Speed 116K | Depth 8-10 | Eval +M15 | Node 1509 | Time 13ms")
    assert m and m.group(1) == "+M15"


def test_phase_table_groups_our_moves_by_the_phase_that_chose_them():
    records = [
        _record(0, "X", 1.0, our_cpu_ms=[500.0, 600.0, 0.0], our_depth=[10, 8, 0], our_nodes=[150000, 30000, 0],
                our_phase=["search", "defence", "prelude"]),
        _record(0, "O", 0.0, our_cpu_ms=[700.0], our_depth=[12], our_nodes=[250000], our_phase=["search"]),
        _record(1, "X", 0.0, our_cpu_ms=[100.0], our_depth=[None], our_nodes=[None]),  # no phases recorded
    ]
    rows = {row["phase"]: row for row in pm.phase_table(records)}
    assert [row["phase"] for row in pm.phase_table(records)][0] == "search"  # the most frequent first
    assert rows["search"]["moves"] == 2 and rows["search"]["depth"] == 11
    assert rows["search"]["rate"] == pytest.approx(400000 / 1.2)  # nodes per CPU second over the group
    assert rows["prelude"]["rate"] is None and rows["prelude"]["depth"] is None
    assert rows["-"]["moves"] == 1
    assert "phase search" in "\n".join(pm.report_lines("m", records))


def test_engine_lines_arrive_whole_and_a_silent_engine_times_out():
    # a real subprocess: answers two lines in one write to "two", nothing to "quiet", exits on END
    script = ("import sys\n"
              "for line in sys.stdin:\n"
              "    if line.strip() == 'END': break\n"
              "    if line.strip() == 'two': sys.stdout.write('a 1\\nb 2\\n'); sys.stdout.flush()\n")
    engine = pm.Engine([sys.executable, "-c", script])
    try:
        engine.send("two")
        assert engine.line(timeout=30) == "a 1"
        assert engine.line(timeout=0) == "b 2"  # already buffered: no wait
        engine.send("quiet")
        assert engine.line(timeout=0.2) is None  # a dropped command is not waited for forever
        assert engine.cpu_ms() >= 0
    finally:
        engine.close()
    assert engine.proc.returncode == 0


def test_an_opening_that_repeats_an_earlier_position_is_skipped():
    assert pm.repeated_openings(["a", "b", "a", "c", "b"]) == frozenset({2, 4})
    assert pm.pending_games([], 0, 3, skip=frozenset({1})) == [(0, "X"), (0, "O"), (2, "X"), (2, "O")]


def test_the_reversi_openings_transpositions_are_found():
    from caro.engine import reversi

    openings = ["f5d6c3d3c4", "f5d6c4d3c3", "f5f4e3f6e6", "f5f6e6f4e3", "f5d6"]
    positions = [reversi.Board.from_moves(o).position() for o in openings]
    assert pm.repeated_openings(positions) == frozenset({1, 3})


def _limit(found=False, timed_out=False):
    return {"depth": 10, "maxNodes": 60000, "zone": True, "found": found, "plies": 20 if found else 0, "nodes": 5,
            "timedOut": timed_out, "cpuMs": 1}


def test_threat_verdict_names_what_our_threat_search_did():
    assert pm.threat_verdict([_limit(found=True), _limit(found=True)]) == "in-game"
    assert pm.threat_verdict([_limit(timed_out=True), _limit(found=True)]) == "wider"
    assert pm.threat_verdict([_limit(), _limit(timed_out=True)]) == "blow-up"
    assert pm.threat_verdict([_limit(), _limit()]) == "none"
    assert pm.threat_verdict([]) == "unchecked"


def test_postmortem_summary_counts_holding_alternatives_threat_verdicts_and_phases():
    items = [
        {"ply": 20, "move": "J8", "phase": "defence", "alt": "H4", "alt_eval": "-546", "threat": "wider"},
        {"ply": 6, "move": "G8", "phase": "defence", "alt": "F6", "alt_eval": "-205", "threat": "none"},
        {"ply": 16, "move": "H5", "phase": "only_safe", "alt": "H5", "alt_eval": "-M24", "threat": "none"},
        {"ply": 6, "move": "J6", "phase": "search", "alt": "J6", "alt_eval": "-177", "threat": None},
    ]
    text = "\n".join(pm.postmortem_summary(items))
    assert "4 lost games" in text
    assert "holds with another move: 2; already lost before it: 1" in text
    assert "none 2" in text and "wider 1" in text and "unchecked 1" in text
    assert "defence 2" in text and "only_safe 1" in text and "search 1" in text
    assert "its ply: 6 6 16 20" in text
