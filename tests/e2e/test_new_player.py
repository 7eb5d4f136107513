"""A brand-new player's first visit to the training section, in Chromium, end to end.

Real pages and sockets (Daphne in a thread). He signs up on the sign-up page and finds his
welcome gettoni in "Allenamento"; he sits at a training Scopa table where a bot plays (one
smazzata a match), presses "Sono pronto" and plays every card by clicking it; he reads the
Scopa rules from the table ("Regole", a new tab), changes an option at the table ("Opzioni"),
and downloads the match's hand history as text from "Le mie mani". Then he registers for a
training sit&go, bots fill it, the tournament's call takes him to his table and he plays his
match through to the results. The bots' moves, the sit&go's fill and its turn's end are what the
Celery tasks would do (the tests run no worker: they are called through the server's thread).

Screenshots at 1366×900 and 390×844 in test-artifacts/ (new-player-*.png).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.live import (
    STATIC_FILES_WARNING,
    TABLE,
    play_card,
    resize,
    runtime_info,
    sit_down,
    start_match,
    wait_connected,
    wait_version,
    wait_watching,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings(STATIC_FILES_WARNING),
]

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
NICKNAME = "Esordiente"
PASSWORD = "Primiera-Napoli-21"
BUY_IN = "50,00"  # gettoni, typed as a person does


def training_room() -> dict:
    """A training Scopa table (one smazzata a match) with a bot seated, and a training sit&go of 2."""
    from datetime import date

    from lobby import door
    from piattaforma import roles
    from piattaforma.models import User
    from tests.lobby.factories import scopa_table
    from tests.piattaforma.factories import UserFactory
    from tests.tournaments.factories import make_tournament
    from tournaments.models import Tournament
    from wallet import actions as wallet

    bot = User.objects.create_user(
        nickname="bot.scopa", email="bot.scopa@demo.invalid", password=None, date_of_birth=date(2000, 1, 1)
    )
    User.objects.filter(pk=bot.pk).update(is_bot=True)
    wallet.play_money_top_up(user=bot, amount=100_000, idempotency_key="bot-gettoni")
    table = scopa_table(
        name="Scopa Allenamento", realm="play", rake_bp=0, config={"mode": "smazzate", "deals": 1}
    )
    door.table_sit(table_id=table.pk, user=bot, seat_no=2, buy_in=5_000, idempotency_key="bot-sit")
    t = make_tournament(
        UserFactory(role=roles.STAFF),
        name="Sit&go di allenamento",
        kind=Tournament.Kind.SITGO,
        format=Tournament.Format.DANESE,
        training=True,
        pool_quota=0,
        fee=0,
        max_players=2,
        turns=1,
        smazzate=1,
    )
    return {"table": table.pk, "tournament": t.pk}


def bot_moves(table_id: int) -> int:
    """The table's bots make the moves due now (the ``lobby.bot_move`` task's work)."""
    from lobby import door
    from lobby.selectors import runtime_now

    rt = runtime_now(table_id)
    return door.table_bot_move(table_id=table_id, version=rt.version) if rt is not None else 0


def play_match(live, page, table_id: int, my_seat: int) -> int:
    """Until the match is over: he clicks a card when it is his turn, the bots move in theirs."""
    played = 0
    for _ in range(120):
        info = live.run(runtime_info, table_id)
        if info["over"]:
            return played
        if my_seat in info["to_act"]:
            wait_version(page, info["version"])
            page.wait_for_selector(f"{TABLE} [data-role=seats] [data-seat='{my_seat}'].me.to-act")
            play_card(page)
            played += 1
        else:
            assert live.run(bot_moves, table_id), info
    raise AssertionError("the match did not end")


def fill_and_start(tournament_id: int) -> str:
    """The demo's filler brings a bot to the sit&go once a person waited in it; it starts."""
    from datetime import timedelta

    from django.utils import timezone

    from tournaments import demo, running
    from tournaments.models import Tournament

    demo.sitgo_fill_with_bots(tournament_id=tournament_id, now=timezone.now() + timedelta(seconds=11))
    running.tournament_start(tournament_id=tournament_id)
    return Tournament.objects.get(pk=tournament_id).state


def my_match(tournament_id: int, nickname: str) -> dict:
    """His table and seat in the sit&go's current turn."""
    from lobby.models import Seat
    from tournaments.models import TournamentMatch

    match = TournamentMatch.objects.filter(tournament_id=tournament_id, ended_at__isnull=True).get()
    seat = Seat.objects.get(table_id=match.table_id, user__nickname=nickname)
    return {"table": match.table_id, "seat": seat.number}


def finish(tournament_id: int) -> str:
    """The turn's end as the tournament's task sees it, and the prizes (none: training)."""
    from tournaments import running
    from tournaments.models import Tournament

    running.tournament_advance(tournament_id=tournament_id)
    running.tournament_pay(tournament_id=tournament_id)
    return Tournament.objects.get(pk=tournament_id).state


def shots(page, artifacts, name: str, *, full_page: bool = True) -> None:
    """The page at the laptop's size, then at the phone's, and back."""
    page.screenshot(path=str(artifacts / f"new-player-{name}-desktop.png"), full_page=full_page)
    resize(page, PHONE)
    page.screenshot(path=str(artifacts / f"new-player-{name}-phone.png"), full_page=full_page)
    resize(page, DESKTOP)


