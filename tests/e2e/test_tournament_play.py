"""Two people and six bots play a Danese sit&go of 8 through, on live tables, in Chromium.

Real pages and sockets (Daphne in a thread): both register on the tournament lobby, bots fill the
rest (the demo's filler), the sit&go starts, each person presses "Vai al tuo tavolo" (from the
next turn on, the tournament takes him there from his finished table by itself) and plays every
card of his match by clicking it; the bots' moves and the turn changes
are what the Celery tasks would do (the tests run no worker: they are called through the server's
thread). At the end both see the standings per turn and the final results, and their conto.
Screenshots at desktop (1366×900) and phone (390×844) sizes in /tmp/shots-tt/.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest

from tests.e2e.live import TABLE, carla_and_dario_sitgo, login, play_card, wait_connected, wait_version
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path(os.environ.get("TOURNAMENT_SHOTS", "/tmp/shots-tt"))  # noqa: S108  # the brief's folder
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}


def seed() -> int:
    return carla_and_dario_sitgo("Scopa danese sit&go 8", max_players=8, turns=3)


def fill_and_start(tournament_id: int) -> str:
    from django.utils import timezone

    from tests.tournaments.conftest import authorise_all
    from tournaments import demo, running
    from tournaments.models import Tournament

    t = Tournament.objects.get(pk=tournament_id)
    authorise_all(t)
    demo.sitgo_fill_with_bots(tournament_id=t.pk, now=timezone.now() + timedelta(seconds=11))
    running.tournament_start(tournament_id=t.pk)
    return Tournament.objects.get(pk=t.pk).state


def turn_state(tournament_id: int) -> dict:
    """Open tables of the current turn: who (user id) must act at each, and the table's version.

    Read as it is now (``runtime_now``): on the owner runtime the row lags the journal's steps.
    """
    from games import registry
    from lobby.models import Seat
    from lobby.selectors import runtime_now
    from tournaments.models import Tournament, TournamentMatch

    t = Tournament.objects.get(pk=tournament_id)
    out = {"state": t.state, "turn": t.turn, "tables": {}}
    for m in TournamentMatch.objects.filter(tournament=t, turn=t.turn, ended_at__isnull=True):
        rt = runtime_now(m.table_id)
        assert rt is not None
        engine = registry.get(rt.game or rt.table.game)
        seats = dict(Seat.objects.filter(table_id=rt.pk).values_list("number", "user_id"))
        due = [] if rt.state is None or engine.is_over(rt.state) else engine.to_act(rt.state)
        out["tables"][rt.pk] = {"version": rt.version, "to_act": [seats.get(s) for s in due]}
    return out


def my_tables(tournament_id: int, nicknames: list[str]) -> dict[str, int]:
    """Each person's table of the current turn."""
    from piattaforma.models import User
    from tournaments.models import Tournament
    from tournaments.selectors import current_matches

    t = Tournament.objects.get(pk=tournament_id)
    out = {}
    for user in User.objects.filter(nickname__in=nicknames):
        (mine,) = [m for m in current_matches(tournament=t, user_id=user.pk) if m["mine"]]
        out[user.nickname] = mine["table_id"]
    return out


def people_ids(nicknames: list[str]) -> dict[int, str]:
    from piattaforma.models import User

    return dict(User.objects.filter(nickname__in=nicknames).values_list("pk", "nickname"))


def move_bots(tournament_id: int) -> int:
    from lobby import door
    from lobby.selectors import runtime_now
    from tournaments.models import Tournament, TournamentMatch

    t = Tournament.objects.get(pk=tournament_id)
    ids = TournamentMatch.objects.filter(tournament=t, turn=t.turn, ended_at__isnull=True).values_list(
        "table_id", flat=True
    )
    return sum(door.table_bot_move(table_id=pk, version=runtime_now(pk).version) for pk in ids)


def advance_and_pay(tournament_id: int) -> str:
    from tournaments import running
    from tournaments.models import Tournament

    running.tournament_advance(tournament_id=tournament_id)
    running.tournament_pay(tournament_id=tournament_id)
    return Tournament.objects.get(pk=tournament_id).state


def results(tournament_id: int) -> dict:
    from tests.tournaments.running_helpers import ledger_zero, pool
    from tournaments.models import Registration, Tournament

    t = Tournament.objects.get(pk=tournament_id)
    regs = Registration.objects.filter(tournament=t, state="admitted").select_related("user")
    return {
        "pool": pool(t),
        "ledger": ledger_zero(),
        "prizes": {r.user.nickname: r.prize for r in regs},
        "paid": t.paid_at is not None,
    }


