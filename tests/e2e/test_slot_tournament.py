"""A person plays a slot sit&go of 4 against the demo's bots to its prizes, in Chromium.

Real pages and sockets (Daphne in a thread): Carla registers on the tournament lobby, the demo's
filler brings three bots, the sit&go starts and the tournament's call takes her lobby to her
slot. On the real page she changes her bet (+, −), spins and stops the reels at once, opens the
paytable and rules, switches the sound on, and plays the three features: the bonus doors, the
Pierino wheel and mode, the free-spin slates; then Auto Start and "Puntata Massima". The machine's
draws come from a scripted RNG for the spins that start a feature (their reel stops, doors, slates
and wheel are listed below), then from a seeded one, so every run is the same; whatever choice the
seeded spins bring is answered as it appears. The bots play at their machines through the demo's
own sweep (the tests run no worker: it is called through the server's thread), and so do the end of
time and the prizes' payout. Her clock runs out on the page (a one-minute tournament), she sees her
placing and prize there and on the lobby; the ledger is checked after. Screenshots at desktop
(1366×900) and phone (390×844) sizes in /tmp/shots-slot/.
"""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

import pytest

from tests.e2e.live import STATIC_FILES_WARNING, login
from tests.piattaforma.factories import PASSWORD

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings(STATIC_FILES_WARNING),
]
SHOTS = Path(os.environ.get("SLOT_SHOTS", "/tmp/shots-slot"))  # noqa: S108  # screenshots to look at
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
ENTRANTS, POOL_QUOTA, FEE = 4, 450, 50
SLOT = "#slot"

# The draws of the spins that start a feature (games/slot/table.py's strips): reel stops 4, 5, 6
# show a Serratura on reels 1–3 (bonus); a door drawn 5 hides the Maestra, 0 the Preside. Stops
# 21, 21, 22, 21, 21 show five Pierino (the wheel), 0 enters the mode. Stops 16, 16, 16 show
# three Fionde (free spins): slate draw 3 is "+2 giri", then 0 the Preside.
BONUS = [4, 5, 6, 0, 0, 5, 0]
PIERINO = [21, 21, 22, 21, 21, 0]
FREE = [16, 16, 16, 0, 0, 3, 0]


class ScriptedRng:
    """The server's RNG for this test: the scripted draws first, then a seeded sequence."""

    def __init__(self) -> None:
        from games.rng import SeededRng

        self.script: list[int] = []
        self.after = SeededRng(37)

    def randbelow(self, n: int) -> int:
        if self.script:
            value = self.script.pop(0)
            assert value < n, (value, n)
            return value
        return self.after.randbelow(n)


RNG = ScriptedRng()


def seed() -> tuple[int, int]:
    from piattaforma import roles
    from tests.piattaforma.factories import UserFactory
    from tests.tournaments.factories import make_tournament
    from tests.wallet.factories import funded_player
    from tournaments.models import Tournament

    carla = funded_player(10_000, nickname="Carla")
    t = make_tournament(
        UserFactory(role=roles.STAFF),
        name="Slot sit&go di prova",
        game="slot",
        format=Tournament.Format.SLOT,
        kind=Tournament.Kind.SITGO,
        max_players=ENTRANTS,
        pool_quota=POOL_QUOTA,
        fee=FEE,
        starting_chips=100_000,
        slot_minutes=2,
    )
    return t.pk, carla.pk


def fill_and_start(tournament_id: int) -> str:
    from django.utils import timezone

    from tests.tournaments.conftest import authorise_all
    from tournaments import demo, running
    from tournaments.models import Tournament

    t = Tournament.objects.get(pk=tournament_id)
    authorise_all(t)
    demo.sitgo_fill_with_bots(tournament_id=t.pk, now=timezone.now() + timedelta(seconds=11))
    running.tournament_start(tournament_id=t.pk)
    t.refresh_from_db()
    return t.state if t.state == Tournament.State.RUNNING else f"{t.state}: {t.cancelled_reason}"


def bots_play(tournament_id: int) -> int:
    """The demo's sweep: the bots' actions at their machines (no draws scripted meanwhile)."""
    from tournaments import demo

    assert not RNG.script
    return demo.slot_bots_play(tournament_id=tournament_id)


def script(draws: list[int]) -> None:
    RNG.script = list(draws)


