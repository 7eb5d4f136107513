"""A tournament takes its players to their tables from any page of the site, in Chromium.

Two people and two bots play a Danese sit&go of 4 over two turns. Carla waits on her profile when
the sit&go starts: the page announces it (a notice with a countdown and "Vai al tavolo") and takes
her to her table. After turn 1 Carla stays at her finished table and goes straight on to turn 2's;
Dario browses to the lobby, is called there and taken to his new table when the countdown ends.
At the end the closed tables keep the players' names: "Hai vinto" or "Ha vinto <nick>", never
"Posto 1". Screenshots at 1366×900 (Carla) and 390×844 (Dario) in /tmp/shots-calls/.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.e2e.live import (
    TABLE,
    carla_and_dario_sitgo,
    login,
    play_card,
    runtime_info,
    wait_connected,
    wait_version,
)
from tests.e2e.test_tournament_play import (
    advance_and_pay,
    fill_and_start,
    move_bots,
    my_tables,
    people_ids,
    turn_state,
)
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path(os.environ.get("CALL_SHOTS", "/tmp/shots-calls"))  # noqa: S108
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
COUNTING = "() => Number(document.querySelector('[data-testid=player-call]')?.dataset.countdown) > 0"
TABLE_URL = re.compile(r".*/lobby/tavolo/(\d+)/$")


def seed() -> int:
    return carla_and_dario_sitgo("Scopa sit&go 4", max_players=4, turns=2)


def table_id_of(page) -> int:
    match = TABLE_URL.match(page.url)
    assert match, page.url
    return int(match.group(1))


def play_turn(live, tid, people, user_ids, on_over=None) -> None:
    """Play every person's cards until every match of the turn is over (bots moved by the server)."""
    for _ in range(400):
        state = live.run(turn_state, tid)
        if not state["tables"]:
            return
        moved = live.run(move_bots, tid)
        for info in state["tables"].values():
            for uid in info["to_act"]:
                if uid in user_ids:
                    page = people[user_ids[uid]]
                    wait_version(page, info["version"])
                    page.wait_for_selector(f"{TABLE} [data-role=hand] [data-playable]")
                    play_card(page)
                    moved += 1
        assert moved, state
    raise AssertionError("the turn did not end")


