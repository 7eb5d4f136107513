"""The live tables' hot reads compiled to SQL once (``piattaforma.compiledquery``).

``tablerow.lock`` (the first statement of every table write), ``selectors.seat_rows`` and the
owner's read of its row run on every row action, and Django's SQL compiler on every call would cost
the Daphne processes more CPU than the database round trips. They compile once per database and
give the same objects as the plain querysets.
"""

import gc
from unittest import mock

import pytest
from django.db import connection, transaction
from django.db.models.sql.compiler import SQLCompiler
from django.test.utils import CaptureQueriesContext

from lobby import door
from lobby.actions import hands, tablerow
from lobby.errors import TableClosed
from lobby.models import Hand, Seat, TableRuntime
from lobby.runtime import owner as owner_module
from lobby.selectors import seat_rows
from piattaforma import siteops
from piattaforma.actions import preferences_of
from piattaforma.compiledquery import CompiledQuery
from piattaforma.models import GameSwitch
from tests.lobby.factories import poker_table, scopa_table
from tests.lobby.helpers import seat_players
from tests.wallet.factories import funded_player
from wallet import selectors as wallet_selectors
from wallet.models import Account, AccountKind
from wallet.selectors import table_credits_get

pytestmark = pytest.mark.django_db


def tables():
    poker, scopa = poker_table(seats=3), scopa_table()
    seat_players(poker, [funded_player() for _ in range(3)])
    seat_players(scopa, [funded_player() for _ in range(2)])
    door.table_start_hand(table_id=poker.pk)
    return poker, scopa


def fields(obj):
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


class counting_compiler:
    """Count Django's SQL compilations of queries with ``select_related`` (the reads here; the
    test's own plain reads, and the journal's read in ``_lock``, have none), or of ``model``."""

    def __init__(self, model=None):
        self.model = model

    def __enter__(self):
        self.call_count = 0
        original = SQLCompiler.as_sql

        def as_sql(compiler, *args, **kwargs):
            if compiler.query.model is self.model if self.model else compiler.query.select_related:
                self.call_count += 1
            return original(compiler, *args, **kwargs)

        self.patch = mock.patch.object(SQLCompiler, "as_sql", as_sql)
        self.patch.start()
        return self

    def __exit__(self, *exc):
        self.patch.stop()


def test_the_lock_gives_the_row_and_its_table_as_the_orm_does_and_compiles_once():
    poker, scopa = tables()
    with transaction.atomic():
        tablerow.lock(poker.pk)  # compiled here at the latest
    with counting_compiler() as compiled:
        for table in (poker, scopa, poker):
            with transaction.atomic():
                rt = tablerow.lock(table.pk)
                plain = TableRuntime.objects.select_for_update().select_related("table").get(pk=table.pk)
            assert fields(rt) == fields(plain)
            assert fields(rt.table) == fields(plain.table)
            assert "table" in rt._state.fields_cache  # the table came with the row (no second query)
    # the plain .get() with its table compiled three times, the lock not once (before: six)
    assert compiled.call_count == 3


def test_the_lock_of_a_closed_table_refuses_as_before():
    poker, _ = tables()
    with transaction.atomic():
        tablerow.lock(poker.pk)
    with pytest.raises(TableClosed), transaction.atomic():
        tablerow.lock(poker.pk + 1000)


def test_seat_rows_and_the_owners_row_read_as_the_orm_does_and_compile_once():
    poker, scopa = tables()
    seat_rows(poker.pk), owner_module._READ_ROW(poker.pk)
    with counting_compiler() as compiled:
        for table in (poker, scopa):
            seats = seat_rows(table.pk)
            assert [fields(s) for s in seats] == [
                fields(s) for s in Seat.objects.filter(table=table).order_by("number")
            ]
            nicknames = Seat.objects.filter(table=table).order_by("number").values_list("user__nickname")
            assert [(s.user.nickname,) for s in seats] == list(nicknames)
            assert all("user" in s._state.fields_cache for s in seats)
            (rt,) = owner_module._READ_ROW(table.pk)
            assert fields(rt) == fields(TableRuntime.objects.get(pk=table.pk))
            hand = Hand.objects.filter(table=table, number=rt.hand_no).values_list("pk", flat=True).first()
            assert rt.hand_pk == hand and (table is scopa or hand is not None)
    assert compiled.call_count == 0
    assert owner_module._READ_ROW(poker.pk + 1000) == []


