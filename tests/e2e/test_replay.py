"""The hand replay in Chromium: staff see every seat's cards on the
felt, a player only his own; the controls step, play and jump. Screenshots in /tmp/shots-rp/."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from games.rng import SeededRng
from lobby import door
from lobby.models import Hand
from lobby.replay import replay_hand
from piattaforma import roles
from tests.e2e.live import STATIC_FILES_WARNING, LiveServer
from tests.lobby.factories import poker_table
from tests.lobby.helpers import everyone_puts_the_invito, play_hand_randomly, seat_players
from tests.piattaforma.factories import UserFactory, sign_in
from tests.wallet.factories import funded_player

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

SHOTS = Path("/tmp/shots-rp")  # noqa: S108  # where the screenshots of this feature are looked at
SIZES = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
ROOT = "#replay"


@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch, asgi_live):
    """This module's deals (set after asgi_live's own seeded deals, which they replace)."""
    import itertools

    from games.rng import RecordingRng

    seeds = itertools.count(3000)
    monkeypatch.setattr("lobby.actions.tablerow.new_rng", lambda: RecordingRng(SeededRng(next(seeds))))


def poker_hand() -> tuple[Hand, list, int]:
    """A dealt poker hand of three players played to its end; and a frame where all hold cards."""
    users = [funded_player(nickname=n) for n in ("Mario", "Giulia", "Luca")]
    table = poker_table(name="Tavolo Roma")
    seat_players(table, users)
    for seed in range(20):
        door.table_start_hand(table_id=table.pk)
        everyone_puts_the_invito(table)
        play_hand_randomly(table, SeededRng(seed))
        hand = Hand.objects.filter(table=table).order_by("-number").first()
        states = replay_hand(hand)
        full = [
            i for i, st in enumerate(states) if len(st.get("hands") or {}) == 3 and all(st["hands"].values())
        ]
        if full and hand.steps.count() >= 8:
            return hand, users, full[min(len(full) - 1, 3)]
    raise AssertionError("no three-handed poker hand was dealt")


def login_session(user) -> str:
    """A login session of ``user``: its cookie's value."""
    client = Client()
    sign_in(client, user)  # staff: with the second factor
    return client.cookies["sessionid"].value


