"""Signals the games app sends, so other apps can react without games importing them (docs/architecture.md).

`game_ended(sender=Game, game=<Game>)` is sent INSIDE the transaction that ends a game, after the row
is saved: a receiver's writes (e.g. a rating change) commit or roll back together with the result.

`game_annulled(sender=Game, game=<Game>)` is sent inside the transaction in which a moderator annuls
a finished game (`caro.games.services.moderation.annul`): a receiver reverts that game's own effects
(its rating changes) in the same transaction.
"""

from django.dispatch import Signal

game_ended = Signal()
game_annulled = Signal()