def test_the_deals_seats_and_the_table_credits_read_as_the_orm_does_and_compile_once(monkeypatch):
    # the credits' shapes compiled so far in this process (another test's one-seat table): none
    monkeypatch.setattr(wallet_selectors._TABLE_CREDITS, "compiled", {})
    poker, scopa = tables()
    tables_seen = [(t, list(Seat.objects.filter(table=t).order_by("number"))) for t in (poker, scopa)]
    refs = {t.pk: [s.session_ref for s in seats] for t, seats in tables_seen}
    plain = {
        t.pk: {
            a.ref: a.balance
            for a in Account.objects.filter(
                kind=AccountKind.TABLE_CREDIT, ref__in=[f"table:{r}" for r in refs[t.pk]]
            )
        }
        for t, _ in tables_seen
    }
    for t, _ in tables_seen:  # the first of each shape (3 and 2 seats) compiles
        hands._seats_to_deal(t), table_credits_get(table_session_refs=refs[t.pk])
    with counting_compiler() as compiled, counting_compiler(Account) as credits_compiled:
        for table, seats in tables_seen:
            dealt = hands._seats_to_deal(table)
            assert [fields(s) for s in dealt] == [fields(s) for s in seats]
            assert [s.dealt_here for s in dealt] == [table is poker] * len(seats)  # poker dealt once
            assert all("user" in s._state.fields_cache for s in dealt)
            credits = table_credits_get(table_session_refs=refs[table.pk])
            assert credits == {r: plain[table.pk][f"table:{r}"] for r in refs[table.pk]}
            assert credits == dict.fromkeys(refs[table.pk], 10000) or table is poker
        assert table_credits_get(table_session_refs=[]) == {}
        assert table_credits_get(table_session_refs=["nobody"]) == {"nobody": 0}  # a third shape: 1 ref
    assert compiled.call_count == 0
    assert credits_compiled.call_count == 1  # the one-ref shape only


def test_parameters_that_are_not_the_sqls_are_refused_at_the_first_compilation():
    query = CompiledQuery(lambda n: Seat.objects.filter(number=n, table_id=n + 1), lambda n: (n,))
    with pytest.raises(ValueError, match="parameters"):
        query(1)


def test_the_queryset_is_built_once_a_shape_and_each_call_reads_its_own_rows():
    poker, scopa = tables()
    built = []

    def build(table_id):
        built.append(table_id)
        return Seat.objects.filter(table_id=table_id).order_by("number")

    query = CompiledQuery(build, lambda table_id: (int(table_id),))
    for table in (poker, scopa, poker, scopa):
        assert [s.pk for s in query(table.pk)] == list(
            Seat.objects.filter(table=table).order_by("number").values_list("pk", flat=True)
        )
    assert built == [poker.pk]  # built and compiled at the first call; then cloned
    assert query.compilations == 1
    assert query(10**9) == []


def deal_reads_called(table):
    """What the deal's own reads give for this table (the calls ``_deal`` makes)."""
    rt = TableRuntime.objects.select_related("table").get(pk=table.pk)
    seats = hands._seats_to_deal(table)
    refs = [s.session_ref for s in seats]
    return (
        siteops.game_enabled(table.game, table.realm),
        [fields(s) for s in seats],
        [s.dealt_here for s in seats],
        table_credits_get(table_session_refs=refs, realm=rt.table.realm),
        preferences_of(user_ids=[s.user_id for s in seats], game=table.game),
    )


