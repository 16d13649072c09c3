"""Arrivals in batches (ranking.pairing.arrive_many, what the seek sockets of one process send):
pairing inside a batch and with those waiting, two tabs, refusals, the still-paired seek, and the
races (batches against batches, against single arrivals, against cancels) on the real database."""

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from accounts.guests import create_guest
from accounts.models import User
from caro.games.models import AbsenceRule, Game, Takeback
from caro.rooms.models import Room
from ranking import pairing
from ranking.models import Rating
from ranking.pairing import SeekError
from ranking.seeks import Pairing, Seek
from tests.integration.helpers import at_once

QUICK = "caro-15-blocked"


def _seated() -> list[int]:
    return [uid for p in Pairing.objects.all() for uid in (p.host_id, p.guest_id)]




@pytest.mark.django_db
def test_a_batch_pairs_its_arrivals_with_those_waiting_first_then_among_themselves():
    now = timezone.now()
    waiting = create_guest()
    pairing.arrive(waiting, "quick", QUICK, now=now - timedelta(seconds=5))
    a, b, c, d = (create_guest() for _ in range(4))
    answers = pairing.arrive_many([(a, "quick", QUICK, True), (b, "quick", QUICK, True),
                                   (c, "quick", "reversi", True), (d, "quick", "reversi", True)], now=now)
    made = [answer[1] for answer in answers]
    assert (made[0].host_id, made[0].guest_id) == (waiting.pk, a.pk)  # the one waiting longest hosts
    assert made[1] is None or made[1].game_id != made[0].game_id
    # b was left over in its choice and waits (its second look finds nobody); c and d play Reversi.
    assert answers[1][1] is None and answers[1][0].status == "waiting" and answers[1][0].pk
    assert made[2].game_id == made[3].game_id and made[2].game.kind == "reversi"
    assert made[2].game.move_time_ms == 30_000 and not made[2].game.rated
    assert (made[2].tell_only, made[3].tell_only) == (c.pk, d.pk)  # both in the batch: each tells its own
    assert not hasattr(made[0], "tell_only")  # the one waiting was not in the batch: a's socket tells both
    game = Game.objects.get(pk=made[0].game_id)
    assert game.status == Game.Status.ACTIVE and game.first_mover == "random" and game.started_at is not None
    assert game.absence_rule == AbsenceRule.FORFEIT and game.takeback == Takeback.NONE and game.deadline
    assert Room.objects.get(current_game=game).code == made[0].room_code
    assert Seek.objects.get(user=b).status == "waiting" and Seek.objects.get(user=b).sockets == 1
    assert set(Seek.objects.filter(status="paired").values_list("sockets", flat=True)) == {0}
    assert sorted(_seated()) == sorted(u.pk for u in (waiting, a, c, d))
    # the next arrival of b's choice takes b
    e = create_guest()
    [(_seek, m)] = pairing.arrive_many([(e, "quick", QUICK, True)], now=now + timedelta(seconds=1))
    assert (m.host_id, m.guest_id) == (b.pk, e.pk)


@pytest.mark.django_db
def test_two_tabs_in_one_batch_share_one_seek_and_never_pair_together():
    a = create_guest()
    answers = pairing.arrive_many([(a, "quick", QUICK, True), (a, "quick", QUICK, True)])
    assert [answer[1] for answer in answers] == [None, None]
    assert Seek.objects.get(user=a).sockets == 2 and not Pairing.objects.exists()


@pytest.mark.django_db
def test_refusals_in_a_batch_change_nothing_and_leave_the_others_paired():
    a, b, barred = create_guest(), create_guest(), create_guest()
    User.objects.filter(pk=barred.pk).update(queue_banned_until=timezone.now() + timedelta(minutes=10))
    answers = pairing.arrive_many([(a, "quick", QUICK, True), (barred, "quick", QUICK, True),
                                   (b, "quick", "caro-14-blocked", True), (b, "ranked", "caro", True),
                                   (b, "quick", QUICK, True)])
    assert isinstance(answers[1], SeekError) and answers[1].code == "seek_barred"
    assert isinstance(answers[2], SeekError) and answers[2].code == "bad_choice"
    assert isinstance(answers[3], SeekError) and answers[3].code == "guests_not_ranked"
    assert answers[0][1] is not None and answers[0][1].game_id == answers[4][1].game_id
    assert not Seek.objects.filter(user=barred).exists()


