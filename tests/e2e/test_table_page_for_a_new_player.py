"""The table page as a new player meets it, on real pages (Daphne, Chromium).

The page tells a seat short of the perdita massima and tops it up from the felt, puts the end of
match scores on their own seats, takes bets in euro (and keeps an amount being typed when the
table is redrawn), says why a stalled table waits, shows a player sitting out to the others in
Italian, sits out and stands up a player who closed his page, counts the seats live, lays the seats
out on a phone, speaks English and filters the lobby.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.live import (
    STATIC_FILES_WARNING,
    TABLE,
    euro_text,
    login,
    open_table,
    runtime_info,
    wait_version,
)
from tests.piattaforma.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

SHOTS = Path("/tmp/shots-tx")  # noqa: S108  # the brief asks for screenshots there
DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _page(new_context, user, table_id, viewport=None, locale="it-IT", seated=True):
    context = new_context()
    if viewport:
        context.pages  # noqa: B018  # the context exists; its viewport is set on the page
    page = context.new_page()
    if viewport:
        page.set_viewport_size(viewport)
    login(page, _url(page, new_context), user.nickname, PASSWORD)
    open_table(page, _url(page, new_context), table_id, seated=seated)
    return page


_BASE: dict[str, str] = {}


def _url(page, new_context) -> str:
    return _BASE["url"]


@pytest.fixture
def live(asgi_live):
    _BASE["url"] = asgi_live.url
    return asgi_live


# --- set-ups on the server's thread -----------------------------------------------------------------


def scopa_pair(buy_in: int = 2_000, deals: int = 1):
    """Two funded players seated at a Scopa table whose buy-in equals its perdita massima."""
    from tests.lobby.factories import scopa_table
    from tests.lobby.helpers import seat_players
    from tests.wallet.factories import funded_player

    carla = funded_player(50_000, nickname="Carla")
    dario = funded_player(50_000, nickname="Dario")
    table = scopa_table(config={"mode": "smazzate", "deals": deals}, min_buy_in=buy_in)
    seat_players(table, [carla, dario], buy_in=buy_in)
    return carla, dario, table


def start_scopa(table_id: int, users) -> None:
    from lobby import door

    door.table_start_hand(table_id=table_id)
    for user in users:
        door.table_ready(table_id=table_id, user=user)


def abandon_by_seat_to_act(table_id: int):
    """The seat to act presses "Abbandona": he loses the match (rules 004); return him and the winner."""
    from games import registry
    from lobby import door
    from lobby.models import Seat, TableRuntime

    rt = TableRuntime.objects.select_related("table").get(pk=table_id)
    seat_no = registry.get(rt.game).to_act(rt.state)[0]
    loser = Seat.objects.get(table_id=table_id, number=seat_no).user
    door.table_act(table_id=table_id, user=loser, action={"type": "abbandona"})
    winner = Seat.objects.exclude(number=seat_no).get(table_id=table_id).user
    return loser, winner


def play_match_out(table_id: int) -> None:
    from games.rng import SeededRng
    from lobby.models import Table
    from tests.lobby.helpers import play_hand_randomly

    play_hand_randomly(Table.objects.get(pk=table_id), SeededRng(7))


def seat_status(table_id: int) -> dict[str, tuple[str, bool]]:
    from lobby.models import Seat

    return {
        s.user.nickname: (s.status, s.away)
        for s in Seat.objects.filter(table_id=table_id).select_related("user")
    }


# --- a seat under the perdita massima is told, and a top-up restarts the match ----------------------


def test_short_of_the_perdita_massima_is_told_and_a_top_up_restarts(live, new_context):
    carla, dario, table = live.run(scopa_pair)
    live.run(start_scopa, table.pk, [carla, dario])
    loser, winner = live.run(abandon_by_seat_to_act, table.pk)
    page = _page(new_context, loser, table.pk)
    why = page.wait_for_selector(f"{TABLE} [data-role=waiting] [data-why=short-me]")
    assert "ricarica almeno" in why.inner_text()
    shot(page, "table-page-1-short-desktop")
    # the winner chooses another match; the loser tops up from the felt: the match starts again
    live.run(lambda: __import__("lobby.door", fromlist=["x"]).table_ready(table_id=table.pk, user=winner))
    page.fill(f"{TABLE} [data-role=topup-form] input[name=topup]", "20,00")
    page.click(f"{TABLE} [data-role=topup]")
    page.wait_for_selector(f"{TABLE} [data-role=hand] [data-card]")
    info = live.run(runtime_info, table.pk)
    assert info["hand"] == 2 and not info["over"]
    page.wait_for_selector(f"{TABLE} [data-role=waiting]", state="detached")


# --- the end-of-match scores sit on their own seats ---------------------------------------------


def test_end_of_match_scores_are_on_each_seat(live, new_context):
    carla, dario, table = live.run(scopa_pair, 5_000)
    live.run(start_scopa, table.pk, [carla, dario])
    live.run(play_match_out, table.pk)
    page = _page(new_context, carla, table.pk)
    wait_version(page, live.run(runtime_info, table.pk)["version"])
    page.wait_for_selector(f"{TABLE}[data-over='1']")
    for seat in (1, 2):
        infos = page.eval_on_selector_all(
            f"{TABLE} [data-role=seats] [data-seat='{seat}'] .seat-info", "els => els.map(e => e.textContent)"
        )
        assert sum(1 for x in infos if x.startswith("Punti")) == 1, (seat, infos)
        assert sum(1 for x in infos if x.startswith("Smazzate vinte")) == 1, (seat, infos)
    shot(page, "table-page-2-scopa-end-desktop")


# --- the poker bet box is in euro -----------------------------------------------------------------


CAREFUL = (
    "invito",
    "variante",
    "dai_carte",
    "partecipo",
    "punto",
    "busso",
    "vedo",
    "va_bene",
    "mostro",
    "cambio",
)


def careful_poker(live, table_id: int, until, order=CAREFUL):
    """Deal poker hands, each seat playing carefully (never PASSO), until ``until(rt, engine, legal)``.

    ``legal`` is the seat to act's legal actions (empty between hands). Returns the state then.
    One action per ``live.run``, as each would come from a player: the pages get every version
    with its own events (on the owner runtime, one call is one park of the owner).
    """
    for _ in range(600):
        done, state = live.run(careful_step, table_id, until, order)
        if done:
            return state
    raise AssertionError("the hands never got there")


def careful_step(table_id: int, until, order):
    """One step of ``careful_poker``: (True, the state) once ``until`` holds, else one action."""
    from games import registry
    from lobby import door
    from lobby.models import Seat
    from lobby.selectors import runtime_now

    rt = runtime_now(table_id)
    engine = registry.get(rt.game or rt.table.game)
    running = rt.state is not None and not engine.is_over(rt.state)
    seat_no = engine.to_act(rt.state)[0] if running else None
    legal = engine.legal_actions(rt.state, seat_no) if running else []
    if rt.state is not None and until(rt, engine, legal):
        return True, rt.state
    if not running:
        door.table_start_hand(table_id=table_id)
        return False, None
    user = Seat.objects.get(table_id=table_id, number=seat_no).user
    spec = next((a for kind in order for a in legal if a["type"] == kind), legal[0])
    action = {k: v for k, v in spec.items() if k not in ("label", "confirm", "amount")}
    if spec.get("amount"):
        action["amount"] = spec["amount"]["min"]
    door.table_act(table_id=table_id, user=user, action=action, version=rt.version)
    return False, None


def poker_to_a_bet(live, table_id: int, users):
    """Play carefully until a seat must choose an amount (a range); return its user."""
    from games import registry

    def betting(rt, engine, legal):
        return any(a.get("amount") and a["amount"]["max"] > a["amount"]["min"] for a in legal)

    state = careful_poker(live, table_id, betting, order=tuple(k for k in CAREFUL if k != "punto"))
    seat_no = registry.get("poker5").to_act(state)[0]
    return live.run(seat_user, table_id, seat_no)


def seat_user(table_id: int, seat_no: int):
    from lobby.models import Seat

    return Seat.objects.get(table_id=table_id, number=seat_no).user


def poker_pair(seats: int = 2, buy_in: int = 10_000, **config):
    from tests.lobby.factories import poker_table
    from tests.lobby.helpers import seat_players
    from tests.wallet.factories import funded_player

    users = [funded_player(50_000, nickname=n) for n in ("Anna", "Bruno", "Ciro")[:seats]]
    table = poker_table(seats=4, config={"limit": "PL", "invito": 100, **config})
    seat_players(table, users, buy_in=buy_in)
    return users, table


def test_the_bet_box_takes_euro(live, new_context):
    users, table = live.run(poker_pair)
    frames = []
    bettor = poker_to_a_bet(live, table.pk, users)
    page = new_context().new_page()
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: frames.append(payload)))
    login(page, live.url, bettor.nickname, PASSWORD)
    open_table(page, live.url, table.pk)
    box = page.wait_for_selector(f"{TABLE} [data-role=amount] input[name=amount]")
    value = box.input_value()
    assert "," in value, value  # "1,00", not "100"
    shot(page, "table-page-3-poker-bet-desktop")
    lo = int(page.get_attribute(f"{TABLE} [data-role=amount] input[type=range]", "min"))
    hi = int(page.get_attribute(f"{TABLE} [data-role=amount] input[type=range]", "max"))
    assert value == euro_text(lo)
    typed = (lo + hi) // 200 * 100 if (lo + hi) // 200 * 100 > lo else hi  # whole euro, as a person types
    page.fill(f"{TABLE} [data-role=amount] input[name=amount]", str(typed // 100))  # "2" means € 2,00
    page.press(f"{TABLE} [data-role=amount] input[name=amount]", "Tab")
    expect(page.locator(f"{TABLE} [data-role=amount] .amount-money")).to_have_text(f"€ {typed // 100},00")
    before = int(page.get_attribute(TABLE, "data-version"))
    page.click(f"{TABLE} [data-role=actions] button[data-action][data-amount]")
    wait_version(page, before + 1)
    sent = [json.loads(f) for f in frames if '"act"' in f]
    assert sent and sent[-1]["action"]["amount"] == typed  # cents on the wire


def redraw_actions(page) -> None:
    """Redraw the table as a newer view of the same decision would, and wait until it has been."""
    old = page.query_selector(f"{TABLE} [data-role=amount] input[name=amount]")
    page.evaluate("() => window.dispatchEvent(new Event('resize'))")  # the page redraws after a resize
    page.wait_for_function("el => !el.isConnected", arg=old)


def test_the_bet_box_keeps_what_is_typed_when_the_table_is_redrawn(live, new_context):
    users, table = live.run(poker_pair)
    bettor = poker_to_a_bet(live, table.pk, users)
    page = new_context().new_page()
    login(page, live.url, bettor.nickname, PASSWORD)
    open_table(page, live.url, table.pk)
    amount = page.locator(f"{TABLE} [data-role=amount] input[name=amount]")
    lo = int(page.get_attribute(f"{TABLE} [data-role=amount] input[type=range]", "min"))
    hi = int(page.get_attribute(f"{TABLE} [data-role=amount] input[type=range]", "max"))
    assert hi >= lo + 100, (lo, hi)
    # the player selects the amount to type over it, and the table is redrawn meanwhile
    amount.focus()
    amount.evaluate("el => el.select()")
    redraw_actions(page)
    page.keyboard.type(str(lo // 100 + 1))
    expect(amount).to_have_value(str(lo // 100 + 1))
    # half typed ("2," is not an amount yet): a redraw keeps the text and the caret after it
    page.keyboard.type(",")
    redraw_actions(page)
    page.keyboard.type("5")
    expect(amount).to_have_value(f"{lo // 100 + 1},5")
    page.keyboard.press("Tab")
    typed = min(hi, (lo // 100 + 1) * 100 + 50)
    expect(page.locator(f"{TABLE} [data-role=amount] .amount-money")).to_have_text(f"€ {euro_text(typed)}")


# --- a stalled poker table says why -------------------------------------------------------------


def sit_out(table_id: int, user) -> None:
    from lobby import door

    door.table_sitout(table_id=table_id, user=user, sitout=True)


def test_a_stalled_table_says_why_and_what_to_do(live, new_context):
    (anna, bruno), table = live.run(poker_pair)
    live.run(sit_out, table.pk, anna)
    page = _page(new_context, bruno, table.pk)
    box = page.wait_for_selector(f"{TABLE} [data-role=waiting]")
    text = box.inner_text()
    assert "Anna è in sitout" in text and "Servono 2 giocatori" in text
    # every seat shows its credit while the table waits
    assert "€ 100,00" in page.inner_text(f"{TABLE} [data-role=seats] [data-seat='1']")
    shot(page, "table-page-4-stalled-desktop")
    own = _page(new_context, anna, table.pk)
    own.wait_for_selector(f"{TABLE} [data-role=waiting] [data-why=sitout-me]")
    own.click(f"{TABLE} [data-role=back]")  # SONO TORNATO: the table deals
    own.wait_for_selector(f"{TABLE} [data-role=waiting]", state="detached")


# --- sitting out is seen by the others, in Italian ----------------------------------------------


def test_sitout_at_the_invito_is_italian_and_seen_by_the_others(live, new_context):
    from lobby import door

    (anna, bruno), table = live.run(poker_pair)
    live.run(door.table_start_hand, table_id=table.pk)
    page = _page(new_context, anna, table.pk)
    button = page.wait_for_selector(f"{TABLE} [data-role=actions] button[data-action=sitout]")
    assert button.inner_text() == "SITOUT (salta la mano)"
    before = int(page.get_attribute(TABLE, "data-version"))
    button.click()
    wait_version(page, before + 1)
    # he is sat out at the table (not only in this hand): SONO TORNATO for him, the badge for the others
    page.wait_for_selector(f"{TABLE} [data-role=back]")
    other = _page(new_context, bruno, table.pk)
    other.wait_for_selector(f"{TABLE} [data-role=seats] [data-seat='1'].sitout")
    assert live.run(seat_status, table.pk)["Anna"][0] == "sitout"
    shot(other, "table-page-5-sitout-seen-desktop")


# --- closing the page sits the player out and the countdown stands him up ------------------------


def countdown_over(table_id: int) -> bool:
    from datetime import timedelta

    from django.utils import timezone

    from lobby import door
    from lobby.models import TableRuntime

    door.table_start_hand(table_id=table_id)  # the countdown opens
    TableRuntime.objects.filter(pk=table_id).update(ready_deadline=timezone.now() - timedelta(seconds=1))
    return door.table_start_hand(table_id=table_id)


def test_closing_the_page_sits_out_and_stands_up(live, new_context):
    carla, dario, table = live.run(scopa_pair)
    gone = _page(new_context, carla, table.pk)
    stays = _page(new_context, dario, table.pk)
    gone.context.close()
    stays.wait_for_selector(f"{TABLE} [data-role=waiting] [data-why=away]")
    assert live.run(seat_status, table.pk)["Carla"] == ("sitout", True)
    shot(stays, "table-page-6-away-desktop")
    assert live.run(countdown_over, table.pk) is False  # no match dealt to a player who left
    assert "Carla" not in live.run(seat_status, table.pk)  # stood up, credit back on the conto


# --- the side panel's seat count is live -----------------------------------------------------------


def test_the_seat_count_is_live(live, new_context):
    from tests.lobby.factories import poker_table
    from tests.lobby.helpers import key
    from tests.wallet.factories import funded_player

    def one_seated():
        from lobby import door

        anna = funded_player(50_000, nickname="Anna")
        table = poker_table()
        door.table_sit(table_id=table.pk, user=anna, seat_no=1, buy_in=5_000, idempotency_key=key())
        return anna, table

    anna, table = live.run(one_seated)
    page = _page(new_context, anna, table.pk)
    assert page.inner_text("[data-role=seated-count]") == "1"

    def second():
        from lobby import door

        bruno = funded_player(50_000, nickname="Bruno")
        door.table_sit(table_id=table.pk, user=bruno, seat_no=2, buy_in=5_000, idempotency_key=key())

    live.run(second)
    page.wait_for_function("() => document.querySelector('[data-role=seated-count]').textContent === '2'")


# --- on a phone the seats are laid out by seat count ----------------------------------------------


def test_phone_seats_are_laid_out_not_crowded_in_a_corner(live, new_context):
    carla, _dario, table = live.run(scopa_pair)
    page = _page(new_context, carla, table.pk, viewport=PHONE)
    felt = page.locator(f"{TABLE} .felt").bounding_box()
    other = page.locator(f"{TABLE} [data-role=seats] [data-seat='2']").bounding_box()
    mine = page.locator(f"{TABLE} [data-role=seats] [data-seat='1']").bounding_box()
    centre = felt["x"] + felt["width"] / 2
    assert abs(other["x"] + other["width"] / 2 - centre) < 12, (felt, other)  # centred, not top-left
    assert mine["y"] > other["y"] + other["height"] - 1  # the viewer below the others
    view = page.locator(f"{TABLE} [data-role=view]").bounding_box()
    assert other["y"] + other["height"] <= view["y"] + 1 and view["y"] + view["height"] <= mine["y"] + 1, (
        other,
        view,
        mine,
    )  # and the centre between them: the viewer sits at the bottom, next to his hand
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "table-page-9-scopa-phone")


# --- in English the table's own words are English ---------------------------------------------


def test_the_table_speaks_english(live, new_context):
    carla, _dario, table = live.run(scopa_pair)
    context = new_context()
    context.add_cookies([{"name": "django_language", "value": "en", "url": live.url}])
    page = context.new_page()
    login(page, live.url, carla.nickname, PASSWORD)
    open_table(page, live.url, table.pk)
    page.wait_for_selector(f"{TABLE} [data-role=view] .waiting")
    assert page.inner_text(f"{TABLE} [data-role=view] .waiting") == "Waiting for players…"
    # the match dealt: the felt's own words too
    live.run(start_scopa, table.pk, [carla, _dario])
    page.wait_for_selector(f"{TABLE} [data-role=hand] [data-card]")
    felt = page.inner_text(f"{TABLE} .felt")
    assert "CARDS ON THE TABLE" in felt.upper() and "Carte in tavola".upper() not in felt.upper()
    assert "Your cards".upper() in page.inner_text(f"{TABLE} [data-role=hand]").upper()
    shot(page, "table-page-10-english-desktop")


def test_one_movement_is_singular(live, new_context):
    from tests.wallet.factories import funded_player

    anna = live.run(funded_player, 10_000, nickname="Anna")
    context = new_context()
    page = context.new_page()
    login(page, live.url, anna.nickname, PASSWORD)
    page.goto(f"{live.url}/conto/movimenti/")
    assert "1 movimento" in page.inner_text(".pager") and "1 movimenti" not in page.inner_text(".pager")


# --- the lobby finds a game's tables by stakes, free seats and variant; a quiet log --------------


def test_lobby_filters_by_stakes_free_seats_and_variant(live, new_context):
    from tests.lobby.factories import poker_table, scopa_table
    from tests.lobby.helpers import seat_players
    from tests.wallet.factories import funded_player

    def tables():
        anna = funded_player(50_000, nickname="Anna")
        cheap = poker_table(name="Economico", min_buy_in=500, config={"limit": "FL", "invito": 50})
        poker_table(name="Caro", min_buy_in=10_000, max_buy_in=40_000)
        full = scopa_table(name="Pieno")
        seat_players(full, [anna, funded_player(50_000, nickname="Bruno")], buy_in=5_000)
        return anna, cheap

    anna, _cheap = live.run(tables)
    context = new_context()
    page = context.new_page()
    login(page, live.url, anna.nickname, PASSWORD)
    page.goto(f"{live.url}/lobby/")

    def visible():
        return page.eval_on_selector_all(
            "#lobby-tables tr[data-table]",
            "rs => rs.filter(r => !r.hidden).map(r => r.children[1].textContent)",
        )

    assert sorted(visible()) == ["Caro", "Economico", "Pieno"]
    page.check("[data-filter=free]")
    assert sorted(visible()) == ["Caro", "Economico"]
    page.select_option("[data-filter=stakes]", "1000")
    assert visible() == ["Economico"]
    page.select_option("[data-filter=stakes]", "")
    page.select_option("[data-filter=variant]", "Limite fisso")
    assert visible() == ["Economico"]
    shot(page, "table-page-11-lobby-desktop")


def test_the_periodic_sweeps_stay_out_of_the_log():
    from piattaforma.logfilters import QuietPeriodicTasks

    quiet = QuietPeriodicTasks()

    def record(level, msg, *args):
        return logging.LogRecord("celery.app.trace", level, __file__, 1, msg, args, None)

    assert not quiet.filter(
        record(logging.INFO, "Task %s[%s] succeeded in %ss: %r", "lobby.sweep_deadlines", "x", 0.1, 0)
    )
    assert not quiet.filter(
        record(logging.INFO, "Scheduler: Sending due task lobby-sweep-deadlines (lobby.sweep_deadlines)")
    )
    assert not quiet.filter(
        record(logging.INFO, "Task %s[%s] received", "moderation.signals_fold", "x")
    )  # the collusion signals' fold, every 3 s
    assert quiet.filter(record(logging.INFO, "Task %s[%s] succeeded", "lobby.bot_move", "x"))
    assert quiet.filter(record(logging.ERROR, "Task %s[%s] raised", "lobby.sweep_deadlines", "x"))


# --- expected: the summary on the felt, the toggles, the sounds -------------------------------------


def test_scopa_end_of_match_summary_on_the_felt(live, new_context):
    carla, dario, table = live.run(scopa_pair, 5_000)
    live.run(start_scopa, table.pk, [carla, dario])
    live.run(play_match_out, table.pk)
    page = _page(new_context, carla, table.pk)
    summary = page.wait_for_selector(f"{TABLE} .felt [data-role=summary]")
    text = summary.inner_text()
    # the viewer is told whether he won, by name when the other did: never a seat number
    said = ("Hai vinto", f"Ha vinto {dario.nickname}", "Pareggio")
    assert "Fine della partita" in text and any(s in text for s in said) and "Posto" not in text
    rows = page.eval_on_selector_all(
        f"{TABLE} [data-role=summary] tr[data-row]", "rs => rs.map(r => r.dataset.row)"
    )
    assert (
        rows[:4] == ["carte", "denari", "settebello", "primiera"] and "scope" in rows and rows[-1] == "punti"
    )
    final = live.run(runtime_info, table.pk)["state"]
    points = final["history"][-1]["points"]
    shown = page.eval_on_selector_all(
        f"{TABLE} [data-role=summary] tr[data-row=punti] td", "cs => cs.map(c => Number(c.textContent))"
    )
    assert shown == points
    shot(page, "table-page-summary-scopa-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, "table-page-summary-scopa-phone")


def poker_to_showdown(live, table_id: int) -> dict:
    """Careful play (never PASSO) until a hand ends with cards shown; return its state."""
    return careful_poker(
        live, table_id, lambda rt, engine, legal: engine.is_over(rt.state) and bool(rt.state.get("shown"))
    )


def test_poker_end_of_hand_names_the_winning_hand(live, new_context):
    (anna, _bruno), table = live.run(poker_pair)
    page = _page(new_context, anna, table.pk)
    state = poker_to_showdown(live, table.pk)
    wait_version(page, live.run(runtime_info, table.pk)["version"])
    summary = page.wait_for_selector(f"{TABLE} .felt [data-role=summary]")
    text = summary.inner_text()
    assert "Fine della mano" in text and "→" in text
    assert "(" in text  # the shown hand's name, e.g. "(Coppia di J)"
    assert state["shown"]
    shot(page, "table-page-summary-poker-desktop")


def seat_flags(table_id: int) -> dict[str, tuple[str, bool]]:
    from lobby.models import Seat

    return {s.user.nickname: (s.status, s.leave_after_hand) for s in Seat.objects.filter(table_id=table_id)}


def test_sitout_next_hand_and_leave_after_this_hand_toggles(live, new_context):
    from lobby import door

    (_anna, bruno), table = live.run(poker_pair)
    live.run(door.table_start_hand, table_id=table.pk)
    page = _page(new_context, bruno, table.pk)
    page.check(f"{TABLE} [data-role=toggles] [data-role=leave-next]")
    page.wait_for_function(
        "() => document.querySelector('#table [data-seat=\"2\"]')?.textContent.includes('Lascia il tavolo')"
    )
    assert live.run(seat_flags, table.pk)["Bruno"] == ("playing", True)  # still in the hand
    page.uncheck(f"{TABLE} [data-role=toggles] [data-role=leave-next]")
    page.wait_for_function(
        "() => !document.querySelector('#table [data-seat=\"2\"]')?.textContent.includes('Lascia il tavolo')"
    )
    assert live.run(seat_flags, table.pk)["Bruno"] == ("playing", False)
    page.check(f"{TABLE} [data-role=toggles] [data-role=sitout-next]")
    page.wait_for_selector(f"{TABLE} [data-role=back]")  # SONO TORNATO
    assert live.run(seat_flags, table.pk)["Bruno"][0] == "sitout"
    shot(page, "table-page-toggles-desktop")


def test_own_turn_sound_and_mute_switch(live, new_context):
    from lobby import door

    (anna, _bruno), table = live.run(poker_pair)
    page = _page(new_context, anna, table.pk)
    live.run(door.table_start_hand, table_id=table.pk)  # the invito is asked of everyone
    page.wait_for_function("() => document.querySelector('#table').dataset.lastSound === 'turn'")
    # screen readers: the turn is announced, every control of the table has a name, seats are named groups
    assert page.inner_text(f"{TABLE} [data-role=sr-status]") == "Tocca a te"
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('#table button, #table input, #table select')].filter(el => {
          const name = el.getAttribute('aria-label') || el.textContent.trim() || el.placeholder
            || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el.closest('label');
          return !name;
        }).map(el => el.outerHTML.slice(0, 80))"""
    )
    assert unnamed == []
    assert page.get_attribute(f"{TABLE} [data-role=seats] [data-seat='1']", "aria-label").startswith(
        "Anna, tu"
    )
    switch = page.locator(f"{TABLE} [data-role=sound]")
    assert switch.get_attribute("aria-pressed") == "true"
    switch.click()
    assert page.locator(f"{TABLE} [data-role=sound]").get_attribute("aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('tavolo-audio')") == "off"


