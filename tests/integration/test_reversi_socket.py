"""Reversi over the room websocket (Channels' WebsocketCommunicator, real Redis and PostgreSQL): the
`state` frame and each `move` event carry the side to move's legal squares, which the page marks,
and what each would flip (the page's two-tap preview);
a move frame forged for a square that flips nothing (the page never sends one) is refused with the
translated `no_flip` error and changes nothing."""

import uuid

import pytest
from asgiref.sync import sync_to_async

from accounts.guests import create_guest
from caro.engine.reversi import Board
from tests.integration.helpers import legacy_room, session_cookie
from tests.integration.test_room_consumer import _connect, _expect_error, _snapshot

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
def _cleanup(close_db_connections):
    yield


@sync_to_async
def _local_reversi():
    user = create_guest()
    return legacy_room(user, "local", "reversi"), session_cookie(user)


async def test_the_legal_squares_come_with_the_state_and_each_move_and_a_forged_one_is_refused():
    room, cookie = await _local_reversi()
    comm, state = await _connect(room, cookie, lang="vi")
    try:
        board = Board()
        assert sorted(state["legal"]) == sorted(board.legal_moves()) == ["c4", "d3", "e6", "f5"]
        # What each legal square would flip, for the page's two-tap preview.
        assert state["legal_flips"] == {sq: board.flips(sq) for sq in board.legal_moves()}
        assert state["legal_flips"]["d3"] == ["d4"]
        before = await _snapshot(room)
        await comm.send_json_to({"type": "move", "square": "a1", "ply": 1, "id": str(uuid.uuid4())})
        error = await _expect_error(comm, "no_flip")
        assert "không lật" in error["message"]  # translated (the socket's language is Vietnamese)
        assert await _snapshot(room) == before
        await comm.send_json_to({"type": "move", "square": "d3", "ply": 1, "id": str(uuid.uuid4())})
        move = await comm.receive_json_from(timeout=5)
        board.play("d3")
        assert move["type"] == "move" and move["square"] == "d3" and move["turn"] == "O"
        assert sorted(move["legal"]) == sorted(board.legal_moves())
        assert move["legal_flips"] == {sq: board.flips(sq) for sq in board.legal_moves()}
    finally:
        await comm.disconnect()
