"""In the browser at 1366x900 and 390x844: staff create a level tournament and a slot tournament in
the back office (the form shows only the chosen format's sections and games), see the created
tournament's prize table and level structure, and read a player's spins at the slot. Screenshots
land in test-artifacts/backoffice-tournament-*.png."""

import pytest

from tests.e2e.conftest import artifacts, asgi_live, asgi_server, browser  # noqa: F401  (fixtures)
from tests.e2e.live import STATIC_FILES_WARNING, login
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def _staff():
    from piattaforma import roles
    from tests.piattaforma.factories import UserFactory

    UserFactory(nickname="capo", role=roles.STAFF)


def _slot_session() -> int:
    """A running slot tournament whose first entrant has played some spins, a bonus and free spins."""
    import random

    from games.rng import SeededRng
    from games.slot import engine
    from piattaforma.models import User
    from tests.tournaments.running_helpers import full_tournament
    from tournaments.models import SlotSession

    staff = User.objects.get(nickname="capo")
    t, players = full_tournament(
        staff, 4, name="Slot della sera", game="slot", format="slot", smazzate=0, starting_chips=100_000
    )
    rng, choose = SeededRng(5), random.Random(5)
    state = engine.new(100_000)
    seen: set[str] = set()
    while not {"free_spin_finiti", "bonus_vinto"} <= seen:
        spec = choose.choice(engine.legal_actions(state))
        action = {k: v for k, v in spec.items() if k not in ("label", "amount")}
        if "amount" in spec:
            action["amount"] = 10
        seen |= {e["type"] for e in engine.apply(state, action, rng)}
    SlotSession.objects.filter(tournament=t, user=players[0]).update(state=state, credit=state["credit"])
    return SlotSession.objects.get(tournament=t, user=players[0]).pk


def _visible(page, section: str) -> bool:
    return page.is_visible(f"fieldset.fmt-{section}")


def test_staff_create_level_and_slot_tournaments_and_replay_spins(browser, asgi_live, artifacts):  # noqa: F811
    url = asgi_live.url
    asgi_live.run(_staff)
    page = browser.new_context(locale="it-IT", viewport=LAPTOP).new_page()
    login(page, url, "capo", PASSWORD)
    page.goto(f"{url}/backoffice/tournaments/tournament/add/")
    page.wait_for_selector("#tournament_form")
    assert _visible(page, "turns") and not _visible(page, "levels") and not _visible(page, "slot")
    page.select_option("#id_format", "freezeout")
    assert _visible(page, "levels") and not _visible(page, "turns") and not _visible(page, "slot")
    games = page.eval_on_selector_all("#id_game option:not([disabled])", "os => os.map(o => o.value)")
    assert set(games) - {""} == {"poker5", "telesina", "bestia", "chemin", "mazzetti", "settemezzo"}
    page.select_option("#id_game", "telesina")
    assert page.is_visible(".game-options[data-game=telesina]")
    assert not page.is_visible(".game-options[data-game=poker5]")
    page.fill("#id_name", "Telesina del giovedì")
    page.fill("#id_starting_chips", "150")  # under 10 inviti of 20: refused
    page.fill("#id_seats_per_table", "5")
    page.select_option("#id_speed", "turbo")
    page.fill("#id_first_invito", "20")
    page.fill("#id_pool_quota", "9,00")
    page.fill("#id_fee", "1,00")
    page.fill("#id_max_players", "30")
    page.fill("#id_starts_at_0", "31/12/2030")
    page.fill("#id_starts_at_1", "21:00:00")
    page.screenshot(path=artifacts / "backoffice-tournament-1-level-form.png", full_page=True)
    page.click("input[name=_save]")
    error = page.wait_for_selector(".field-starting_chips .errorlist")
    assert "almeno 10 inviti" in error.inner_text()
    assert _visible(page, "levels") and not _visible(page, "turns")  # the page keeps the format's sections
    page.screenshot(path=artifacts / "backoffice-tournament-2-level-refused.png", full_page=True)
    page.fill("#id_starting_chips", "2000")
    page.fill("#id_pool_quota", "9,00")
    page.fill("#id_fee", "1,00")
    page.click("input[name=_save]")
    page.wait_for_selector(".messagelist li.success")
    page.click("#result_list tr:has-text('Telesina del giovedì') th a")
    page.wait_for_selector("[data-testid=level-structure]")
    assert "Torneo a livelli" in page.inner_text("#content") and page.is_visible("[data-testid=prize-table]")
    page.screenshot(path=artifacts / "backoffice-tournament-3-level-created.png", full_page=True)

    page.goto(f"{url}/backoffice/tournaments/tournament/add/")
    page.select_option("#id_format", "slot")
    assert _visible(page, "slot") and not _visible(page, "levels") and not _visible(page, "turns")
    page.select_option("#id_game", "slot")
    page.fill("#id_name", "Slot del venerdì")
    page.fill("#id_slot_credit", "50000")
    page.fill("#id_slot_minutes", "5")
    page.fill("#id_pool_quota", "4,00")
    page.fill("#id_fee", "1,00")
    page.fill("#id_max_players", "50")
    page.fill("#id_starts_at_0", "31/12/2030")
    page.fill("#id_starts_at_1", "22:00:00")
    page.screenshot(path=artifacts / "backoffice-tournament-4-slot-form.png", full_page=True)
    page.click("input[name=_save]")
    page.wait_for_selector(".messagelist li.success")

    session_id = asgi_live.run(_slot_session)
    page.goto(f"{url}/backoffice/tournaments/slotsession/{session_id}/replay/")
    table = page.wait_for_selector("[data-testid=slot-replay]")
    assert "Giro a puntata 10" in table.inner_text() and "Bonus finito al livello" in table.inner_text()
    page.screenshot(path=artifacts / "backoffice-tournament-5-slot-replay.png", full_page=False)
    page.set_viewport_size(PHONE)
    page.screenshot(path=artifacts / "backoffice-tournament-6-slot-replay-phone.png", full_page=False)
    page.goto(f"{url}/backoffice/tournaments/tournament/add/")
    page.select_option("#id_format", "shootout")
    page.screenshot(path=artifacts / "backoffice-tournament-7-form-phone.png", full_page=False)
    page.context.close()