def open_page(browser, live: LiveServer, user, url: str, size: str):
    context = browser.new_context(locale="it-IT", viewport=SIZES[size])
    context.add_cookies([{"name": "sessionid", "value": live.run(login_session, user), "url": live.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto(f"{live.url}{url}")
    page.wait_for_selector(f"{ROOT}[data-ready='1']")
    return context, page, errors


def seat_dom_cards(page, seat: int) -> set[str]:
    return set(
        page.eval_on_selector_all(
            f"{ROOT} [data-seat='{seat}'] [data-card]", "els => els.map(e => e.dataset.card)"
        )
    )


def all_dom_cards(page) -> set[str]:
    return set(page.eval_on_selector_all(f"{ROOT} [data-card]", "els => els.map(e => e.dataset.card)")) - {
        "covered"
    }


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("size", list(SIZES))
def test_staff_replays_a_poker_hand_with_every_card_visible(browser, asgi_live, size):
    SHOTS.mkdir(exist_ok=True)
    hand, _users, step = asgi_live.run(poker_hand)
    staff = asgi_live.run(UserFactory, role=roles.STAFF, nickname="Staff")
    context, page, errors = open_page(
        browser, asgi_live, staff, f"/backoffice/lobby/hand/{hand.pk}/replay/?step={step}", size
    )
    assert page.get_attribute(ROOT, "data-step") == str(step)
    state = asgi_live.run(replay_hand, hand)[step]
    for seat, cards in state["hands"].items():
        assert set(cards) <= seat_dom_cards(page, int(seat)), (seat, cards)
    # the deck order and the draws are on the page
    deck = {c for d in state["deck_log"] for c in d}
    assert deck <= set(
        page.eval_on_selector_all(
            f"{ROOT} [data-role=deck] [data-card]", "els => els.map(e => e.dataset.card)"
        )
    )
    assert page.locator(f"{ROOT} [data-role=step-detail]").is_visible()
    assert "Mario" in page.inner_text(f"{ROOT} [data-role=steps]")
    page.screenshot(path=str(SHOTS / f"staff-poker-{size}.png"), full_page=True)
    assert no_horizontal_scroll(page)
    # step, jump to the end and back to the deal
    page.click(f"{ROOT} [data-go=next]")
    page.wait_for_selector(f"{ROOT}[data-step='{step + 1}']")
    page.click(f"{ROOT} [data-go=last]")
    last = asgi_live.run(hand.steps.count)
    page.wait_for_selector(f"{ROOT}[data-step='{last}']")
    assert page.locator(f"{ROOT} li[data-step='{last}'][aria-current]").count() == 1
    page.click(f"{ROOT} [data-go=first]")
    page.wait_for_selector(f"{ROOT}[data-step='0']")
    assert errors == []
    context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_player_replays_his_own_hand_and_sees_only_his_cards(browser, asgi_live, size):
    SHOTS.mkdir(exist_ok=True)
    hand, users, step = asgi_live.run(poker_hand)
    mario = users[0]
    seat = next(s["seat"] for s in hand.seats if s["user_id"] == mario.pk)
    context, page, errors = open_page(
        browser, asgi_live, mario, f"/lobby/le-mie-mani/{hand.pk}/?step={step}", size
    )
    state = asgi_live.run(replay_hand, hand)[step]
    mine = set(state["hands"][str(seat)])
    hand_cards = set(
        page.eval_on_selector_all(
            f"{ROOT} [data-role=hand] [data-card]", "els => els.map(e => e.dataset.card)"
        )
    )
    assert hand_cards == mine
    others = {
        c
        for s, cards in state["hands"].items()
        if int(s) != seat and s not in state.get("shown", {})
        for c in cards
    }
    assert not (all_dom_cards(page) & others)
    covered = page.locator(f"{ROOT} [data-role=seats] [data-card=covered]").count()
    assert covered >= 2 * 5 or any(state["hands"][s] for s in state.get("shown", {}))
    page.screenshot(path=str(SHOTS / f"player-poker-{size}.png"), full_page=True)
    assert no_horizontal_scroll(page)
    # play runs by itself, pause stops it
    page.select_option(f"{ROOT} [data-role=speed]", "400")
    page.click(f"{ROOT} [data-go=play]")
    page.wait_for_function(f"n => Number(document.querySelector('{ROOT}').dataset.step) >= n", arg=step + 2)
    page.click(f"{ROOT} [data-go=play]")
    assert page.get_attribute(ROOT, "data-playing") == "0"
    # a jump through the list
    page.click(f"{ROOT} li[data-step='1'] button")
    page.wait_for_selector(f"{ROOT}[data-step='1']")
    # nothing another seat held came in any frame of the replay either
    frames = page.evaluate(f"fetch('/lobby/le-mie-mani/{hand.pk}/replay.json').then(r => r.text())")
    assert "deck_log" not in frames and "draws" not in frames
    assert errors == []
    context.close()


def test_another_players_hand_is_not_found_in_the_browser(browser, asgi_live):
    hand, _users, _step = asgi_live.run(poker_hand)
    stranger = asgi_live.run(funded_player, nickname="Curioso")
    session = asgi_live.run(login_session, stranger)
    context = browser.new_context(locale="it-IT", viewport=SIZES["desktop"])
    context.add_cookies([{"name": "sessionid", "value": session, "url": asgi_live.url}])
    page = context.new_page()
    response = page.goto(f"{asgi_live.url}/lobby/le-mie-mani/{hand.pk}/")
    assert response.status == 404
    context.close()


FAMILIES = ["scopa", "briscola", "burraco", "scala40", "telesina", "bestia", "settemezzo", "chemin"]


def mid_hand(game: str) -> tuple[Hand, object, int, int, set[str], set[str]]:
    """A played hand of ``game`` and a frame where the first player holds cards another does not see."""
    import json
    import re

    from games import registry
    from tests.lobby.test_replay import played_hand

    card = re.compile(r'"([2-9TJQKA][hdcs]|X[1-4])"')
    engine = registry.get(game)
    for seed in (3, 4, 5, 6, 7, 8):
        hand, users = played_hand(game, seed=seed)
        states = replay_hand(hand)
        for user in users:
            seat = next((s["seat"] for s in hand.seats if s["user_id"] == user.pk), None)
            if seat is None:
                continue
            others = [s["seat"] for s in hand.seats if s["seat"] != seat]
            for index, state in enumerate(states):
                mine = set(card.findall(json.dumps(engine.view(state, seat))))
                seen = [set(card.findall(json.dumps(engine.view(state, o)))) for o in others]
                hidden = set().union(*seen) - mine
                if index >= 2 and mine and hidden:
                    return hand, user, seat, index, mine, hidden
    raise AssertionError(f"{game}: no frame with cards on both sides")


@pytest.mark.parametrize("game", FAMILIES)
def test_a_player_replays_a_hand_of_each_family(browser, asgi_live, game):
    SHOTS.mkdir(exist_ok=True)
    hand, user, _seat, step, mine, hidden = asgi_live.run(mid_hand, game)
    for size in SIZES:
        context, page, errors = open_page(
            browser, asgi_live, user, f"/lobby/le-mie-mani/{hand.pk}/?step={step}", size
        )
        assert page.get_attribute(ROOT, "data-step") == str(step)
        on_page = all_dom_cards(page)
        assert not (on_page & hidden), (game, on_page & hidden)
        assert on_page & mine, game
        page.screenshot(path=str(SHOTS / f"player-{game}-{size}.png"), full_page=True)
        assert no_horizontal_scroll(page), game
        assert errors == [], errors
        context.close()
    staff = asgi_live.run(UserFactory, role=roles.STAFF)
    from tests.lobby.test_replay import end_the_taglia

    asgi_live.run(end_the_taglia, hand)  # a chemin coup: staff see it once its sabot is over
    context, page, errors = open_page(
        browser, asgi_live, staff, f"/backoffice/lobby/hand/{hand.pk}/replay/?step={step}", "desktop"
    )
    # a turn: the steps of one seat in a row (Burraco: pesca, cala, scarta); the jump skips them
    seats = asgi_live.run(lambda: [s.seat for s in hand.steps.order_by("seq")])
    expected = step + 1
    while expected < len(seats) and seats[expected - 1] == seats[step - 1]:
        expected += 1
    page.click(f"{ROOT} [data-go=next-turn]")
    page.wait_for_selector(f"{ROOT}[data-step='{expected}']")
    page.click(f"{ROOT} [data-go=prev-turn]")
    page.wait_for_function(f"n => Number(document.querySelector('{ROOT}').dataset.step) < n", arg=expected)
    back = int(page.get_attribute(ROOT, "data-step"))
    assert back <= step and (back <= 1 or seats[back - 2] != seats[back - 1]), (back, seats[:expected])
    page.goto(f"{asgi_live.url}/backoffice/lobby/hand/{hand.pk}/replay/?step={step}")
    page.wait_for_selector(f"{ROOT}[data-ready='1']")
    felt = set(
        page.eval_on_selector_all(f"{ROOT} .replay-table [data-card]", "els => els.map(e => e.dataset.card)")
    )
    assert hidden <= felt | {"X1", "X2", "X3", "X4"}, (game, hidden - felt)  # on the felt, not only the deck
    page.screenshot(path=str(SHOTS / f"staff-{game}-desktop.png"), full_page=True)
    assert errors == [], errors
    context.close()
