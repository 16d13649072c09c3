"""Signals the rooms app sends (docs/architecture.md), so apps above it react without rooms
importing them.

`games_started(sender=Room, rooms=[Room, ...])` is sent INSIDE the transaction in which each room's
current game between two people started (its second seat taken, a pairing's rooms made, a rematch
both players asked for): a receiver's writes commit or roll back with the start. Each room's
`current_game` is the started game. Receivers must be idempotent: a seated player taking their
seat again sends it again for a game already started.
"""

from django.dispatch import Signal

games_started = Signal()
