"""Engine test helpers: the shared rule cases, loaded straight from ``shared/cases`` beside the
repository root (``../shared/cases`` from the checkout), and parametrised by case id; and the engine
vectors of ``tests/engine_vectors``, which the browser engine's tests (``tests/js/engine``) load too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

CASES_DIR = Path(__file__).resolve().parents[3] / ".." / "shared" / "cases"
VECTORS_DIR = Path(__file__).resolve().parents[2] / "engine_vectors"


def load_cases(file_name: str) -> dict:
    """Return the parsed JSON of one shared case file, e.g. ``load_cases("caro-rules.json")``."""
    path = CASES_DIR / file_name
    if not path.is_file():
        pytest.fail(f"shared rule cases missing: {path} (shared/ must sit beside the checkout)")
    return json.loads(path.read_text(encoding="utf-8"))


def load_vectors(file_name: str) -> dict:
    """Return the parsed JSON of one file of ``tests/engine_vectors``, e.g. ``load_vectors("caro.json")``
    (the same data the Node tests of the browser engine read)."""
    return json.loads((VECTORS_DIR / file_name).read_text(encoding="utf-8"))


def text_of_vector(value: str | list) -> str:
    """A text of the vectors: a string, or a list of parts, each a string or ``[string, count]``
    (that string repeated ``count`` times: ``[["9", 5000], ",1,0"]``)."""
    if isinstance(value, str):
        return value
    return "".join(part if isinstance(part, str) else part[0] * part[1] for part in value)


# Test arguments filled from the shared files: argument name -> (file name, list key).
_CASE_ARGUMENTS = {
    "caro_case": ("caro-rules.json", "cases"),
    "renju_case": ("renju-fouls.json", "cases"),
    "forced_pass_case": ("reversi.json", "forced_pass"),
}


# Test arguments filled from tests/engine_vectors: argument name -> (file name, list keys); the
# lists under the keys are joined. Both engines' tests read these lists.
_VECTOR_ARGUMENTS = {
    "malformed_name": ("coords.json", ("malformed",)),
    "off_board_vector": ("coords.json", ("off_board",)),
    "invalid_rules_kwargs": ("caro.json", ("invalid_rules", "invalid_rules_python_only")),
    "bad_rules_data": ("caro.json", ("bad_rules_data",)),
    "caro_position": ("caro.json", ("positions",)),
    "refused_five_vector": ("caro.json", ("refused_fives",)),
    "foul_vector": ("renju.json", ("fouls",)),
    "swap2_path": ("openings.json", ("swap2_paths",)),
    "rif_not_central": ("openings.json", ("rif_not_central",)),
    "bad_opening_data": ("openings.json", ("bad_data",)),
    "edge_wrap": ("reversi.json", ("edge_wraps",)),
    "reversi_play_error": ("reversi.json", ("play_errors",)),
    "bad_reversi_position": ("reversi.json", ("bad_positions",)),
    "perft_position": ("reversi.json", ("perft_positions",)),
    "flips_vector": ("reversi.json", ("flips",)),
    "psq_vector": ("records.json", ("psq",)),
    "square_list_vector": ("records.json", ("square_lists",)),
    "reversi_string_vector": ("records.json", ("reversi_strings",)),
    "not_text": ("records.json", ("not_text",)),
}


def _vector_id(key: str, n: int, value: object) -> str:
    if isinstance(value, dict) and "id" in value:
        return str(value["id"])
    text = json.dumps(value, ensure_ascii=True)
    return f"{key}-{n}-{text[:40]}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    for argument, (file_name, key) in _CASE_ARGUMENTS.items():
        if argument in metafunc.fixturenames:
            cases = load_cases(file_name)[key]
            ids = [case.get("id", f"{key}-{n}") for n, case in enumerate(cases)]
            metafunc.parametrize(argument, cases, ids=ids)
    for argument, (file_name, keys) in _VECTOR_ARGUMENTS.items():
        if argument in metafunc.fixturenames:
            data = load_vectors(file_name)
            values, ids = [], []
            for key in keys:
                for n, value in enumerate(data[key]):
                    values.append(value)
                    ids.append(_vector_id(key, n, value))
            metafunc.parametrize(argument, values, ids=ids)


@pytest.fixture(scope="session")
def shared_cases():
    """The loader :func:`load_cases`, for tests that read a shared file as a whole."""
    return load_cases


@pytest.fixture(scope="session")
def reversi_vectors() -> dict:
    """The whole ``reversi.json`` (perft counts, forced pass, championship game)."""
    return load_cases("reversi.json")


@pytest.fixture(scope="session")
def engine_vectors():
    """The loader :func:`load_vectors`, for tests that read a vector file as a whole."""
    return load_vectors


@pytest.fixture(scope="session")
def vector_text():
    """:func:`text_of_vector`: the text a vector's ``text`` field stands for."""
    return text_of_vector


_AGREE_STATS: dict[str, dict] = {}


@pytest.fixture(scope="session")
def engines_agree_stats() -> dict:
    """Where test_engines_agree leaves each rule set's counts, for the summary below."""
    return _AGREE_STATS


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """What the random games of the differential test contained (games, plies, wins, fouls,
    refused fives, refused tries...), per rule set: proof that the comparison saw the cases."""
    if not _AGREE_STATS:
        return
    terminalreporter.section("engines agree: what the random games contained")
    for rule_set, stats in _AGREE_STATS.items():
        counts = ", ".join(f"{n} {what}" for what, n in sorted(stats.items(), key=lambda item: -item[1]))
        terminalreporter.write_line(f"{rule_set}: {counts}")
