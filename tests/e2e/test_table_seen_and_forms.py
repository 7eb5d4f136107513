"""The live table on real engine payloads (socket mocked): a carte viste table shows every card
of the smazzata played so far, Tresette's declaration form is in Italian words, Tresette in four
shows no tallone, and Burraco's hand keeps the server's order and sorts on the two buttons.
"""

from __future__ import annotations

import pytest

from games import registry
from tests.e2e import test_table_client as client
from tests.e2e.live import STATIC_FILES_WARNING
from tests.e2e.test_table_client import CODES, has_type, play_until

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

open_table = client.open_table  # the fixture: a table page whose socket the test plays

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
VIEWPORTS = pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])


def name_of(viewport: dict[str, int]) -> str:
    return "laptop" if viewport is LAPTOP else "phone"


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= innerWidth")


@VIEWPORTS
def test_briscola_carte_viste_shows_every_trick_of_the_smazzata(open_table, artifacts, viewport):
    engine = registry.get("briscola")
    state, seat = play_until(
        "briscola", lambda st, n, legal: len(st["deal"]["history"]) >= 5, config={"carte_viste": True}
    )
    history = state["deal"]["history"]
    t = open_table("briscola", viewport=viewport)
    t.show(state, seat)
    page = t.page
    seen = page.locator("[data-role=seen]")
    assert "le 4 prese precedenti" in seen.locator("summary").inner_text()
    assert seen.evaluate("el => el.open")  # open at first, below the felt
    tricks = seen.locator("[data-role=seen-tricks] > li")
    assert tricks.count() == len(history) - 1
    for i, trick in enumerate(history[:-1]):
        assert tricks.nth(i).locator("[data-card]").evaluate_all(CODES) == [c for _, c in trick["plays"]]
    # the last trick stays on the felt as before
    assert page.locator(".zone-tricks_seen [data-card]").evaluate_all(CODES) == [
        c for _, c in history[-1]["plays"]
    ]
    assert no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"briscola-carte-viste-{name_of(viewport)}.png"), full_page=True)
    # folded by the player, it stays folded on the next view (each view redraws the table)
    seen.locator("summary").click()
    t.show(state, seat)
    assert not seen.evaluate("el => el.open")
    assert engine.view(state, seat)["config"]["carte_viste"] is True
    assert t.errors == []


def test_scopa_carte_viste_moves_and_taken_cards_in_words(open_table, artifacts):
    state, seat = play_until(
        "scopa",
        lambda st, n, legal: len(st["deal"]["moves"]) >= 4 and any(st["deal"]["piles"]),
        config={"carte_viste": True},
    )
    moves = state["deal"]["moves"]
    t = open_table("scopa", viewport=LAPTOP)
    t.show(state, seat)
    page = t.page
    seen = page.locator("[data-role=seen]")
    rows = seen.locator("[data-role=seen-moves] > li")
    assert rows.count() == len(moves) - 1
    for i, move in enumerate(moves[:-1]):
        assert rows.nth(i).locator("[data-card]").evaluate_all(CODES) == [move["card"], *move["take"]]
    # the cards each line has taken, after the moves
    assert seen.locator("[data-role=seen-moves] ~ [data-role=seen-piles]").count() == 1
    details = page.locator("[data-role=details]")
    text = details.inner_text() if details.count() else ""
    for raw in ("Piles", "Moves", "Posizione 0"):
        assert raw not in text
    seen.screenshot(path=str(artifacts / "scopa-carte-viste.png"))
    assert t.errors == []


@VIEWPORTS
def test_tresette_declaration_in_italian_words_and_no_tallone_in_four(open_table, artifacts, viewport):
    state, seat = play_until(
        "tresette", has_type("dichiara"), seats=4, config={"dichiarazioni": True, "format": "coppie"}
    )
    t = open_table("tresette", viewport=viewport, players=4)
    t.show(state, seat)
    page = t.page
    form = page.locator("[data-action=dichiara]").locator("xpath=..")
    titles = form.locator(".segmented-title").all_inner_texts()
    assert [x.lower() for x in titles] == ["ho", "busso", "per te"]
    choices = form.locator(".segmented button").all_inner_texts()
    assert choices == ["Sì", "No"] * 3  # yes before no in every field
    text = page.locator("#table").inner_text().lower()
    assert "true" not in text and "false" not in text
    assert "tallone" not in text
    # "Ho per te": the form sends that declaration
    groups = form.locator(".segmented")
    groups.nth(0).get_by_role("button", name="No").click()
    groups.nth(1).get_by_role("button", name="No").click()
    groups.nth(2).get_by_role("button", name="Sì").click()
    page.locator("[data-action=dichiara]").click()
    sent = [m for m in t.wait_sent() if m.get("type") == "act"][-1]["action"]
    assert sent == {"type": "dichiara", "ho": False, "busso": False, "per_te": True}
    assert no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"tresette-dichiarazione-{name_of(viewport)}.png"), full_page=True)
    assert t.errors == []


@VIEWPORTS
def test_burraco_hand_keeps_the_chosen_order_and_sorts_on_the_buttons(open_table, artifacts, viewport):
    engine = registry.get("burraco")
    state, seat = play_until("burraco", has_type("pesca", "raccogli"))
    pos = state["seats"].index(seat)
    state["prefs"] = {str(seat): {"ordina_mano": "valore"}}
    dealt = engine.view(state, seat)["deal"]["hands"][pos]
    assert len(dealt) >= 9
    t = open_table("burraco", viewport=viewport)
    t.show(state, seat)
    page = t.page
    hand = page.locator("[data-role=hand] .hand-cards")
    assert hand.locator("[data-card]").evaluate_all(CODES) == dealt  # per valore, matte prima, as sent
    by_suit = page.get_by_role("button", name="Per seme")
    by_suit.focus()
    page.keyboard.press("Enter")
    shown = hand.locator("[data-card]").evaluate_all(CODES)
    suits = [c[1] for c in shown if c[0] != "X"]
    assert suits == sorted(suits, key="hdcs".index) and sorted(shown) == sorted(dealt)
    assert page.evaluate("document.activeElement.dataset.sort") == "seme"  # the focus stays on the button
    page.get_by_role("button", name="Per valore").click()
    assert hand.locator("[data-card]").evaluate_all(CODES) == dealt
    # a card moved by hand after sorting (Alt+arrow) still moves
    first = hand.locator("[data-index='0']")
    first.focus()
    page.keyboard.press("Alt+ArrowRight")
    moved = hand.locator("[data-card]").evaluate_all(CODES)
    assert moved == [dealt[1], dealt[0], *dealt[2:]]
    assert no_sideways_scroll(page)
    page.screenshot(path=str(artifacts / f"burraco-ordina-{name_of(viewport)}.png"), full_page=True)
    assert t.errors == []
