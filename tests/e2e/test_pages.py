"""The pages around the tables on a laptop (1280×800) and a phone (390×844), in headless Chromium.

For every page: no horizontal scroll, the main heading and the primary action are visible, the
compact menu opens on the phone (and the full navigation shows on the laptop); a full-page
screenshot per page and viewport goes to test-artifacts/pages-<viewport>-<page>.png.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from tests.e2e.live import STATIC_FILES_WARNING
from tests.lobby.factories import poker_table, scopa_table
from tests.lobby.helpers import key
from tests.piattaforma.factories import PASSWORD
from tests.wallet.factories import funded_player
from wallet import actions as wallet_actions

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

# "small": a small laptop window or a tablet, where the tables already turn into cards.
VIEWPORTS = {
    "laptop": {"width": 1280, "height": 800},
    "phone": {"width": 390, "height": 844},
    "small": {"width": 900, "height": 700},
}
HOME_H1 = "I giochi di carte della tradizione italiana"


@dataclass(frozen=True)
class PageCheck:
    slug: str
    path: str
    heading: str  # text the page's h1 contains
    action: str  # selector of the primary action, inside <main>


ANONYMOUS = [
    PageCheck("home", "/", HOME_H1, "a.button[href='/account/registrati/']"),
    PageCheck("login", "/account/accedi/", "Accedi", "button[type=submit]"),
    PageCheck("signup", "/account/registrati/", "Apri il tuo conto di gioco", "button[type=submit]"),
    PageCheck("password-reset", "/account/password/reset/", "Reimposta la password", "button[type=submit]"),
    PageCheck("regole", "/regole/", "Regole e informazioni ai giocatori", "a[href='/regole/scopa/']"),
    PageCheck("regole-scopa", "/regole/scopa/", "Regole della Scopa", "nav.toc a[href='#prese']"),
]
LOGGED_IN = [
    PageCheck("home-player", "/", HOME_H1, "a.button[href='/lobby/']"),
    PageCheck("lobby", "/lobby/", "Tavoli cash", "#lobby-tables tbody tr[data-table] a.button"),
    PageCheck("allenamento", "/lobby/allenamento/", "Allenamento", "button[data-testid=refill]"),
    PageCheck("profile", "/profilo/", "Il mio profilo", "a[href='/profilo/opzioni/poker5/']"),
    PageCheck("game-options", "/profilo/opzioni/poker5/", "Poker 5 carte", "button[type=submit]"),
    PageCheck("saldo", "/conto/", "Il tuo conto di gioco", "a.button[href='/conto/deposito/']"),
    PageCheck("movimenti", "/conto/movimenti/", "Movimenti del conto", "[data-testid=movement]"),
    PageCheck("deposito", "/conto/deposito/", "Deposita sul conto di gioco", "button[type=submit]"),
    PageCheck("prelievo", "/conto/prelievo/", "Preleva dal conto di gioco", "button[type=submit]"),
    PageCheck("limiti", "/conto/limiti/", "Limiti di deposito", "button[type=submit]"),
    PageCheck("autoesclusione", "/conto/autoesclusione/", "Autoesclusione dal gioco", "button[type=submit]"),
    PageCheck("password", "/account/password/", "Cambia password", "button[type=submit]"),
]


def problems_on(page, check: PageCheck, viewport: str, artifacts) -> list[str]:
    """Return what is wrong with the page just loaded (empty: all good)."""
    found = []
    where = f"{viewport}/{check.slug}"
    scroll_width, inner_width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if scroll_width > inner_width:
        found.append(f"{where}: horizontal scroll ({scroll_width}px > {inner_width}px)")
    heading = page.locator("main h1").first
    if not heading.is_visible():
        found.append(f"{where}: main heading not visible")
    elif check.heading not in heading.inner_text():
        found.append(f"{where}: heading {heading.inner_text()!r} lacks {check.heading!r}")
    action = page.locator(f"main {check.action}").first
    if action.count() == 0 or not action.is_visible():
        found.append(f"{where}: primary action {check.action!r} not visible")
    else:
        box = action.bounding_box()
        if box is None or box["x"] < 0 or box["x"] + box["width"] > inner_width:
            found.append(f"{where}: primary action {check.action!r} outside the viewport width ({box})")
    found += menu_problems(page, where, viewport, artifacts / f"pages-{viewport}-{check.slug}-menu.png")
    return found


def menu_problems(page, where: str, viewport: str, shot) -> list[str]:
    toggle = page.locator("header [data-menu-toggle]")
    lobby_link = page.locator("#site-nav a[href='/lobby/']")
    if viewport in ("laptop", "small"):
        if toggle.is_visible():
            return [f"{where}: the phone menu button shows on a laptop"]
        return [] if lobby_link.is_visible() else [f"{where}: navigation hidden on a laptop"]
    if not toggle.is_visible():
        return [f"{where}: no menu button on the phone"]
    if lobby_link.is_visible():
        return [f"{where}: the phone menu is open before it is asked"]
    toggle.click()
    found = []
    if not lobby_link.is_visible() or toggle.get_attribute("aria-expanded") != "true":
        found.append(f"{where}: the phone menu does not open")
    page.screenshot(path=str(shot))
    scroll_width, inner_width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if scroll_width > inner_width:
        found.append(f"{where}: horizontal scroll with the menu open")
    toggle.click()
    if lobby_link.is_visible():
        found.append(f"{where}: the phone menu does not close")
    return found


def visit(context, base: str, checks: list[PageCheck], viewport: str, artifacts) -> list[str]:
    page = context.new_page()
    found = []
    for check in checks:
        response = page.goto(base + check.path)
        assert response is not None and response.status == 200, check.path
        found += problems_on(page, check, viewport, artifacts)
        page.screenshot(path=str(artifacts / f"pages-{viewport}-{check.slug}.png"), full_page=True)
    page.close()
    return found


def log_in(context, base: str, nickname: str) -> None:
    page = context.new_page()
    page.goto(f"{base}/account/accedi/")
    page.fill("#id_username", nickname)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_selector("[data-testid=nickname]")
    page.close()


def tables_and_a_player_with_movements() -> None:
    """Three tables (one with a long name) and a player with deposits and a pending withdrawal."""
    poker_table(name="Tavolo Roma")
    poker_table(name="Tavolo Milano · tavolo con un nome lungo", seats=6)
    scopa_table(name="Scopa Napoli")
    player = funded_player(amount=50_000, nickname="Settebello")
    for i in range(3):
        wallet_actions.deposit_create(user=player, amount=1_250 + i, idempotency_key=key("dep"))
    wallet_actions.withdrawal_request(user=player, amount=2_000, idempotency_key=key("wd"))


def poker_and_scopa_tables(*names: str) -> list[int]:
    """Poker tables named ``names`` and a Scopa table ("Scopa Napoli"); their ids."""
    return [poker_table(name=name).pk for name in names] + [scopa_table(name="Scopa Napoli").pk]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_pages_fit_laptop_and_phone(asgi_live, new_context, artifacts, viewport):
    asgi_live.run(tables_and_a_player_with_movements)
    context = new_context(viewport=VIEWPORTS[viewport])
    found = visit(context, asgi_live.url, ANONYMOUS, viewport, artifacts)
    log_in(context, asgi_live.url, "Settebello")
    found += visit(context, asgi_live.url, LOGGED_IN, viewport, artifacts)
    assert found == []


def test_home_counts_and_header_balance_come_from_the_data(asgi_live, new_context):
    asgi_live.run(poker_and_scopa_tables, "Tavolo Roma")
    page = new_context().new_page()
    page.goto(asgi_live.url + "/")
    assert page.inner_text("[data-testid=open-tables]") == "2"
    assert page.inner_text("[data-testid=seated-players]") == "0"
    assert page.locator("li[data-game=scopa]").count() == 1
    assert page.locator("[data-testid=header-balance]").count() == 0  # a visitor has no balance
    asgi_live.run(funded_player, amount=12_345, nickname="Primiera")
    log_in(page.context, asgi_live.url, "Primiera")
    page.goto(asgi_live.url + "/")
    assert "€ 123,45" in page.inner_text("[data-testid=header-balance]")


def test_lobby_filter_and_deposit_quick_amounts(asgi_live, new_context):
    asgi_live.run(poker_and_scopa_tables, "Tavolo Roma", "Tavolo Milano")
    asgi_live.run(funded_player, amount=10_000, nickname="Cirulla")
    page = new_context().new_page()
    log_in(page.context, asgi_live.url, "Cirulla")
    page.goto(f"{asgi_live.url}/lobby/")
    rows = page.locator("#lobby-tables tr[data-table]")
    assert rows.count() == 3
    page.click("[data-role=game-filter] button[data-game=scopa]")
    visible = [rows.nth(i).is_visible() for i in range(3)]
    assert visible.count(True) == 1 and "Scopa Napoli" in page.inner_text("#lobby-tables tbody")
    page.click("[data-role=game-filter] button[data-game='']")
    assert all(rows.nth(i).is_visible() for i in range(3))

    page.goto(f"{asgi_live.url}/conto/deposito/")
    page.click("[data-role=quick-amounts] button[data-amount='50,00']")
    assert page.input_value("#id_amount") == "50,00"
    page.click("main button[type=submit]")
    page.wait_for_selector(".messages li")
    assert "€ 150,00" in page.inner_text("[data-testid=header-balance]")


def test_a_phone_sees_a_table_of_the_lobby_without_scrolling(asgi_live, new_context, artifacts):
    """With a table of every game (the demo's), the game filter is one row that scrolls sideways:
    the first table, its Apri button included, is on the first screen of a phone."""
    asgi_live.run(call_command, "seed_demo", stdout=io.StringIO())
    asgi_live.run(funded_player, amount=10_000, nickname="Cirulla")
    page = new_context(viewport=VIEWPORTS["phone"]).new_page()
    log_in(page.context, asgi_live.url, "Cirulla")
    page.goto(f"{asgi_live.url}/lobby/")
    chips = page.locator("[data-role=game-filter] button")
    assert chips.count() == 14  # "Tutti" and the 13 games
    first_open = page.locator("#lobby-tables tr[data-table] a.button").first
    box = first_open.bounding_box()
    page.screenshot(path=str(artifacts / "lobby-phone-first-screen.png"))
    assert box is not None and box["y"] + box["height"] <= VIEWPORTS["phone"]["height"], box
    filter_box = page.locator("[data-role=game-filter]").bounding_box()
    assert filter_box is not None and filter_box["height"] < 70, filter_box  # one row of chips
    page.click("[data-role=game-filter] button[data-game=tresette]")  # the last chip, scrolled to
    assert page.locator("#lobby-tables tr[data-table]:visible").count() == 1


def test_table_page_gets_the_full_width(asgi_live, new_context, artifacts):
    """base.html lets the live table use the whole window (the other pages keep a readable width)."""
    table = asgi_live.run(poker_table, name="Tavolo Roma")
    asgi_live.run(funded_player, amount=10_000, nickname="Asso")
    page = new_context().new_page()
    log_in(page.context, asgi_live.url, "Asso")
    page.goto(f"{asgi_live.url}/lobby/")
    lobby_width = page.evaluate("document.querySelector('main').getBoundingClientRect().width")
    page.goto(f"{asgi_live.url}/lobby/tavolo/{table.pk}/")
    table_width = page.evaluate("document.querySelector('main').getBoundingClientRect().width")
    assert lobby_width < 1200 and table_width == 1280
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(artifacts / "pages-laptop-table-frame.png"), full_page=True)


def test_form_errors_are_shown_in_italian_on_a_phone(asgi_live, new_context, artifacts):
    asgi_live.run(funded_player, amount=1_000, nickname="Briscola")
    context = new_context(viewport=VIEWPORTS["phone"])
    page = context.new_page()
    page.goto(asgi_live.url + "/account/registrati/")
    page.fill("#id_nickname", "Briscola")  # taken
    page.click("main button[type=submit]")
    assert "Controlla i campi evidenziati." in page.inner_text(".form-errors")
    assert "già in uso" in page.inner_text(".field.has-error:has(#id_nickname) .error")
    assert page.locator(".field.has-error").count() >= 4  # e-mail, date of birth, passwords, consent
    assert page.get_attribute("#id_email", "aria-invalid") == "true"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(artifacts / "pages-phone-signup-errori.png"), full_page=True)

    log_in(context, asgi_live.url, "Briscola")
    page.goto(asgi_live.url + "/conto/prelievo/")
    page.fill("#id_amount", "99")
    page.click("main button[type=submit]")
    # the click returns before the POST's page has loaded: wait for it, do not sample
    expect(page.locator(".form-errors")).to_be_visible()
    assert "insufficiente" in page.inner_text(".form-errors")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(artifacts / "pages-phone-prelievo-errore.png"), full_page=True)
