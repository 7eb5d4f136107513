"""A new player at a training table, in Chromium: the table asks once, visibly, to unlock the sounds
the browser holds locked ("Attiva i suoni" beside the sound switch; one click unlocks the page's
audio and is remembered on the device), and its play money reads in gettoni, never in euro. An
init script makes the page's AudioContext start suspended until ``resume()`` (as a browser's
autoplay policy does) and counts the resumes.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.live import LOCKED_AUDIO, STATIC_FILES_WARNING, login
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

ASK = "[data-testid=audio-unlock]"
SWITCH = "#table [data-role=sound]"  # the table's sound switch, drawn with the question beside it


def training_table():
    """Ugo and Vera seated with play money at a training Poker table, a hand dealt."""
    from lobby import door
    from tests.lobby.factories import poker_table
    from tests.lobby.helpers import seat_players
    from tests.piattaforma.factories import UserFactory
    from wallet import actions as wallet

    users = [UserFactory(nickname=n) for n in ("Ugo", "Vera")]
    for user in users:
        wallet.play_money_top_up(user=user, amount=100_000, idempotency_key=f"play-{user.pk}")
    table = poker_table(name="Allenamento E2E", realm="play")
    seat_players(table, users, buy_in=10_000)
    door.table_start_hand(table_id=table.pk)
    return users[0], table.pk


def table_page(live, new_context):
    from tests.e2e.live import open_table

    ugo, table_id = live.run(training_table)
    context = new_context()
    context.add_init_script(LOCKED_AUDIO)
    page = context.new_page()
    login(page, live.url, ugo.nickname, PASSWORD)
    open_table(page, live.url, table_id)
    page.wait_for_selector(SWITCH)
    return page, table_id


def test_the_sounds_are_asked_once_and_one_click_unlocks_them(asgi_live, new_context):
    page, _table_id = table_page(asgi_live, new_context)
    ask = page.locator(f"#table {ASK}")
    expect(ask).to_be_visible()
    page.screenshot(path="/tmp/replay-sound-unlock.png")  # noqa: S108
    page.get_by_role("button", name="Attiva i suoni").click()
    expect(page.locator(ASK)).to_have_count(0)
    assert page.evaluate("() => window.resumed") == 1
    assert page.evaluate("() => localStorage.getItem('tavolo-audio-chiesto')") == "1"
    expect(page.locator(SWITCH)).to_have_text("Audio attivo")
    # answered on this device: the table does not ask again (its audio unlocks on a touch)
    page.reload()
    page.wait_for_selector(SWITCH)
    expect(page.locator(ASK)).to_have_count(0)
    page.mouse.click(5, 5)
    page.wait_for_function("() => window.resumed === 1")


def test_no_sounds_is_an_answer_too_and_a_muted_device_is_never_asked(asgi_live, new_context):
    page, _table_id = table_page(asgi_live, new_context)
    page.get_by_role("button", name="Senza suoni").click()
    expect(page.locator(ASK)).to_have_count(0)
    expect(page.locator(SWITCH)).to_have_text("Audio spento")
    page.evaluate("() => localStorage.removeItem('tavolo-audio-chiesto')")  # muted, never answered
    page.reload()
    page.wait_for_selector(SWITCH)
    expect(page.locator(ASK)).to_have_count(0)


def test_a_training_table_shows_gettoni_not_euro(asgi_live, new_context):
    """Play money on the felt: the seats' credits, the invito and the table's facts are in gettoni."""
    page, _table_id = table_page(asgi_live, new_context)
    page.wait_for_function(
        "() => /gettoni/.test(document.querySelector('#table [data-role=seats]').textContent)"
    )
    page.screenshot(path="/tmp/replay-training-table.png", full_page=True)  # noqa: S108
    assert "€" not in page.locator("#table").inner_text()
    assert "€" not in page.locator(".table-info").inner_text()
