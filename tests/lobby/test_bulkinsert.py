"""``lobby.bulkinsert.insert`` writes the rows ``bulk_create`` writes (the columns as stored, not
only as read back), on SQLite and on PostgreSQL, and sets the generated keys in order."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.db import DatabaseError, IntegrityError, connection, models, transaction
from django.utils import timezone

from lobby import bulkinsert
from lobby.models import Hand, HandPlayer, Seat, Table, TableRuntime
from tests.piattaforma.factories import UserFactory

pytestmark = pytest.mark.django_db

# JSON as the engines write it, and the corners of its encoding: non-ASCII, floats, nested nulls,
# a JSON string and an empty object at the top, integers past 2**53
STATE: dict[str, Any] = {
    "deck": ["1c", "7d"],
    "names": ["Nicolò", "Zoë 🂡"],
    "ratio": 0.1,
    "big": 2**60,
    "none": None,
    "nested": {"a": [1, 2.5, True, False, None, {}], "": "vuoto"},
}
ROME = ZoneInfo("Europe/Rome")


def _stored(model: type[models.Model], pk: Any, skip: set[str]) -> dict[str, Any]:
    """The row's columns as the database returns them to a plain cursor (no field conversion)."""
    columns = [f.column for f in model._meta.concrete_fields if f.column not in skip]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(quote(c) for c in columns)} FROM {quote(model._meta.db_table)} "  # noqa: S608  # names from the model
            f"WHERE {quote(model._meta.pk.column)} = %s",
            [pk],
        )
        return dict(zip(columns, cursor.fetchone(), strict=True))


def _read(model: type[models.Model], pk: Any, skip: set[str]) -> dict[str, Any]:
    """The row as the ORM reads it back."""
    obj = model.objects.get(pk=pk)
    return {f.attname: getattr(obj, f.attname) for f in model._meta.concrete_fields if f.column not in skip}


def _same_rows(model: type[models.Model], made: Any, built: Any, skip: set[str]) -> None:
    assert _stored(model, made.pk, skip) == _stored(model, built.pk, skip)
    assert _read(model, made.pk, skip) == _read(model, built.pk, skip)


def _table(name: str, **extra: Any) -> Table:
    fields = {
        "game": "scopa",
        "seats": 2,
        "min_buy_in": 0,
        "max_buy_in": 0,
        "config": {"mode": "smazzate", "deals": 1, "titolo": "Città"},
        "realm": Table.Realm.REAL,
        "tournament_id": 2**40,
        "created_at": datetime(2026, 3, 29, 2, 30, 0, 123456, tzinfo=ROME),  # the night the clocks go forward
    }
    return Table(name=name, **{**fields, **extra})


def test_every_lobby_row_of_a_turn_is_stored_as_bulk_create_stores_it():
    users = [UserFactory() for _ in range(4)]
    made, built = Table.objects.bulk_create([_table("orm")])[0], _table("fast")
    assert bulkinsert.insert(Table, [built]) == [built]
    assert built.pk is not None and not built._state.adding and built._state.db == "default"
    _same_rows(Table, made, built, {"id", "name"})

    now = timezone.now()
    runtimes = []
    for table in (made, built):
        rt = TableRuntime(table=table, hand_no=1, state=STATE, dealt=[1, 2], steps=0, clocks={"0": 600_000})
        rt.game, rt.version, rt.deadline, rt.timer_at = "scopa", 1, now + timedelta(seconds=30), now
        runtimes.append(rt)
    before = timezone.now()
    TableRuntime.objects.bulk_create(runtimes[:1])
    bulkinsert.insert(TableRuntime, runtimes[1:])
    _same_rows(TableRuntime, runtimes[0], runtimes[1], {"table_id", "updated_at"})
    assert TableRuntime.objects.get(pk=built.pk).updated_at >= before  # auto_now, as bulk_create sets it

    def seats(table: Table, ref: str) -> list[Seat]:
        return [
            Seat(table=table, number=n, user=u, session_ref=f"{ref}{n}") for n, u in enumerate(users[:2], 1)
        ]

    orm_seats, fast_seats = Seat.objects.bulk_create(seats(made, "o")), seats(built, "f")
    bulkinsert.insert(Seat, fast_seats)
    for a, b in zip(orm_seats, fast_seats, strict=True):
        _same_rows(Seat, a, b, {"id", "table_id", "session_ref", "joined_at"})

    def hand(table: Table) -> Hand:
        specs = [
            {"seat": n, "user_id": u.pk, "nickname": u.nickname, "prefs": {}} for n, u in enumerate(users, 1)
        ]
        return Hand(
            table=table, number=1, game="scopa", config=table.config, seats=specs, start_draws=[3, 0, 39],
            deck_log=[], carry_in=None, started_at=now,
        )  # fmt: skip

    orm_hand, fast_hand = Hand.objects.bulk_create([hand(made)])[0], hand(built)
    bulkinsert.insert(Hand, [fast_hand])
    _same_rows(Hand, orm_hand, fast_hand, {"id", "table_id"})
    assert _stored(Hand, fast_hand.pk, set())["outcome"] is None  # None is SQL NULL, not JSON null

    orm_players = HandPlayer.objects.bulk_create([HandPlayer(hand=orm_hand, user=u, seat=1) for u in users])
    fast_players = bulkinsert.insert(HandPlayer, [HandPlayer(hand=fast_hand, user=u, seat=1) for u in users])
    for a, b in zip(orm_players, fast_players, strict=True):
        _same_rows(HandPlayer, a, b, {"id", "hand_id"})


