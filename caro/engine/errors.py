"""The one exception type raised for a refused move or action.

Every refusal carries a short machine-readable ``reason`` code (the site maps it to a translated
message) and a readable English message for logs and tests.
"""

from __future__ import annotations

# Reason codes, listed once so callers and tests can refer to them.
BAD_SQUARE = "bad_square"  # the square name is malformed ("Z", "H0", "8H")
OUT_OF_BOARD = "out_of_board"  # well-formed name, but off this board ("P8" on 15x15)
OCCUPIED = "occupied"  # the square already holds a stone or disc
WRONG_TURN = "wrong_turn"  # the acting side or seat is not the one to act
GAME_OVER = "game_over"  # the game has already finished
FOUL = "foul"  # Renju: the move is a foul for Black (see ``IllegalMove.foul``)
NO_FLIP = "no_flip"  # Reversi: the move would flip no disc
MUST_PASS = "must_pass"  # Reversi: the side to move has no legal move and must pass
MUST_PLAY = "must_play"  # Reversi: a pass was asked for while a legal move exists
OPENING_STEP = "opening_step"  # an opening action not allowed in the current step
OPENING_OVER = "opening_over"  # an opening action after the opening has finished
NOT_CENTRAL = "not_central"  # RIF: move 1-3 outside the required central area
OFFER_COUNT = "offer_count"  # RIF: the 5th-move offer is not exactly two distinct squares
EQUIVALENT_FIFTH = "equivalent_fifth"  # RIF: the two 5th-move offers are symmetric
NOT_OFFERED = "not_offered"  # RIF: White picked a 5th move Black did not offer
BAD_COLOR = "bad_color"  # an opening "choose" action with a colour other than "X"/"O"
BAD_RECORD = "bad_record"  # a game record (PSQ, GGF, move list) cannot be read

REASONS = frozenset(
    {
        BAD_SQUARE, OUT_OF_BOARD, OCCUPIED, WRONG_TURN, GAME_OVER, FOUL, NO_FLIP, MUST_PASS,
        MUST_PLAY, OPENING_STEP, OPENING_OVER, NOT_CENTRAL, OFFER_COUNT, EQUIVALENT_FIFTH,
        NOT_OFFERED, BAD_COLOR, BAD_RECORD,
    }
)


class IllegalMove(ValueError):
    """A move or action the rules refuse.

    ``reason`` is one of the codes in :data:`REASONS`; ``foul`` is the Renju foul kind
    (``"double-three"``, ``"double-four"`` or ``"overline"``) when ``reason == "foul"``, else None;
    ``square`` is the square name involved, when there is one.
    """

    def __init__(self, reason: str, message: str | None = None, *, square: str | None = None,
                 foul: str | None = None) -> None:
        if reason not in REASONS:
            raise ValueError(f"unknown reason code {reason!r}")
        self.reason = reason
        self.square = square
        self.foul = foul
        super().__init__(message or reason.replace("_", " "))
