"""Engine test helpers: the shared rule cases, loaded straight from ``shared/cases`` beside the
repository root (``../shared/cases`` from the checkout), and parametrised by case id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

CASES_DIR = Path(__file__).resolve().parents[3] / ".." / "shared" / "cases"


def load_cases(file_name: str) -> dict:
    """Return the parsed JSON of one shared case file, e.g. ``load_cases("caro-rules.json")``."""
    path = CASES_DIR / file_name
    if not path.is_file():
        pytest.fail(f"shared rule cases missing: {path} (shared/ must sit beside the checkout)")
    return json.loads(path.read_text(encoding="utf-8"))


# Test arguments filled from the shared files: argument name -> (file name, list key).
_CASE_ARGUMENTS = {
    "caro_case": ("caro-rules.json", "cases"),
    "renju_case": ("renju-fouls.json", "cases"),
    "forced_pass_case": ("reversi.json", "forced_pass"),
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    for argument, (file_name, key) in _CASE_ARGUMENTS.items():
        if argument in metafunc.fixturenames:
            cases = load_cases(file_name)[key]
            ids = [case.get("id", f"{key}-{n}") for n, case in enumerate(cases)]
            metafunc.parametrize(argument, cases, ids=ids)


@pytest.fixture(scope="session")
def shared_cases():
    """The loader :func:`load_cases`, for tests that read a shared file as a whole."""
    return load_cases


@pytest.fixture(scope="session")
def reversi_vectors() -> dict:
    """The whole ``reversi.json`` (perft counts, forced pass, championship game)."""
    return load_cases("reversi.json")