def test_the_keys_come_back_in_order_across_batches(monkeypatch):
    monkeypatch.setattr(connection.ops, "bulk_batch_size", lambda fields, objs: 2)  # SQLite: three statements
    tables = bulkinsert.insert(Table, [_table(f"T{i}") for i in range(5)])
    assert len({t.pk for t in tables}) == 5
    assert [Table.objects.get(pk=t.pk).name for t in tables] == [f"T{i}" for i in range(5)]
    assert bulkinsert.insert(Table, []) == []


def test_a_value_the_column_refuses_is_refused_as_bulk_create_refuses_it():
    for write in (lambda rows: bulkinsert.insert(Table, rows), Table.objects.bulk_create):
        with pytest.raises(IntegrityError), transaction.atomic():
            write([_table("x", seats=-1)])  # the positive column's check
    assert not Table.objects.filter(name="x").exists()
    with pytest.raises(ValueError, match="only new rows"):
        bulkinsert.insert(Table, [Table.objects.bulk_create([_table("y")])[0]])


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's single-statement INSERT")
def test_the_statement_of_a_tables_columns_is_built_once(monkeypatch):
    """Each batch built its INSERT anew, each column's type through ``Field.db_type`` (a new field
    for every foreign key): the journal's batches, one a step, now reuse the statement."""
    bulkinsert.insert(Table, [_table("first")])  # built here at the latest
    calls = []
    original = models.Field.db_type
    counted = lambda self, conn: calls.append(self) or original(self, conn)  # noqa: E731
    monkeypatch.setattr(models.Field, "db_type", counted)
    tables = bulkinsert.insert(Table, [_table("second"), _table("third")])
    assert [Table.objects.get(pk=t.pk).name for t in tables] == ["second", "third"]
    assert calls == []


def test_a_stored_row_is_updated_as_save_updates_it():
    """``update`` on two runtime rows, ``save`` on two others with the same values: the same columns
    (JSON corners, times, ``auto_now``'s column moved on); the ORM reads them back alike."""
    rows = []
    for name in ("saved", "updated"):
        rt = TableRuntime.objects.create(table=bulkinsert.insert(Table, [_table(name)])[0])
        rt.version, rt.state, rt.dealt, rt.steps, rt.hand_no = 7, STATE, [1, 2], 3, 2
        rt.deadline = datetime(2026, 3, 29, 3, 30, 0, 5, tzinfo=ROME)
        rt.clocks, rt.carry = {"1": 1500}, None
        rows.append(rt)
    saved, updated = rows
    before = TableRuntime.objects.get(pk=updated.pk).updated_at
    saved.save()
    bulkinsert.update(updated)
    _same_rows(TableRuntime, saved, updated, skip={"table_id", "updated_at"})
    assert TableRuntime.objects.get(pk=updated.pk).updated_at > before
    assert _read(TableRuntime, updated.pk, skip={"table_id", "updated_at"})["state"] == STATE


def test_an_update_of_a_row_that_is_gone_is_refused():
    rt = TableRuntime.objects.create(table=bulkinsert.insert(Table, [_table("gone")])[0])
    TableRuntime.objects.filter(pk=rt.pk).delete()
    with pytest.raises(DatabaseError, match="no row to update"):
        bulkinsert.update(rt)
