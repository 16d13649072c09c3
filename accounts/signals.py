"""What the accounts app announces to the apps above it (it imports none of them).

`renamed(sender=User, user=<the user>)`: a guest's shown name changed (the rename form), after the
row was saved. The games app tells the rooms where that player is seated (`caro.games.receivers`).
"""

from django.dispatch import Signal

renamed = Signal()
