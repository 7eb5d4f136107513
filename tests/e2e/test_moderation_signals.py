"""In the browser: staff find the dumping pair at the top of the signals dashboard, drill down to its
hands and suspend the dumper pending review; a player opens another's public card with his
effective warnings. Screenshots (1366x900 and 390x844) land in test-artifacts/signals/, or in
$SHOTS_DIR when set.
"""

import os
from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS, asgi_live, asgi_server, browser  # noqa: F401  (fixtures)
from tests.e2e.live import STATIC_FILES_WARNING, login
from tests.moderation.conftest import default_watched_list, fresh_watched_list  # noqa: F401  (fixtures)
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

VIEWPORTS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
SHOTS = Path(os.environ.get("SHOTS_DIR") or ARTIFACTS / "signals")


def _setup():
    import random
    from datetime import timedelta

    from django.utils import timezone

    from moderation import conduct, dumping
    from piattaforma import hooks, roles
    from tests.piattaforma.factories import UserFactory

    rng = random.Random(7)
    UserFactory(nickname="ispettore", role=roles.STAFF)
    UserFactory(nickname="curioso")
    dumper, receiver = UserFactory(nickname="Travaso"), UserFactory(nickname="Ricevente")
    honest = [UserFactory(nickname=f"Regolare{i}") for i in range(4)]
    start = timezone.now() - timedelta(days=3)
    hand = 0

    def settle(seats):
        nonlocal hand
        hand += 1
        hooks.hand_settled(
            {
                "table_id": 1 + hand % 3,
                "game": "poker5",
                "hand_id": hand,
                "ended_at": start + timedelta(minutes=hand),
                "seats": [{"user_id": u.pk, "delta": d, "end": e} for u, d, e in seats],
            }
        )

    for _ in range(120):
        x, y = rng.sample(honest, 2)
        amount = rng.randint(100, 1500) * rng.choice((1, -1))
        settle([(x, amount, "normal"), (y, -amount, "sitout" if rng.random() < 0.05 else "normal")])
    for _ in range(40):
        amount = rng.randint(50, 300) * rng.choice((1, -1))
        settle([(dumper, amount, "normal"), (rng.choice(honest), -amount, "normal")])
    for i in range(10):
        settle([(dumper, -6000, "abandon" if i % 3 == 0 else "normal"), (receiver, 6000, "normal")])
    assert dumping.signals_fold() == 170  # the beat's task: the 170 queued hands in one batch
    for t in range(1, 5):
        conduct.conduct_record(user_id=honest[0].pk, tournament_id=t, kind="timeout", training=True, turn=2)
    for _ in range(31):
        conduct.turn_completed_record(user_id=honest[0].pk, tournament_id=9)
    return dumper.pk


def _shot(page, name):
    """A full-page screenshot, and on a phone also the first screen as a player sees it."""
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)
    if page.viewport_size["width"] < 600:
        page.screenshot(path=SHOTS / f"{name}-top.png")


def _page(chromium, url, nickname, viewport):
    page = chromium.new_context(locale="it-IT", viewport=VIEWPORTS[viewport]).new_page()
    login(page, url, nickname, PASSWORD)
    return page


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_staff_dashboard_drill_down_suspend_and_public_card(browser, asgi_live, viewport):  # noqa: F811
    SHOTS.mkdir(parents=True, exist_ok=True)
    url = asgi_live.url
    dumper_id = asgi_live.run(_setup)

    staff = _page(browser, url, "ispettore", viewport)
    staff.goto(f"{url}/moderazione/segnali/")
    first = staff.locator("[data-testid=signals-pairs] tbody tr").first
    assert "Travaso" in first.inner_text() and "Ricevente" in first.inner_text()
    assert "da verificare" in first.inner_text()
    _shot(staff, f"signals-dashboard-{viewport}")

    first.get_by_role("link", name="Mani").click()
    staff.wait_for_selector("[data-testid=signals-pair]")
    assert staff.locator("[data-testid=signal-hands] a:has-text('Replay')").count() >= 10
    _shot(staff, f"signals-pair-{viewport}")

    staff.goto(f"{url}/moderazione/segnali/giocatori/{dumper_id}/")
    staff.fill("#reason", "Perde sempre verso Ricevente, abbandona le partite")
    staff.click("[data-testid=suspend-form] button")
    staff.wait_for_selector("[data-testid=suspended]")
    assert "sospeso in attesa di verifica" in staff.locator(".messages").inner_text()
    _shot(staff, f"signals-player-suspended-{viewport}")

    player = _page(browser, url, "curioso", viewport)
    player.goto(f"{url}/moderazione/segnali/")
    assert "Segnali di collusione" not in player.content()  # 403 for a player
    player.goto(f"{url}/moderazione/giocatori/Regolare0/")
    assert player.inner_text("[data-testid=effective-warnings]") == "3"  # 4 received − 1 bonus (31 turns)
    _shot(player, f"public-card-{viewport}")
    staff.context.close()
    player.context.close()
