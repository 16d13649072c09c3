"""The pairing pass on the real database (ranking.pairing): choices, windows, self-pairing, races,
no-shows, the recent-abort rule, guests and ranked, the computer offer. Clocks are passed as `now`."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from accounts.guests import create_guest
from accounts.models import User
from caro.games.finish import finish
from caro.games.models import AbsenceRule, Game, Takeback
from caro.games.services import presence
from caro.rooms.models import Room
from ranking import pairing
from ranking.models import Rating
from ranking.pairing import SeekError
from ranking.seeks import Pairing, Seek
from tests.integration.helpers import at_once

QUICK = "caro-15-blocked"


def account(rating: int | None = None, category: str = "caro") -> User:
    user = User.objects.create(username=f"p{User.objects.count()}-{timezone.now().timestamp()}", is_guest=False)
    if rating is not None:
        Rating.objects.create(user=user, category=category, value=rating)
    return user


def seek(user, choice=QUICK, mode="quick", now=None):
    return pairing.join(user, mode, choice, now=now)


@pytest.mark.django_db
def test_two_players_with_the_same_choice_get_one_unrated_forfeit_game():
    a, b = create_guest(), create_guest()
    seek(a)
    seek(b)
    made = pairing.run_pass("quick", QUICK)
    assert len(made) == 1
    game = made[0].game
    assert {game.host_id, game.guest_id} == {a.pk, b.pk}
    assert game.status == Game.Status.ACTIVE and not game.rated
    assert game.absence_rule == AbsenceRule.FORFEIT and game.takeback == Takeback.NONE
    assert game.move_time_ms == 60_000 and game.rules["size"] == 15 and game.rules["blocked"] == "opponent_or_edge"
    assert game.first_mover == "random"
    assert Room.objects.get(current_game=game).code == made[0].room_code
    assert set(Seek.objects.values_list("status", flat=True)) == {"paired"}
    assert pairing.run_pass("quick", QUICK) == []  # nobody is paired twice


@pytest.mark.django_db
def test_different_choices_are_never_paired_and_reversi_has_30_seconds():
    a, b, c, d = (create_guest() for _ in range(4))
    seek(a, "caro-15-blocked")
    seek(b, "caro-15-blocked-exact")
    seek(c, "reversi")
    assert pairing.run_pass() == []
    seek(d, "reversi")
    made = pairing.run_pass()
    assert len(made) == 1
    assert made[0].game.kind == "reversi" and made[0].game.move_time_ms == 30_000
    assert {made[0].host_id, made[0].guest_id} == {c.pk, d.pk}


@pytest.mark.django_db
def test_bad_choices_are_refused_and_change_nothing():
    a = create_guest()
    for mode, choice in (("quick", "caro-14-blocked"), ("quick", "caro-15-exact-blocked"), ("quick", "x" * 41),
                         ("ranked", "nope")):
        with pytest.raises(SeekError):
            pairing.join(a, mode, choice)
    assert not Seek.objects.exists()


@pytest.mark.django_db
def test_only_live_seek_sockets_are_paired():
    a, b = create_guest(), create_guest()
    now = timezone.now()
    seek(a, now=now)
    seek(b, now=now)
    pairing.detach(b.pk)  # b's only socket closed
    assert pairing.run_pass("quick", QUICK, now=now) == []
    pairing.join(b, "quick", QUICK, now=now)  # b's page is back
    later = now + timedelta(seconds=pairing.SEEK_STALE_S + 1)  # no heartbeat since
    assert pairing.run_pass("quick", QUICK, now=later) == []
    pairing.heartbeat(a.pk, later)
    pairing.heartbeat(b.pk, later)
    assert len(pairing.run_pass("quick", QUICK, now=later)) == 1


@pytest.mark.django_db
def test_two_tabs_of_one_user_share_one_seek_and_never_pair_together():
    a, b = create_guest(), create_guest()
    seek(a)
    seek(a)  # the second tab
    assert Seek.objects.get(user=a).sockets == 2
    assert pairing.run_pass("quick", QUICK) == []
    seek(b)
    made = pairing.run_pass("quick", QUICK)
    assert len(made) == 1 and {made[0].host_id, made[0].guest_id} == {a.pk, b.pk}
    # and the pure pairing rules refuse one user twice whatever the rows say
    s1, s2 = Seek(user_id=a.pk, rating=1200), Seek(user_id=a.pk, rating=1200)
    s1.queued_at = s2.queued_at = timezone.now()
    assert pairing.quick_pairs([s1, s2]) == []
    assert pairing.ranked_pairs([s1, s2], timezone.now(), set()) == []


@pytest.mark.django_db
def test_three_close_players_in_one_pass_make_one_pair():
    players = [create_guest() for _ in range(3)]
    now = timezone.now()
    for i, user in enumerate(players):
        seek(user, now=now + timedelta(milliseconds=i))
    made = pairing.run_pass("quick", QUICK, now=now + timedelta(seconds=1))
    assert len(made) == 1
    assert {made[0].host_id, made[0].guest_id} == {players[0].pk, players[1].pk}  # queue order
    assert Seek.objects.get(user=players[2]).status == "waiting"
    ranked = [account(1500 + i) for i in range(3)]
    for user in ranked:
        seek(user, "caro", "ranked", now=now)
    made = pairing.run_pass("ranked", "caro", now=now)
    assert len(made) == 1 and made[0].game.rated
    assert Seek.objects.filter(user__in=ranked, status="waiting").count() == 1


@pytest.mark.django_db
def test_ranked_window_widens_with_waiting_time():
    a, b = account(1200), account(1300)
    now = timezone.now()
    seek(a, "caro", "ranked", now=now)
    seek(b, "caro", "ranked", now=now)
    assert pairing.rating_window(Seek.objects.get(user=a), now) == pairing.RATING_WINDOW_START
    assert pairing.run_pass("ranked", "caro", now=now) == []  # 100 apart, ±50
    # 8 s: 50 + 12 * 4 = 98, still short; 10 s: 110 covers it.
    for user in (a, b):
        pairing.heartbeat(user.pk, now + timedelta(seconds=10))
    assert pairing.run_pass("ranked", "caro", now=now + timedelta(seconds=8)) == []
    made = pairing.run_pass("ranked", "caro", now=now + timedelta(seconds=10))
    assert len(made) == 1 and made[0].game.rated and made[0].mode == "ranked"
    top = Seek(rating=0)
    top.queued_at = now
    assert pairing.rating_window(top, now + timedelta(hours=1)) == (
        pairing.RATING_WINDOW_START + pairing.RATING_WINDOW_WIDEN_MAX)


@pytest.mark.django_db
def test_ranked_prefers_the_nearest_rating():
    a, far, near = account(1500), account(1540), account(1510)
    now = timezone.now()
    for user in (a, far, near):
        seek(user, "caro", "ranked", now=now)
    made = pairing.run_pass("ranked", "caro", now=now)
    assert len(made) == 1 and {made[0].host_id, made[0].guest_id} == {a.pk, near.pk}


@pytest.mark.django_db
def test_guests_are_refused_ranked_with_a_reason():
    guest = create_guest()
    assert pairing.seek_refusal(guest, "ranked") == "guests_not_ranked"
    assert pairing.seek_refusal(guest, "quick") is None
    with pytest.raises(SeekError) as error:
        pairing.join(guest, "ranked", "caro")
    assert error.value.code == "guests_not_ranked" and "tài khoản" in error.value.message
    assert not Seek.objects.exists()


@pytest.mark.django_db
def test_a_pair_that_just_aborted_is_not_paired_again_for_an_hour():
    a, b = account(1400), account(1400)
    now = timezone.now()
    seek(a, "caro", "ranked", now=now)
    seek(b, "caro", "ranked", now=now)
    made = pairing.run_pass("ranked", "caro", now=now)
    game = made[0].game
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        finish(locked, winner="", termination=Game.Termination.ABORT)
    soon = now + timedelta(minutes=5)
    seek(a, "caro", "ranked", now=soon)
    seek(b, "caro", "ranked", now=soon)
    assert pairing.run_pass("ranked", "caro", now=soon) == []
    later = now + timedelta(seconds=pairing.RECENT_ABORT_S + 1)
    for user in (a, b):
        pairing.heartbeat(user.pk, later)
    assert len(pairing.run_pass("ranked", "caro", now=later)) == 1


@pytest.mark.django_db
def test_ranked_first_mover_balances_recent_games():
    a, b = account(1400), account(1400)
    # a moved first in their last games, b never did: b moves first now.
    for _ in range(3):
        other = account()
        Game.objects.create(host=a, guest=other, host_side="X", status=Game.Status.FINISHED)
        Game.objects.create(host=other, guest=b, host_side="X", status=Game.Status.FINISHED)
    now = timezone.now()
    seek(a, "caro", "ranked", now=now)
    seek(b, "caro", "ranked", now=now + timedelta(milliseconds=1))
    game = pairing.run_pass("ranked", "caro", now=now)[0].game
    assert game.host_id == a.pk and game.first_mover == "guest" and game.x_player == b


@pytest.mark.django_db
def test_computer_offer_after_30_seconds():
    a = create_guest()
    now = timezone.now()
    seek(a, now=now)
    assert pairing.offer_computer(now + timedelta(seconds=pairing.COMPUTER_OFFER_S - 1)) == []
    assert pairing.offer_computer(now + timedelta(seconds=pairing.COMPUTER_OFFER_S)) == [a.pk]
    assert pairing.offer_computer(now + timedelta(seconds=pairing.COMPUTER_OFFER_S + 5)) == []  # once
    assert pairing.seek_state(a)["computer_offer"] is True


@pytest.mark.django_db
def test_a_no_show_aborts_the_game_and_the_other_goes_back_to_the_front():
    early, a, b = create_guest(), create_guest(), create_guest()
    now = timezone.now()
    seek(a, now=now)
    seek(b, now=now)
    made = pairing.run_pass("quick", QUICK, now=now)[0]
    game = made.game
    presence.connect(game.pk, "chan-host", a)  # a opened the game; b never did
    assert not pairing.check_arrival(made.pk, now + timedelta(seconds=pairing.ARRIVAL_GRACE_S - 1))
    assert pairing.check_arrival(made.pk, now + timedelta(seconds=pairing.ARRIVAL_GRACE_S))
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.termination == Game.Termination.ABORT
    back = Seek.objects.get(user=a)
    assert back.status == "waiting" and back.front and back.game is None
    assert not Seek.objects.filter(user=b).exists()
    assert not pairing.check_arrival(made.pk, now + timedelta(minutes=5))  # checked once
    # a is ahead of someone who has waited longer
    later = now + timedelta(seconds=30)
    seek(early, now=now - timedelta(minutes=10))
    c = create_guest()
    seek(a, now=later)  # the page came back: same choice, place kept
    seek(c, now=later)
    for user in (early, a, c):
        pairing.heartbeat(user.pk, later)
    again = pairing.run_pass("quick", QUICK, now=later)
    assert len(again) == 1 and again[0].host_id == a.pk and again[0].guest_id == early.pk


@pytest.mark.django_db
def test_both_arrived_means_no_abort():
    a, b = create_guest(), create_guest()
    now = timezone.now()
    seek(a, now=now)
    seek(b, now=now)
    made = pairing.run_pass("quick", QUICK, now=now)[0]
    presence.connect(made.game_id, "c1", a)
    presence.connect(made.game_id, "c2", b)
    assert not pairing.check_arrival(made.pk, now + timedelta(seconds=pairing.ARRIVAL_GRACE_S + 1))
    assert Game.objects.get(pk=made.game_id).status == Game.Status.ACTIVE
    assert pairing.due_arrivals(now + timedelta(minutes=1)) == []


@pytest.mark.django_db
def test_cancel_and_joining_again():
    a, b = create_guest(), create_guest()
    seek(a)
    assert pairing.cancel(a) is None and not Seek.objects.exists()
    seek(a)
    seek(b)
    pairing.run_pass("quick", QUICK)
    paired = pairing.cancel(a)  # too late: the game stands
    assert paired is not None and paired.game is not None
    assert pairing.seek_state(a)["status"] == "paired"
    assert pairing.join(a, "quick", "reversi").status == "paired"  # still in that game


@pytest.mark.django_db
def test_waiting_counts_per_choice():
    a, b, c = create_guest(), create_guest(), create_guest()
    seek(a)
    seek(b, "reversi")
    seek(c, "reversi")
    pairing.detach(c.pk)
    assert pairing.waiting_counts() == {"quick": {QUICK: 1, "reversi": 1}, "ranked": {}}


@pytest.mark.django_db(transaction=True)
def test_a_cancel_racing_a_pairing_leaves_zero_or_one_game():
    outcomes = set()
    for _round in range(12):
        a, b = create_guest(), create_guest()
        seek(a)
        seek(b)
        barrier = threading.Barrier(2)
        result = {}

        def run_pass():
            barrier.wait()
            try:
                result["made"] = pairing.run_pass("quick", QUICK)
            finally:
                connection.close()

        def run_cancel():
            barrier.wait()
            try:
                result["cancel"] = pairing.cancel(a)
            finally:
                connection.close()

        threads = [threading.Thread(target=run_pass), threading.Thread(target=run_cancel)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        games = Game.objects.of_player(a).count()
        assert games <= 1
        if result["cancel"] is None:  # the cancel went first: no game, no seek
            assert games == 0 and not Seek.objects.filter(user=a).exists()
            outcomes.add("cancelled")
        else:
            assert games == 1 and result["cancel"].game_id == Game.objects.of_player(a).get().pk
            outcomes.add("paired")
        Seek.objects.filter(user__in=(a, b)).delete()
    assert outcomes  # at least one round ran (either order may win every time on a given machine)


@pytest.mark.django_db(transaction=True)
def test_concurrent_passes_never_pair_anyone_twice():
    users = [create_guest() for _ in range(20)]
    for user in users:
        seek(user)
    barrier = threading.Barrier(4)
    made = []

    def run():
        barrier.wait()
        try:
            made.extend(pairing.run_pass("quick", QUICK))
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(made) == 10
    seated = [uid for p in Pairing.objects.all() for uid in (p.host_id, p.guest_id)]
    assert len(seated) == len(set(seated)) == 20


@pytest.mark.django_db(transaction=True)
def test_two_tabs_joining_at_once_share_one_seek():
    a = create_guest()
    barrier = threading.Barrier(2)
    errors = []

    def run():
        barrier.wait()
        try:
            pairing.join(a, "quick", QUICK)
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert Seek.objects.get(user=a).sockets == 2


# ------------------------------------------------------------------------- pairing on arrival



@pytest.mark.django_db
def test_an_arrival_is_paired_at_once_with_the_longest_waiting_player_of_its_choice():
    first, second, other, me = (create_guest() for _ in range(4))
    now = timezone.now()
    assert pairing.arrive(first, "quick", QUICK, now=now)[1] is None
    assert pairing.arrive(other, "quick", "reversi", now=now)[1] is None
    assert pairing.arrive(second, "quick", QUICK, now=now + timedelta(seconds=1))[1] is not None  # with first
    third = create_guest()
    assert pairing.arrive(third, "quick", QUICK, now=now + timedelta(seconds=2))[1] is None
    seek, made = pairing.arrive(me, "quick", QUICK, now=now + timedelta(seconds=3))
    assert made is not None and (made.host_id, made.guest_id) == (third.pk, me.pk)  # the one waiting hosts
    assert Seek.objects.get(user=other).status == "waiting"  # other rules: never
    assert set(Seek.objects.filter(status="paired").values_list("sockets", flat=True)) == {0}
    messages = pairing.paired_messages(made)
    assert [group for group, _event in messages] == [f"seek.{third.pk}", f"seek.{me.pk}"]
    assert messages[0][1]["game_id"] == made.game_id and messages[0][1]["url"].startswith("/r/")


@pytest.mark.django_db
def test_an_arrival_respects_both_rating_windows_and_prefers_the_nearest_rating():
    now = timezone.now()
    far, near, me = account(1500), account(1530), account(1560)
    farther = account(1400)
    pairing.arrive(farther, "ranked", "caro", now=now - timedelta(seconds=60))  # wide window, but mine is ±50
    pairing.arrive(far, "ranked", "caro", now=now)
    pairing.arrive(near, "ranked", "caro", now=now + timedelta(seconds=0.5))  # 30 from far: paired with far
    assert Seek.objects.filter(status="paired").count() == 2
    seek, made = pairing.arrive(me, "ranked", "caro", now=now + timedelta(seconds=1))
    assert made is None  # far and near are taken; farther is 160 away
    late = account(1600)
    seek, made = pairing.arrive(late, "ranked", "caro", now=now + timedelta(seconds=1))
    assert made is not None and {made.host_id, made.guest_id} == {me.pk, late.pk}


@pytest.mark.django_db
def test_an_arrival_never_meets_a_dead_seek_itself_or_a_recent_abort():
    a, b = account(1500), account(1500)
    now = timezone.now()
    pairing.arrive(a, "ranked", "caro", now=now)
    pairing.detach(a.pk)  # a's socket closed: not alive
    assert pairing.arrive(b, "ranked", "caro", now=now)[1] is None
    assert pairing.arrive(b, "ranked", "caro", attach=False, now=now)[1] is None  # b's second tab: not b
    pairing.arrive(a, "ranked", "caro", now=now)  # a's page came back
    assert Seek.objects.get(user=a).status == "paired"
    made = Pairing.objects.get()
    finish(made.game, winner="", termination=Game.Termination.ABORT)
    Seek.objects.all().delete()
    pairing.arrive(a, "ranked", "caro", now=now + timedelta(seconds=5))
    assert pairing.arrive(b, "ranked", "caro", now=now + timedelta(seconds=5))[1] is None  # an hour apart


@pytest.mark.django_db(transaction=True)
def test_two_arrivals_at_once_make_exactly_one_game():
    for _round in range(8):
        a, b = create_guest(), create_guest()
        results = at_once([lambda: pairing.arrive(a, "quick", QUICK), lambda: pairing.arrive(b, "quick", QUICK)])
        assert not any(isinstance(result, Exception) for result in results), results
        made = [pairing_ for _seek, pairing_ in results if pairing_ is not None]
        assert len(made) == 1  # one of them saw the other and paired: never none, never two
        assert Game.objects.of_player(a).count() == Game.objects.of_player(b).count() == 1
        Seek.objects.all().delete()


@pytest.mark.django_db(transaction=True)
def test_many_arrivals_at_once_pair_everyone_once_and_miss_no_pair():
    users = [create_guest() for _ in range(12)]
    results = at_once([lambda user=user: pairing.arrive(user, "quick", QUICK) for user in users])
    assert not any(isinstance(result, Exception) for result in results), results
    seated = [uid for p in Pairing.objects.all() for uid in (p.host_id, p.guest_id)]
    assert len(seated) == len(set(seated))  # nobody in two games
    assert len(Pairing.objects.all()) >= 4  # most pair on arrival (a few may lose every try to others)
    pairing.run_pass("quick", QUICK)  # the beat's fallback seats whoever is left
    seated = [uid for p in Pairing.objects.all() for uid in (p.host_id, p.guest_id)]
    assert len(seated) == len(set(seated)) == 12


@pytest.mark.django_db(transaction=True)
def test_a_cancel_racing_an_arrival_leaves_zero_or_one_game():
    outcomes = set()
    for _round in range(10):
        a, b = create_guest(), create_guest()
        pairing.arrive(a, "quick", QUICK)
        cancelled, (seek_b, made) = at_once([lambda: pairing.cancel(a), lambda: pairing.arrive(b, "quick", QUICK)])
        games = Game.objects.of_player(a).count()
        assert games <= 1
        if cancelled is None:  # the cancel went first: no game for a, b waits
            assert games == 0 and made is None and not Seek.objects.filter(user=a).exists()
            assert Seek.objects.get(user=b).status == "waiting"
            outcomes.add("cancelled")
        else:  # the arrival went first: the game stands and the cancel reports it
            assert games == 1 and made is not None and cancelled.game_id == made.game_id
            outcomes.add("paired")
        Seek.objects.all().delete()
    assert outcomes
