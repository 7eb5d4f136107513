"""Site hours, game notices over the wire and on the page, the back office of site operations."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.asgi import application
from lobby.models import Seat
from piattaforma import roles, siteops
from piattaforma.consumers import CLOSE_UNAUTHENTICATED
from piattaforma.models import AuditLog, GameNotice, GameSwitch, SiteHours
from tests.lobby.factories import poker_table, scopa_table
from tests.lobby.helpers import seat_players
from tests.piattaforma.factories import UserFactory, sign_in
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie
from tests.wallet.factories import funded_player

ROME = ZoneInfo("Europe/Rome")


def rome(hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, 10, hour, minute, tzinfo=ROME)


@pytest.fixture
def hours_on(settings, db):
    settings.SITE_HOURS_ENFORCED = True
    SiteHours.objects.get_or_create(pk=1)  # the migration's row (a transactional test may have emptied it)
    siteops.site_hours_forget()
    yield siteops.site_hours()
    siteops.site_hours_forget()


@pytest.fixture
def frozen(monkeypatch):
    """Set the clock: ``frozen(rome(5, 31))``."""

    def at(moment: datetime) -> datetime:
        monkeypatch.setattr(timezone, "now", lambda: moment)
        return moment

    return at


@pytest.mark.django_db
@pytest.mark.parametrize("row", [True, False], ids=["the migration's row", "no row"])
def test_reading_the_hours_never_writes(row):
    """A page's way in (the closing middleware) only reads the hours, even when this process's
    cached copy has just expired; without the row the rules' defaults apply, unsaved."""
    if row:
        SiteHours.objects.get_or_create(pk=1)  # the migration's (a transactional test may have emptied it)
    else:
        SiteHours.objects.all().delete()
    siteops.site_hours_forget()
    with CaptureQueriesContext(connection) as queries:
        hours = siteops.site_hours()
    siteops.site_hours_forget()
    assert hours.pk == 1 and (hours.closed_from.hour, hours.closed_from.minute) == (5, 30)
    assert [q["sql"] for q in queries.captured_queries if not q["sql"].upper().startswith("SELECT")] == []
    assert SiteHours.objects.exists() is row


@pytest.mark.parametrize(
    ("moment", "closed", "paused"),
    [
        (rome(3, 59), False, False),
        (rome(4, 0), False, True),
        (rome(5, 29), False, True),
        (rome(5, 30), True, True),
        (rome(5, 44), True, True),
        (rome(5, 45), False, False),
        (rome(12, 0), False, False),
    ],
)
def test_the_rules_hours(hours_on, moment, closed, paused):
    assert siteops.site_closed(moment) is closed
    assert siteops.registrations_paused(moment) is paused


def test_hours_are_configurable_and_may_span_midnight(hours_on):
    SiteHours.objects.filter(pk=hours_on.pk).update(closed_from="23:50", closed_until="00:10", warn_minutes=5)
    siteops.site_hours_forget()
    assert siteops.site_closed(rome(23, 55)) and siteops.site_closed(rome(0, 5))
    assert not siteops.site_closed(rome(5, 35))
    assert siteops.minutes_to_closing(rome(23, 46)) == 4
    assert siteops.minutes_to_closing(rome(23, 40)) is None


def test_hours_off_in_the_test_settings_unless_asked(db):
    siteops.site_hours_forget()
    assert not siteops.site_closed(rome(5, 35))


@pytest.mark.django_db
def test_during_the_closing_players_get_the_closing_page_and_staff_the_back_office(client, hours_on, frozen):
    player = UserFactory()
    frozen(rome(5, 35))
    sign_in(client, player)
    page = client.get("/lobby/")
    assert page.status_code == 503 and "pausa giornaliera" in page.content.decode()
    assert client.get("/backoffice/").status_code == 302  # a player: to the back office's login
    sign_in(client, UserFactory(role=roles.STAFF))
    assert client.get("/backoffice/").status_code == 200
    frozen(rome(5, 45))
    sign_in(client, player)
    assert client.get("/lobby/").status_code == 200


@pytest.mark.django_db
def test_at_the_closing_idle_tables_stand_everyone_up_and_no_hand_starts(hours_on, frozen):
    users = [funded_player() for _ in range(2)]
    idle = scopa_table()
    seat_players(idle, users[:1], buy_in=5_000)
    frozen(rome(5, 31))
    out = siteops.site_tick()
    assert out["closed"] == 1
    assert not Seat.objects.filter(table=idle).exists()
    other = poker_table()
    seat_players(other, users[1:], buy_in=5_000)  # a start attempt during the closing deals nothing
    from lobby import door

    assert not door.table_start_hand(table_id=other.pk)
    assert not Seat.objects.filter(table=other).exists()


async def _connect(user):
    cookie = await sync_to_async(session_cookie)(user)
    ws = WebsocketCommunicator(application, "/ws/avvisi/", headers=[ORIGIN, (b"cookie", cookie)])
    connected, _ = await ws.connect()
    assert connected
    return ws


