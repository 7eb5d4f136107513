"""A person plays a Poker 5 carte freezeout sit&go of 6 against bots to the end, in Chromium.

Real pages and sockets (Daphne in a thread): Carla registers on the tournament lobby, the demo's
filler brings five bots, the sit&go starts on two tables of 3 and the tournament's
call takes her page to her table. She plays every decision on the page (she folds what she can:
PASSO); the bots bet the most they may and call everything, so they go out fast. The hands'
settling, the bots' moves and the tournament's advance between hands are what the Celery tasks
would do (the tests run no worker: they are called through the server's thread), the level clock
driven by the test (30 s a hand played, so the superturbo's invito rises every 6 hands).

The random list seats her second, at table 2 with two bots (tables of up to 5: 3 and 3); the bots
of table 1 play calm (they fold what they may) until a player goes out at table 2: the five left
fit in one table and table 2, the smaller, is broken (``balancing.balance``), so she is moved,
and her page follows by itself with a notice. Checked on the way: the level strip above the felt
(level, invito, the next one with its countdown, players left, her position and the average) and
the tournament lobby's chip counts. At the end: her placing, prize, PT and leaderboard position on the lobby,
as stored. Screenshots at desktop (1366×768) and phone (390×844) sizes in /tmp/shots-level/.
"""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

import pytest

from tests.e2e.live import (
    STATIC_FILES_WARNING,
    TABLE,
    click_action,
    login,
    play_card,
    resize,
    wait_connected,
    wait_version,
)
from tests.piattaforma.factories import PASSWORD

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings(STATIC_FILES_WARNING),
]
SHOTS = Path(os.environ.get("LEVEL_SHOTS", "/tmp/shots-level"))  # noqa: S108  # screenshots to look at
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
ENTRANTS, CHIPS, INVITO = 6, 200, 20
HAND_S = 30  # the level clock: 30 s a hand played (the superturbo's level lasts 6 hands)
# The table whose bots play calm (PASSO whenever they may) while two tables are open; set by ``step``
# around each table's bot moves, read by ``bold_bot`` (both run on the server's one sync thread).
BOTS = {"calm": None, "at": None}
# What Carla presses, first found first: the dealer's choices, then folding whatever she can.
CAREFUL = (
    "invito",
    "variante",
    "dai_carte",
    "passo",
    "passo_parol",
    "cambio",
    "va_bene",
    "vedo",
    "busso",
    "mostro",
)


