"""The record of every counted connection of a seated player: who ended it (rules 004, "Rimborsi
per disconnessioni": only the platform's interruptions are refunded), and the staff's list of them."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse
from django.utils import timezone

from lobby import door, sweeps
from lobby.actions.connections import ended_by
from lobby.models import ConnectionRecord, SeatSocket
from piattaforma import roles
from tests.lobby.factories import poker_table
from tests.lobby.helpers import seat_players
from tests.lobby.test_ws_table import connect, setup_table
from tests.piattaforma.factories import UserFactory, sign_in
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db(transaction=True)
EndedBy = ConnectionRecord.EndedBy


@pytest.mark.parametrize(
    ("code", "by"),
    [
        (1000, EndedBy.PLAYER),  # the page closed its socket ("Esci dal tavolo", a link)
        (1001, EndedBy.PLAYER),  # the window or tab closed
        (1006, EndedBy.NETWORK),  # cut with no closing handshake
        (4001, EndedBy.SERVER),  # the server's own close (session ended, exclusion)
    ],
)
async def test_a_closed_connection_is_recorded_with_who_ended_it(code, by):
    table, users, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    await ws.receive_json_from(timeout=5)
    record = await sync_to_async(ConnectionRecord.objects.get)(table=table, user=users[0])
    assert record.closed_at is None and record.ended_by == "" and record.hand_at_open == 1
    await ws.disconnect(code=code)
    await sync_to_async(record.refresh_from_db)()
    assert record.closed_at is not None and record.ended_by == by and record.close_code == code
    assert record.hand_at_close == 1 and record.seat_number == 1
    assert not await sync_to_async(SeatSocket.objects.filter(seat__table=table).exists)()


def test_connections_lost_with_their_server_process_are_the_platforms():
    table = poker_table()
    users = [funded_player() for _ in range(2)]
    seat_players(table, users)
    lost = door.seat_connected(table_id=table.pk, user=users[0], process="daphne-a")
    kept = door.seat_connected(table_id=table.pk, user=users[1], process="daphne-b")
    SeatSocket.objects.filter(pk=lost).update(
        seen_at=timezone.now() - timedelta(seconds=10 * door.presence_ttl())
    )
    assert sweeps.presence_sweep() == 1
    gone, alive = ConnectionRecord.objects.get(socket_id=lost), ConnectionRecord.objects.get(socket_id=kept)
    assert gone.ended_by == EndedBy.PLATFORM and gone.closed_at is not None and gone.close_code is None
    assert alive.closed_at is None and alive.ended_by == ""
    # the late close of a swept socket (its process came back) does not rewrite the record
    door.seat_disconnected(table_id=table.pk, socket_id=lost, code=1000)
    gone.refresh_from_db()
    assert gone.ended_by == EndedBy.PLATFORM


def test_an_application_that_ended_with_no_close_is_the_platforms():
    assert ended_by(None) == EndedBy.PLATFORM


def test_staff_see_the_connections_and_how_many_were_cut_together(client):
    table = poker_table()
    players = [UserFactory(nickname=f"Giocatore{n}") for n in range(4)]
    at = timezone.now()
    rows = [
        ConnectionRecord.objects.create(
            table=table,
            user=u,
            seat_number=n + 1,
            socket_id=9000 + n,
            process="daphne-a",
            closed_at=at + timedelta(seconds=n),
            ended_by=EndedBy.NETWORK,
            close_code=1006,
        )
        for n, u in enumerate(players[:3])
    ]
    ConnectionRecord.objects.create(
        table=table,
        user=players[3],
        seat_number=4,
        socket_id=9010,
        process="daphne-b",
        closed_at=at + timedelta(minutes=5),
        ended_by=EndedBy.NETWORK,
        close_code=1006,
    )
    url = reverse("backoffice:lobby_connectionrecord_changelist")
    for role in (roles.PLAYERS, roles.MODERATORS):
        sign_in(client, UserFactory(role=role))
        assert client.get(url).status_code in (302, 403)
    sign_in(client, UserFactory(role=roles.STAFF))
    response = client.get(url)
    assert response.status_code == 200
    listed = {r.pk: r.together or 0 for r in response.context["cl"].result_list}
    assert [listed[r.pk] for r in rows] == [2, 2, 2]  # three of daphne-a within a minute
    assert "Interrotte insieme" in response.content.decode()
    assert client.get(f"{url}?ended_by=network&q=Giocatore3").context["cl"].result_count == 1
    change = reverse("backoffice:lobby_connectionrecord_change", args=[rows[0].pk])
    assert client.post(change, {"ended_by": "platform"}).status_code == 403  # evidence, never edited
    rows[0].refresh_from_db()
    assert rows[0].ended_by == EndedBy.NETWORK


def test_a_beat_refreshes_only_its_own_processes_sockets_it_names_in_one_statement():
    """``presence_beat``: the rows of the process's sockets it still holds are seen now; another
    process's rows, and a row of its own it no longer names, keep their time. One statement
    whatever the number of sockets (on PostgreSQL the ids are one array parameter)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    table = poker_table(seats=3)
    users = [funded_player() for _ in range(3)]
    seat_players(table, users)
    mine = door.seat_connected(table_id=table.pk, user=users[0], process="daphne-a")
    forgotten = door.seat_connected(table_id=table.pk, user=users[1], process="daphne-a")
    other = door.seat_connected(table_id=table.pk, user=users[2], process="daphne-b")
    old = timezone.now() - timedelta(seconds=30)
    SeatSocket.objects.update(seen_at=old)
    with CaptureQueriesContext(connection) as queries:
        # (ids of another process's row and of no row at all are named too: neither is touched)
        assert door.presence_beat(process="daphne-a", socket_ids=[mine, other, 10**9]) == 1
    assert len(queries.captured_queries) == 1
    seen = dict(SeatSocket.objects.values_list("pk", "seen_at"))
    assert seen[mine] > old and seen[forgotten] == old and seen[other] == old
    assert door.presence_beat(process="daphne-a", socket_ids=[]) == 0
