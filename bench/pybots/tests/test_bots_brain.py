"""The Gomocup-protocol front end, driven through a subprocess."""

import pathlib
import subprocess
import sys

import pytest

from bench.pybots.brain import Brain, rules_from_info

ROOT = pathlib.Path(__file__).resolve().parents[3]


class Pipe:
    def __init__(self, *args):
        self.proc = subprocess.Popen([sys.executable, "-m", "bench.pybots.brain", *args], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\r\n")
        self.proc.stdin.flush()

    def ask(self, line):
        self.send(line)
        return self.proc.stdout.readline().strip()

    def close(self):
        self.send("END")
        try:
            return self.proc.wait(timeout=20)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.fixture
def brain():
    pipe = Pipe("--level", "hard")
    yield pipe
    if pipe.proc.poll() is None:
        pipe.proc.kill()


def _xy(reply):
    x, y = (int(v) for v in reply.split(","))
    return x, y


def test_protocol_session(brain):
    assert brain.ask("START 20").startswith("ERROR")  # 20x20 is not a supported size
    assert brain.ask("START 15") == "OK"
    brain.send("INFO timeout_turn 300")
    brain.send("INFO rule 0")
    assert brain.ask("ABOUT").startswith('name="')
    assert _xy(brain.ask("BEGIN")) == (7, 7)
    reply = brain.ask("TURN 8,8")
    x, y = _xy(reply)
    assert (x, y) not in {(7, 7), (8, 8)} and 0 <= x < 15 and 0 <= y < 15
    assert brain.ask("TURN 7,7").startswith("ERROR")  # occupied
    assert brain.ask("TAKEBACK 8,8") == "OK"
    assert brain.ask("FROBNICATE").startswith("UNKNOWN")
    assert brain.ask("RESTART") == "OK"
    # BOARD: the brain (1) has four in a row on row 0 and must complete it.
    for line in ["BOARD", "0,0,1", "1,0,1", "2,0,1", "3,0,1", "0,5,2", "1,5,2", "2,5,2", "9,9,2"]:
        brain.send(line)
    assert brain.ask("DONE") == "4,0"
    assert brain.close() == 0


def test_board_blocks_and_respects_renju(brain):
    assert brain.ask("START 15") == "OK"
    brain.send("INFO rule 4")
    # opponent (2) threatens a five on row 3; the brain must block at 4,3 or 9,3 ... only 8,3 here
    for line in ["BOARD", "4,3,2", "5,3,2", "6,3,2", "7,3,2", "3,3,1", "0,0,1", "14,14,1", "14,0,1", "0,14,2"]:
        brain.send(line)
    assert brain.ask("DONE") == "8,3"
    assert brain.close() == 0


def test_info_rule_mapping():
    assert rules_from_info(0, 15).blocked == "none" and not rules_from_info(0, 15).exact
    assert rules_from_info(1, 15).exact
    assert rules_from_info(4, 15).renju
    assert rules_from_info(8 | 1, 19).blocked == "opponent" and rules_from_info(9, 19).size == 19


def test_brain_object_without_subprocess():
    b = Brain("easy")
    assert b.handle("START 13") == ["OK"]
    assert b.handle("BEGIN") == ["6,6"]
    assert b.handle("TURN 99,1")[0].startswith("ERROR")
    assert b.handle("") == []
