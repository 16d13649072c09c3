"""`python3 dev.py brain`: the computer's Gomocup brain under Node, and its error without Node."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from devstack import cli

ROOT = Path(__file__).resolve().parents[2]


def test_the_brain_command_runs_brain_js_under_node(tmp_path):
    argv = cli.brain_argv(tmp_path, ["--level", "hard", "--cpu-clock"], node="/usr/bin/node")
    assert argv == ["/usr/bin/node", str(tmp_path / "static" / "js" / "computer" / "brain.js"), "--level", "hard",
                    "--cpu-clock"]
    assert (ROOT / cli.BRAIN).exists()


def test_without_node_a_clear_error_and_status_127(monkeypatch, capsys):
    monkeypatch.setattr(cli.shutil, "which", lambda name: None)
    assert cli.main(["brain", "--level", "hard"], ROOT) == 127
    err = capsys.readouterr().err
    assert "Node.js is not installed" in err and "node" in err


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_dev_py_brain_answers_the_protocol():
    result = subprocess.run([sys.executable, str(ROOT / "dev.py"), "brain", "--level", "easy", "--warm-up", "0"], cwd=ROOT,
                            input="START 15\nBEGIN\nTURN 8,8\nEND\n", capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.split()
    assert lines[:2] == ["OK", "7,7"]
    x, y = (int(v) for v in lines[2].split(","))
    assert (x, y) not in {(7, 7), (8, 8)} and 0 <= x < 15 and 0 <= y < 15
