"""The tournament pages in headless Chromium at 1366×900 and 390×844 (real pages, Daphne).

No horizontal scroll, the heading and the primary action visible; a player registers, sees the
regulator's pending state (brown sphere) and, when the authorisation arrives, the page reloads by
itself with the ticket number. Screenshots: test-artifacts/tournaments-<viewport>-<page>.png.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from piattaforma import roles
from tests.e2e.live import login
from tests.piattaforma.factories import PASSWORD, UserFactory
from tests.tournaments.conftest import ACCEPT
from tests.tournaments.factories import make_tournament
from tournaments import actions
from tournaments.models import Registration, Tournament
from wallet import actions as wallet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


def seed():
    staff = UserFactory(role=roles.STAFF)
    player = UserFactory(nickname="torneista")
    wallet.deposit_create(user=player, amount=10_000, idempotency_key="fund-torneista")
    scheduled = make_tournament(staff, name="Scopa della sera", guaranteed=10_000, smazzate=3)
    make_tournament(staff, name="Briscola freeroll", pool_quota=0, fee=0, guaranteed=2_000)
    sitgo = make_tournament(
        staff, name="Cirulla sit&go 8", kind=Tournament.Kind.SITGO, max_players=8, format=Tournament.Format.KO
    )
    make_tournament(
        staff, name="Satellite della sera", kind=Tournament.Kind.SITGO, max_players=8, pool_quota=100, fee=25,
        satellite_of=scheduled,
    )  # fmt: skip
    make_tournament(
        staff, name="Allenamento", training=True, confirmation_required=True, pool_quota=0, fee=0,
        starts_at=timezone.now() + timedelta(minutes=3, seconds=30),
    )  # fmt: skip
    return scheduled.pk, sitgo.pk


def no_problems(page, where: str) -> list[str]:
    found = []
    scroll, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    if scroll > inner:
        found.append(f"{where}: horizontal scroll ({scroll} > {inner})")
    if not page.locator("main h1").first.is_visible():
        found.append(f"{where}: heading not visible")
    return found


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_tournament_pages_and_registration(asgi_live, new_context, artifacts, viewport):
    scheduled, sitgo = asgi_live.run(seed)
    context = new_context()
    page = context.new_page()
    page.set_viewport_size(VIEWPORTS[viewport])
    login(page, asgi_live.url, "torneista", PASSWORD)
    found = []
    for slug, path in (
        ("list", "/tornei/"),
        ("sitgo", "/tornei/?tipo=sitgo"),
        ("lobby", f"/tornei/{sitgo}/"),
    ):
        page.goto(asgi_live.url + path)
        found += no_problems(page, f"{viewport}/{slug}")
        page.screenshot(path=str(artifacts / f"tournaments-{viewport}-{slug}.png"), full_page=True)
    assert found == []
    # rules 004, "Colore dei tornei negli elenchi": a satellite in fuchsia; a training tournament
    # is no freeroll (no colour of its own, marked Allenamento)
    page.goto(f"{asgi_live.url}/tornei/?tipo=sitgo")
    satellite = page.locator(".t-row--satellite .t-name", has_text="Satellite della sera")
    assert satellite.evaluate("e => getComputedStyle(e).color") == "rgb(173, 26, 140)"
    page.goto(f"{asgi_live.url}/tornei/")
    training = page.locator("tr.t-row", has_text="Allenamento")
    assert "t-row--" not in training.get_attribute("class")
    assert training.locator("[data-testid=training]").is_visible()
    # "Conferma iscrizione": brown sphere until confirmed, then green
    page.goto(asgi_live.url + training.locator("a", has_text="Lobby del torneo").get_attribute("href"))
    page.click("[data-testid=register]")
    expect(page.locator("h1 .sphere--brown")).to_be_visible()
    page.click("[data-testid=confirm]")
    expect(page.locator("h1 .sphere--green")).to_be_visible()
    assert page.locator("[data-testid=confirm]").count() == 0
    page.screenshot(path=str(artifacts / f"tournaments-{viewport}-training.png"), full_page=True)
    page.goto(f"{asgi_live.url}/tornei/?t={scheduled}")
    assert "€ 10,00 (9,00 + 1,00)" in page.locator("[data-testid=tournament-info]").inner_text()
    page.goto(f"{asgi_live.url}/tornei/{sitgo}/")
    page.click("[data-testid=register]")
    page.wait_for_selector("[data-testid=my-registration][data-state=pending]")
    assert page.locator("h1 .sphere--brown").is_visible()
    reg = asgi_live.run(lambda: Registration.objects.get(tournament_id=sitgo).pk)
    asgi_live.run(actions.registration_authorise, registration_id=reg, authorizer=ACCEPT)
    page.wait_for_selector("[data-testid=my-registration][data-state=authorised]", timeout=15_000)
    assert "biglietto n. ADM" in page.locator("[data-testid=my-registration]").inner_text()
    assert page.locator("h1 .sphere--green").is_visible()
    page.screenshot(path=str(artifacts / f"tournaments-{viewport}-registered.png"), full_page=True)
