"""Signals the games app sends, so other apps can react without games importing them (docs/architecture.md).

`game_ended(sender=Game, game=<Game>)` is sent INSIDE the transaction that ends a game, after the row
is saved: a receiver's writes (e.g. a rating change) commit or roll back together with the result.
"""

from django.dispatch import Signal

game_ended = Signal()