@pytest.mark.django_db(transaction=True)
async def test_notices_and_closing_warnings_reach_connected_players_over_the_wire(settings):
    staff = await sync_to_async(UserFactory)(role=roles.STAFF)
    player = await sync_to_async(UserFactory)()
    ws = await _connect(player)
    await sync_to_async(siteops.notice_publish)(
        text="Manutenzione alle 23:00",
        ends_at=timezone.now() + timedelta(hours=1),
        actor=staff,
        level="warning",
    )
    got = await ws.receive_json_from(timeout=5)
    assert got["type"] == "notice" and got["kind"] == "notice" and got["text"] == "Manutenzione alle 23:00"
    assert got["level"] == "warning"
    # a notice that starts later is pushed by the tick once it starts, once
    later = await sync_to_async(siteops.notice_publish)(
        text="Nuovo torneo di Burraco",
        starts_at=timezone.now() + timedelta(minutes=5),
        ends_at=timezone.now() + timedelta(hours=1),
        actor=staff,
    )
    assert await ws.receive_nothing(timeout=0.3)
    await sync_to_async(siteops.site_tick)(now=timezone.now() + timedelta(minutes=6))
    got = await ws.receive_json_from(timeout=5)
    assert got["id"] == later.pk
    # before the closing, a warning with the minutes left
    settings.SITE_HOURS_ENFORCED = True
    siteops.site_hours_forget()
    await sync_to_async(siteops.site_tick)(now=rome(5, 20))
    got = await ws.receive_json_from(timeout=5)
    assert got["kind"] == "closing" and "tra 10 min" in got["text"]
    # a notice published while the page was away (reloading, reconnecting) comes when it connects,
    # with the others in force, oldest first; one not yet started does not
    await ws.disconnect()
    await sync_to_async(siteops.notice_publish)(
        text="Tavoli di Scopa chiusi", ends_at=timezone.now() + timedelta(hours=1), actor=staff
    )
    ws = await _connect(player)
    first, second = await ws.receive_json_from(timeout=5), await ws.receive_json_from(timeout=5)
    assert [first["text"], second["text"]] == ["Manutenzione alle 23:00", "Tavoli di Scopa chiusi"]
    assert first["type"] == "notice" and first["kind"] == "notice" and "ends_at" in first
    assert await ws.receive_nothing(timeout=0.3)
    await ws.disconnect()
    anonymous = WebsocketCommunicator(application, "/ws/avvisi/", headers=[ORIGIN])
    connected, code = await anonymous.connect()
    assert not connected and code == CLOSE_UNAUTHENTICATED


@pytest.mark.django_db
def test_notices_in_force_are_on_every_page_load(client):
    staff = UserFactory(role=roles.STAFF)
    now = timezone.now()
    siteops.notice_publish(text="Avviso in corso", ends_at=now + timedelta(hours=1), actor=staff)
    GameNotice.objects.create(
        text="Avviso scaduto", starts_at=now - timedelta(hours=2), ends_at=now - timedelta(hours=1)
    )
    GameNotice.objects.create(
        text="Avviso futuro", starts_at=now + timedelta(hours=1), ends_at=now + timedelta(hours=2)
    )
    for url in ("/", "/lobby/"):
        html = client.get(url).content.decode()
        assert "Avviso in corso" in html and "Avviso scaduto" not in html and "Avviso futuro" not in html
    sign_in(client, UserFactory())
    html = client.get("/lobby/").content.decode()
    assert 'data-ws="/ws/avvisi/"' in html and "Avviso in corso" in html


@pytest.mark.django_db
@pytest.mark.parametrize("role", [None, "anonymous", roles.PLAYERS, roles.MODERATORS])
def test_only_staff_run_site_operations(client, role):
    if role != "anonymous":
        user = UserFactory(role=role) if role else UserFactory(role=roles.STAFF)
        sign_in(client, user)
    pages = ("/backoffice/piattaforma/gameswitch/", "/backoffice/piattaforma/gameswitch/scopa/switch/",
             "/backoffice/piattaforma/gamenotice/add/", "/backoffice/piattaforma/sitehours/")  # fmt: skip
    post = client.post(
        "/backoffice/piattaforma/gameswitch/scopa/switch/",
        {"training_enabled": "on", "reason": "Manutenzione", "confirm": "1"},
    )
    if role is None:  # staff
        assert all(client.get(p, follow=True).status_code == 200 for p in pages)
        assert post.status_code == 302 and not GameSwitch.objects.get(game="scopa").money_enabled
    else:
        assert all(client.get(p).status_code in (302, 403) for p in pages)
        assert post.status_code in (302, 403) and not GameSwitch.objects.exists()
        assert not AuditLog.objects.filter(action="game.switch").exists()


@pytest.mark.django_db
def test_the_switch_page_previews_its_effects_before_confirming(client):
    staff = UserFactory(role=roles.STAFF)
    sign_in(client, staff)
    users = [funded_player() for _ in range(2)]
    table = scopa_table(name="Scopa Bari")
    seat_players(table, users, buy_in=5_000)
    url = "/backoffice/piattaforma/gameswitch/scopa/switch/"
    page = client.post(url, {"training_enabled": "on", "reason": "Manutenzione"})
    html = page.content.decode()
    assert page.status_code == 200 and "Scopa Bari" in html and "2 seduti" in html
    assert not GameSwitch.objects.exists()  # previewed only
    assert (
        client.post(url, {"training_enabled": "on", "reason": "Manutenzione", "confirm": "1"}).status_code
        == 302
    )
    listing = client.get("/backoffice/piattaforma/gameswitch/").content.decode()
    assert "disattivato: money" in listing


@pytest.mark.django_db
def test_the_switch_read_before_every_deal_reads_as_before_and_compiles_once():
    """``game_enabled`` runs before every deal of every table: its SQL is compiled once."""
    assert siteops.game_enabled("scopa") and siteops.game_enabled("scopa", "play")  # no row: on
    GameSwitch.objects.create(game="scopa", money_enabled=False, training_enabled=True)
    compiled = siteops._SWITCH.compilations
    assert not siteops.game_enabled("scopa") and siteops.game_enabled("scopa", "play")
    GameSwitch.objects.filter(game="scopa").update(money_enabled=True, training_enabled=False)
    assert siteops.game_enabled("scopa") and not siteops.game_enabled("scopa", "play")
    assert siteops.game_enabled("burraco")
    assert siteops._SWITCH.compilations == compiled
