"""A running level tournament's lobby draws its play again in place, in Chromium.

Real pages (Daphne in a thread): the Poker 5 carte freezeout sit&go of ``test_level_tournament``
(its seed, filling and steps), Carla registered and the demo's bots filling it. Bruno watches
the tournament lobby; the bots play hands at the tables (the tournament's steps as its tasks
would run them) and his page's chip counts, players left and tables change while the page stays
the same page: a mark set on its window survives, and nothing reloaded it; the info panel's
level facts (players left, chips in play, the next level's countdown) are drawn again with it.
Screenshots at desktop (1366×768) and phone (390×844) sizes in /tmp/shots-level/.
"""

from __future__ import annotations

import pytest

from tests.e2e.live import STATIC_FILES_WARNING, login
from tests.e2e.test_level_tournament import DESKTOP, PHONE, SHOTS, fill_and_start, seed, step
from tests.piattaforma.factories import PASSWORD

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings(STATIC_FILES_WARNING),
]


def enter_carla_and_a_watcher(tournament_id: int, carla: int) -> None:
    from piattaforma.models import User
    from tests.tournaments.factories import enter
    from tests.wallet.factories import funded_player
    from tournaments.models import Tournament

    enter(Tournament.objects.get(pk=tournament_id), User.objects.get(pk=carla))
    funded_player(1_000, nickname="Bruno")


def play_stamp(tournament_id: int) -> str:
    from tournaments import selectors
    from tournaments.models import Tournament

    return selectors.lobby_live_stamp(tournament=Tournament.objects.get(pk=tournament_id))


def test_the_lobby_of_a_running_level_tournament_draws_its_counts_in_place(asgi_live, new_context):
    live = asgi_live
    SHOTS.mkdir(exist_ok=True)
    tid, carla = live.run(seed)
    live.run(enter_carla_and_a_watcher, tid, carla)
    assert live.run(fill_and_start, tid) == "running"
    page = new_context(viewport=DESKTOP).new_page()
    login(page, live.url, "Bruno", PASSWORD)
    page.goto(f"{live.url}/tornei/{tid}/")
    counts = page.inner_text("[data-testid=chip-counts]")
    first = page.get_attribute("[data-level-live]", "data-live")
    assert first == live.run(play_stamp, tid) and "Classifica in corso" in counts
    page.evaluate("() => { window.stillHere = 'si'; }")  # gone with any reload
    # the info panel's level facts, as the page was drawn (replaced by the redraw, not reloaded)
    facts = "[data-testid=tournament-info] [data-live-part=level-facts]"
    old_left = f"document.querySelector('{facts} [data-testid=players-left]')"
    page.evaluate(f"() => {{ window.oldFacts = {old_left}; }}")
    reloads = []
    page.on("framenavigated", lambda frame: reloads.append(frame.url) if frame == page.main_frame else None)

    # the bots play (Carla's table waits at her turns): a hand ends, chips move
    for _ in range(400):
        now = live.run(step, tid, carla)
        if now["state"] != "running" or live.run(play_stamp, tid).split(":")[1] != first.split(":")[1]:
            break  # (the stamp: tables ended, hands folded, players left, level)
    stamp = live.run(play_stamp, tid)
    assert stamp and stamp != first, "no hand ended"
    drawn_again = "stamp => document.querySelector('[data-level-live]').dataset.live === stamp"
    page.wait_for_function(drawn_again, arg=stamp, timeout=30_000)
    assert page.evaluate("() => window.stillHere") == "si" and reloads == []
    drawn = page.inner_text("[data-testid=level-live]")
    left = int(stamp.split(":")[2])
    assert f"Giocatori in gara: {left}/6" in drawn, drawn
    assert page.inner_text("[data-testid=chip-counts]") != counts  # the chips moved, in place
    # and the info panel beside it: its level facts drawn again with the play (countdown running)
    assert page.evaluate("() => window.oldFacts.isConnected") is False
    assert page.inner_text(f"{facts} [data-testid=players-left]") == f"{left}/6"
    assert page.locator("template[data-live-part]").count() == 0
    page.wait_for_function(
        f"() => document.querySelector('{facts} [data-level-countdown]').dataset.left !== undefined"
    )
    page.screenshot(path=str(SHOTS / "lobby-live-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(SHOTS / "lobby-live-phone.png"), full_page=True)