# --- expected: per-game layouts --------------------------------------------------------------------


def partite_match(game: str, nicknames, **table):
    """Funded players seated at a table of a gioco a partite, every one ready: the match dealt."""
    from lobby import door
    from tests.lobby.factories import scopa_table
    from tests.lobby.helpers import seat_players
    from tests.wallet.factories import funded_player

    users = [funded_player(50_000, nickname=n) for n in nicknames]
    table = scopa_table(game=game, seats=len(users), **table)
    seat_players(table, users, buy_in=5_000)
    door.table_start_hand(table_id=table.pk)
    for user in users:
        door.table_ready(table_id=table.pk, user=user)
    return users, table


def pairs_table():
    """Four players at a Scopa table of pairs (coppie fisse)."""
    return partite_match(
        "scopa",
        ("Anna", "Bruno", "Carla", "Dario"),
        config={"format": "coppie", "mode": "smazzate", "deals": 1},
    )


def test_pairs_sit_north_east_south_west_with_the_partner_opposite(live, new_context):
    users, table = live.run(pairs_table)
    page = _page(new_context, users[0], table.pk)
    page.wait_for_selector(f"{TABLE} [data-role=seats] .seat.partner")
    compass = page.eval_on_selector_all(
        f"{TABLE} [data-role=seats] [data-seat]",
        "els => Object.fromEntries(els.map(e => [e.dataset.seat, e.dataset.compass]))",
    )
    partner = page.eval_on_selector_all(
        f"{TABLE} [data-role=seats] .seat.partner", "els => els.map(e => e.dataset.seat)"
    )
    assert compass["1"] == "S" and sorted(compass.values()) == ["E", "N", "O", "S"]
    assert len(partner) == 1 and compass[partner[0]] == "N"  # the partner sits opposite
    shot(page, "table-page-pairs-scopa-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, "table-page-pairs-scopa-phone")


def burraco_match():
    return partite_match("burraco", ("Anna", "Bruno"), config={}, name="Burraco Torino")


def test_burraco_melds_lie_on_the_felt(live, new_context):
    users, table = live.run(burraco_match)
    page = _page(new_context, users[0], table.pk)
    page.wait_for_selector(f"{TABLE} .felt [data-role=melds]")
    assert page.locator(f"{TABLE} [data-role=below] [data-role=melds]").count() == 0
    shot(page, "table-page-burraco-felt-desktop")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(300)
    shot(page, "table-page-burraco-felt-phone")


def test_the_sit_form_proposes_more_than_one_perdita_massima(live, new_context):
    from tests.lobby.factories import scopa_table
    from tests.wallet.factories import funded_player

    def setup():
        return funded_player(50_000, nickname="Ugo"), scopa_table(min_buy_in=2_000)  # perdita massima € 20

    ugo, table = live.run(setup)
    page = _page(new_context, ugo, table.pk, seated=False)
    assert page.input_value("input[name=buy_in]") == "40,00"  # one lost match leaves a full one to play


# --- expected: gestures on a real table (Daphne): drag a card onto the felt, double-click one -------


def scopa_to_act(table_id: int) -> tuple[str, list[dict]]:
    """The nickname of the seat to act at a Scopa table and its legal plays."""
    from games import registry
    from lobby.models import Seat, TableRuntime

    rt = TableRuntime.objects.get(pk=table_id)
    engine = registry.get(rt.game)
    seat_no = engine.to_act(rt.state)[0]
    return Seat.objects.get(table_id=table_id, number=seat_no).user.nickname, engine.legal_actions(
        rt.state, seat_no
    )


def test_drag_and_double_click_play_cards_on_a_real_table(live, new_context):
    carla, dario, table = live.run(scopa_pair, 5_000)
    live.run(start_scopa, table.pk, [carla, dario])
    by_name = {carla.nickname: carla, dario.nickname: dario}
    for gesture in ("drag", "dblclick"):
        nickname, legal = live.run(scopa_to_act, table.pk)
        plays = [a for a in legal if a["type"] == "gioca"]
        card = next(a["card"] for a in plays if sum(1 for b in plays if b["card"] == a["card"]) == 1)
        page = _page(new_context, by_name[nickname], table.pk)
        page.wait_for_selector(f"{TABLE} [data-role=hand] [data-card='{card}'][data-playable]")
        before = int(page.get_attribute(TABLE, "data-version"))
        slot = page.locator(f"{TABLE} [data-role=hand] [data-index]:has([data-card='{card}'])").first
        if gesture == "drag":
            slot.drag_to(page.locator(f"{TABLE} .felt [data-role=view]"))
        else:
            slot.dblclick()
        wait_version(page, before + 1)
        # the server took the play: the card left the hand, and the felt moved it
        page.wait_for_function(
            f"() => !document.querySelector(\"{TABLE} [data-role=hand] [data-card='{card}']\")"
        )
        assert page.get_attribute(TABLE, "data-motion")
        page.context.close()
