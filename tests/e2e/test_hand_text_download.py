"""Le mie mani on real pages (Daphne, Chromium), on a laptop and on a phone: each hand links to its
replay, and its text download reaches the browser as a file that names no card the player's seat
never saw."""

from __future__ import annotations

import pytest

from tests.e2e.live import STATIC_FILES_WARNING, login
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

VIEWPORTS = {"laptop": {"width": 1366, "height": 768}, "phone": {"width": 390, "height": 844}}


def poker_hand_and_hidden_cards():
    """A poker hand played to its end, its first player, and the cards his seat never saw named."""
    from lobby.narration import card_text
    from tests.lobby.test_replay import played_hand, seen_by

    hand, users = played_hand("poker5")
    mine = next(s["seat"] for s in hand.seats if s["user_id"] == users[0].pk)
    every = set().union(*(seen_by(hand, s["seat"]) for s in hand.seats))
    hidden = every - seen_by(hand, mine)
    return hand.pk, hand.number, users[0], sorted(card_text(c) for c in hidden)


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_download_a_hand_as_text(asgi_live, new_context, artifacts, tmp_path, device):
    hand_id, number, player, hidden = asgi_live.run(poker_hand_and_hidden_cards)
    assert hidden
    page = new_context(viewport=VIEWPORTS[device], accept_downloads=True).new_page()
    login(page, asgi_live.url, player.nickname, PASSWORD)
    page.goto(f"{asgi_live.url}/lobby/le-mie-mani/")
    row = page.locator("tr", has=page.locator(f'[href="/lobby/le-mie-mani/{hand_id}/storico.txt"]'))
    assert row.locator("[data-testid=hand-replay]").get_attribute("href") == f"/lobby/le-mie-mani/{hand_id}/"
    page.screenshot(path=str(artifacts / f"hand-text-list-{device}.png"), full_page=True)
    with page.expect_download() as info:
        row.locator("[data-testid=hand-text]").click()
    download = info.value
    assert download.suggested_filename.startswith("mano-") and download.suggested_filename.endswith(".txt")
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert f"Mano n. {number} · " in text and f"{player.nickname} (tu)" in text and "Giocate:" in text
    for card in hidden:
        assert card not in text