def weak_bot(engine, state, seat, rng):
    """The bots of this test throw a card away whenever they may (a capture only when forced), so
    the people, who take what the first card takes, usually end in the prizes (deals are seeded)."""
    plays = [a for a in engine.legal_actions(state, seat) if a.get("type") == "gioca"]
    discard = [a for a in plays if not a.get("take")]
    chosen = (discard or plays)[0]
    return {k: v for k, v in chosen.items() if k in ("type", "card", "take")}


def test_two_people_and_bots_play_a_danese_sitgo_through(asgi_live, new_context, monkeypatch):
    live = asgi_live
    monkeypatch.setattr("lobby.bots.bot_action", weak_bot)
    SHOTS.mkdir(exist_ok=True)
    for old in SHOTS.glob("*.png"):
        old.unlink()
    tid = live.run(seed)
    people = {}
    for nickname, (size_name, viewport) in zip(("Carla", "Dario"), SIZES.items(), strict=True):
        page = new_context().new_page()
        page.set_viewport_size(viewport)
        login(page, live.url, nickname, PASSWORD)
        page.goto(f"{live.url}/tornei/{tid}/")
        page.click("[data-testid=register]")
        page.wait_for_selector("[data-testid=my-registration]")
        people[nickname] = (page, size_name)
    assert live.run(fill_and_start, tid) == "running"
    user_ids = live.run(people_ids, list(people))
    for turn in (1, 2, 3):
        tables = live.run(my_tables, tid, list(people))
        for nickname, (page, size) in people.items():
            if turn == 1:
                # the lobby left open since the registration shows the start by itself
                page.wait_for_selector("[data-testid=matches]", timeout=20_000)
                page.screenshot(path=str(SHOTS / f"lobby-running-{size}.png"), full_page=True)
                page.click("[data-testid=my-table]")
            else:
                # from his finished table the tournament takes him to the next turn's by itself
                page.wait_for_url(f"**/lobby/tavolo/{tables[nickname]}/")
            wait_connected(page)
            assert page.locator("[data-testid=back-to-tournament]").is_visible()  # no buy-in, no rebuy
            assert page.locator("form[action$='/ricarica/']").count() == 0
        shot_taken = False
        for _ in range(400):
            state = live.run(turn_state, tid)
            if not state["tables"]:
                break
            moved = live.run(move_bots, tid)
            for info in state["tables"].values():
                for uid in info["to_act"]:
                    if uid in user_ids:
                        page, size = people[user_ids[uid]]
                        wait_version(page, info["version"])
                        page.wait_for_selector(f"{TABLE} [data-role=hand] [data-playable]")
                        if not shot_taken:
                            page.screenshot(path=str(SHOTS / f"table-turn{turn}-{size}.png"), full_page=True)
                            shot_taken = True
                        play_card(page)
                        moved += 1
            assert moved or not state["tables"], state
        else:
            raise AssertionError("the turn did not end")
        state = live.run(advance_and_pay, tid)
        assert state == ("finished" if turn == 3 else "running")
    money = live.run(results, tid)
    assert money["paid"] and money["pool"] == 0 and money["ledger"] == 0
    assert sum(money["prizes"].values()) == 8 * 900  # the whole pool, by the 10 column (K1)
    assert money["prizes"]["Carla"] or money["prizes"]["Dario"], money  # a person is in the prizes
    for nickname, (page, size) in people.items():
        page.goto(f"{live.url}/tornei/{tid}/")
        page.wait_for_selector("[data-testid=results]")
        assert "Dopo il turno 3" in page.inner_text("[data-testid=standings]")
        assert nickname in page.inner_text("[data-testid=results]")
        page.screenshot(path=str(SHOTS / f"lobby-finished-{size}.png"), full_page=True)
        page.goto(f"{live.url}/conto/movimenti/")
        text = page.inner_text("main")
        assert "Iscrizione al torneo" in text
        if money["prizes"][nickname]:
            assert "Vincita torneo" in text
            assert f"+€ {money['prizes'][nickname] // 100},{money['prizes'][nickname] % 100:02d}" in text
        page.screenshot(path=str(SHOTS / f"conto-{size}.png"), full_page=True)
        page.goto(f"{live.url}/profilo/")
        assert "Scopa danese sit&go 8" in page.inner_text("[data-testid=my-tournaments]")
        page.screenshot(path=str(SHOTS / f"profile-{size}.png"), full_page=True)
