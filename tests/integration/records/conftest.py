"""Builders of real games for the record tests (played through the game service, no mocks), and
the shared cases beside the checkout (``../shared/cases``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from caro.engine.caro import PRESETS
from caro.games.kinds import KINDS
from caro.games.models import Game
from caro.records import limits

from .builders import play_game

CASES_DIR = Path(__file__).resolve().parents[3] / ".." / "shared" / "cases"


def load_cases(file_name: str) -> dict:
    path = CASES_DIR / file_name
    if not path.is_file():
        pytest.fail(f"shared cases missing: {path} (shared/ must sit beside the checkout)")
    return json.loads(path.read_text(encoding="utf-8"))


#: Caro games of every ending and rule set the site stores: (id, squares, preset, size).
CARO_GAMES = [
    ("five-row", ["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4", "L8"], "caro-vn", None),
    ("five-diagonal-19", ["C3", "A15", "D4", "B15", "E5", "C15", "F6", "D15", "G7"], "freestyle", 19),
    ("unfinished", ["H8", "H9", "J10"], "caro-vn", None),
    ("exact-11", ["F6", "A1", "G6", "A2", "H6", "A3"], "exact-five", 11),
    ("renju", ["H8", "H9", "I8", "I9", "J8"], "renju", None),
]


@pytest.fixture
def caro_game():
    """A finished caro game won by X with the row H8-L8 (9 moves)."""
    return play_game(CARO_GAMES[0][1])


@pytest.fixture
def reversi_vectors():
    return load_cases("reversi.json")


@pytest.fixture(autouse=True)
def fresh_import_limit():
    """Each test starts with no imports counted (they share the client address 127.0.0.1)."""
    limits.reset()
    yield
    limits.reset()


def caro_rules(preset, size):
    return KINDS["caro"].rules_for(preset, size)


__all__ = ["CARO_GAMES", "Game", "PRESETS", "caro_rules", "load_cases", "play_game"]