def session(tournament_id: int, user_id: int) -> dict:
    from tournaments.models import SlotSession

    s = SlotSession.objects.get(tournament_id=tournament_id, user_id=user_id)
    return {"version": s.version, "credit": s.credit, "state": s.playing, "ends_at": s.ends_at.isoformat()}


def time_runs_out_soon(tournament_id: int, seconds: int = 3) -> None:
    """The test's short duration: every clock of the tournament ends ``seconds`` from now."""
    from django.utils import timezone

    from tournaments.models import SlotSession, Tournament

    ends = timezone.now() + timedelta(seconds=seconds)
    t = Tournament.objects.get(pk=tournament_id)
    t.progress["ends_at"] = ends.isoformat()
    t.save(update_fields=["progress"])
    SlotSession.objects.filter(tournament=t).update(ends_at=ends)


def end_of_time(tournament_id: int) -> str:
    """What the advance task does when the clock has run out (and a tie's extra minute after it)."""
    from django.utils import timezone

    from tournaments import running
    from tournaments.models import Tournament

    running.tournament_advance(tournament_id=tournament_id, now=timezone.now())
    t = Tournament.objects.get(pk=tournament_id)
    if t.state == Tournament.State.RUNNING and t.progress.get("extra"):
        running.tournament_advance(tournament_id=tournament_id, now=timezone.now() + timedelta(seconds=61))
        t.refresh_from_db()
    return t.state


def pay(tournament_id: int) -> dict:
    from tests.e2e.test_tournament_play import results
    from tournaments import running
    from tournaments.models import Registration, Tournament

    running.tournament_pay(tournament_id=tournament_id)
    t = Tournament.objects.get(pk=tournament_id)
    carla = Registration.objects.get(tournament=t, state="admitted", user__nickname="Carla")
    return {**results(tournament_id), "carla": (carla.position, carla.prize)}


# --- the page -----------------------------------------------------------------------------------


def shot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}-desktop.png"))
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(SHOTS / f"{name}-phone.png"))
    page.set_viewport_size(DESKTOP)


def chips(n: int) -> str:
    return f"{n:,}".replace(",", ".")


def version(page) -> int:
    return int(page.get_attribute(SLOT, "data-version") or 0)


def idle(page) -> None:
    """Wait until the machine waits for a spin (every animation and count over)."""
    page.wait_for_selector(f"{SLOT}[data-idle='1']")


def settle(page) -> list[str]:
    """Answer whatever the seeded spins brought (a door, a slate, the wheel, the banners) until
    the machine waits for a spin; returns what was met."""
    met = []
    for _ in range(200):
        state = page.evaluate(
            """() => {
              const s = document.querySelector('#slot');
              const f = s.querySelector('[data-role=feature]');
              const pick = (sel) => {
                const b = f.hidden ? null : f.querySelector(sel);
                return Boolean(b && !b.disabled);
              };
              return {idle: s.dataset.idle, over: s.dataset.over, busy: s.dataset.busy,
                      door: pick('.slot-door'), slate: pick('.slot-slate:not(.is-turned)'),
                      wheel: pick('[data-testid=wheel-start]'), cont: pick('[data-testid=feature-continue]'),
                      skip: pick('[data-testid$=-skip]')};
            }"""
        )
        if state["idle"] == "1" or state["over"] == "1":
            return met
        if state["busy"] != "1":
            for what, selector in (
                ("door", f"{SLOT} .slot-door"),
                ("slate", f"{SLOT} .slot-slate:not(.is-turned)"),
                ("wheel", "[data-testid=wheel-start]"),
                ("skip", f"{SLOT} [data-testid$=-skip]"),
                ("cont", "[data-testid=feature-continue]"),
            ):
                if state[what]:
                    met.append(what)
                    page.locator(selector).first.click()
                    break
        page.wait_for_timeout(150)
    raise AssertionError(f"the machine never came back to the reels: {met}")


def spin_and_stop(page) -> int:
    """GIRA, then STOP at once: the reels show the spin's result at once."""
    before = version(page)
    page.click("[data-testid=spin]")
    page.wait_for_selector("[data-testid=spin][data-mode=stop]")
    page.click("[data-testid=spin]")
    page.wait_for_function(f"() => Number(document.querySelector('{SLOT}').dataset.version) > {before}")
    page.wait_for_selector(f"{SLOT}[data-spinning='0']")
    return version(page)