def test_a_player_who_browses_away_is_called_and_taken_to_his_tables(asgi_live, new_context):
    live = asgi_live
    SHOTS.mkdir(exist_ok=True)
    for old in SHOTS.glob("*.png"):
        old.unlink()
    tid = live.run(seed)
    people = {}
    for nickname, viewport in (("Carla", DESKTOP), ("Dario", PHONE)):
        page = new_context(viewport=viewport).new_page()
        login(page, live.url, nickname, PASSWORD)
        page.goto(f"{live.url}/tornei/{tid}/")
        page.click("[data-testid=register]")
        page.wait_for_selector("[data-testid=my-registration]")
        people[nickname] = page
    carla, dario = people["Carla"], people["Dario"]
    # she browses away while the sit&go fills, by the menu's link as a player does: the tournament
    # page may be reloading itself at that moment (Dario's registration changed it), and a click,
    # unlike a navigation typed from outside the page, always wins over the page's own reload
    carla.get_by_role("link", name="Il mio profilo").click()
    carla.wait_for_url("**/profilo/")
    carla.wait_for_selector("[data-site-notices][data-live=open]", state="attached")
    assert live.run(fill_and_start, tid) == "running"
    user_ids = live.run(people_ids, list(people))
    tables = live.run(my_tables, tid, list(people))

    # the start is announced on the profile page: a notice, a countdown, the button, the sound
    call = carla.wait_for_selector("[data-testid=player-call]")
    assert "Scopa sit&go 4 è iniziato" in call.inner_text()
    assert carla.locator("[data-testid=call-go]").get_attribute("href") == f"/lobby/tavolo/{tables['Carla']}/"
    carla.wait_for_function(
        "() => Number(document.querySelector('[data-testid=player-call]')?.dataset.countdown) > 0"
    )
    assert "Tempo rimasto" in carla.inner_text("[data-testid=player-call]")
    assert carla.get_attribute("[data-player-calls]", "data-last-sound") in ("call", "call:muted")
    carla.screenshot(path=str(SHOTS / "start-on-profile-desktop.png"))
    # the countdown ends: she is at her table, in time to play
    carla.wait_for_url(f"**/lobby/tavolo/{tables['Carla']}/")
    wait_connected(carla)
    # Dario, on the tournament's lobby, is taken there too
    dario.wait_for_url(f"**/lobby/tavolo/{tables['Dario']}/")
    wait_connected(dario)
    assert carla.locator("[data-testid=player-call]").count() == 0  # at his table: no call

    play_turn(live, tid, people, user_ids)
    # turn 1 is over: Carla stays at her table, Dario browses to the lobby
    dario.goto(f"{live.url}/lobby/")
    dario.wait_for_selector("[data-site-notices][data-live=open]", state="attached")
    first = table_id_of(carla)
    assert live.run(advance_and_pay, tid) == "running"
    tables = live.run(my_tables, tid, list(people))
    # Carla goes straight on from her finished table of the same tournament
    carla.wait_for_url(f"**/lobby/tavolo/{tables['Carla']}/")
    assert tables["Carla"] != first
    wait_connected(carla)
    # Dario is called on the lobby page, with the countdown, and taken to his table
    call = dario.wait_for_selector("[data-testid=player-call]")
    assert "turno 2" in call.inner_text()
    dario.wait_for_function(
        "() => Number(document.querySelector('[data-testid=player-call]')?.dataset.countdown) > 0"
    )
    dario.screenshot(path=str(SHOTS / "turn2-on-lobby-phone.png"))
    dario.wait_for_url(f"**/lobby/tavolo/{tables['Dario']}/")
    wait_connected(dario)
    carla.screenshot(path=str(SHOTS / "turn2-table-desktop.png"))
    dario.screenshot(path=str(SHOTS / "turn2-table-phone.png"))

    play_turn(live, tid, people, user_ids)
    closing = {name: live.run(runtime_info, tables[name])["version"] for name in people}
    assert live.run(advance_and_pay, tid) == "finished"
    # the tables closed (their seats freed): the result still names the match's players
    for name, page in people.items():
        wait_version(page, closing[name] + 1)
        winner = page.inner_text(f"{TABLE} [data-role=summary] .summary-winner")
        assert winner == "Hai vinto" or winner.startswith("Ha vinto "), winner
        assert "Posto" not in winner
        seats = page.inner_text(f"{TABLE} [data-role=seats]")
        assert name in seats and "Posto 1" not in seats and "Posto 2" not in seats, seats
    carla.screenshot(path=str(SHOTS / "final-table-desktop.png"))
    dario.screenshot(path=str(SHOTS / "final-table-phone.png"))


def warn(nickname: str) -> None:
    from django.utils import timezone

    from moderation.actions import notice_send
    from piattaforma.models import User

    user = User.objects.get(nickname=nickname)
    text = "Assenza al turno (torneo 1, turno 1): 2 ammonizioni automatiche. Ammonizioni effettive: 2."
    notice_send(user_id=user.pk, code="conduct_warning", text=text, now=timezone.now())


def test_a_warning_reaches_the_player_on_whatever_page_he_is(asgi_live, new_context):
    live = asgi_live
    SHOTS.mkdir(exist_ok=True)
    live.run(seed)
    page = new_context(viewport=PHONE).new_page()
    login(page, live.url, "Carla", PASSWORD)
    page.goto(f"{live.url}/profilo/")
    page.wait_for_selector("[data-site-notices][data-live=open]", state="attached")
    live.run(warn, "Carla")
    notice = page.wait_for_selector("[data-testid=player-call][data-code=conduct_warning]")
    assert "2 ammonizioni automatiche" in notice.inner_text()
    assert page.locator("[data-testid=call-go]").count() == 0  # nothing to go to, and no move
    page.screenshot(path=str(SHOTS / "warning-on-profile-phone.png"))
    page.click("[data-testid=call-dismiss]")
    page.wait_for_selector("[data-testid=player-call]", state="detached")
    assert page.url.endswith("/profilo/")
