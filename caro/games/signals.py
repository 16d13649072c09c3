"""Signals the games app sends, so other apps can react without games importing them (docs/architecture.md).

`game_ended(sender=Game, game=<Game>)` is sent INSIDE the transaction that ends a game, after the row
is saved: a receiver's writes (e.g. a rating change) commit or roll back together with the result.

`game_annulled(sender=Game, game=<Game>)` is sent inside the transaction in which a moderator annuls
a finished game (`caro.games.services.moderation.annul`): receivers undo what they did for that game
(ranking reverts exactly its rating changes) in the same transaction.

`game_over_fields(sender=Game, game=<Game>)` is sent for a game that is over, to build its
`game_over` event (in `finish`, after `game_ended`) and its `state` frame (`snapshot.public_state`):
each receiver returns a dict of extra fields (ranking returns `{"ratings": ...}`, docs/protocol.md),
merged by `over_fields`. Receivers must be cheap for games they have nothing to say about.

`game_state_fields(sender=Game, game=<Game>)` is the same for a game that is not over, for its
`state` frame: ranking returns what a rated game's result would change (`{"stakes": ...}`). Merged
by `state_fields`; receivers must be cheap (no query) for games they have nothing to say about.

`waiting_presence(sender=Game, game_id=<int>)` is sent AFTER commit when a seated player's socket
opened or closed in a game still waiting for its second player (the rooms app tells the public
lobby, which lists only rooms whose host is there).
"""

from django.dispatch import Signal

game_ended = Signal()
game_annulled = Signal()
game_over_fields = Signal()
game_state_fields = Signal()
waiting_presence = Signal()


def over_fields(game) -> dict:
    """The extra fields every `game_over_fields` receiver contributes for `game` (over), merged
    into one dict (later receivers win on a clash; none is expected). Empty without receivers."""
    return _merged(game_over_fields, game)


def state_fields(game) -> dict:
    """The extra fields every `game_state_fields` receiver contributes for `game` (not over), as
    `over_fields`."""
    return _merged(game_state_fields, game)


def _merged(signal: Signal, game) -> dict:
    fields: dict = {}
    for _receiver, response in signal.send(sender=type(game), game=game):
        if response:
            fields.update(response)
    return fields