def sign_up(page, url: str) -> None:
    page.goto(f"{url}/account/registrati/")
    page.fill("#id_nickname", NICKNAME)
    page.fill("#id_email", "esordiente@example.invalid")
    page.fill("#id_date_of_birth", "1980-07-15")
    page.fill("#id_first_name", "Carlo")
    page.fill("#id_last_name", "Settembrini")
    page.select_option("#id_sex", "M")
    page.fill("#id_codice_fiscale", "STTCRL80L15L219L")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.check("input[name=limiti-choice][value=defaults]")
    page.check("#id_accetto")
    page.click("main button[type=submit]")
    page.wait_for_selector("[data-testid=nickname]")


def test_a_new_player_signs_up_and_plays_in_the_training_section(asgi_live, new_context, artifacts, tmp_path):
    live = asgi_live
    room = live.run(training_room)
    table_id, tournament_id = room["table"], room["tournament"]
    context = new_context(viewport=DESKTOP, accept_downloads=True)
    page = context.new_page()

    # signs up, and his welcome gettoni wait for him in the training section
    sign_up(page, live.url)
    page.goto(f"{live.url}/lobby/allenamento/")
    expect(page.locator("[data-testid=gettoni]")).to_have_text("1.000 gettoni")
    expect(page.locator("[data-testid=training-tournaments]")).to_contain_text("Sit&go di allenamento")
    shots(page, artifacts, "training-lobby")

    # a training Scopa table with a bot: he sits with gettoni and plays the match through
    page.click(f"#lobby-tables tr[data-table='{table_id}'] a")
    wait_watching(page)
    sit_down(page, 1, BUY_IN)
    start_match(live, table_id, {1: page})
    shots(page, artifacts, "training-table", full_page=False)
    assert play_match(live, page, table_id, my_seat=1) >= 18  # 40 cards, 4 on the table: 18 each
    wait_version(page, live.run(runtime_info, table_id)["version"])
    assert page.get_attribute(TABLE, "data-over") == "1"
    another = re.compile("altra partita", re.IGNORECASE)
    expect(page.locator(f"{TABLE} [data-role=ready]")).to_contain_text(another)
    assert "€" not in page.locator(f"{TABLE} [data-role=seats]").inner_text()  # gettoni, never euro
    expect(page.locator(f"{TABLE} .motion-ghost")).to_have_count(0)  # the last cards have landed
    shots(page, artifacts, "training-match-over", full_page=False)

    # "Regole": the Scopa rules, from the table, in a new tab
    with context.expect_page() as opened:
        page.click("[data-testid=table-rules]")
    rules = opened.value
    rules.wait_for_load_state()
    expect(rules.locator("h1")).to_contain_text("Scopa")
    assert "/regole/" in rules.url
    shots(rules, artifacts, "scopa-rules")
    rules.close()

    # "Opzioni": the deck's style, changed at the table, from the next match on
    page.click("[data-testid=table-options]")
    dialog = page.get_by_role("dialog", name="Opzioni di gioco · Scopa")
    expect(dialog).to_be_visible()
    page.select_option("#opzioni_stile_mazzo", "francesi")
    page.click("[data-testid=options-save]")
    expect(page.locator("[data-testid=options-status]")).to_contain_text("Opzioni di gioco salvate.")
    shots(page, artifacts, "table-options", full_page=False)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    # his match's history, downloaded as text from "Le mie mani"
    page.goto(f"{live.url}/lobby/le-mie-mani/")
    link = page.locator("[data-testid=hand-text]").first
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.suggested_filename.startswith("mano-") and download.suggested_filename.endswith(".txt")
    path = tmp_path / download.suggested_filename
    download.save_as(path)
    text = path.read_text(encoding="utf-8")
    assert "Scopa" in text and f"{NICKNAME} (tu)" in text and "bot.scopa" in text
    shots(page, artifacts, "my-hands")

    # a training sit&go: he registers, a bot fills it, the call takes him to his table
    page.goto(f"{live.url}/lobby/allenamento/")
    page.click("[data-testid=training-tournaments] a:has-text('Sit&go di allenamento')")
    page.click("[data-testid=register]")
    page.wait_for_selector("[data-testid=my-registration]")
    shots(page, artifacts, "sitgo-registered")
    assert live.run(fill_and_start, tournament_id) == "running"
    mine = live.run(my_match, tournament_id, NICKNAME)
    page.wait_for_selector("[data-testid=matches]")
    page.click("[data-testid=my-table]")
    page.wait_for_url(f"**/lobby/tavolo/{mine['table']}/")
    wait_connected(page)
    shots(page, artifacts, "sitgo-table", full_page=False)
    assert play_match(live, page, mine["table"], my_seat=mine["seat"]) >= 18
    assert live.run(finish, tournament_id) == "finished"
    page.goto(f"{live.url}/tornei/{tournament_id}/")
    expect(page.locator("[data-testid=results]")).to_contain_text(NICKNAME)
    shots(page, artifacts, "sitgo-results")
