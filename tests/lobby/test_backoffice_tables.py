"""Back office of tables: configuration checks, hand replay, cancelling a hand (RULINGS G7)."""

import json

import pytest

from games import registry
from games.rng import SeededRng
from lobby import door
from lobby.admin import MONEY_FIELDS, TableForm
from lobby.errors import HandInProgress, InvalidSeat, NoHandInProgress, NotAllowed
from lobby.models import Hand, Table
from lobby.replay import replay_hand
from piattaforma import roles
from piattaforma.models import AuditLog
from tests.lobby.factories import poker_table
from tests.lobby.helpers import credit, everyone_puts_the_invito, play_hand_randomly, runtime, seat_players
from tests.piattaforma.factories import UserFactory, sign_in
from tests.wallet.factories import funded_player
from wallet.forms import format_percent_input
from wallet.money import format_eur_input

pytestmark = pytest.mark.django_db


def test_replay_rebuilds_the_hand_exactly():
    users = [funded_player() for _ in range(3)]
    table = poker_table()
    seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    everyone_puts_the_invito(table)
    play_hand_randomly(table, SeededRng(11))
    hand = Hand.objects.get(table=table, number=1)
    states = replay_hand(hand)
    assert len(states) == hand.steps.count() + 1
    assert states[-1] == runtime(table).state
    assert hand.deck_log and states[-1]["deck_log"] == hand.deck_log  # every deck order is recorded


def test_cancelling_a_hand_returns_every_bet_of_it():
    users = [funded_player() for _ in range(3)]
    table = poker_table()
    seats = seat_players(table, users)
    before = {s.pk: credit(s) for s in seats}
    door.table_start_hand(table_id=table.pk)
    staff = UserFactory(role=roles.STAFF)
    # every player puts the invito, so there is money in the pot; then a technical fault
    everyone_puts_the_invito(table)
    engine = registry.get("poker5")
    assert not engine.is_over(runtime(table).state)
    assert door.table_cancel_hand(table_id=table.pk, actor=staff, reason="Server di gioco in errore")
    assert {s.pk: credit(s) for s in seats} == before
    hand = Hand.objects.get(table=table, number=1)
    assert hand.cancelled and hand.outcome is None
    assert runtime(table).state is None
    assert AuditLog.objects.filter(action="table.cancel_hand", actor=staff).exists()
    with pytest.raises(NoHandInProgress):
        door.table_cancel_hand(table_id=table.pk, actor=staff, reason="di nuovo")


def test_staff_configure_tables_and_bad_config_is_refused(client):
    sign_in(client, UserFactory(role=roles.STAFF))
    form = {
        "name": "Tavolo Napoli",
        "game": "poker5",
        "config": '{"limit": "XX"}',
        "realm": "real",
        "seats": 6,
        "min_players": 2,
        "min_buy_in": "10,00",  # euro in the back office
        "max_buy_in": "500,00",
        "rake_bp": "5",  # a percentage in the back office
        "rake_cap": "3,00",
        "posta_partita": 0,
        "posta_unitaria": 0,
        "perdita_massima": 0,
        "tempo_giocata": 30,
        "tempo_partita": 0,
        "time_bank": 60,
        "observers_allowed": "on",
        "is_open": "on",
        "seat_rows-TOTAL_FORMS": 0,
        "seat_rows-INITIAL_FORMS": 0,
    }
    response = client.post("/backoffice/lobby/table/add/", form)
    assert response.status_code == 200 and not Table.objects.exists()
    response = client.post("/backoffice/lobby/table/add/", {**form, "max_buy_in": "1.500,00", "config": "{}"})
    assert response.status_code == 200 and not Table.objects.exists()  # above the € 1.000 legal cap
    response = client.post("/backoffice/lobby/table/add/", {**form, "rake_bp": "15", "config": "{}"})
    assert response.status_code == 200 and not Table.objects.exists()  # rake above 10 %
    response = client.post("/backoffice/lobby/table/add/", {**form, "config": '{"limit": "NL"}'})
    assert response.status_code == 302, response.content.decode()[:2000]
    table = Table.objects.get()
    assert table.config["limit"] == "NL" and table.runtime.version == 0
    assert (table.min_buy_in, table.max_buy_in, table.rake_cap) == (1_000, 50_000, 300)  # stored in cents
    assert table.rake_bp == 500  # and basis points


def test_staff_replays_a_hand_in_the_back_office(client):
    users = [funded_player() for _ in range(2)]
    table = poker_table()
    seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    play_hand_randomly(table, SeededRng(8))
    hand = Hand.objects.get(table=table)
    sign_in(client, UserFactory(role=roles.STAFF))
    listing = client.get("/backoffice/lobby/hand/")
    assert f"/backoffice/lobby/hand/{hand.pk}/replay/" in listing.content.decode()
    page = client.get(f"/backoffice/lobby/hand/{hand.pk}/replay/?step=1")
    assert page.status_code == 200 and 'data-step="1"' in page.content.decode()
    assert 'data-viewer="staff"' in page.content.decode()
    sign_in(client, UserFactory(role=roles.MODERATORS))
    assert client.get(f"/backoffice/lobby/hand/{hand.pk}/replay/").status_code == 403


