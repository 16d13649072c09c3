"""Refusals of the game service: a machine code (docs/protocol.md) and a translated message."""

from django.utils.translation import gettext_lazy as _

#: Every error code the service and the room consumer send, with its translated message.
MESSAGES = {
    # game service
    "not_a_player": _("You are not playing in this game; you can only watch."),
    "not_started": _("The game has not started yet: wait for an opponent to take the other seat."),
    "game_over": _("This game is over. Start a new one to keep playing."),
    "not_over": _("The game is still in progress."),
    "timeout": _("Time ran out before this move arrived."),
    "stale": _("The board changed before your move arrived. Your move was not played; the board is up to date now."),
    "not_your_turn": _("It is not your turn yet."),
    "occupied": _("That square is already taken."),
    "out_of_board": _("That square is off the board."),
    "bad_square": _("That is not a square name: a column letter then a row number, like H8 (d3 in Reversi)."),
    "foul": _("That move is a foul for X under Renju rules."),
    "no_flip": _("That move flips no disc: choose one of the marked squares."),
    "illegal": _("That move is not allowed by the rules of this game."),
    "seat_taken": _("Both seats are taken; you are watching this game."),
    "offer_refused": _("You cannot offer a draw now: wait until 20 more moves have been played since your last offer."),
    "offer_pending": _("Your draw offer is still waiting for an answer."),
    "takeback_refused": _("You cannot ask to take back now: this room does not allow it, a request is already waiting, you have no move to take back yet, or your last request was refused less than 10 moves ago."),
    "no_offer": _("There is no offer to answer any more."),
    "rematch_refused": _("Your opponent has declined your rematch offers 3 times: you cannot offer another rematch of this game. They can still offer one."),
    "not_now": _("That choice is not open now: your opponent is back, or you already used it."),
    "opponent_left": _("A player left the table, so there is no rematch: start a new game from the home page."),
    "leave_refused": _("Leaving the table is for games between two people; here you can resign."),
    "on_device": _("Games against the computer and on one device are played in the page now: start a new one from the home page."),
    # opening procedures (RIF, Swap2)
    "opening_over": _("The opening is over: play an ordinary move."),
    "opening_step": _("That is not the step the opening asks for now."),
    "not_in_area": _("In the RIF opening, stone 1 goes on the centre point, stone 2 inside the central 3×3 and stone 3 inside the central 5×5."),
    "offer_count": _("Offer exactly two different points for the 5th move."),
    "equivalent_fifth": _("These two points are mirror images of each other in this position: offer two points that differ."),
    "not_offered": _("Choose one of the two offered points for the 5th move."),
    "bad_color": _("Choose X or O."),
    "banned": _("Your account is banned: you cannot play, create rooms or chat."),
    "not_annullable": _("Only a finished rated game that is not annulled yet can be annulled."),
    "room_closed": _("A moderator closed this room. You can start a new game from the home page."),
    "accounts_only": _("This room is for players with an account: sign up or log in to take the seat."),
    "crowd_full": _("This room already has 50 spectators. Try again a little later."),
    # room consumer (malformed or unknown frames)
    "malformed": _("The message could not be read. Reload the page if this keeps happening."),
    "too_large": _("The message was too large and was ignored."),
    "unknown_type": _("Unknown message type; it was ignored."),
    "rate_limited": _("Too many messages at once; slow down a little."),
    "server_error": _("Something went wrong on our side; nothing was changed. Please try again."),
    "busy": _("The server has too much to do right now and did not take this; nothing was changed. Try again in a moment."),
    "too_many_sockets": _("Too many connections from your network or browser: close some other tabs of this site, then reload the page."),
}


#: Messages of a code that say more for a given `detail` (`(code, detail)` -> message); a detail
#: not listed here reads as the code's own message.
DETAIL_MESSAGES = {
    ("not_now", "present"): _("Your opponent is at the table: there is nothing to decide."),
    ("not_now", "grace"): _("Your opponent still has time to come back: you can choose once their 60 seconds have run out."),
    ("not_now", "waited"): _("You already gave your opponent more time once in this game: now you can claim the win or a draw."),
}


class GameError(Exception):
    """A refused action. `code` is a key of `MESSAGES`; `detail` adds context (e.g. a foul kind)."""

    def __init__(self, code: str, detail: str | None = None) -> None:
        if code not in MESSAGES:
            raise ValueError(f"unknown game error code {code!r}")
        self.code = code
        self.detail = detail
        super().__init__(code)

    @property
    def message(self) -> str:
        """The message in the active language (the detail's own, DETAIL_MESSAGES, if it has one)."""
        return str(DETAIL_MESSAGES.get((self.code, self.detail)) or MESSAGES[self.code])
