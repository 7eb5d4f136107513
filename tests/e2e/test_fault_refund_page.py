"""A staff member gives one player's tournament entry back for a fault of the platform, in the back
office as he would: from the tournament's page to the evidence, then the confirmation.

Screenshots at desktop (1366x900) and phone (390x844) sizes go to test-artifacts/fault-refund/.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from piattaforma import roles
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.live import STATIC_FILES_WARNING, login
from tests.piattaforma.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

SHOTS = ARTIFACTS / "fault-refund"
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


def running_tournament_with_a_cut() -> dict:
    """A Scopa sit&go under way; its first player's connection lost with its server process (and a
    second player's with it), and an older one he closed himself."""
    from lobby.models import ConnectionRecord
    from tests.tournaments.running_helpers import full_tournament, open_tables
    from tournaments.models import Registration
    from wallet import selectors as wallet_selectors

    staff = UserFactory(nickname="Ufficio", role=roles.STAFF)
    t, players = full_tournament(staff, 4)
    first = players[0]
    table = next(tb for tb in open_tables(t) if tb.seat_rows.filter(user=first).exists())
    now = timezone.now()
    kinds = ConnectionRecord.EndedBy
    rows = [
        (first, kinds.PLAYER, now - timedelta(minutes=9), 1001, 7001),
        (first, kinds.PLATFORM, now - timedelta(minutes=1), None, 7002),
        (players[1], kinds.PLATFORM, now - timedelta(minutes=1), None, 7003),
    ]
    for user, ended_by, closed, code, socket_id in rows:
        ConnectionRecord.objects.create(
            table=table,
            user=user,
            seat_number=1,
            socket_id=socket_id,
            process="daphne-a",
            opened_at=closed - timedelta(minutes=4),
            closed_at=closed,
            ended_by=ended_by,
            close_code=code,
        )
    reg = Registration.objects.get(tournament=t, user=first)
    return {
        "tournament": t.pk,
        "registration": reg.pk,
        "nickname": first.nickname,
        "cash": wallet_selectors.balance_get(user=first)["cash"],
        "cost": t.cost,
        "first": first.pk,
    }


def cash_of(user_id: int) -> int:
    from piattaforma.models import User
    from wallet import selectors as wallet_selectors

    return wallet_selectors.balance_get(user=User.objects.get(pk=user_id))["cash"]


def test_staff_check_the_evidence_and_refund_one_entry(asgi_live, new_context):
    live = asgi_live
    SHOTS.mkdir(parents=True, exist_ok=True)
    seeded = live.run(running_tournament_with_a_cut)
    page = new_context(viewport=SIZES["desktop"]).new_page()
    login(page, live.url, "Ufficio", PASSWORD)
    page.goto(f"{live.url}/backoffice/tournaments/tournament/{seeded['tournament']}/change/")
    page.get_by_role("link", name="Verifica e rimborsa").first.click()
    page.wait_for_selector("[data-testid=fault-records]")
    records = page.locator("[data-testid=fault-records] tbody tr")
    assert records.count() == 2  # his two connections, not the other player's
    assert "Chiusa dal giocatore" in records.nth(0).inner_text()
    assert "Persa dalla piattaforma" in records.nth(1).inner_text()
    assert records.nth(1).locator("td.num").inner_text() == "1"  # cut with one other
    radios = page.locator("[data-testid=fault-form] input[type=radio]")
    assert radios.count() == 1  # only the platform's side may be chosen
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SHOTS / f"evidence-{size}.png"), full_page=True)
    page.set_viewport_size(SIZES["desktop"])
    radios.first.check()
    page.fill("[data-testid=fault-form] textarea", "Processo daphne-a caduto alle 21:04")
    page.click("[data-testid=fault-form] input[type=submit]")
    page.wait_for_selector(".messagelist")
    assert f"Iscrizione di {seeded['nickname']} rimborsata." in page.locator(".messagelist").inner_text()
    assert live.run(cash_of, seeded["first"]) == seeded["cash"] + seeded["cost"]
    page.screenshot(path=str(SHOTS / "done-desktop.png"), full_page=True)
