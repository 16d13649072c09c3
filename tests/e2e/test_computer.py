"""Real Chromium against the computer: Daphne, PostgreSQL, Redis and real Celery workers.

The computer's moves are played by the worker's `bots` queue, as in the computer rooms that the
server still hosts (games opened before the on-device pages, and records continued by URL). The
home page's "Play the computer" plays on the device: tests/e2e/test_device_games.py.
"""

import json
from pathlib import Path

import pytest
from django.test import Client

from accounts.guests import create_guest
from caro.engine.caro import PRESETS, Board
from caro.games import services, snapshot, tasks
from caro.games.models import Game, Move
from caro.rooms import services as rooms

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.e2e]

VCF_POSITIONS = Path(__file__).resolve().parents[1] / "unit" / "bots" / "vcf_positions.json"


def _login(context, live_server_url, user):
    """Give the browser context the session of `user` (a guest made by the test)."""
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server_url}])


def _open_as(context, live_server_url, user, room):
    """A page of `room` opened by `user`, connected, with one-tap moves."""
    _login(context, live_server_url, user)
    page = context.new_page()
    page.goto(f"{live_server_url}/r/{room.code}/")
    page.wait_for_selector('.room[data-connected="1"]')
    return page


def _prepared_bot_room(level, x_stones, o_stones, human="X"):
    """A computer room whose game already holds these stones (X first, alternating), checked by
    replaying them through the engine. Returns (room, user)."""
    assert len(x_stones) - len(o_stones) in (0, 1)
    user = create_guest()
    room = rooms.create_room(user, kind="computer", bot_level=level, side=human)
    game = Game.objects.get(pk=room.current_game_id)
    order = [sq for pair in zip(x_stones, o_stones + [None]) for sq in pair if sq]
    board = Board(PRESETS["caro-vn"].rules)
    for ply, square in enumerate(order, start=1):
        assert board.play(square) is None, f"the prepared position ends the game at {square}"
        Move.objects.create(game=game, ply=ply, side="X" if ply % 2 else "O", square=square)
    Game.objects.filter(pk=game.pk).update(ply=len(order), to_move="XO"[len(order) % 2],
                                           event_version=game.event_version + 1)
    game.refresh_from_db()
    if game.turn == game.bot_side:
        tasks.schedule_bot_move(game.pk, game.event_version)
    return room, user


def _stones(page):
    return page.eval_on_selector_all('.sq[data-stone="X"], .sq[data-stone="O"]', "els => els.length")


def _wait_stones(page, count, timeout=20_000):
    page.wait_for_function(
        f"document.querySelectorAll('.sq[data-stone=X], .sq[data-stone=O]').length === {count}", timeout=timeout
    )


def test_a_player_beats_easy_with_an_open_four(browser, live_server_url, celery_worker_process):
    room, user = _prepared_bot_room("easy", ["H8", "I8", "J8"], ["A1", "C1", "A3"])
    ctx = browser.new_context(locale="vi-VN")
    try:
        page = _open_as(ctx, live_server_url, user, room)
        assert "Máy (Dễ)" in page.inner_text('[data-role="name-O"]')
        page.locator('[data-role="confirm-toggle"]').set_checked(False)
        page.click('.sq[data-sq="K8"]')  # an open four: G8 and L8
        _wait_stones(page, 8)
        free = [sq for sq in ("G8", "L8") if page.get_attribute(f'.sq[data-sq="{sq}"]', "data-stone") == ""]
        page.click(f'.sq[data-sq="{free[0]}"]')
        page.wait_for_selector('[data-role="status"][data-result="finished"]')
        assert "Bạn thắng" in page.inner_text('[data-role="status"]')
        assert len(page.eval_on_selector_all(".sq.win", "els => els")) == 5
    finally:
        ctx.close()


def _hard_vcf_position():
    """A position from the bots' VCF set with the attacker recoloured as O (the computer) and,
    if needed, far-away filler stones so that O is to move after X's last stone."""
    case = next(c for c in json.loads(VCF_POSITIONS.read_text()) if c["preset"] == "caro-vn" and c["depth"] >= 5)
    attacker, defender = list(case["x"]), list(case["o"])  # X attacks in the file
    fillers = iter(["A15", "O1", "A1", "O15", "B15", "N1", "B1", "N15"])
    while len(defender) < len(attacker) + 1:
        defender.append(next(fillers))
    while len(attacker) + 1 < len(defender):
        attacker.append(next(fillers))
    return defender, attacker  # (X stones = the human, O stones = the computer)


def test_hard_wins_a_prepared_position_with_a_forced_sequence(browser, live_server_url, celery_worker_process):
    x_stones, o_stones = _hard_vcf_position()
    room, user = _prepared_bot_room("hard", x_stones, o_stones)
    ctx = browser.new_context(locale="en-US")
    try:
        page = _open_as(ctx, live_server_url, user, room)
        page.locator('[data-role="confirm-toggle"]').set_checked(False)
        expected = len(x_stones) + len(o_stones) + 1  # the computer moves first here
        for _ in range(12):
            # Wait for the computer's move (or the end), then block its four.
            page.wait_for_function(
                f"document.querySelectorAll('.sq[data-stone=X], .sq[data-stone=O]').length >= {expected}"
                " || document.querySelector('[data-role=status]').dataset.result",
                timeout=20_000,
            )
            if page.get_attribute('[data-role="status"]', "data-result"):
                break
            board = snapshot.board_for(Game.objects.get(pk=room.current_game_id))
            if board.outcome is not None:  # the computer's last move won; the page shows it next
                page.wait_for_selector('[data-role="status"][data-result="finished"]')
                break
            threats = [sq for sq in board.legal_moves() if _o_would_win(board, sq)]
            page.click(f'.sq[data-sq="{(threats or board.legal_moves())[0]}"]')
            expected += 2
        assert page.get_attribute('[data-role="status"]', "data-result") == "finished"
        assert "You lost" in page.inner_text('[data-role="status"]')
        game = Game.objects.get(pk=room.current_game_id)
        assert game.winner == "O" and game.termination == "five"
    finally:
        ctx.close()


def _o_would_win(board, square):
    """Whether O playing `square` now would win (X's block square)."""
    test = Board.from_stones(board.rules, x=[s for s, v in board.stones().items() if v == "X"],
                             o=[s for s, v in board.stones().items() if v == "O"], to_move="O")
    outcome = test.play(square)
    return outcome is not None and outcome.winner == "O"
