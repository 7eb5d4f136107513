"""Site operations in headless Chromium: staff open a Burraco table from a template, publish a notice a
player sees live, and switch Scopa off (an open Scopa table closes after its match; a scheduled Scopa
tournament is refunded). Screenshots at 1366×900 and 390×844 in /tmp/shots-op (or SHOTS_DIR).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.rng import SeededRng
from lobby import actions as lobby_actions
from lobby.models import Seat, Table, TableTemplate
from piattaforma import roles
from tests.e2e.live import login
from tests.lobby.factories import scopa_table
from tests.lobby.helpers import play_hand_randomly, seat_players
from tests.piattaforma.factories import PASSWORD, UserFactory
from tests.tournaments.conftest import ACCEPT
from tests.tournaments.factories import make_tournament
from tests.wallet.factories import funded_player
from tournaments import actions as tournament_actions
from tournaments.models import Registration, Tournament
from wallet import selectors as wallet_selectors

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
SHOTS = Path(os.environ.get("SHOTS_DIR", "/tmp/shots-op"))  # noqa: S108  (the screenshots the brief asks for)


def seed() -> dict:
    staff = UserFactory(role=roles.STAFF, nickname="capo")
    TableTemplate.objects.create(
        name="Burraco a coppie · € 1,00", table_name="Burraco", game="burraco", seats=4, min_buy_in=2_000,
        max_buy_in=20_000, posta_partita=100, posta_unitaria=10, perdita_massima=2_000, rake_bp=500,
        tempo_partita=900, config={"format": "coppie"},
    )  # fmt: skip
    players = [funded_player(nickname=n) for n in ("gino", "pina")]
    table = scopa_table(name="Scopa Napoli")
    seat_players(table, players, buy_in=5_000)
    lobby_actions.table_ready(table_id=table.pk, user=players[0])
    assert lobby_actions.table_ready(table_id=table.pk, user=players[1])  # the match is running
    tournament = make_tournament(staff, name="Scopa della sera")
    for p in players:
        tournament_actions.registration_create(
            tournament_id=tournament.pk, user=p, idempotency_key=f"t-{p.pk}"
        )
    for reg in Registration.objects.filter(tournament=tournament):
        tournament_actions.registration_authorise(registration_id=reg.pk, authorizer=ACCEPT)
    return {"table": table.pk, "tournament": tournament.pk, "players": [p.pk for p in players]}


def cash_of(user_ids: list[int]) -> list[int]:
    from piattaforma.models import User

    return [wallet_selectors.balance_get(user=User.objects.get(pk=pk))["cash"] for pk in user_ids]


def no_horizontal_scroll(page) -> bool:
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    return scroll <= inner


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_staff_open_a_burraco_table_publish_a_notice_and_switch_scopa_off(asgi_live, new_context, viewport):
    SHOTS.mkdir(parents=True, exist_ok=True)
    ids = asgi_live.run(seed)
    size = VIEWPORTS[viewport]
    shot = lambda page, name: page.screenshot(path=str(SHOTS / f"{viewport}-{name}.png"), full_page=True)  # noqa: E731

    player = new_context().new_page()
    player.set_viewport_size(size)
    login(player, asgi_live.url, "gino", PASSWORD)
    player.goto(asgi_live.url + "/lobby/")
    player.wait_for_selector("[data-site-notices][data-live=open]", state="attached")  # listening

    staff = new_context().new_page()
    staff.set_viewport_size(size)
    login(staff, asgi_live.url, "capo", PASSWORD)

    # 1. a Burraco table from its template
    staff.goto(asgi_live.url + "/backoffice/lobby/tabletemplate/")
    staff.check("input[name=_selected_action]")
    staff.select_option("select[name=action]", "open_tables_action")
    staff.click("button[name=index]")
    staff.fill("input[name=count]", "1")
    shot(staff, "1-open-from-template")
    staff.click("[data-testid=open-tables-confirm]")
    staff.wait_for_selector("text=Aperto il tavolo Burraco 1")
    shot(staff, "2-table-opened")
    burraco = asgi_live.run(lambda: Table.objects.get(name="Burraco 1"))
    assert (burraco.game, burraco.seats, burraco.perdita_massima, burraco.is_open) == (
        "burraco",
        4,
        2_000,
        True,
    )

    # the player's lobby reloads itself when its list of tables changes (lobby.js polls every 3 s):
    # it shows the Burraco table once reloaded, and nothing reloads it again before step 3
    player.wait_for_selector("text=Burraco 1", timeout=15_000)
    player.wait_for_selector("[data-site-notices][data-live=open]", state="attached")  # listening

    # 2. a game notice, seen live by the player already on the lobby
    staff.goto(asgi_live.url + "/backoffice/piattaforma/gamenotice/add/")
    staff.fill(
        "textarea[name=text], input[name=text]", "Stasera alle 23:00 breve manutenzione dei tavoli di Scopa."
    )
    staff.select_option("select[name=level]", "warning")
    staff.fill("input[name=ends_at_0]", "31/12/2099")
    staff.fill("input[name=ends_at_1]", "23:00:00")
    staff.click("input[name=_save]")
    player.wait_for_selector("[data-testid=site-notice] >> text=breve manutenzione", timeout=15_000)
    assert no_horizontal_scroll(player)
    shot(player, "3-player-sees-notice-live")

    # 3. Scopa off: preview, then confirm
    before = asgi_live.run(cash_of, ids["players"])
    staff.goto(asgi_live.url + "/backoffice/piattaforma/gameswitch/")
    shot(staff, "4-game-switches")
    staff.click("[data-testid=switch-scopa]")
    staff.fill("textarea[name=reason]", "Aggiornamento del motore di Scopa")
    staff.click("[data-testid=switch-preview-button]")
    preview = staff.locator("[data-testid=switch-preview]").inner_text()
    assert "Scopa Napoli" in preview and "alla fine della mano in corso" in preview
    assert "Scopa della sera" in preview and "2 iscritti rimborsati" in preview
    shot(staff, "5-switch-preview")
    staff.click("[data-testid=switch-confirm]")
    staff.wait_for_selector("[data-game=scopa] .ops-off")
    shot(staff, "6-scopa-off")

    state = asgi_live.run(lambda: Tournament.objects.get(pk=ids["tournament"]).state)
    assert state == Tournament.State.CANCELLED
    cost = asgi_live.run(lambda: Tournament.objects.get(pk=ids["tournament"]).cost)
    assert asgi_live.run(cash_of, ids["players"]) == [b + cost for b in before]  # refunded in full
    table = asgi_live.run(lambda: Table.objects.get(pk=ids["table"]))
    assert not table.is_open
    assert asgi_live.run(lambda: Seat.objects.filter(table_id=ids["table"]).count()) == 2  # the match goes on

    # the match ends; at the next start the table stands everyone up with the credit
    asgi_live.run(play_hand_randomly, table, SeededRng(4), max_steps=3000)
    assert not asgi_live.run(lobby_actions.table_start_hand, table_id=ids["table"])
    assert asgi_live.run(lambda: Seat.objects.filter(table_id=ids["table"]).count()) == 0
    # the player's lobby, left open, reloads itself when its list of tables changes (lobby.js polls
    # every 3 s); a goto here would race that reload
    expect(player.locator("text=Scopa Napoli")).to_have_count(0, timeout=15_000)
    player.wait_for_load_state()
    assert player.locator("text=Burraco 1").count() >= 1
    assert no_horizontal_scroll(player)
    shot(player, "7-lobby-after-switch")

    # 4. the reports: the refunds and the deposits of this session are in them, with their charts
    staff.goto(asgi_live.url + "/backoffice/rapporti/?giorni=7")
    assert staff.locator("svg.chart").count() == 6  # every report with data (no activity sample yet)
    payments = staff.locator("[data-testid=report-pagamenti]")
    payments.locator("summary").click()
    assert "€ 2.000,00" in payments.inner_text()  # the two players' deposits of € 1.000,00
    shot(staff, "8-reports")
