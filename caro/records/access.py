"""Who may see a game: a game not over is seen on its record pages (and reported) only by whom
its room shows it to (`may_see_unfinished`); the record views and moderation's report view read a
game through `game_for`, so a game the visitor may not see is a 404, as a missing one."""

from __future__ import annotations

from django.http import Http404

from caro.games.models import Game
from caro.rooms.models import Room


def game_for(game_id: int, user=None) -> Game:
    """The game `game_id` for a view of it asked by `user` (the record pages, a report). Raises
    Http404 when there is no such game, or when it is not over and `user` may not see it
    (`may_see_unfinished`). A game not over carries its room (or None) as `live_room`, read once
    for the check and the page's room link."""
    game = Game.objects.select_related("host", "guest").filter(pk=game_id).first()
    if game is not None and not game.is_over:
        game.live_room = (Room.objects.filter(current_game=game)
                          .only("code", "watchable", "lobby_since", "created_by_id").first())
    if game is None or (user is not None and not game.is_over and not may_see_unfinished(user, game, game.live_room)):
        raise Http404("no such game")
    return game


def may_see_unfinished(user, game: Game, room: Room | None) -> bool:
    """Whether `user` may see game `game`, not over yet and played in `room` (None: no room), on
    its record pages: anyone when its room is public (waiting in the lobby, or shown on the watch
    page); else only its players, the room's host and staff. A friend room shared by its link or
    code alone stayed findable by counting up record ids, whose page linked to the room, and a
    stranger took the free seat (attacker run)."""
    if room is None or room.watchable or room.lobby_since is not None:
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    return user.is_staff or user.pk in (game.host_id, game.guest_id, room.created_by_id)
