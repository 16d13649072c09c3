"""The race on the real PostgreSQL: 1,000 rated games among 40 players, each ended by both of its
players resigning at the same moment from a pool of threads (each with its own connection), through
the real `finish` path. Every game ends once and changes each of its two ratings exactly once, and
each player's changes form one unbroken chain (every game rated from the rating left by the one
before: the Rating rows are locked, in user-id order, so nothing deadlocks)."""

from __future__ import annotations

import random
import threading
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.db import connections
from django.utils import timezone

from accounts.models import User
from caro.games import services
from caro.games.errors import GameError
from caro.games.models import Game
from ranking import categories, elo
from ranking.models import Rating, RatingChange

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = 1000
PLAYERS = 40
THREADS = 8


def _setup():
    """40 accounts and 1,000 active rated games between random pairs, both sides having moved
    (bulk-created rows in the state the game service leaves them after two moves)."""
    users = User.objects.bulk_create(
        [User(username=f"racer{i}", password="!", display_name=f"Racer {i}") for i in range(PLAYERS)]
    )
    rng = random.Random(10)
    now = timezone.now()
    games = []
    for _ in range(GAMES):
        host, guest = rng.sample(users, 2)
        games.append(Game(
            kind="caro", rules=categories.CARO.rules, host=host, guest=guest, status=Game.Status.ACTIVE,
            rated=True, ply=2, to_move="X", turn_started_at=now, deadline=now + timedelta(hours=1),
            started_at=now, event_version=3,
        ))
    return users, Game.objects.bulk_create(games)


def test_a_thousand_games_ended_concurrently_in_pairs_change_each_rating_exactly_once():
    users, games = _setup()
    by_id = {u.pk: u for u in users}
    attempts = []
    for game in games:  # both players of a game resign at once: only one ending may count
        attempts += [(game.pk, by_id[game.host_id]), (game.pk, by_id[game.guest_id])]
    outcomes: Counter = Counter()
    lock = threading.Lock()

    def resign(attempt):
        game_id, user = attempt
        try:
            services.resign(game_id, user)
            result = "ended"
        except GameError as exc:
            result = exc.code
        finally:
            connections.close_all()
        with lock:
            outcomes[result] += 1

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        list(pool.map(resign, attempts))

    assert outcomes == {"ended": GAMES, "game_over": GAMES}
    assert Game.objects.filter(pk__in=[g.pk for g in games], status=Game.Status.FINISHED).count() == GAMES
    changes = list(RatingChange.objects.order_by("id"))
    assert len(changes) == 2 * GAMES
    per_game = Counter(c.game_id for c in changes)
    assert set(per_game.values()) == {2}
    assert all(len({c.user_id for c in changes if c.game_id == gid}) == 2 for gid in list(per_game)[:50])

    played = Counter()
    for game in games:
        played[game.host_id] += 1
        played[game.guest_id] += 1
    chains = defaultdict(list)
    for change in changes:
        chains[change.user_id].append(change)
    for rating in Rating.objects.filter(category="caro"):
        chain = chains[rating.user_id]
        assert rating.games == len(chain) == played[rating.user_id]
        assert rating.wins + rating.losses == rating.games
        assert chain[0].before == elo.START_RATING
        assert all(prev.after == nxt.before for prev, nxt in zip(chain, chain[1:]))
        assert rating.value == chain[-1].after == elo.START_RATING + sum(c.delta for c in chain)
    assert Rating.objects.count() == len(played)
