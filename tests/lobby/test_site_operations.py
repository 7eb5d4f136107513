"""The lobby's side of site operations: game switches, tables from templates, fault cancellation."""

import pytest

from games import registry
from games.rng import SeededRng
from lobby import door
from lobby.errors import TableClosed
from lobby.models import TABLE_SETTINGS_FIELDS, Hand, Seat, Table, TableTemplate
from piattaforma import roles, siteops
from piattaforma.models import AuditLog, GameNotice
from tests.lobby.factories import SCOPA_STAKES, poker_table, scopa_table
from tests.lobby.helpers import (
    credit,
    everyone_puts_the_invito,
    house_rake,
    key,
    money_total,
    play_hand_randomly,
    runtime,
    seat_players,
)
from tests.piattaforma.factories import UserFactory, sign_in
from tests.wallet.factories import funded_player
from wallet import selectors as wallet_selectors
from wallet.models import Account

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff():
    return UserFactory(role=roles.STAFF)


def start_scopa_match(table, users):
    door.table_ready(table_id=table.pk, user=users[0])
    assert door.table_ready(table_id=table.pk, user=users[1])


def switch(game, staff, *, money=False, training=True, until=None):
    return siteops.game_switch_set(
        game=game,
        money_enabled=money,
        training_enabled=training,
        actor=staff,
        reason="Manutenzione del gioco",
        reactivate_at=until,
    )


def ledger_sum() -> int:
    """Every account's balance summed: zero in a double-entry ledger whatever happened."""
    return sum(Account.objects.values_list("balance", flat=True))


def test_a_scopa_table_closes_after_its_match_when_scopa_is_switched_off(staff):
    users = [funded_player() for _ in range(2)]
    table = scopa_table()
    seats = seat_players(table, users, buy_in=5_000)
    start_scopa_match(table, users)
    other = poker_table()  # another game is not touched
    before = money_total(users, seats) + house_rake()
    switch("scopa", staff)
    table.refresh_from_db()
    assert not table.is_open
    assert Seat.objects.filter(table=table).count() == 2  # the match goes on
    assert runtime(table).state is not None
    play_hand_randomly(table, SeededRng(4), max_steps=3000)
    assert Hand.objects.get(table=table, number=1).outcome is not None  # the match settled normally
    assert not door.table_start_hand(table_id=table.pk)  # no other match: everyone stands up
    assert not Seat.objects.filter(table=table).exists()
    assert all(credit(s) == 0 for s in seats)
    assert money_total(users, []) + house_rake() == before  # the credits went back to the conti
    assert ledger_sum() == 0
    other.refresh_from_db()
    assert other.is_open
    assert AuditLog.objects.filter(action="game.switch", actor=staff).exists()
    notice = GameNotice.objects.get()  # players are told, in the lobby and at the tables
    assert notice.text.startswith("Scopa: gioco disattivato nella sezione money") and notice.sent_at
    assert AuditLog.objects.filter(action="table.close", target_id=str(table.pk)).exists()


def test_a_table_between_hands_closes_at_once_and_new_players_are_refused(staff):
    users = [funded_player() for _ in range(2)]
    table = scopa_table()
    seat_players(table, users, buy_in=5_000)
    newcomer = funded_player()
    switch("scopa", staff)
    assert not Seat.objects.filter(table=table).exists()
    assert wallet_selectors.balance_get(user=users[0])["cash"] == 100_000
    with pytest.raises(TableClosed) as refused:
        door.table_sit(table_id=table.pk, user=newcomer, seat_no=1, buy_in=5_000, idempotency_key=key())
    assert refused.value.code == "table_closed"
    assert wallet_selectors.balance_get(user=newcomer)["cash"] == 100_000  # nothing moved


def test_no_new_table_of_a_game_switched_off_and_training_may_stay_on(staff):
    template = TableTemplate.objects.create(
        name="Scopa 2", table_name="Scopa", game="scopa", seats=2, min_buy_in=2_000, max_buy_in=10_000,
        config={"mode": "punti", "target": 11}, **SCOPA_STAKES,
    )  # fmt: skip
    training = TableTemplate.objects.create(
        name="Scopa allenamento", table_name="Scopa prova", game="scopa", realm="play", seats=2,
        min_buy_in=2_000, max_buy_in=10_000, config={"mode": "punti", "target": 11},
        **{**SCOPA_STAKES, "rake_bp": 0},  # gettoni pay no rake
    )  # fmt: skip
    practice = door.table_open_from_template(template_id=training.pk, actor=staff)
    switch("scopa", staff, money=False, training=True)
    with pytest.raises(siteops.GameDisabled) as refused:
        door.table_open_from_template(template_id=template.pk, actor=staff)
    assert refused.value.code == "game_disabled"
    assert not Table.objects.filter(realm="real").exists()
    practice.refresh_from_db()
    assert practice.is_open  # the training section stays open
    assert door.table_open_from_template(template_id=training.pk, actor=staff).is_open
    switch("scopa", staff, money=True, training=True)
    table = door.table_open_from_template(template_id=template.pk, actor=staff)
    assert table.is_open and table.name == "Scopa 1"


