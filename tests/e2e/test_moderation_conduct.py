"""In the browser: a player who never plays his turn of a training tournament loses the match on
time, and the end-of-match summary on his table lists the automatic measures (rules 004: "A fine
partita, nel resoconto che appare sul tavolo, sono sempre visualizzati tutti i provvedimenti presi
automaticamente dal sistema"). His opponent's summary lists none.

Screenshots (laptop 1366x900 and phone 390x844) land in test-artifacts/.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import artifacts, asgi_live, asgi_server, browser  # noqa: F401  (fixtures)
from tests.e2e.live import STATIC_FILES_WARNING, login, resize, runtime_info, wait_version
from tests.moderation.conftest import default_watched_list, fresh_watched_list  # noqa: F401  (fixtures)
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

VIEWPORTS = {"laptop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


def _start() -> dict:
    """A training KO of two, started: its table and both players' nicknames."""
    from piattaforma import roles
    from tests.piattaforma.factories import UserFactory
    from tests.tournaments.running_helpers import full_tournament, open_tables
    from tournaments.models import Tournament

    staff = UserFactory(role=roles.STAFF)
    t, players = full_tournament(
        staff, 2, format=Tournament.Format.KO, training=True, pool_quota=0, fee=0, name="Allenamento KO"
    )
    table = open_tables(t)[0]
    return {"table": table.pk, "nicknames": [p.nickname for p in players], "ids": [p.pk for p in players]}


def _time_out(table_id: int, user_id: int) -> str:
    """The other plays; ``user_id``'s clock runs out at his first decision (he never plays)."""
    from datetime import timedelta

    from django.utils import timezone

    from games import registry
    from games.rng import SeededRng
    from lobby import door
    from lobby.models import Seat, TableRuntime

    rng = SeededRng(3)
    for _ in range(200):
        rt = TableRuntime.objects.select_related("table").get(pk=table_id)
        engine = registry.get(rt.game or rt.table.game)
        if rt.state is None or engine.is_over(rt.state):
            return "over"
        seat_no = engine.to_act(rt.state)[0]
        seat = Seat.objects.get(table_id=table_id, number=seat_no)
        if seat.user_id == user_id:
            TableRuntime.objects.filter(pk=table_id).update(deadline=timezone.now() - timedelta(seconds=1))
            door.table_timeout(table_id=table_id, version=rt.version)
            continue
        action = engine.sample_action(rt.state, seat_no, rng)
        if action.get("type") != "abbandona":
            door.table_act(table_id=table_id, user=seat.user, action=action, version=rt.version)
    return "not over"


@pytest.mark.parametrize("viewport", ["laptop", "phone"])
def test_the_summary_of_a_match_lost_on_time_lists_the_automatic_measures(
    browser,  # noqa: F811
    asgi_live,  # noqa: F811
    artifacts,  # noqa: F811
    viewport,
):
    url = asgi_live.url
    game = asgi_live.run(_start)
    pages = []
    for nickname in game["nicknames"]:
        page = browser.new_context(locale="it-IT", viewport=VIEWPORTS[viewport]).new_page()
        login(page, url, nickname, PASSWORD)
        page.goto(f"{url}/lobby/tavolo/{game['table']}/")
        page.wait_for_function("() => document.querySelector('#table')?.dataset.connected === '1'")
        pages.append(page)
    late, other = pages
    assert asgi_live.run(_time_out, game["table"], game["ids"][0]) == "over"

    box = late.wait_for_selector("[data-role=summary] [data-role=conduct]")
    text = box.inner_text()
    assert "Provvedimenti automatici" in text
    assert "Assenza al turno: 2 ammonizioni" in text  # a no-show: 2 at once (training)
    assert "Richiamo" in text and "Ammonizioni effettive: 2" in text
    late.screenshot(path=artifacts / f"moderation-conduct-summary-{viewport}.png", full_page=True)
    # both pages show the table's last version; the summary stays through the felt's next drawing
    # (a new window size draws it again), and the opponent's summary has none
    last = asgi_live.run(runtime_info, game["table"])["version"]
    for page in pages:
        wait_version(page, last)
    size = late.viewport_size
    resize(late, {**size, "height": size["height"] + 100})
    assert late.locator("[data-role=summary] [data-role=conduct]").count() == 1
    other.wait_for_selector("[data-role=summary]")
    assert other.locator("[data-role=conduct]").count() == 0
    for page in pages:
        page.context.close()
    asgi_live.idle()  # their sockets' disconnect handlers finish before the database is flushed