@pytest.mark.django_db
def test_ranked_seeks_in_a_batch_pair_by_rating_one_by_one():
    users = [User.objects.create(username=f"r{i}", is_guest=False) for i in range(2)]
    for user in users:
        Rating.objects.create(user=user, category="caro", value=1500)
    answers = pairing.arrive_many([(user, "ranked", "caro", True) for user in users])
    made = [m for _seek, m in answers if m is not None]
    assert len(made) == 1 and made[0].game.rated


@pytest.mark.django_db
def test_a_seek_still_in_its_game_stays_paired_in_a_batch():
    a, b = create_guest(), create_guest()
    answers = pairing.arrive_many([(a, "quick", QUICK, True), (b, "quick", QUICK, True)])
    game_id = answers[1][1].game_id
    again = pairing.arrive_many([(a, "quick", "reversi", True)])
    assert again[0][1] is None and again[0][0].status == "paired" and again[0][0].game_id == game_id
    assert Pairing.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_batches_and_single_arrivals_at_once_pair_everyone_once():
    users = [create_guest() for _ in range(24)]
    groups = [users[0:6], users[6:12], users[12:18]]
    singles = users[18:]
    funcs = [lambda group=group: pairing.arrive_many([(u, "quick", QUICK, True) for u in group]) for group in groups]
    funcs += [lambda user=user: pairing.arrive(user, "quick", QUICK) for user in singles]
    results = at_once(funcs)
    assert not any(isinstance(result, Exception) for result in results), results
    seated = _seated()
    assert len(seated) == len(set(seated))  # nobody in two games
    pairing.run_pass("quick", QUICK)  # the beat's fallback seats whoever a race left waiting
    seated = _seated()
    assert len(seated) == len(set(seated)) == 24
    assert Game.objects.count() == 12


@pytest.mark.django_db(transaction=True)
def test_two_batches_at_once_of_one_users_tabs_share_one_seek():
    a, b = create_guest(), create_guest()
    results = at_once([lambda: pairing.arrive_many([(a, "quick", QUICK, True)]),
                        lambda: pairing.arrive_many([(a, "quick", QUICK, True)])])
    assert not any(isinstance(result, Exception) for result in results), results
    assert Seek.objects.get(user=a).sockets == 2
    pairing.arrive_many([(b, "quick", QUICK, True)])
    assert Pairing.objects.count() == 1 and {*_seated()} == {a.pk, b.pk}


@pytest.mark.django_db(transaction=True)
def test_a_cancel_racing_a_batch_leaves_zero_or_one_game():
    outcomes = set()
    for _round in range(10):
        a, b, c = create_guest(), create_guest(), create_guest()
        pairing.arrive(a, "quick", QUICK)
        cancelled, answers = at_once([lambda: pairing.cancel(a),
                                       lambda: pairing.arrive_many([(b, "quick", QUICK, True),
                                                                    (c, "quick", "reversi", True)])])
        assert not isinstance(answers, Exception), answers
        games = Game.objects.of_player(a).count()
        assert games <= 1
        made = answers[0][1]
        if cancelled is None:  # the cancel went first: no game for a, b waits
            assert games == 0 and made is None and not Seek.objects.filter(user=a).exists()
            assert Seek.objects.get(user=b).status == "waiting"
            outcomes.add("cancelled")
        else:  # the batch went first: the game stands and the cancel reports it
            assert games == 1 and made is not None and cancelled.game_id == made.game_id
            outcomes.add("paired")
        Seek.objects.all().delete()
    assert outcomes


def test_a_pass_limited_to_n_pairs_makes_the_first_n_of_the_whole_pairing():
    from collections import namedtuple

    row = namedtuple("row", "id user_id rating queued_at")
    now = timezone.now()
    seeks = [row(i, i, 1500 + (i * 37) % 200, now - timedelta(seconds=i % 30)) for i in range(400)]
    whole = pairing.ranked_pairs(seeks, now, set())
    assert pairing.ranked_pairs(seeks, now, set(), limit=50) == whole[:50]


