"""A person plays a Telesina freezeout sit&go of 6 against bots to the end, in Chromium.

The demo's Telesina sit&go, on the real pages and sockets (Daphne in a thread), with the poker
test's steps (``test_level_tournament``: its seed, filling, tournament steps, bold bots and
screenshots): Carla registers on the tournament lobby, five bots fill it, the sit&go starts on
two tables of 3 and the tournament's call takes her page to her table. She plays every decision
on the page (the dealer's choice of the vele when it is hers, the card she shows, then folding
what she can); the bots bet the most they may and call everything. At the end: her placing on
the table page, then her placing and prize on the tournament lobby, as stored. Screenshots at
desktop (1366×768) and phone (390×844) sizes in /tmp/shots-level/ (telesina-*).
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.live import STATIC_FILES_WARNING, login, wait_connected
from tests.e2e.test_level_tournament import (
    CAREFUL,
    DESKTOP,
    ENTRANTS,
    SHOTS,
    bold_bot,
    fill_and_start,
    pay,
    play_my_turn,
    seed,
    shot,
    step,
    strip_text,
)
from tests.piattaforma.factories import PASSWORD

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings(STATIC_FILES_WARNING),
]
# Telesina's own decisions first: the dealer's choice (vele, distribuzione), the card to show
TELESINA_CAREFUL = ("scelta", "scopro", *CAREFUL)


def test_a_person_plays_a_telesina_freezeout_through_to_her_placing(asgi_live, new_context, monkeypatch):
    live = asgi_live
    monkeypatch.setattr("lobby.bots.bot_action", bold_bot)
    SHOTS.mkdir(exist_ok=True)
    tid, carla = live.run(seed, "telesina", "Telesina freezeout di prova")
    page = new_context(viewport=DESKTOP).new_page()
    login(page, live.url, "Carla", PASSWORD)
    page.goto(f"{live.url}/tornei/{tid}/")
    page.click("[data-testid=register]")
    page.wait_for_selector("[data-testid=my-registration]")
    assert live.run(fill_and_start, tid) == "running"

    first = live.run(step, tid, carla)
    page.wait_for_url(f"**/lobby/tavolo/{first['table']}/", timeout=30_000)
    wait_connected(page)
    page.wait_for_selector("[data-testid=level-info]:not([hidden])")
    strip = strip_text(page)
    assert re.search(r"Livello 1 · invito 20\b", strip) and "Rimasti 6/6" in strip, strip
    shot(page, "telesina-table-start")
    shot(page, "telesina-table-start", phone=True)

    played = 0
    for _ in range(1500):
        now = live.run(step, tid, carla)
        if now["state"] != "running" or now["table"] is None:
            break  # the end, or she is out
        if now["table"] != first["table"]:  # moved (a table broken): her page follows her
            first = now
            page.wait_for_url(f"**/lobby/tavolo/{now['table']}/", timeout=30_000)
            wait_connected(page)
        if now["to_act"]:
            play_my_turn(page, now["version"], now["seat"], TELESINA_CAREFUL)
            played += 1
    else:
        raise AssertionError("the freezeout did not end")
    assert played > 0, "Carla never decided"

    for _ in range(1500):
        if live.run(step, tid, carla)["state"] == "finished":
            break
    else:
        raise AssertionError("the freezeout did not end")
    money = live.run(pay, tid)
    assert money["paid"] and money["pool"] == 0 and money["ledger"] == 0
    assert sum(money["prizes"].values()) == ENTRANTS * 450
    position, prize, _pt = money["carla"]
    end = page.wait_for_selector("[data-testid=level-finished]:not([hidden])")
    assert f"Il tuo piazzamento: {position}°." in end.inner_text()
    shot(page, "telesina-table-end")

    page.goto(f"{live.url}/tornei/{tid}/")
    mine = page.inner_text("[data-testid=my-result]")
    assert f"{position}° su {ENTRANTS}" in page.inner_text("[data-testid=my-position]"), mine
    if prize:
        assert f"€ {prize // 100},{prize % 100:02d}" in page.inner_text("[data-testid=my-prize]"), mine
    else:
        assert "nessun premio" in page.inner_text("[data-testid=my-prize]"), mine
    assert "Carla" in page.inner_text("[data-testid=results]")
    shot(page, "telesina-lobby-end")
    shot(page, "telesina-lobby-end", phone=True)