def seed(game: str = "poker5", name: str = "Poker freezeout di prova") -> tuple[int, int]:
    from piattaforma import roles
    from tests.piattaforma.factories import UserFactory
    from tests.tournaments.factories import make_tournament
    from tests.wallet.factories import funded_player
    from tournaments.models import Tournament

    carla = funded_player(10_000, nickname="Carla")
    t = make_tournament(
        UserFactory(role=roles.STAFF),
        name=name,
        game=game,
        format=Tournament.Format.FREEZEOUT,
        kind=Tournament.Kind.SITGO,
        max_players=ENTRANTS,
        pool_quota=450,
        fee=50,
        starting_chips=CHIPS,
        seats_per_table=5,
        speed=Tournament.Speed.SUPERTURBO,
        first_invito=INVITO,
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


def step(tournament_id: int, person: int) -> dict:
    """One step of the tables: a hand over is settled (its due start), the bots make their moves,
    the tournament advances (its clock: ``HAND_S`` a hand played). Returns the person's table and
    whether she must decide now (with the version her page must show first)."""
    from games import registry
    from lobby import door
    from lobby.models import Hand
    from lobby.selectors import runtime_now
    from tournaments import running
    from tournaments.models import Tournament, TournamentMatch

    t = Tournament.objects.get(pk=tournament_id)
    if t.state == Tournament.State.RUNNING:
        open_tables = TournamentMatch.objects.filter(tournament=t, ended_at__isnull=True)
        mine = t.progress["seating"].get(str(person), [None])[0]
        others = [m.table_id for m in open_tables if m.table_id != mine]
        BOTS["calm"] = others[0] if len(others) == 1 and len(open_tables) == 2 else None
        for m in open_tables:
            rt = runtime_now(m.table_id)
            engine = registry.get(rt.game or rt.table.game)
            if rt.state is None or engine.is_over(rt.state):
                if Hand.objects.filter(
                    table_id=m.table_id, number=rt.hand_no, ended_at__isnull=True
                ).exists():
                    door.table_start_hand(table_id=m.table_id)
                continue
            BOTS["at"] = m.table_id
            door.table_bot_move(table_id=m.table_id, version=rt.version)
            BOTS["at"] = None
        clock = t.started_at + timedelta(seconds=HAND_S * t.progress["hands"])
        running.tournament_advance(tournament_id=t.pk, now=clock)
        t.refresh_from_db()
    out = {"state": t.state, "table": None, "version": 0, "to_act": False, "seat": None}
    where = (t.progress or {}).get("seating", {}).get(str(person))
    if t.state == Tournament.State.RUNNING and where:
        rt = runtime_now(where[0])
        engine = registry.get(rt.game or rt.table.game)
        out["table"], out["seat"], out["version"] = where[0], where[1], rt.version
        out["to_act"] = (
            rt.state is not None and not engine.is_over(rt.state) and where[1] in engine.to_act(rt.state)
        )
    return out


def pay(tournament_id: int) -> dict:
    """Pay the prizes; the results as the turn tournaments' test reads them, with Carla's and the moves."""
    from tests.e2e.test_tournament_play import results
    from tournaments import running
    from tournaments.models import Registration, Tournament

    running.tournament_pay(tournament_id=tournament_id)
    t = Tournament.objects.get(pk=tournament_id)
    carla = Registration.objects.get(tournament=t, state="admitted", user__nickname="Carla")
    return {
        **results(tournament_id),
        "carla": (carla.position, carla.prize, carla.pt),
        "moves": t.progress["moves"],
    }


def bold_bot(engine, state, seat, rng):
    """The bots bet the most they may and call everything (a change of cards drawn at random); at
    the calm table they fold whatever they may, so nobody goes out there before the person's
    table loses a player."""
    from lobby.bots import AVOID

    legal = [spec for spec in engine.legal_actions(state, seat) if spec["type"] not in AVOID]
    if BOTS["at"] is not None and BOTS["at"] == BOTS["calm"]:
        for kind in ("passo", "passo_parol", "dai_carte", "variante", "invito"):
            spec = next((s for s in legal if s["type"] == kind), None)
            if spec is not None:
                return {k: v for k, v in spec.items() if k not in ("label", "confirm")}
    bets = [spec for spec in legal if isinstance(spec.get("amount"), dict)]
    if bets:
        return {"type": bets[-1]["type"], "amount": bets[-1]["amount"]["max"]}
    for kind in ("vedo", "busso", "va_bene", "mostro", "partecipo", "dai_carte", "variante", "invito"):
        spec = next((s for s in legal if s["type"] == kind), None)
        if spec is not None:
            return {k: v for k, v in spec.items() if k not in ("label", "confirm")}
    return engine.sample_action(state, seat, rng)


def seated_second(person: list[int]):
    """The random list with the person second: seat_tables deals her to table 2."""
    from tournaments.formats.draw import RandomList, draw_random_list

    def draw(entrants, rng):
        drawn = draw_random_list(entrants, rng)
        order = [e for e in drawn.order if e != str(person[0])]
        order.insert(1, str(person[0]))
        return RandomList(tuple(order))

    return draw


def play_my_turn(page, version: int, seat: int, careful: tuple[str, ...] = CAREFUL) -> None:
    wait_version(page, version)
    page.wait_for_selector(f"{TABLE} [data-role=seats] [data-seat='{seat}'].me.to-act")
    buttons = page.eval_on_selector_all(
        f"{TABLE} [data-role=actions] button[data-action]", "bs => bs.map(b => b.dataset.action)"
    )
    choice = next((kind for kind in careful if kind in buttons), None)
    playable = page.locator(f"{TABLE} [data-role=hand] [data-playable]").count()
    if choice is None and playable:  # a card to choose (Telesina's card shown): the first one
        play_card(page)
        return
    assert choice, f"no careful action among {buttons}"
    click_action(page, choice)


def shot(page, name: str, *, phone: bool = False) -> None:
    if phone:
        resize(page, PHONE)
    size = "phone" if phone else "desktop"
    page.screenshot(path=str(SHOTS / f"{name}-{size}.png"), full_page="/tavolo/" not in page.url)
    if phone:
        resize(page, DESKTOP)


def strip_text(page) -> str:
    return page.inner_text("[data-testid=level-info]")


def test_a_person_plays_a_poker_freezeout_through_and_is_moved(asgi_live, new_context, monkeypatch):
    live = asgi_live
    monkeypatch.setattr("lobby.bots.bot_action", bold_bot)
    SHOTS.mkdir(exist_ok=True)
    for old in SHOTS.glob("*.png"):
        old.unlink()
    tid, carla = live.run(seed)
    monkeypatch.setattr("tournaments.freezeout.draw_random_list", seated_second([carla]))
    page = new_context(viewport=DESKTOP).new_page()
    login(page, live.url, "Carla", PASSWORD)
    page.goto(f"{live.url}/tornei/{tid}/")
    page.click("[data-testid=register]")
    page.wait_for_selector("[data-testid=my-registration]")
    assert live.run(fill_and_start, tid) == "running"

    # the tournament's call takes the lobby left open to her table (table 2)
    first = live.run(step, tid, carla)
    page.wait_for_url(f"**/lobby/tavolo/{first['table']}/", timeout=30_000)
    wait_connected(page)
    page.wait_for_selector("[data-testid=level-info]:not([hidden])")
    strip = strip_text(page)
    assert re.search(r"Livello 1 · invito 20\b", strip), strip
    assert re.search(r"poi 40 tra [0-3]:\d\d", strip) and "Rimasti 6/6" in strip and "Media 200" in strip, (
        strip
    )
    assert "Posizione 1° · 200 chips" in strip, strip  # everyone level: first ex aequo
    assert "€" not in page.inner_text(f"{TABLE} [data-role=seats]")  # chips, not money
    shot(page, "table-start")
    shot(page, "table-start", phone=True)

    moved_to = None
    for _ in range(1500):
        now = live.run(step, tid, carla)
        if now["state"] != "running" or now["table"] is None:
            break  # the end, or she is out
        if now["table"] != first["table"] and moved_to is None:
            moved_to = now["table"]
            # her page follows her by itself (the call), and says why
            page.wait_for_url(f"**/lobby/tavolo/{moved_to}/", timeout=30_000)
            wait_connected(page)
            notice = page.wait_for_selector("[data-testid=table-change-notice]:not([hidden])")
            assert re.search(r"Cambio di tavolo: ora giochi al tavolo 1\b", notice.inner_text())
            page.wait_for_function(
                "() => /Rimasti [1-5]\\/6/.test(document.querySelector('[data-testid=level-info]').innerText)"
            )
            shot(page, "table-moved")
            shot(page, "table-moved", phone=True)
            lobby = new_context(viewport=PHONE).new_page()
            login(lobby, live.url, "Carla", PASSWORD)
            lobby.goto(f"{live.url}/tornei/{tid}/")
            counts = lobby.inner_text("[data-testid=chip-counts]")
            assert "Classifica in corso" in counts and "Carla" in counts and "Eliminati" in counts, counts
            assert lobby.locator("[data-testid=level-table]").count() == 1  # table 2 broken
            lobby.screenshot(path=str(SHOTS / "lobby-running-phone.png"), full_page=True)
            lobby.set_viewport_size(DESKTOP)
            lobby.screenshot(path=str(SHOTS / "lobby-running-desktop.png"), full_page=True)
            lobby.context.close()
        if now["to_act"]:
            play_my_turn(page, now["version"], now["seat"])
    else:
        raise AssertionError("the freezeout did not end")
    assert moved_to is not None, "Carla was never moved"

    # the tournament ends without her (or she has won it)
    for _ in range(1500):
        if live.run(step, tid, carla)["state"] == "finished":
            break
    else:
        raise AssertionError("the freezeout did not end")
    money = live.run(pay, tid)
    assert money["paid"] and money["pool"] == 0 and money["ledger"] == 0
    assert sum(money["prizes"].values()) == ENTRANTS * 450
    assert [m[0] for m in money["moves"]].count(str(carla)) >= 1
    position, prize, pt = money["carla"]
    end = page.wait_for_selector("[data-testid=level-finished]:not([hidden])")
    assert f"Il tuo piazzamento: {position}°." in end.inner_text()
    shot(page, "table-end")

    page.goto(f"{live.url}/tornei/{tid}/")
    mine = page.inner_text("[data-testid=my-result]")
    assert f"{position}° su {ENTRANTS}" in page.inner_text("[data-testid=my-position]"), mine
    if prize:
        assert f"€ {prize // 100},{prize % 100:02d}" in page.inner_text("[data-testid=my-prize]"), mine
    else:
        assert "nessun premio" in page.inner_text("[data-testid=my-prize]"), mine
    assert pt is not None and "PT" in page.inner_text("[data-testid=my-pt]"), mine
    assert "1° su 1" in page.inner_text("[data-testid=my-board]"), mine  # bots do not rank
    results = page.inner_text("[data-testid=results]")
    assert "Carla" in results
    shot(page, "lobby-end")
    shot(page, "lobby-end", phone=True)