def test_a_deals_reads_go_with_the_lock_and_give_what_they_give_alone():
    poker, scopa = tables()
    GameSwitch.objects.update_or_create(game="scopa", defaults={"money_enabled": False})
    for table in (poker, scopa):
        alone = deal_reads_called(table)
        rt = TableRuntime.objects.select_related("table").get(pk=table.pk)
        seats = list(Seat.objects.filter(table=table).order_by("number"))
        reads = hands.deal_reads(rt, seats)
        with CaptureQueriesContext(connection) as ctx, transaction.atomic(), tablerow.lock_with(reads):
            tablerow.lock(table.pk)
            ahead = deal_reads_called(table)
        assert ahead == alone
        sent = [q["sql"] for q in ctx.captured_queries]
        tables_read = (
            '"piattaforma_gameswitch"',
            '"lobby_seat"',
            '"wallet_account"',
            '"piattaforma_gamepreference"',
        )
        alone_reads = [sql for sql in sent if sql.startswith("SELECT") and "FOR UPDATE" not in sql]
        if connection.vendor == "postgresql":
            # the four reads went in the lock's query string (one round trip), none on its own
            (carrier,) = [sql for sql in sent if "FOR UPDATE" in sql]
            assert all(name in carrier for name in tables_read), carrier
            assert not [sql for sql in alone_reads if any(f"FROM {name}" in sql for name in tables_read)]
        else:  # SQLite: each read on its own, as without the block
            assert all(any(f"FROM {name}" in sql for sql in alone_reads) for name in tables_read)
    assert alone[0] is False  # (scopa switched off: the switch's read came along too)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="several statements in one query: PostgreSQL")
def test_a_read_ahead_with_other_arguments_is_not_taken_and_none_outlives_its_block():
    poker, _ = tables()
    seats = list(Seat.objects.filter(table=poker).order_by("number"))
    rt = TableRuntime.objects.select_related("table").get(pk=poker.pk)
    refs = [s.session_ref for s in seats]
    with transaction.atomic():
        with tablerow.lock_with(hands.deal_reads(rt, seats)):
            tablerow.lock(poker.pk)
            # a seat's credit moved after the batch: a call for other seats reads the database
            Account.objects.filter(ref=f"table:{refs[0]}").update(balance=1234)
            with CaptureQueriesContext(connection) as ctx:
                two = table_credits_get(table_session_refs=refs[:2], realm=rt.table.realm)
            assert two[refs[0]] == 1234 and len(ctx.captured_queries) == 1
            with CaptureQueriesContext(connection) as ctx:
                taken = table_credits_get(table_session_refs=refs, realm=rt.table.realm)
            assert len(ctx.captured_queries) == 0  # the rows read with the lock
            assert taken[refs[0]] != 1234  # (as they were then: what the deal would have read)
        with CaptureQueriesContext(connection) as ctx:  # out of the block: read again
            fresh = table_credits_get(table_session_refs=refs, realm=rt.table.realm)
        assert fresh[refs[0]] == 1234 and len(ctx.captured_queries) == 1


def test_a_compiled_read_is_freed_on_return_not_left_to_the_collector():
    """A call's compiler and its clone of the query go when the call returns: nothing of theirs
    waits in a reference cycle for the collector, whose passes hold every table of the process."""
    poker, _ = tables()
    seats = list(Seat.objects.filter(table=poker).order_by("number"))
    rt = TableRuntime.objects.select_related("table").get(pk=poker.pk)
    refs = [s.session_ref for s in seats]

    def reads():
        seat_rows(poker.pk)
        hands._seats_to_deal(poker)
        with transaction.atomic(), tablerow.lock_with(hands.deal_reads(rt, seats)):
            tablerow.lock(poker.pk)  # (the reads along with it, on PostgreSQL)
            table_credits_get(table_session_refs=refs, realm=rt.table.realm)

    reads()  # compiled
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            reads()
        left = gc.collect()
    finally:
        gc.enable()
    assert left == 0