def test_a_template_opens_tables_with_its_settings():
    template = TableTemplate.objects.create(
        name="Burraco 4", table_name="Burraco", game="burraco", seats=4, min_buy_in=2_000, max_buy_in=10_000,
        posta_partita=100, posta_unitaria=10, perdita_massima=2_000, rake_bp=500, tempo_partita=600,
        config={"format": "coppie"},
    )  # fmt: skip
    first = door.table_open_from_template(template_id=template.pk, actor=None)
    second = door.table_open_from_template(template_id=template.pk, actor=None)
    assert (first.name, second.name) == ("Burraco 1", "Burraco 2")
    for name in TABLE_SETTINGS_FIELDS:
        if name != "config":
            assert getattr(first, name) == getattr(template, name), name
    assert first.config == registry.get("burraco").validate_config({"format": "coppie"})
    assert runtime(first).version == 0


def test_fault_cancellation_preview_then_refunds_with_the_ledger_zero_sum(staff):
    users = [funded_player() for _ in range(3)]
    table = poker_table()
    seats = seat_players(table, users, buy_in=10_000)
    door.table_start_hand(table_id=table.pk)
    everyone_puts_the_invito(table)
    play_hand_randomly(table, SeededRng(5))  # a first hand stands
    door.table_start_hand(table_id=table.pk)
    everyone_puts_the_invito(table)  # the second hand is interrupted with chips in the pot
    after_first = {s.session_ref: credit(s) for s in seats}
    pot = wallet_selectors.table_pot_get(pot_ref=f"table-{table.pk}")
    rake = house_rake()
    preview = door.table_session_cancel_preview(table_id=table.pk)
    assert preview["hand_running"]
    by_nick = {r["nickname"]: r for r in preview["rows"]}
    for seat in seats:
        row = by_nick[seat.user.nickname]
        assert row["credit"] == after_first[seat.session_ref]
    assert preview["total"] == sum(after_first.values()) + pot - preview["pot_left"]
    assert Seat.objects.filter(table=table).count() == 3  # the preview wrote nothing
    conti = {u.pk: wallet_selectors.balance_get(user=u)["cash"] for u in users}
    out = door.table_session_cancel(table_id=table.pk, actor=staff, reason="Server di gioco guasto")
    assert not Seat.objects.filter(table=table).exists()
    table.refresh_from_db()
    assert not table.is_open
    for row in preview["rows"]:  # each got what the preview said
        user = next(u for u in users if u.nickname == row["nickname"])
        assert wallet_selectors.balance_get(user=user)["cash"] == conti[user.pk] + row["total"]
        assert out["paid"][row["nickname"]] == row["total"]
    assert house_rake() == rake  # the first hand's rake stands, nothing more
    assert ledger_sum() == 0
    assert Hand.objects.get(table=table, number=2).cancelled
    assert AuditLog.objects.filter(action="table.cancel_session", actor=staff).exists()
    with pytest.raises(TableClosed):
        door.table_session_cancel(table_id=table.pk, actor=staff, reason="x")  # no reason: refused


def test_the_back_office_previews_before_cancelling_and_only_staff_may(client, staff):
    users = [funded_player() for _ in range(2)]
    table = scopa_table()
    seat_players(table, users, buy_in=5_000)
    start_scopa_match(table, users)
    data = {"action": "cancel_session", "_selected_action": [table.pk]}
    sign_in(client, UserFactory(role=roles.MODERATORS))
    assert client.post("/backoffice/lobby/table/", data).status_code in (302, 403)
    assert Seat.objects.filter(table=table).count() == 2
    sign_in(client, staff)
    page = client.post("/backoffice/lobby/table/", data)
    html = page.content.decode()
    assert page.status_code == 200 and "Torna sul conto" in html
    assert users[0].nickname in html and "50,00" in html
    assert Seat.objects.filter(table=table).count() == 2  # previewed only
    done = client.post("/backoffice/lobby/table/", {**data, "reason": "Guasto del server", "confirm": "1"})
    assert done.status_code == 302
    assert not Seat.objects.filter(table=table).exists()
    assert wallet_selectors.balance_get(user=users[0])["cash"] == 100_000


def test_the_demo_has_a_table_of_every_game_opened_from_a_template():
    import io

    from django.core.management import call_command

    call_command("seed_demo", stdout=io.StringIO())
    call_command("seed_demo", stdout=io.StringIO())  # twice: nothing doubles
    assert set(Table.objects.values_list("game", flat=True)) == set(registry.names())
    assert len(registry.names()) == 13
    opened = AuditLog.objects.filter(action="table.open_from_template")
    assert opened.count() == Table.objects.count()
    for entry in opened:
        table = Table.objects.get(pk=entry.target_id)
        template = TableTemplate.objects.get(pk=entry.data["template"])
        assert all(getattr(table, f) == getattr(template, f) for f in TABLE_SETTINGS_FIELDS if f != "config")