def test_the_table_form_lists_each_games_own_options_and_refuses_others(client):
    sign_in(client, UserFactory(role=roles.STAFF))
    page = client.get("/backoffice/lobby/table/add/").content.decode()
    for name in registry.names():
        engine = registry.get(name)
        assert engine.title.replace("'", "&#x27;") in page
        for option in engine.config_options():
            assert (
                f"<code>{option.key}</code> {option.label}".replace("'", "&#x27;").replace('"', "&quot;")
                in page
            )
    scala40 = page[page.index("<summary>Scala 40</summary>") :].split("</details>")[0]
    assert "<code>carte_scoperte</code>" in scala40 and "&quot;coppie&quot; (A coppie)" in scala40
    burraco = page[page.index("<summary>Burraco</summary>") :].split("</details>")[0]
    assert "carte_viste" not in burraco  # Burraco has no carte viste
    form = {
        "name": "Tavolo Torino",
        "game": "burraco",
        "config": '{"carte_viste": true}',
        "realm": "real",
        "seats": 4,
        "min_players": 2,
        "min_buy_in": 0,
        "max_buy_in": 0,
        "rake_bp": 0,
        "rake_cap": 0,
        "posta_partita": "1,00",
        "posta_unitaria": "0,10",
        "perdita_massima": "10,00",
        "tempo_giocata": 30,
        "tempo_partita": 600,
        "time_bank": 0,
        "is_open": "on",
        "seat_rows-TOTAL_FORMS": 0,
        "seat_rows-INITIAL_FORMS": 0,
    }
    response = client.post("/backoffice/lobby/table/add/", form)
    assert response.status_code == 200 and not Table.objects.exists()
    assert "Opzione non prevista per questo gioco" in response.content.decode()
    response = client.post("/backoffice/lobby/table/add/", {**form, "config": '{"format": "coppie"}'})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Table.objects.get().config["format"] == "coppie"


def _change_form(table: Table, **changes) -> dict:
    # the invitations and the password (typed, never shown) are posted only when a test changes them
    form = {
        name: getattr(table, name)
        for name in TableForm.Meta.fields
        if name not in ("invited", "entry_password")
    }
    form.update(changes)
    form["config"] = json.dumps(form["config"])
    for name in MONEY_FIELDS:  # typed in euro in the back office
        form[name] = format_eur_input(form[name])
    form["rake_bp"] = format_percent_input(form["rake_bp"])  # and the rake as a percentage
    for flag in ("observers_allowed", "is_open"):
        if form[flag]:
            form[flag] = "on"
        else:
            del form[flag]
    return {**form, "seat_rows-TOTAL_FORMS": 0, "seat_rows-INITIAL_FORMS": 0}


def test_staff_change_a_tables_play_only_between_hands(client):
    """The back office goes through table_update: mid-hand it refuses what shapes play, changing nothing."""
    users = [funded_player() for _ in range(3)]
    table = poker_table()
    seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    everyone_puts_the_invito(table)
    staff = UserFactory(role=roles.STAFF)
    sign_in(client, staff)
    url = f"/backoffice/lobby/table/{table.pk}/change/"
    state_before, version_before = runtime(table).state, runtime(table).version
    for change in ({"rake_bp": 200}, {"config": {**table.config, "limit": "NL"}}, {"seats": 5}):
        response = client.post(url, _change_form(table, **change))
        assert response.status_code == 200 and "Una mano è in corso" in response.content.decode(), change
        table.refresh_from_db()
        assert getattr(table, next(iter(change))) != next(iter(change.values()))
    assert (runtime(table).state, runtime(table).version) == (state_before, version_before)
    # what does not shape the hand is changed at once; the rest once the hand is over
    assert client.post(url, _change_form(table, name="Roma 2", max_buy_in=60_000)).status_code == 302
    table.refresh_from_db()
    assert (table.name, table.max_buy_in) == ("Roma 2", 60_000)
    play_hand_randomly(table, SeededRng(3))
    assert client.post(url, _change_form(table, rake_bp=200)).status_code == 302
    table.refresh_from_db()
    assert table.rake_bp == 200
    assert AuditLog.objects.filter(action="table.update", actor=staff).count() == 2


def test_table_update_refuses_what_would_strand_the_seated_players():
    users = [funded_player() for _ in range(3)]
    table = poker_table()
    seat_players(table, users)
    before = (table.realm, table.game, table.seats, table.time_bank)
    staff = UserFactory(role=roles.STAFF)
    with pytest.raises(NotAllowed):
        door.table_update(table_id=table.pk, actor=staff, realm="play")
    with pytest.raises(NotAllowed):
        door.table_update(table_id=table.pk, actor=staff, game="scopa", seats=2)
    with pytest.raises(InvalidSeat):
        door.table_update(table_id=table.pk, actor=staff, seats=2)
    door.table_start_hand(table_id=table.pk)
    with pytest.raises(HandInProgress):
        door.table_update(table_id=table.pk, actor=staff, time_bank=table.time_bank + 10)
    table.refresh_from_db()
    assert (table.realm, table.game, table.seats, table.time_bank) == before
    assert not AuditLog.objects.filter(action="table.update").exists()


def test_the_home_page_counts_the_lobbys_open_tables_through_the_core_hook(client):
    users = [funded_player() for _ in range(3)]
    seat_players(poker_table(), users[:2])
    seat_players(poker_table(name="Chiuso"), users[2:])
    Table.objects.filter(name="Chiuso").update(is_open=False)
    poker_table(name="Vuoto")
    page = client.get("/")
    assert (page.context["open_tables"], page.context["seated_players"]) == (2, 2)
    poker = next(g for g in page.context["games"] if g["game"] == "poker5")
    assert (poker["tables"], poker["seated"]) == (2, 2)
    assert all(g["tables"] == g["seated"] == 0 for g in page.context["games"] if g["game"] != "poker5")