def reels_show(page) -> list[str]:
    return page.eval_on_selector_all(f"{SLOT} .slot-reel", "rs => rs.map(r => r.dataset.window)")


def test_a_person_plays_a_slot_sitgo_against_bots_to_its_prizes(asgi_live, new_context, monkeypatch):
    live = asgi_live
    monkeypatch.setattr("tournaments.slot.SystemRng", lambda: RNG)
    RNG.__init__()
    SHOTS.mkdir(exist_ok=True)
    for old in SHOTS.glob("*.png"):
        old.unlink()
    tid, carla = live.run(seed)
    context = new_context(viewport=DESKTOP)
    page = context.new_page()
    login(page, live.url, "Carla", PASSWORD)
    page.goto(f"{live.url}/tornei/?tipo=sitgo&t={tid}")
    row = page.locator(f"tr[data-tournament='{tid}']")
    assert "Slot" in row.inner_text() and "2 min" in row.inner_text()
    page.goto(f"{live.url}/tornei/{tid}/")
    page.click("[data-testid=register]")
    page.wait_for_selector("[data-testid=my-registration]")
    assert live.run(fill_and_start, tid) == "running"

    # the tournament's call takes the lobby left open to her slot
    page.wait_for_url(f"**/tornei/{tid}/slot/", timeout=30_000)
    page.wait_for_selector(f"{SLOT}[data-connected='1'][data-idle='1']")
    assert page.inner_text("[data-testid=credit]") == "100.000"
    assert re.fullmatch(r"[0-2]:[0-5]\d", page.inner_text("[data-testid=clock]"))
    assert page.inner_text("[data-testid=position]") == "1° su 4"  # everyone level: first ex aequo
    assert page.locator("[data-testid=standings] li").count() == 4
    shot(page, "slot-start")
    assert live.run(bots_play, tid) > 0

    # the bet: + + − (1 → 2 → 3 → 2), total 60; the sound switch is remembered on this device
    page.click("[data-testid=bet-up]")
    page.click("[data-testid=bet-up]")
    assert page.inner_text("[data-testid=unit]") == "3"
    page.click("[data-testid=bet-down]")
    assert page.inner_text("[data-testid=unit]") == "2" and page.inner_text("[data-testid=total-bet]") == "60"
    page.click("[data-testid=sound]")
    assert page.get_attribute("[data-testid=sound]", "aria-pressed") == "true"
    assert page.evaluate("() => localStorage.getItem('slot-audio')") == "on"

    # the paytable (with the 30 lines) and the rules open as dialogs
    page.click("[data-testid=open-paytable]")
    assert page.locator("[data-testid=paytable] .slot-linemap").count() == 30
    assert "750" in page.inner_text("[data-testid=pay-C]")
    page.screenshot(path=str(SHOTS / "paytable-desktop.png"))
    page.click("[data-testid=close-paytable]")
    page.click("[data-testid=open-rules]")
    assert "Puntata Massima" in page.inner_text("[data-testid=rules]")
    page.click("[data-testid=close-rules]")

    # the bonus: Serrature on reels 1–3, the Maestra behind door 2, then the Preside
    script(BONUS)
    v = spin_and_stop(page)
    state = live.run(session, tid, carla)
    assert state["state"]["phase"] == "bonus" and state["version"] == v
    assert reels_show(page) == state["state"]["spin"]["window"]  # Stop showed the result at once
    page.wait_for_selector("[data-testid=door-1]")
    shot(page, "slot-bonus")
    page.click("[data-testid=door-1]")
    page.wait_for_selector("[data-testid=bonus-levels] li.is-current >> text=2°")
    page.click("[data-testid=door-2]")
    page.wait_for_selector("[data-testid=feature] >> text=Bonus vinto: 600")
    page.click("[data-testid=feature-continue]")
    idle(page)
    spin_won = 600 + sum(w["pay"] for w in state["state"]["spin"]["lines"])
    assert page.inner_text("[data-testid=win]") == chips(spin_won)
    credit = live.run(session, tid, carla)["credit"]
    assert credit == 100_000 - 60 + spin_won and page.inner_text("[data-testid=credit]") == chips(credit)

    # Pierino: five on the reels pay 50 × 60 and the wheel turns; green: the mode's 10 spins
    script(PIERINO)
    spin_and_stop(page)
    page.wait_for_selector("[data-testid=wheel-start]")
    shot(page, "slot-wheel")
    page.click("[data-testid=wheel-start]")
    page.wait_for_selector("[data-testid=pierino-banner]")
    shot(page, "slot-pierino")
    page.click("[data-testid=pierino-skip]")
    won = page.wait_for_selector("[data-testid=feature] >> text=/Pierino: \\d+ punti, vinci [\\d.]+ chips/")
    assert "50.000 chips" in won.inner_text() or "100.000 chips" in won.inner_text()
    page.click("[data-testid=feature-continue]")
    idle(page)

    # free spins: three Fionde, a slate of +2 spins, then the Preside; 10 free spins, shown
    script(FREE)
    spin_and_stop(page)
    page.wait_for_selector("[data-testid=slate-0]")
    assert page.get_attribute(SLOT, "data-last-error") is None, page.get_attribute(SLOT, "data-last-error")
    assert "8 giri gratuiti" in page.inner_text("[data-testid=free-info]")
    shot(page, "slot-slates")
    page.click("[data-testid=slate-4]")
    page.wait_for_selector("[data-testid=free-info] >> text=10 giri gratuiti")
    page.click("[data-testid=slate-7]")
    page.wait_for_selector("[data-testid=free-banner]")
    page.click("[data-testid=free-skip]")
    page.wait_for_selector("[data-testid=feature] >> text=Free spin finiti: 10 giri")
    page.click("[data-testid=feature-continue]")
    idle(page)
    assert live.run(bots_play, tid) > 0

    # Auto Start for 5 spins (whatever they bring is answered), then Puntata Massima
    before = live.run(session, tid, carla)["state"]["spins"]
    page.select_option("[data-testid=auto-n]", "5")
    page.click("[data-testid=auto]")
    page.wait_for_selector("[data-testid=auto][data-mode=stop]")
    for _ in range(10):
        settle(page)
        if page.get_attribute("[data-testid=auto]", "data-mode") == "start":
            break
        page.wait_for_selector(f"{SLOT}[data-idle='0']")
    spins = live.run(session, tid, carla)["state"]["spins"]
    assert before < spins <= before + 5
    at = version(page)
    page.click("[data-testid=max-bet]")
    page.wait_for_function(f"() => Number(document.querySelector('{SLOT}').dataset.version) > {at}")
    settle(page)
    assert page.inner_text("[data-testid=unit]") == "100"
    last = live.run(session, tid, carla)
    assert last["state"]["spin"]["unit"] == 100 and last["state"]["spins"] == spins + 1
    page.locator("[data-testid=win-box]").click()  # skips a count still running
    shot(page, "slot-playing")

    # her clock runs out on the page (the test's short duration); the end of time, the ranking
    # and the prizes follow
    live.run(time_runs_out_soon, tid)
    page.wait_for_selector("[data-testid=clock-panel] >> text=Tempo scaduto")
    assert page.inner_text("[data-testid=clock]") == "0:00"
    assert page.is_disabled("[data-testid=spin]")
    assert live.run(end_of_time, tid) == "finished"
    page.wait_for_selector("[data-testid=slot-placing]", timeout=15_000)
    money = live.run(pay, tid)
    assert money["paid"] and money["pool"] == 0 and money["ledger"] == 0
    assert sum(money["prizes"].values()) == ENTRANTS * POOL_QUOTA
    position, prize = money["carla"]
    assert position == 1  # the Pierino mode's chips put her far ahead of the bots' small bets
    page.wait_for_selector(f"{SLOT}[data-finished=paid]", timeout=15_000)
    assert page.inner_text("[data-testid=slot-placing]") == f"Il tuo piazzamento: {position}° su {ENTRANTS}"
    assert page.inner_text("[data-testid=slot-prize]") == f"Premio: € {prize // 100},{prize % 100:02d}"
    shot(page, "slot-end")

    page.click("[data-testid=back-to-tournament]")
    page.wait_for_selector("[data-testid=results]")
    assert f"{position}° su {ENTRANTS}" in page.inner_text("[data-testid=my-position]")
    assert f"€ {prize // 100},{prize % 100:02d}" in page.inner_text("[data-testid=my-prize]")
    assert not context.page_errors, context.page_errors
