"""The regulator's ticket of a cash table's buy-in and rebuy, as the player sees it (Chromium, on a
laptop and on a phone): the table's confirmation after he sits down names it, a rebuy from the
table's form names its own, and both are under their movements in the conto's Movimenti."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.live import STATIC_FILES_WARNING, login, open_table, sit_down
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

VIEWPORTS = {"laptop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
TICKET = re.compile(r"Biglietto AAMS n\. (ADM\d{16})")


def money_table():
    from tests.lobby.factories import scopa_table
    from tests.wallet.factories import funded_player

    return funded_player(50_000, nickname="Bruno"), scopa_table(name="Scopa Trieste")


def tickets_in_ledger() -> list[str]:
    from wallet.models import Transaction

    return sorted(t.data["ticket"] for t in Transaction.objects.filter(kind__in=["buy_in", "rebuy"]))


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_the_ticket_of_a_buy_in_and_a_rebuy(asgi_live, new_context, artifacts, device):
    bruno, table = asgi_live.run(money_table)
    page = new_context(viewport=VIEWPORTS[device]).new_page()
    login(page, asgi_live.url, bruno.nickname, PASSWORD)
    open_table(page, asgi_live.url, table.pk, seated=False)
    sit_down(page, 1, "30,00")
    confirmation = page.locator(".messages li").filter(has_text="Biglietto AAMS")
    expect(confirmation.first).to_be_visible()
    bought = TICKET.search(confirmation.first.inner_text()).group(1)
    page.screenshot(path=str(artifacts / f"cash-ticket-buy-in-{device}.png"), full_page=True)
    page.fill("form[action$='/ricarica/'] input[name=amount]", "10,00")
    with page.expect_navigation():
        page.click("form[action$='/ricarica/'] button[type=submit]")
    confirmation = page.locator(".messages li").filter(has_text="Credito al tavolo")
    rebought = TICKET.search(confirmation.first.inner_text()).group(1)
    assert sorted([bought, rebought]) == asgi_live.run(tickets_in_ledger)
    page.goto(f"{asgi_live.url}/conto/movimenti/")
    shown = page.locator("[data-testid=movement-ticket]").all_inner_texts()
    assert sorted(TICKET.search(text).group(1) for text in shown) == sorted([bought, rebought])
    page.screenshot(path=str(artifacts / f"cash-ticket-statement-{device}.png"), full_page=True)
