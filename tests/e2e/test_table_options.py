"""The table's "Opzioni" on real pages (Daphne, Chromium), on a laptop and on a phone: the button
opens the player's options for the game in a modal dialog, reachable with the keyboard; saving
says when the change takes effect, stores only his own options, and the dialog closes with Esc
back to the button."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.live import STATIC_FILES_WARNING, login, open_table
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

VIEWPORTS = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


def scopa_pair():
    """Two funded players seated at a Scopa table."""
    from tests.lobby.factories import scopa_table
    from tests.lobby.helpers import seat_players
    from tests.wallet.factories import funded_player

    carla = funded_player(50_000, nickname="Carla")
    dario = funded_player(50_000, nickname="Dario")
    table = scopa_table()
    seat_players(table, [carla, dario], buy_in=2_000)
    return carla, dario, table


def deck_styles(*users) -> list[str]:
    from piattaforma.actions import preferences_get

    return [preferences_get(user=u, game="scopa")["stile_mazzo"] for u in users]


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_options_at_the_table(asgi_live, new_context, artifacts, device):
    carla, dario, table = asgi_live.run(scopa_pair)
    assert asgi_live.run(deck_styles, carla, dario) == ["napoletane", "napoletane"]
    page = new_context(viewport=VIEWPORTS[device]).new_page()
    login(page, asgi_live.url, carla.nickname, PASSWORD)
    open_table(page, asgi_live.url, table.pk)
    opener = page.locator("[data-testid=table-options]")
    expect(opener).to_have_attribute("aria-haspopup", "dialog")  # the module took the link over
    opener.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name="Opzioni di gioco · Scopa")
    expect(dialog).to_be_visible()
    expect(page.locator("#opzioni_stile_mazzo")).to_be_focused()
    expect(dialog).to_contain_text("dalla partita successiva")
    page.select_option("#opzioni_stile_mazzo", "francesi")
    page.screenshot(path=str(artifacts / f"table-options-open-{device}.png"))
    page.click("[data-testid=options-save]")
    status = page.locator("[data-testid=options-status]")
    expect(status).to_contain_text("Opzioni di gioco salvate.")
    expect(status).to_contain_text("dalla partita successiva")
    assert page.url.endswith(f"/lobby/tavolo/{table.pk}/")  # saved without leaving the table
    assert asgi_live.run(deck_styles, carla, dario) == ["francesi", "napoletane"]
    page.screenshot(path=str(artifacts / f"table-options-saved-{device}.png"))
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()
    assert page.eval_on_selector("#table", "el => el.dataset.deckStyle") == "francesi"