@pytest.mark.django_db
def test_a_heartbeat_tells_a_socket_that_missed_its_paired_event():
    a, b = create_guest(), create_guest()
    now = timezone.now()
    assert pairing.heartbeat(a.pk, now) is None  # no seek
    pairing.arrive(a, "quick", QUICK, now=now)
    assert pairing.heartbeat(a.pk, now) is None  # waiting
    _seek, made = pairing.arrive(b, "quick", QUICK, now=now)
    event = pairing.heartbeat(a.pk, now + timedelta(seconds=15))
    assert event == {"type": "paired", "game_id": made.game_id, "url": f"/r/{made.room_code}/", "rated": False}
    assert Seek.objects.get(user=a).seen_at == now + timedelta(seconds=15)
    from caro.games.finish import finish

    finish(Game.objects.get(pk=made.game_id), winner="", termination=Game.Termination.ABORT)
    assert pairing.heartbeat(a.pk, now) is None  # that game is over: nothing to tell


@pytest.mark.django_db(transaction=True)
def test_two_players_waiting_paired_by_a_batch_are_told_by_their_seek_groups():
    """A batch takes as many waiting partners as it has arrivals, oldest first; with two waiting
    and two arriving, the two waiting meet each other. No socket of the batch is theirs, so the
    game is announced to both seek groups (it once reached nobody: 9 of 1,000 games in
    bench/pairing.py until the heartbeat's safety net, 15-25 s later)."""
    now = timezone.now()
    w1, w2 = create_guest(), create_guest()
    pairing.arrive(w1, "quick", QUICK, now=now - timedelta(seconds=9))
    pairing.arrive(w2, "quick", QUICK, now=now - timedelta(seconds=8))
    # They met; make it as if their looks had passed each other over: both waiting, live.
    Pairing.objects.all().delete()
    Seek.objects.filter(user__in=(w1, w2)).update(status="waiting", game=None, sockets=1, seen_at=now)
    a, b = create_guest(), create_guest()

    async def batch_heard_by_the_waiting():
        layer = get_channel_layer()
        channels = {}
        for user in (w1, w2):
            channels[user.pk] = await layer.new_channel()
            await layer.group_add(pairing.seek_group(user.pk), channels[user.pk])
        answers = await sync_to_async(pairing.arrive_many)(
            [(a, "quick", QUICK, True), (b, "quick", QUICK, True)], now=now)
        heard = {user_id: await asyncio.wait_for(layer.receive(channel), 30) for user_id, channel in channels.items()}
        return answers, heard

    answers, heard = async_to_sync(batch_heard_by_the_waiting)()
    games = {(p.host_id, p.guest_id): p.game_id for p in Pairing.objects.all()}
    assert games.keys() == {(w1.pk, w2.pk), (a.pk, b.pk)}
    assert {answer[1].game_id for answer in answers} == {games[(a.pk, b.pk)]}
    for user in (w1, w2):
        event = heard[user.pk]["event"]
        assert event["type"] == "paired" and event["game_id"] == games[(w1.pk, w2.pk)]


@pytest.mark.django_db
@pytest.mark.parametrize("choice", ["caro-²", "caro-¹⁵", "caro-①⑤", "caro-١٥", "caro-１５"])
def test_a_choice_with_digits_int_refuses_is_bad_and_the_rest_of_the_batch_still_pairs(choice):
    # str.isdigit() takes superscript and circled digits, which int() refuses: the whole batch failed
    a, b, c = create_guest(), create_guest(), create_guest()
    answers = pairing.arrive_many([(a, "quick", "caro-15-blocked", True), (c, "quick", choice, True),
                                   (b, "quick", "caro-15-blocked", True)])
    assert isinstance(answers[1], SeekError) and answers[1].code == "bad_choice"
    assert answers[0][1] is not None or answers[2][1] is not None  # a and b met
    assert not Seek.objects.filter(user=c).exists()
