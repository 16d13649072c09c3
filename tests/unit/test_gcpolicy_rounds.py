"""When the web process's collector policy freezes (caro.gcpolicy, issue 27): as soon as enough
objects were made since the last freeze, not only every FREEZE_EVERY_S, so that the freeze's own
collection stays short with thousands of sockets open; and never while a page is in flight unless
it waited FORCE_AFTER_S."""

import gc

import pytest

from caro import gcpolicy


@pytest.fixture
def rounds(monkeypatch):
    """The rounds `_freeze_round` schedules, as (delay s, waited, last) tuples, and the freezes it
    made (forced or not), with the process's collector left as it was."""
    scheduled, frozen = [], []
    monkeypatch.setattr(gcpolicy, "freeze", lambda forced=False: frozen.append(forced))

    def call_later(delay, function, *args):
        assert function is gcpolicy._freeze_round
        scheduled.append((delay, *args[1:]))

    return scheduled, frozen, call_later


def test_a_freeze_is_due_after_the_period_or_once_enough_objects_were_made():
    assert not gcpolicy.freeze_due(0.5, 0)
    assert not gcpolicy.freeze_due(gcpolicy.FREEZE_EVERY_S - 0.1, gcpolicy.FREEZE_AT_YOUNG - 1)
    assert gcpolicy.freeze_due(gcpolicy.FREEZE_EVERY_S, 0)
    assert gcpolicy.freeze_due(0.5, gcpolicy.FREEZE_AT_YOUNG)
    # The bound keeps a freeze's collection short: far below a young collection's threshold.
    assert gcpolicy.FREEZE_AT_YOUNG < gcpolicy.THRESHOLDS[0]


def test_many_new_objects_freeze_before_the_period_ends(rounds, monkeypatch):
    scheduled, frozen, call_later = rounds
    now = gcpolicy.time.monotonic()
    monkeypatch.setattr(gcpolicy, "young_objects", lambda: 0)
    gcpolicy._freeze_round(call_later, 0.0, now)
    assert frozen == [] and scheduled[-1] == (gcpolicy.CHECK_MAX_S, 0.0, now)  # nothing made: looks again late

    monkeypatch.setattr(gcpolicy, "young_objects", lambda: gcpolicy.FREEZE_AT_YOUNG)
    monkeypatch.setattr(gcpolicy, "settled", lambda: True)
    gcpolicy._freeze_round(call_later, 0.0, now)
    assert frozen == [False]  # 0 s after the last freeze, because of the objects
    delay, waited, last = scheduled[-1]
    assert (delay, waited) == (gcpolicy.CHECK_EVERY_S, 0.0) and last >= now


def test_the_next_look_comes_sooner_the_faster_objects_are_made_and_never_overshoots_much():
    """A look walks the collector's lists, so they are looked at rarely when few objects are made
    (ten looks a second were 10 % of the web process's busy time at 50 games), and often enough
    that the objects made between two looks never take the count far past FREEZE_AT_YOUNG."""
    assert gcpolicy.CHECK_MAX_S >= 0.5 > gcpolicy.CHECK_EVERY_S
    assert gcpolicy.next_look_s(0, 0.0) == gcpolicy.CHECK_MAX_S
    assert gcpolicy.next_look_s(2_000, 1_000.0) == gcpolicy.CHECK_MAX_S  # 50 games: a few thousand a second
    for young in (0, 2_000, 5_000, 9_000, 9_999):
        for per_s in (10.0, 1_000.0, 8_000.0, 20_000.0, 100_000.0):
            delay = gcpolicy.next_look_s(young, per_s)
            assert gcpolicy.CHECK_EVERY_S <= delay <= gcpolicy.CHECK_MAX_S
            # at this rate the next look finds at most the bound, or what one shortest wait adds
            assert young + per_s * delay <= max(gcpolicy.FREEZE_AT_YOUNG, young + per_s * gcpolicy.CHECK_EVERY_S)


def test_the_looks_follow_the_rate_objects_are_made_at(rounds, monkeypatch):
    scheduled, frozen, call_later = rounds
    clock = [1_000.0]
    monkeypatch.setattr(gcpolicy.time, "monotonic", lambda: clock[0])
    counts = iter([100, 100 + 4_000])  # then 8,000 objects a second
    monkeypatch.setattr(gcpolicy, "young_objects", lambda: next(counts))
    last = clock[0] - 0.5
    gcpolicy._look.update(at=last, young=0)
    gcpolicy._freeze_round(call_later, 0.0, last)
    assert scheduled[-1][0] == gcpolicy.CHECK_MAX_S  # 200 a second: plenty of room
    clock[0] += 0.5
    gcpolicy._freeze_round(call_later, 0.0, last)
    assert frozen == [] and scheduled[-1][0] == pytest.approx((gcpolicy.FREEZE_AT_YOUNG - 4_100) / 8_000 / 2)


def test_a_due_freeze_waits_for_a_settled_moment_then_is_forced(rounds, monkeypatch):
    scheduled, frozen, call_later = rounds
    monkeypatch.setattr(gcpolicy, "young_objects", lambda: gcpolicy.FREEZE_AT_YOUNG)
    monkeypatch.setattr(gcpolicy, "settled", lambda: False)
    gcpolicy._freeze_round(call_later, 0.0, gcpolicy.time.monotonic())
    assert frozen == [] and scheduled[-1][:2] == (gcpolicy.SETTLE_RETRY_S, gcpolicy.SETTLE_RETRY_S)
    # Still waiting for a settled moment: the look is not skipped as "not due" (waited > 0).
    monkeypatch.setattr(gcpolicy, "young_objects", lambda: 0)
    gcpolicy._freeze_round(call_later, gcpolicy.SETTLE_RETRY_S, scheduled[-1][2])
    assert frozen == []
    gcpolicy._freeze_round(call_later, gcpolicy.FORCE_AFTER_S, scheduled[-1][2])
    assert frozen == [True]


def test_young_objects_counts_what_is_not_frozen():
    gc.collect()
    gc.freeze()
    try:
        before = gcpolicy.young_objects()
        kept = [[] for _ in range(500)]  # 500 new containers, alive
        assert gcpolicy.young_objects() >= before + 500
        gc.freeze()
        assert gcpolicy.young_objects() < 500  # frozen: out of the next collection's walk
        del kept
    finally:
        gc.unfreeze()
