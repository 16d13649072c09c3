"""bench/reversi_gate.py's results file: each game one JSON line, a restart plays only the games not
there (per opening, colour and settings), a line cut off by a kill is skipped, and --report reads
the score from the file alone. No game is played here (the gate itself is a long bench)."""

from __future__ import annotations

import json

# Imported without the `bench` extra (numpy, numba), as CI's `test` extra installs it: bench/match.py
# and this module import bench.pybots only inside the functions that play a game.
from bench import reversi_gate as gate


def record(opening: str, js_black: bool, score: float, budget: int = 1000) -> dict:
    """A finished game as play_game writes it (two moves a side)."""
    return {"key": gate.game_key(opening, js_black, budget), "settings": gate.settings_text(budget),
            "opening": opening, "js_black": js_black, "score": score, "detail": "40-24", "moves": opening,
            "js": [[5, 700, 10, "-", 3_000_000], [45, 650, 0, "exact", 9_000_000]],
            "py": [[6, 690, 11, "-", 3_500_000], [42, 600, 9, "wld", 8_000_000]],
            "commit": "0123456789abcdef", "started": 0, "wall_s": 90.0, "load": 3.0}


def test_a_restart_plays_only_the_games_not_recorded(tmp_path):
    path = str(tmp_path / "reversi.jsonl")
    openings = ["f5d6c3d3c4", "f5d6c5f4e3"]
    assert gate.load_results(path) == []
    assert len(gate.pending_jobs(openings, 1000, [])) == 4
    gate.append_result(path, record("f5d6c3d3c4", True, 1.0))
    gate.append_result(path, record("f5d6c5f4e3", False, 0.5))
    games = gate.load_results(path)
    assert [g["score"] for g in games] == [1.0, 0.5]
    assert gate.pending_jobs(openings, 1000, games) == [("f5d6c3d3c4", False, 1000), ("f5d6c5f4e3", True, 1000)]
    # other settings are other games
    assert len(gate.pending_jobs(openings, 300, games)) == 4


def test_a_line_cut_off_by_a_kill_is_skipped_and_the_game_played_again(tmp_path, capsys):
    path = tmp_path / "reversi.jsonl"
    gate.append_result(str(path), record("f5d6c3d3c4", True, 1.0))
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record("f5d6c3d3c4", False, 0.0))[:50])  # no newline: the process died
    games = gate.load_results(str(path))
    assert len(games) == 1
    assert "not a whole JSON line" in capsys.readouterr().err
    assert gate.pending_jobs(["f5d6c3d3c4"], 1000, games) == [("f5d6c3d3c4", False, 1000)]


def test_the_report_reads_score_interval_elo_and_move_facts_from_the_file(tmp_path, capsys):
    path = str(tmp_path / "reversi.jsonl")
    for opening, black, score in [("f5d6c3d3c4", True, 1.0), ("f5d6c3d3c4", False, 0.0),
                                  ("f5d6c5f4e3", True, 0.5), ("f5d6c5f4e3", False, 1.0)]:
        gate.append_result(path, record(opening, black, score))
    gate.append_result(path, record("f5d6c3d3c4", True, 0.0, budget=300))
    gate.main(["--results", path, "--report", "--openings", "3"])
    out = capsys.readouterr().out
    assert "budget=1000ms js=hard py=hard clock=cpu: 4 of 6 games" in out
    assert "2.5/4 = 62.5%" in out and "Elo difference: +89" in out
    assert "js-hard score 62.5 % (95 % interval 21.9 .. 100.0 %); target 45 %: met so far" in out
    assert "js-hard as black 1.5/2, as white 1/2" in out
    assert "js-hard midgame depth plies 0-19: 10.0" in out and "exact from 15 empties (4 moves)" in out
    assert "py-hard midgame depth plies 0-19: 11.0" in out and "wld from 18 empties (4 moves)" in out
    assert "nodes per CPU second on moves of 200 ms and more: js 8.89M, py 8.91M" in out
    assert "budget=300ms js=hard py=hard clock=cpu: 1 of 6 games" in out
    assert "js-hard score 0.0 %" in out


def test_the_gate_and_bench_match_import_without_numpy():
    """Where the bench extra IS installed this still proves the point: numpy blocked, both import."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    code = ("import sys; sys.modules['numpy'] = sys.modules['numba'] = None\n"
            "import bench.reversi_gate, bench.match\n"
            "assert 'bench.pybots' not in sys.modules, 'bench.pybots imported at import time'\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
