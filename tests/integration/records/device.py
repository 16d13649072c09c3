"""Records of games played on the device, as the page's records queue sends them (CONTRACTS.md
section 4), and the games they describe: every game here is written out square by square, and
its expected result stated, so a test fails if the server judges a game differently."""

from __future__ import annotations

import json
import time
import uuid

from django.test import Client

from caro.engine.caro import PRESETS

UPLOAD_URL = "/api/local-games/"

#: Vietnamese caro, X (the person, at Easy) wins with the row H8-L8.
CARO_FIVE = ["H8", "A1", "I8", "A2", "J8", "A3", "K8", "A4", "L8"]

#: Exact five, one device: X's six C5-H5 does not win (G5 joins two runs into six), then X's
#: five C7-G7 does.
EXACT_FIVE = ["C5", "A10", "D5", "A12", "E5", "A14", "F5", "C10", "H5", "C12", "G5", "C14",
              "C7", "E10", "D7", "E12", "E7", "E14", "F7", "G12", "G7"]
EXACT_FIVE_LINE = ["C7", "D7", "E7", "F7", "G7"]

#: Renju: X's I8 would make two open threes (G8-H8-I8 and I8-I9-I10), a double-three foul.
RENJU_BEFORE_FOUL = ["G8", "A1", "H8", "A3", "I10", "A5", "I9", "A7"]
RENJU_FOUL = "I8"
#: The same game where X plays elsewhere and later wins with exactly five on row 12.
RENJU_WON = RENJU_BEFORE_FOUL + ["C12", "A9", "D12", "A11", "E12", "A13", "F12", "C15", "B12"]
RENJU_WON_LINE = ["B12", "C12", "D12", "E12", "F12"]

#: RIF: stones 1-3 by tentative Black (H8 centre, H7 in the 3×3, H6 in the 5×5), White keeps the
#: colours, White's stone 4 on A1, Black offers I9 and J12 for the 5th move, White takes I9; then
#: ordinary moves from White's 6th, and Black's exact five C12-G12.
RIF_ACTIONS = [
    {"kind": "place", "square": "H8"}, {"kind": "place", "square": "H7"}, {"kind": "place", "square": "H6"},
    {"kind": "keep"}, {"kind": "place", "square": "A1"}, {"kind": "offer", "squares": ["I9", "J12"]},
    {"kind": "select", "square": "I9"},
]
RIF_MOVES = ["B3", "C12", "F3", "D12", "K3", "E12", "M3", "F12", "N5", "G12"]
RIF_LINE = ["C12", "D12", "E12", "F12", "G12"]

#: Swap2: the first seat places H8 (X), H9 (O), H10 (X); the second places J8 (O) and J9 (X); the
#: first then chooses White (O). White (the first seat, the host on one device) wins with B1-B5.
SWAP2_ACTIONS = [
    {"kind": "place", "square": "H8"}, {"kind": "place", "square": "H9"}, {"kind": "place", "square": "H10"},
    {"kind": "place", "square": "J8"}, {"kind": "place", "square": "J9"}, {"kind": "choose", "color": "O"},
]
SWAP2_MOVES = ["B1", "N14", "B2", "N12", "B3", "L14", "B4", "N10", "B5"]
SWAP2_LINE = ["B1", "B2", "B3", "B4", "B5"]


def full_board_11() -> list[str]:
    """A whole 11×11 board with no run longer than two in any line (a square is X when
    `col // 2 + row` is even: 61 X, 60 O), X and O alternating: a draw by a full board under
    every caro rule set without Renju."""
    letters = "ABCDEFGHIJK"
    xs = [f"{letters[c]}{r + 1}" for r in range(11) for c in range(11) if (c // 2 + r) % 2 == 0]
    os_ = [f"{letters[c]}{r + 1}" for r in range(11) for c in range(11) if (c // 2 + r) % 2 == 1]
    assert (len(xs), len(os_)) == (61, 60)
    moves = []
    for k in range(61):
        moves.append(xs[k])
        if k < 60:
            moves.append(os_[k])
    return moves


def rules(preset: str, size: int | None = None, win_length: int | None = None) -> dict:
    found = PRESETS[preset].rules.to_dict()
    return {**found, "size": size or found["size"], "win_length": win_length or found["win_length"]}


def now_ms() -> int:
    return int(time.time() * 1000)


def record(moves, *, mode="computer", game="caro", preset="caro-vn", level="easy", side="X", winner="X",
           termination="five", opening=None, size=None, win_length=None, start_moves=0, **extra) -> dict:
    """A record as the page sends it; keyword arguments override fields (None leaves one out of
    a local game: no level, no side)."""
    finished = now_ms()
    data = {
        "id": str(uuid.uuid4()), "mode": mode, "game": game, "moves": list(moves), "start_moves": start_moves,
        "opening": opening, "result": {"winner": winner, "termination": termination},
        "started_at": finished - 300_000, "finished_at": finished,
    }
    if game == "caro":
        data.update(preset=preset, rules=rules(preset, size, win_length))
    if mode == "computer":
        data.update(level=level, side=side)
    data.update(extra)
    return data


def csrf_client(language: str = "en", **kwargs) -> Client:
    """A browser-like client: CSRF enforced, the `csrftoken` cookie from a page of the site, the
    language its pages are read in."""
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language, **kwargs)
    client.get("/")
    assert "csrftoken" in client.cookies
    return client


def post(client: Client, body, *, raw: bool = False, **headers):
    """POST `body` (a record dict, or bytes/str when `raw`) as JSON with the CSRF header."""
    data = body if raw else json.dumps(body)
    token = client.cookies["csrftoken"].value if "csrftoken" in client.cookies else ""
    return client.post(UPLOAD_URL, data=data, content_type="application/json", HTTP_X_CSRFTOKEN=token, **headers)

#: Reversi: after d3 c3 b3 b2 f5 a3 a1 c1 Black has no legal move and passes (shared/cases/reversi.json,
#: "forced_pass"); White plays e3 and the game runs to a full board, Black winning 46-18.
REVERSI_PASS = ("d3 c3 b3 b2 f5 a3 a1 c1 e3 c2 c5 a2 b1 a4 b4 b5 b6 a5 d1 a7 b7 c4 c6 a6 e6 a8 b8 c7 c8 d2 "
                "d6 d7 d8 e1 e7 e2 g4 e8 f2 f3 f4 f6 f7 g1 f1 g2 f8 g3 h1 g5 g6 g7 g8 h2 h3 h4 h5 h6 h7 h8").split()
REVERSI_PASS_AFTER = 8  # the ply after which Black passes
REVERSI_PASS_COUNT = (46, 18)
