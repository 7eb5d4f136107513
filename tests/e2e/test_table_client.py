"""The live table client (static/js/table/) against real engine payloads.

The page is served by the ASGI live server (tests/e2e/live.py) and its WebSocket is mocked
with Playwright's ``route_web_socket``: the mock sends payloads built by
``lobby.selectors.table_payload`` from real engine states and records what the page sends back.
Set-up data and payloads are made on the server's thread (``asgi_live.run``), which has the
database to itself while pages are open.
The meld-layout endpoint (lobby:layouts) is routed too: it answers as the view does, from the
engine's ``layouts`` for the state last shown.
The DOM contract the client keeps (its data-testid hooks and classes) is the one these tests use.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from games import registry
from games.engine import CodedError, IllegalAction, action_from_spec
from games.melds import SCALA40, Meld, choose_layout, meld_options, rank_of_position
from games.rng import SeededRng
from lobby import door, layouts, selectors, views
from lobby.models import Seat, TableRuntime
from piattaforma.models import User
from tests.e2e.live import STATIC_FILES_WARNING, LiveServer, euro_text
from tests.piattaforma.factories import UserFactory
from wallet.money import format_eur

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]

GAMES = registry.names()
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
META = ("label", "confirm", "amount")
_tags = itertools.count(1)
NAMES = ("anna", "bruno", "carla", "dario", "elena", "fabio", "gina", "ugo", "irene", "luca")


# --- engine states ------------------------------------------------------------------------------


def seat_count(game: str) -> int:
    engine = registry.get(game)
    return engine.min_seats if engine.family == "partite" else max(engine.min_seats, min(3, engine.max_seats))


def play_until(
    game: str,
    want: Callable[[dict[str, Any], int, list[dict[str, Any]]], bool],
    *,
    seats: int | None = None,
    config: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], int]:
    """Play seeded random legal moves until ``want(state, seat, legal)`` holds for a seat to act.

    Seats are numbered from 1 as at the lobby's tables. Sitout and abandon moves are avoided so
    the hand keeps going. Returns the state and the seat.
    """
    engine = registry.get(game)
    n = seats or seat_count(game)
    cfg = engine.validate_config(config or {})
    for seed in range(200):
        rng = SeededRng(seed)
        specs = [{"seat": i + 1, "chips": 20_000, "sitout": False, "prefs": {}} for i in range(n)]
        state = engine.new(cfg, specs, rng)
        for _ in range(600):
            if engine.is_over(state):
                break
            seat = engine.to_act(state)[0]
            legal = engine.legal_actions(state, seat)
            if want(state, seat, legal):
                return state, seat
            moves = [a for a in legal if a["type"] not in ("sitout", "abbandona", "rifiuto")] or legal
            try:
                engine.apply(state, seat, action_from_spec(moves[rng.randbelow(len(moves))], rng), rng)
            except Exception:  # a structured spec (melds) random play cannot fill: try another deal
                break
    raise AssertionError(f"{game}: no such position")


def has_type(*types: str) -> Callable[[dict[str, Any], int, list[dict[str, Any]]], bool]:
    return lambda state, seat, legal: any(a["type"] in types for a in legal)


def concrete(spec: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in spec.items() if k not in META}


# --- the page with a mocked socket ---------------------------------------------------------------


class Table:
    """A table page whose WebSocket is played by the test."""

    def __init__(self, live: LiveServer, page, table, users: list[User], game: str) -> None:
        self.live, self.page, self.table, self.users, self.game = live, page, table, users, game
        self.sent: list[dict[str, Any]] = []
        self.ws = None
        self.version = 0
        self.errors: list[str] = []
        self.connections = 0
        self.refuse = False  # close every new connection at once (a server that is gone)
        self.state: dict[str, Any] | None = None  # the state last shown, and to whom
        self.seat: int | None = None
        self.layout_requests: list[dict[str, Any]] = []
        self.layouts_down = False  # the layout endpoint fails (a server error)

    def payload(self, state: dict[str, Any] | None, seat: int | None, **extra: Any) -> dict[str, Any]:
        """The message table_payload builds for ``seat`` from this state (unsaved runtime rows)."""
        self.version += 1
        rt = TableRuntime(
            table=self.table,
            version=self.version,
            game=self.game,
            state=state,
            hand_no=1,
            deadline=timezone.now() + timedelta(seconds=25),
        )
        for k, v in extra.items():
            setattr(rt, k, v)
        seats = [
            Seat(table=self.table, number=i + 1, user=u, time_bank=30 if i == 0 else 0)
            for i, u in enumerate(self.users)
        ]
        payload = self.live.run(selectors.table_payload, rt, seats, seat)
        return json.loads(json.dumps(payload, default=str))

    def push(self, message: dict[str, Any], *, drawn: bool = True) -> None:
        """Send a frame; a view is waited for until the page has drawn it (``drawn=False``: not
        waited for, as while a pointer is pressed, when the page holds it back)."""
        assert self.ws is not None, "the page has not connected"
        self.ws.send(json.dumps(message))
        if drawn and message.get("type") == "table.state":
            self.page.wait_for_function(
                "v => document.getElementById('table').dataset.version === String(v)", arg=message["version"]
            )

    def show(self, state: dict[str, Any] | None, seat: int | None, **extra: Any) -> dict[str, Any]:
        message = self.payload(state, seat, **extra)
        self.state, self.seat = copy.deepcopy(state), seat
        self.push(message)
        return message

    def wait_sent(self, count: int = 1) -> list[dict[str, Any]]:
        self.page.wait_for_function("n => window.__sent >= n", arg=count)
        return self.sent

    def acts(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m.get("type") == "act"]

    def answer_layouts(self, route) -> None:
        """Answer lobby:layouts as the view does, for the state and seat last shown."""
        request = route.request
        body = json.loads(request.post_data or "null")
        self.layout_requests.append({"body": body, "csrf": request.headers.get("x-csrftoken")})
        if self.layouts_down:
            route.fulfill(status=500, content_type="text/html", body="<h1>Server Error</h1>")
            return
        try:
            assert self.state is not None and self.seat is not None
            found = layouts.engine_layouts(self.game, self.state, self.seat, body["action"])
            status, answer = 200, {"version": self.version, "layouts": found}
        except CodedError as exc:
            status = next((s for kind, s in views.LAYOUT_STATUS if isinstance(exc, kind)), 400)
            answer = exc.as_dict()
        route.fulfill(status=status, content_type="application/json", body=json.dumps(answer))


def table_and_players(fields: dict[str, Any], nicknames: list[str]) -> tuple[Any, list[User], str]:
    """A table, its players, and a login session of the first one (its cookie's value)."""
    table = door.table_create(**fields)
    users = [UserFactory(nickname=nickname) for nickname in nicknames]
    client = Client()
    client.force_login(users[0])
    return table, users, client.cookies["sessionid"].value


@pytest.fixture
def open_table(browser, asgi_live):
    """Open a table page for a game, logged in as the first of its players, socket mocked."""
    contexts = []

    def opener(
        game: str,
        *,
        viewport: dict[str, int] = LAPTOP,
        players: int | None = None,
        touch: bool = False,
        realm: str = "real",
    ) -> Table:
        engine = registry.get(game)
        n = players or seat_count(game)
        fields: dict[str, Any] = {
            "name": f"Tavolo {engine.title}",
            "game": game,
            "seats": n,
            "min_buy_in": 1_000,
            "max_buy_in": 50_000,
        }
        if engine.family == "partite":
            fields.update(posta_partita=100, posta_unitaria=10, perdita_massima=2_000, rake_bp=500)
        if realm == "play":
            fields.update(realm="play", rake_bp=0)
        tag = next(_tags)
        table, users, session = asgi_live.run(
            table_and_players, fields, [f"{name}{tag}" for name in NAMES[:n]]
        )
        context = browser.new_context(locale="it-IT", viewport=viewport, has_touch=touch)
        contexts.append(context)
        context.add_cookies([{"name": "sessionid", "value": session, "url": asgi_live.url}])
        page = context.new_page()
        t = Table(asgi_live, page, table, users, game)
        page.on("pageerror", lambda exc: t.errors.append(str(exc)))
        page.on("console", lambda msg: t.errors.append(msg.text) if msg.type == "error" else None)

        def on_message(text: str | bytes) -> None:
            t.sent.append(json.loads(text))
            page.evaluate("n => { window.__sent = n; }", len(t.sent))

        def handler(ws) -> None:
            t.connections += 1
            if t.refuse:
                ws.close()
                return
            t.ws = ws
            ws.on_message(on_message)

        page.route_web_socket("**/ws/table/**", handler)
        page.route("**/disposizioni/", t.answer_layouts)
        page.goto(f"{asgi_live.url}/lobby/tavolo/{table.pk}/")
        page.wait_for_function("() => document.getElementById('table').dataset.connected === '1'")
        return t

    yield opener
    for c in contexts:
        c.close()
    asgi_live.idle()


CODES = "els => els.map(e => e.dataset.card)"


def action_button(page, kind: str):
    return page.locator(f"[data-role=actions] button[data-action='{kind}']")


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


# --- every game renders ---------------------------------------------------------------------------


CARD = re.compile(r'"([A2-9TJQK][hdcs]|X[1-4])"')


def view_cards(view: dict[str, Any] | None) -> set[str]:
    """Every face-up card code a view holds (its legal-action copy aside)."""
    if not view:
        return set()
    rest = {k: v for k, v in view.items() if k not in ("legal", "legal_actions")}
    return set(CARD.findall(json.dumps(rest)))


def interesting(game: str):
    """A position worth a screenshot: cards on show and more than one decision to take."""
    engine = registry.get(game)
    return play_until(
        game, lambda state, seat, legal: len(legal) > 1 and bool(view_cards(engine.view(state, seat)))
    )


@pytest.mark.parametrize("game", GAMES)
def test_every_game_renders_seats_cards_and_actions(open_table, artifacts, game):
    state, seat = interesting(game)
    for name, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        t = open_table(game, viewport=viewport)
        msg = t.show(state, seat)
        page = t.page
        root = page.locator("#table")
        assert root.get_attribute("data-game") == game
        assert root.get_attribute("data-over") == "0"
        assert page.locator("[data-role=seats] [data-seat]").count() == len(msg["seats"])
        me = page.locator(f"[data-role=seats] [data-seat='{seat}']")
        assert "me" in (me.get_attribute("class") or "")
        assert "to-act" in (me.get_attribute("class") or "")
        # Every card the view shows is drawn (nothing a view holds is dropped).
        drawn = set(root.locator("[data-card]").evaluate_all(CODES))
        assert view_cards(msg["view"]) <= drawn, view_cards(msg["view"]) - drawn
        # Every legal action is offered: a card of the hand or a button of its type.
        buttons = set(
            page.locator("[data-role=actions] button[data-action]").evaluate_all(
                "els => els.map(e => e.dataset.action)"
            )
        )
        playable = set(page.locator("[data-role=hand] [data-playable]").evaluate_all(CODES))
        for spec in msg["legal"]:
            assert spec["type"] in buttons or spec.get("card") in playable, spec
            if spec["type"] in buttons and not spec.get("card"):
                text = action_button(page, spec["type"]).first.inner_text()
                assert spec["label"] in text, (spec, text)
        assert no_horizontal_scroll(page), f"{game} scrolls sideways at {name}"
        page.screenshot(path=str(artifacts / f"tavolo-{game}-{name}.png"), full_page=True)
        assert t.errors == []
        t.page.context.close()


# --- playing: what the client sends back ----------------------------------------------------------


def two_captures(state, seat, legal):
    takes: dict[str, int] = {}
    for a in legal:
        if a["type"] == "gioca" and a.get("take"):
            takes[a["card"]] = takes.get(a["card"], 0) + 1
    return any(n >= 2 for n in takes.values())


def test_scopa_card_with_two_captures_asks_which_and_sends_it(open_table, artifacts):
    state, seat = play_until("scopa", two_captures)
    t = open_table("scopa")
    msg = t.show(state, seat)
    card = next(
        c
        for c in {a.get("card") for a in msg["legal"]}
        if c and sum(1 for a in msg["legal"] if a.get("card") == c and a.get("take")) >= 2
    )
    options = [a for a in msg["legal"] if a.get("card") == card]
    hand = t.page.locator(f"[data-role=hand] [data-card='{card}'][data-playable]")
    hand.click()
    choices = t.page.locator("[data-role=choices] button[data-action=gioca]")
    assert t.errors == []
    assert choices.count() == len(options)
    assert t.acts() == []  # nothing is sent before the choice
    # Each choice shows the cards it takes.
    for i, spec in enumerate(options):
        shown = choices.nth(i).locator("[data-card]").evaluate_all(CODES)
        assert sorted(shown) == sorted(spec["take"])
    t.page.screenshot(path=str(artifacts / "tavolo-scopa-scelta-presa.png"), full_page=True)
    choices.nth(1).click()
    t.wait_sent(1)
    assert t.acts() == [{"type": "act", "action": concrete(options[1]), "version": msg["version"]}]


def test_scopa_card_with_one_play_is_sent_on_click(open_table):
    def single(state, seat, legal):
        cards = [a["card"] for a in legal if a["type"] == "gioca"]
        return any(cards.count(c) == 1 for c in cards)

    state, seat = play_until("scopa", single)
    t = open_table("scopa")
    msg = t.show(state, seat)
    plays = [a for a in msg["legal"] if a["type"] == "gioca"]
    spec = next(a for a in plays if sum(1 for b in plays if b["card"] == a["card"]) == 1)
    t.page.locator(f"[data-role=hand] [data-card='{spec['card']}']").click()
    t.wait_sent(1)
    assert t.acts()[0]["action"] == concrete(spec)
    # A second click before the server answers sends nothing (one action per view): a chat line
    # sent afterwards is the next message on the socket.
    t.page.locator(f"[data-role=hand] [data-card='{spec['card']}']").click()
    t.page.locator("[data-role=chat-form] input[name=text]").fill("dopo")
    t.page.locator("[data-role=chat-form] button").click()
    t.wait_sent(2)
    assert t.sent[-1] == {"type": "chat", "text": "dopo"} and len(t.acts()) == 1
    # A card no legal action plays is not playable: the other player's turn shows no playable card.
    other = next(n for n in range(1, 3) if n != seat)
    t.show(state, other)
    assert t.page.locator("[data-role=hand] [data-playable]").count() == 0


def test_a_card_clicked_while_the_socket_reconnects_holds_nothing_back(open_table):
    """A click while the socket is down cannot go out: the page says it is reconnecting, and the
    same click sends the card once the socket is open again (no action left "in flight")."""
    state, seat = play_until("scopa", has_type("gioca"))
    t = open_table("scopa")
    msg = t.show(state, seat)
    plays = [a for a in msg["legal"] if a["type"] == "gioca"]
    spec = next(a for a in plays if sum(1 for b in plays if b["card"] == a["card"]) == 1)
    card = t.page.locator(f"[data-role=hand] [data-card='{spec['card']}']")
    t.refuse = True  # every attempt to reconnect is closed at once: the page stays down
    t.ws.close()
    t.page.wait_for_function("() => document.getElementById('table').dataset.connected === '0'")
    card.click()
    assert t.page.locator("[data-role=notice]").inner_text() == "Tentativo di riconnessione in corso"
    assert t.page.evaluate("document.getElementById('table').dataset.busy") == "0"
    assert t.acts() == []
    t.refuse = False
    t.page.wait_for_function("() => document.getElementById('table').dataset.connected === '1'")
    t.wait_sent(1)
    assert t.sent[-1] == {"type": "sync", "version": t.version}
    card.click()  # the same view: the card goes out now
    t.wait_sent(2)
    assert t.acts() == [{"type": "act", "action": concrete(spec), "version": t.version}]


def invito_open(open_table) -> tuple[Table, dict[str, Any], int, dict[str, Any]]:
    """A poker table at the invito, every seat deciding at once, shown to one of them who has not
    decided yet: the page, the state, the seat and the view pushed."""
    engine = registry.get("poker5")

    def everyone(state, seat, legal):
        return any(a["type"] == "invito" for a in legal) and len(engine.to_act(state)) > 1

    state, seat = play_until("poker5", everyone)
    t = open_table("poker5")
    msg = t.payload(state, seat)
    msg["acted"] = 0  # this seat has not decided yet
    t.push(msg)
    return t, state, seat, msg


def test_a_double_click_at_the_invito_sends_once_though_another_answer_came_between(open_table):
    """Every seat puts the invito at once: another's answer is a newer view with this seat's same
    decision still open. The owner's views say which version this seat's last decision made
    (``acted``): until one shows it, a second click sends nothing; after it, the next decision goes."""
    t, state, seat, msg = invito_open(open_table)
    sent_on = msg["version"]
    action_button(t.page, "invito").click()
    t.wait_sent(1)
    assert t.acts()[0]["version"] == sent_on
    newer = t.payload(state, seat)  # another seat's invito: the same decision still open here
    newer["acted"] = 0
    t.push(newer)
    assert t.page.evaluate("document.getElementById('table').dataset.busy") == "1"
    action_button(t.page, "invito").click()  # the double click, on the newer view
    t.page.locator("[data-role=chat-form] input[name=text]").fill("dopo")
    t.page.locator("[data-role=chat-form] button").click()
    t.wait_sent(2)
    assert t.sent[-1] == {"type": "chat", "text": "dopo"} and len(t.acts()) == 1
    answer = t.payload(state, seat)  # (the same state, for the test: the seat still due)
    answer["acted"] = sent_on + 1  # the view of the version this seat's invito made
    t.push(answer)
    assert t.page.evaluate("document.getElementById('table').dataset.busy") == "0"
    action_button(t.page, "invito").click()
    t.wait_sent(3)
    assert len(t.acts()) == 2 and t.acts()[1]["version"] == answer["version"]


def test_a_view_arriving_between_press_and_release_does_not_take_the_click(open_table):
    """At the invito every seat answers at once: another's answer (a newer view) may arrive while
    the player presses his button. Drawn at once, it would replace the button between the press
    and the release, and the browser would give the click to neither; it is drawn after it."""
    t, state, seat, _ = invito_open(open_table)
    box = action_button(t.page, "invito").bounding_box()
    t.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    t.page.mouse.down()
    newer = t.payload(state, seat)  # another seat's invito: this seat's decision still open
    newer["acted"] = 0
    t.push(newer, drawn=False)
    t.page.wait_for_function("() => document.getElementById('table').dataset.held === '1'")
    t.page.mouse.up()
    t.wait_sent(1)
    assert [(a["action"]["type"], a["version"]) for a in t.acts()] == [("invito", newer["version"])]
    t.page.wait_for_function("() => document.getElementById('table').dataset.busy === '1'")
    # the newer view is drawn once the button is released (the task after the click): its
    # version, and the button again
    t.page.wait_for_function(
        "v => document.getElementById('table').dataset.version === String(v)", arg=newer["version"]
    )
    expect(action_button(t.page, "invito")).to_be_visible()


def test_poker_cambio_sends_the_toggled_cards(open_table):
    state, seat = play_until("poker5", has_type("cambio"))
    t = open_table("poker5")
    msg = t.show(state, seat)
    hand = list(msg["view"]["hands"][str(seat)]["cards"])
    button = action_button(t.page, "cambio")
    assert button.is_enabled()  # no card picked: keep them all (servito) is legal
    first, third = hand[0], hand[2]
    t.page.locator(f"[data-role=hand] [data-card='{first}']").click()
    t.page.locator(f"[data-role=hand] [data-card='{third}']").click()
    t.page.locator(f"[data-role=hand] [data-card='{first}']").click()  # changed his mind
    t.page.locator(f"[data-role=hand] [data-card='{first}']").click()
    pressed = t.page.locator("[data-role=hand] [aria-pressed=true] [data-card]").evaluate_all(CODES)
    assert sorted(pressed) == sorted([first, third])
    button.click()
    t.wait_sent(1)
    sent = t.acts()[0]["action"]
    assert sent["type"] == "cambio" and sorted(sent["cards"]) == sorted([first, third])


def test_amount_box_clamps_and_sends_the_typed_value(open_table):
    def raise_(state, seat, legal):
        return any(a.get("amount") and a["amount"]["max"] > a["amount"]["min"] + 100 for a in legal)

    state, seat = play_until("poker5", raise_)
    t = open_table("poker5")
    msg = t.show(state, seat)
    spec = next(a for a in msg["legal"] if a.get("amount") and a["amount"]["max"] > a["amount"]["min"])
    lo, hi = spec["amount"]["min"], spec["amount"]["max"]
    box = t.page.locator("[data-role=amount]")
    amount = box.locator("input[name=amount]")
    # the box is in euro, typed the Italian way, and sends cents
    assert amount.input_value() == euro_text(lo)
    assert box.locator("input[type=range]").count() == 1
    amount.fill(euro_text(hi * 10))
    amount.press("Tab")
    assert amount.input_value() == euro_text(hi)  # clamped to the largest the server allows
    box.locator("[data-multiple=Min]").click()
    assert amount.input_value() == euro_text(lo)
    amount.fill(euro_text(lo + 37))
    amount.press("Tab")
    action_button(t.page, spec["type"]).click()
    t.wait_sent(1)
    assert t.acts()[0]["action"] == {**concrete(spec), "amount": lo + 37}
    t.push({"type": "error", "code": "stale_version", "message": "Giocata non ammessa"})  # the answer
    t.page.wait_for_function("() => document.getElementById('table').dataset.busy === '0'")
    # Enter in the box presses the one button that takes an amount.
    amount.fill(euro_text(lo + 1))
    amount.press("Enter")
    t.wait_sent(2)
    assert t.acts()[1]["action"] == {**concrete(spec), "amount": lo + 1}
    # The slider moves the same value.
    box.locator("input[type=range]").fill(str(hi))
    assert amount.input_value() == euro_text(hi)


def test_confirmation_is_asked_in_the_page(open_table, artifacts):
    state, seat = play_until("scopa", has_type("abbandona"))
    t = open_table("scopa", viewport=PHONE)
    msg = t.show(state, seat)
    spec = next(a for a in msg["legal"] if a["type"] == "abbandona")
    confirm = t.page.locator("[data-role=confirm]")
    assert confirm.is_hidden()
    action_button(t.page, "abbandona").click()
    assert confirm.is_visible()
    assert spec["confirm"] in confirm.inner_text()
    confirm.screenshot(path=str(artifacts / "tavolo-conferma-telefono.png"))
    assert confirm.bounding_box()["width"] <= PHONE["width"]
    confirm.locator("[data-confirm=no]").click()
    assert confirm.is_hidden()
    action_button(t.page, "abbandona").click()
    confirm.locator("[data-confirm=yes]").click()
    t.wait_sent(1)
    assert [m["action"] for m in t.acts()] == [{"type": "abbandona"}]


def test_refusals_and_reconnection_show_notices(open_table):
    state, seat = play_until("scopa", has_type("gioca"))
    t = open_table("scopa")
    t.show(state, seat)
    notice = t.page.locator("[data-role=notice]")
    t.push({"type": "error", "code": "illegal_action", "message": "Giocata non ammessa"})
    assert notice.inner_text() == "Giocata non ammessa"
    t.push({"type": "error", "code": "not_your_turn", "message": "Non è il tuo turno"})
    assert notice.inner_text() == "Non è il tuo turno"
    t.ws.close()
    t.page.wait_for_function("() => document.getElementById('table').dataset.connected === '0'")
    assert notice.inner_text() == "Tentativo di riconnessione in corso"
    # The client comes back by itself and asks for the table from its version on.
    t.page.wait_for_function("() => document.getElementById('table').dataset.connected === '1'")
    t.wait_sent(1)
    assert t.sent[-1] == {"type": "sync", "version": t.version}


def test_chat_both_ways(open_table):
    t = open_table("scopa")
    t.show(None, 1)
    assert "In attesa" in t.page.locator("[data-role=view]").inner_text()
    form = t.page.locator("[data-role=chat-form]")
    form.locator("input[name=text]").fill("ciao a tutti")
    form.locator("button").click()
    t.wait_sent(1)
    assert t.sent[-1] == {"type": "chat", "text": "ciao a tutti"}
    t.push({"type": "chat", "nickname": "bruno", "text": "<b>buona partita</b>"})
    t.page.wait_for_function(
        "() => document.querySelector('[data-role=chat-log]').textContent.includes('buona')"
    )
    log = t.page.locator("[data-role=chat-log]")
    assert "bruno: <b>buona partita</b>" in log.inner_text()  # text, never markup
    assert log.locator("b").count() == 0


def test_ready_and_back_buttons(open_table):
    t = open_table("scopa")
    t.show(None, 1, ready_deadline=timezone.now() + timedelta(seconds=40))
    ready = t.page.locator("[data-role=actions] [data-role=ready]")
    assert "Sono pronto" in ready.inner_text()
    ready.click()
    t.wait_sent(1)
    assert t.sent[-1] == {"type": "ready"}
    Seat.objects.none()  # the seats of the payload are built in memory
    msg = t.payload(None, 1)
    msg["seats"][0]["status"] = "sitout"
    t.push(msg)
    back = t.page.locator("[data-role=actions] [data-role=back]")
    assert back.inner_text() == "SONO TORNATO"
    assert "Sitout" in t.page.locator("[data-seat='1']").inner_text()
    back.click()
    t.wait_sent(2)
    assert t.sent[-1] == {"type": "sitout", "sitout": False}


# --- melds: Burraco and Scala 40 ------------------------------------------------------------------


def burraco_with_meld() -> tuple[dict[str, Any], int, list[str]]:
    """A Burraco turn right after laying a meld (found by trying the hand's triples)."""
    engine = registry.get("burraco")
    state, seat = play_until("burraco", has_type("cala"))
    hand = engine.view(state, seat)["deal"]["hands"][state["seats"].index(seat)]
    for combo in itertools.combinations(range(len(hand)), 3):
        cards = [hand[i] for i in combo]
        trial = copy.deepcopy(state)
        try:
            engine.apply(trial, seat, {"type": "cala", "cards": cards}, SeededRng(0))
        except IllegalAction:
            continue
        return trial, seat, cards
    raise AssertionError("no meld in this hand")


def test_burraco_meld_discard_and_melds_on_the_table(open_table):
    state, seat, laid = burraco_with_meld()
    t = open_table("burraco")
    msg = t.show(state, seat)
    melds = t.page.locator("[data-role=melds] [data-meld]")
    assert melds.count() == 1
    assert sorted(melds.first.locator("[data-card]").evaluate_all(CODES)) == sorted(laid)
    hand = t.page.locator("[data-role=hand] button.carta-btn")
    cala, scarta = action_button(t.page, "cala"), action_button(t.page, "scarta")
    assert cala.is_disabled() and scarta.is_disabled()
    hand.nth(0).click()
    assert scarta.is_enabled() and cala.is_disabled()  # one card: a discard, not a meld
    hand.nth(1).click()
    hand.nth(2).click()
    assert cala.is_enabled() and scarta.is_disabled()
    codes = [hand.nth(i).locator("[data-card]").get_attribute("data-card") for i in range(3)]
    cala.click()
    t.wait_sent(1)
    assert t.acts()[0]["action"] == {"type": "cala", "cards": codes}
    # Attaching to a meld of the line: the button names the meld it extends.
    attacca = [a for a in msg["legal"] if a["type"] == "attacca"]
    assert attacca, "the line's meld may be extended"
    t.show(state, seat)
    hand.nth(0).click()
    button = t.page.locator(
        f"[data-role=actions] button[data-action=attacca][data-meld='{attacca[0]['meld']}']"
    )
    assert sorted(button.locator("[data-card]").evaluate_all(CODES)) == sorted(laid)
    first = hand.nth(0).locator("[data-card]").get_attribute("data-card")
    button.click()
    t.wait_sent(2)
    assert t.acts()[1]["action"] == {"type": "attacca", "meld": attacca[0]["meld"], "cards": [first]}
    # Or click the meld itself: with no card picked it says what to do, then it attaches the pick.
    t.show(state, seat)
    meld = t.page.locator(f"[data-role=melds] [data-meld='{attacca[0]['meld']}']")
    meld.click()
    assert t.page.locator("[data-role=notice]").inner_text() == "Scegli prima le carte da attaccare"
    hand.nth(1).click()
    second = hand.nth(1).locator("[data-card]").get_attribute("data-card")
    meld.click()
    t.wait_sent(3)
    assert t.acts()[2]["action"] == {"type": "attacca", "meld": attacca[0]["meld"], "cards": [second]}


def test_scala40_opening_sends_the_melds_built_in_the_page(open_table):
    state, seat = play_until("scala40", has_type("apri"))
    t = open_table("scala40")
    t.show(state, seat)
    hand = t.page.locator("[data-role=hand] button.carta-btn")
    codes = [hand.nth(i).locator("[data-card]").get_attribute("data-card") for i in range(6)]
    add = t.page.locator("[data-role=opening] button", has_text="Aggiungi gioco")
    apri = action_button(t.page, "apri")
    assert apri.is_disabled()
    parts = t.page.locator("[data-role=opening] .opening-part")
    for i in range(3):
        hand.nth(i).click()
    add.click()
    parts.first.wait_for()  # once the server has said how the cards lie
    for i in range(3, 6):
        hand.nth(i).click()
    add.click()
    parts.nth(1).wait_for()
    assert parts.count() == 2
    apri.click()
    t.wait_sent(1)
    assert t.acts()[0]["action"] == {"type": "apri", "melds": [{"cards": codes[:3]}, {"cards": codes[3:]}]}


# --- meld layouts: where the matta goes, ace low or high, a jolly's suit ---------------------------


def give(state: dict[str, Any], pos: int, cards: list[str]) -> None:
    """Put these cards in the hand of ``pos`` (swapped with cards of the tallone or the other hands)."""
    d = state["deal"]
    hand: list[str] = d["hands"][pos]
    spare = [c for c in hand if c not in cards]
    for c in cards:
        if c in hand and hand.count(c) >= cards.count(c):
            continue
        piles = [
            d["tallone"],
            *(h for i, h in enumerate(d["hands"]) if i != pos),
            *d.get("pozzetti", []),
            d["scarti"],
        ]
        pile = next(p for p in piles if c in p)
        out = spare.pop()
        hand.remove(out)
        hand.append(c)
        pile[pile.index(c)] = out


def to_tallone(state: dict[str, Any], cards: list[str]) -> None:
    """Make sure these cards are in the tallone (swapped with tallone cards from wherever they are)."""
    d = state["deal"]
    for c in cards:
        if c in d["tallone"]:
            continue
        pile = next(p for p in [*d["hands"], d["scarti"]] if c in p)
        spare = next(x for x in d["tallone"] if x not in cards)
        d["tallone"][d["tallone"].index(spare)] = c
        pile[pile.index(c)] = spare


def lay(state: dict[str, Any], pos: int, cards: list[str], **fields: Any) -> Meld:
    """Put a meld of ``pos`` on the table directly (Scala 40), its cards taken from the tallone."""
    d = state["deal"]
    for c in cards:
        d["tallone"].remove(c)
    meld = choose_layout(meld_options(cards, SCALA40), fields)
    meld = {**meld, "id": d["next_id"], "owner": pos}
    d["next_id"] += 1
    d["melds"].append(meld)
    return meld


def click_cards(t: Table, cards: list[str]) -> None:
    for c in cards:
        t.page.locator(
            f"[data-role=hand] button.carta-btn:has([data-card='{c}'])[aria-pressed=false]"
        ).first.click()


def layout_buttons(t: Table, wait: bool = True):
    """The chooser's layouts (once the server's answer has arrived, unless ``wait`` is False)."""
    buttons = t.page.locator("[data-role=choices] button[data-layout]")
    if wait:
        buttons.first.wait_for()
    return buttons


def assert_layouts(t: Table, *fragments: str) -> None:
    """The chooser offers exactly one layout per fragment, each fragment in its own label."""
    labels = layout_buttons(t).all_inner_texts()
    assert len(labels) == len(fragments), labels
    for fragment in fragments:
        assert sum(fragment in x for x in labels) == 1, (fragment, labels)


def test_burraco_player_picks_which_end_the_jolly_goes_to(open_table, artifacts):
    engine = registry.get("burraco")
    state, seat = play_until("burraco", has_type("cala"))
    pos = state["seats"].index(seat)
    give(state, pos, ["5h", "6h", "X1"])
    t = open_table("burraco")
    t.show(state, seat)
    click_cards(t, ["5h", "6h", "X1"])
    action_button(t.page, "cala").click()
    assert layout_buttons(t).count() == 2
    t.page.locator("[data-role=choices] button", has_text="Annulla").click()  # nothing is sent
    assert t.page.locator("[data-role=choices]").is_hidden() and t.acts() == []
    action_button(t.page, "cala").click()
    choices = layout_buttons(t)
    labels = choices.all_inner_texts()
    assert any("Jolly al posto del 4♥" in x for x in labels) and any(
        "Jolly al posto del 7♥" in x for x in labels
    )
    t.page.screenshot(path=str(artifacts / "tavolo-burraco-matta.png"), full_page=True)
    # the chooser shows each layout's cards in their places
    assert choices.nth(0).locator("[data-card]").evaluate_all(CODES) == ["X1", "5h", "6h"]
    t.page.locator("[data-role=choices] button[data-layout]", has_text="7♥").click()
    t.wait_sent(1)
    action = t.acts()[0]["action"]
    assert action == {"type": "cala", "cards": ["5h", "6h", "X1"], "start": 5}
    engine.apply(state, seat, action, SeededRng(0))
    meld = state["deal"]["melds"][-1]
    assert (meld["start"], meld["cards"]) == (5, ["5h", "6h", "X1"])
    # The card the jolly stands for arrives: the jolly moves to an end, the player says which (R1).
    give(state, pos, ["7h"])
    t.show(state, seat)
    click_cards(t, ["7h"])
    t.page.locator(f"[data-role=melds] [data-meld='{meld['id']}']").click()
    assert_layouts(t, "al posto del 4♥", "al posto dell'8♥")
    t.page.locator("[data-role=choices] button[data-layout]", has_text="4♥").click()
    t.wait_sent(2)
    action = t.acts()[1]["action"]
    assert action == {"type": "attacca", "meld": meld["id"], "cards": ["7h"], "start": 4}
    engine.apply(state, seat, action, SeededRng(0))
    assert state["deal"]["melds"][-1]["cards"] == ["X1", "5h", "6h", "7h"]
    # A single layout is sent at once, without a start.
    give(state, pos, ["9d", "Td", "Jd"])
    t.show(state, seat)
    click_cards(t, ["9d", "Td", "Jd"])
    action_button(t.page, "cala").click()
    t.wait_sent(3)
    assert t.acts()[2]["action"] == {"type": "cala", "cards": ["9d", "Td", "Jd"]}
    assert t.errors == []


def test_burraco_ace_low_or_high_is_asked_and_sent(open_table):
    engine = registry.get("burraco")
    state, seat = play_until("burraco", has_type("cala"))
    pos = state["seats"].index(seat)
    d = state["deal"]
    run = [rank_of_position(q) + "s" for q in range(2, 14)]  # 2♠ .. K♠, laid by the line
    for c in run:
        if c in d["tallone"]:
            d["tallone"].remove(c)
    meld = {"kind": "scala", "suit": "s", "start": 2, "cards": run, "id": d["next_id"], "line": pos % 2}
    d["next_id"] += 1
    d["melds"].append(meld)
    give(state, pos, ["As"])
    t = open_table("burraco")
    t.show(state, seat)
    click_cards(t, ["As"])
    t.page.locator(f"[data-role=melds] [data-meld='{meld['id']}']").click()
    choices = layout_buttons(t)
    assert [x.split("\n")[0] for x in choices.all_inner_texts()] == ["Asso basso", "Asso alto"]
    assert choices.nth(1).locator("[data-card]").evaluate_all(CODES) == [*run, "As"]
    t.page.locator("[data-role=choices] button[data-layout]", has_text="Asso alto").click()
    t.wait_sent(1)
    action = t.acts()[0]["action"]
    assert action == {"type": "attacca", "meld": meld["id"], "cards": ["As"], "start": 2}
    engine.apply(state, seat, action, SeededRng(0))
    assert state["deal"]["melds"][-1]["cards"] == [*run, "As"]
    assert t.layout_requests[0]["body"] == {
        "action": {"type": "attacca", "meld": meld["id"], "cards": ["As"]}
    }
    assert all(r["csrf"] for r in t.layout_requests)  # the page sends its CSRF token
    assert t.errors == []


def test_without_an_answer_on_layouts_the_meld_is_sent_as_picked(open_table):
    engine = registry.get("burraco")
    state, seat = play_until("burraco", has_type("cala"))
    give(state, state["seats"].index(seat), ["5h", "6h", "X1"])
    t = open_table("burraco")
    t.layouts_down = True
    t.show(state, seat)
    click_cards(t, ["5h", "6h", "X1"])
    action_button(t.page, "cala").click()
    t.wait_sent(1)
    action = t.acts()[0]["action"]
    assert action == {"type": "cala", "cards": ["5h", "6h", "X1"]}  # the server lays the first layout
    assert len(t.layout_requests) == 1 and layout_buttons(t, wait=False).count() == 0
    engine.apply(state, seat, action, SeededRng(0))
    assert state["deal"]["melds"][-1]["cards"] == ["X1", "5h", "6h"]
    assert [e for e in t.errors if "500" not in e] == []  # the browser logs the failed request


def scala40_turn() -> tuple[dict[str, Any], int]:
    """A Scala 40 turn after drawing from the tallone (tests make the player opened where needed)."""
    return play_until(
        "scala40",
        lambda state, seat, legal: state["deal"]["phase"] == "gioca" and not state["deal"]["raccolto"],
    )


def test_scala40_opening_asks_the_jollys_suit_and_the_ace(open_table):
    engine = registry.get("scala40")
    state, seat = scala40_turn()
    pos = state["seats"].index(seat)
    state["deal"]["opened"][pos] = False
    give(state, pos, ["7h", "7s", "X2", "Qc", "Kc", "X4"])
    t = open_table("scala40")
    t.show(state, seat)
    add = t.page.locator("[data-role=opening] button", has_text="Aggiungi gioco")
    click_cards(t, ["7h", "7s", "X2"])
    add.click()
    labels = layout_buttons(t).all_inner_texts()
    assert sorted(x.split("\n")[0] for x in labels) == ["Jolly al posto del 7♣", "Jolly al posto del 7♦"]
    t.page.locator("[data-role=choices] button[data-jolly-suit=c]").click()
    assert t.page.locator("[data-role=opening] .opening-part").count() == 1
    click_cards(t, ["Qc", "Kc", "X4"])
    add.click()
    labels = layout_buttons(t).all_inner_texts()
    assert any("Jolly al posto del J♣ · 30 punti" in x for x in labels), labels
    assert any("Jolly al posto dell'A♣ · 31 punti" in x for x in labels), labels
    t.page.locator("[data-role=choices] button[data-start='12']").click()
    action_button(t.page, "apri").click()
    t.wait_sent(1)
    action = t.acts()[0]["action"]
    assert action == {
        "type": "apri",
        "melds": [
            {"cards": ["7h", "7s", "X2"], "jolly_suit": "c"},
            {"cards": ["Qc", "Kc", "X4"], "start": 12},
        ],
    }
    events = engine.apply(state, seat, action, SeededRng(0))
    opened = next(e for e in events if e["type"] == "apri")
    assert opened["value"] == 21 + 31  # 7 × 3, then Q 10 + K 10 + the jolly as a high ace 11
    assert [m.get("jolly_suit") for m in state["deal"]["melds"][-2:]] == ["c", None]
    assert state["deal"]["melds"][-1]["cards"] == ["Qc", "Kc", "X4"]
    assert t.errors == []


def test_scala40_jolly_taken_back_is_attached_where_the_player_says(open_table, artifacts):
    engine = registry.get("scala40")
    state, seat = scala40_turn()
    pos = state["seats"].index(seat)
    other = 1 - pos
    state["deal"]["opened"][pos] = True
    to_tallone(state, ["5s", "X3", "7s", "9d", "Td", "Jd", "Kh", "Kd", "Kc"])
    run = lay(state, other, ["5s", "X3", "7s"])
    target = lay(state, other, ["9d", "Td", "Jd"])
    lay(state, other, ["Kh", "Kd", "Kc"])
    give(state, pos, ["6s"])
    t = open_table("scala40")
    msg = t.show(state, seat)
    assert any(a["type"] == "sostituisci" and a["card"] == "6s" for a in msg["legal"])
    t.page.locator(f"[data-role=actions] button[data-action=sostituisci][data-meld='{run['id']}']").click()
    panel = t.page.locator("[data-role=choices]")
    assert panel.is_visible()
    # With no card picked: the jolly alone attaches to the run of ♦ (either end) and to the kings
    # (4th card), not back to the run it came from (rules: "ad altre sequenze o combinazioni"); a
    # new meld needs cards.
    assert panel.locator("button[data-use=cala]").is_disabled()
    t.page.screenshot(path=str(artifacts / "tavolo-scala40-sostituisci.png"), full_page=True)
    attach = panel.locator("button[data-use=attacca]")
    attach.first.wait_for()  # where the jolly attaches: the server's answer
    assert sorted(attach.evaluate_all("els => els.map(e => Number(e.dataset.meld))")) == sorted(
        m["id"] for m in state["deal"]["melds"] if m["id"] != run["id"]
    )
    panel.locator(f"button[data-use=attacca][data-meld='{target['id']}']").click()
    assert_layouts(t, "Jolly al posto dell'8♦", "Jolly al posto del Q♦")
    t.page.locator("[data-role=choices] button[data-layout]", has_text="Q♦").click()
    t.wait_sent(1)
    action = t.acts()[0]["action"]
    assert action == {
        "type": "sostituisci",
        "meld": run["id"],
        "card": "6s",
        "use": {"type": "attacca", "meld": target["id"], "cards": [], "start": 9},
    }
    engine.apply(state, seat, action, SeededRng(0))
    melds = {m["id"]: m for m in state["deal"]["melds"]}
    assert melds[run["id"]]["cards"] == ["5s", "6s", "7s"]
    assert melds[target["id"]]["cards"] == ["9d", "Td", "Jd", "X3"]
    assert t.errors == []


def test_scala40_jolly_taken_back_goes_into_a_new_meld_of_the_picked_cards(open_table):
    engine = registry.get("scala40")
    state, seat = scala40_turn()
    pos = state["seats"].index(seat)
    state["deal"]["opened"][pos] = True
    to_tallone(state, ["Ah", "X1", "3h"])
    run = lay(state, 1 - pos, ["Ah", "X1", "3h"])
    give(state, pos, ["2h", "8c", "8d"])
    t = open_table("scala40")
    t.show(state, seat)
    t.page.locator(f"[data-role=actions] button[data-action=sostituisci][data-meld='{run['id']}']").click()
    cala = t.page.locator("[data-role=choices] button[data-use=cala]")
    click_cards(t, ["8c", "8d"])
    assert cala.is_enabled()
    cala.click()
    labels = layout_buttons(t).all_inner_texts()
    assert sorted(x.split("\n")[0] for x in labels) == ["Jolly al posto dell'8♠", "Jolly al posto dell'8♥"]
    t.page.locator("[data-role=choices] button[data-jolly-suit=s]").click()
    t.wait_sent(1)
    action = t.acts()[0]["action"]
    assert action == {
        "type": "sostituisci",
        "meld": run["id"],
        "card": "2h",
        "use": {"type": "cala", "cards": ["8c", "8d"], "jolly_suit": "s"},
    }
    engine.apply(state, seat, action, SeededRng(0))
    assert state["deal"]["melds"][-1]["jolly_suit"] == "s"
    assert t.errors == []


# --- choices between specs of one type, results, clocks, history ----------------------------------


def test_telesina_game_choice_is_a_form_of_the_specs(open_table):
    state, seat = play_until("telesina", has_type("scelta"))
    t = open_table("telesina")
    msg = t.show(state, seat)
    specs = [a for a in msg["legal"] if a["type"] == "scelta"]
    assert action_button(t.page, "scelta").count() == 1  # one button, the differences are choices
    form = t.page.locator(".form-group", has=t.page.locator("button[data-action=scelta]"))
    form.locator("[data-field=distribuzione] button").last.click()
    form.locator("[data-field=vele] button").nth(2).click()
    action_button(t.page, "scelta").click()
    t.wait_sent(1)
    vele = list(dict.fromkeys(a["vele"] for a in specs))
    distribuzioni = list(dict.fromkeys(a["distribuzione"] for a in specs))
    assert t.acts()[0]["action"] == {"type": "scelta", "vele": vele[2], "distribuzione": distribuzioni[-1]}


def test_telesina_scopri_says_a_tap_turns_the_card_up(open_table):
    state, seat = play_until("telesina", has_type("scopro"))
    t = open_table("telesina")
    msg = t.show(state, seat)
    covered = [a["card"] for a in msg["legal"] if a["type"] == "scopro"]
    head = t.page.locator("[data-role=hand] .hand-head").text_content()  # (shown in capitals)
    assert "tocca la carta da scoprire" in head and "giocarla" not in head
    t.page.locator(f"[data-role=hand] .carta-btn:has([data-card='{covered[0]}'])").click()
    t.wait_sent(1)
    assert t.acts()[0]["action"] == {"type": "scopro", "card": covered[0]}


def test_telesina_a_shown_hand_is_that_seats_punto_not_yours(open_table):
    # a showdown with vele on the table: each hand shown carries its best five ("best": its
    # cards, vele and punto), which the seat's panel lists
    engine = registry.get("telesina")
    state, seat = play_until(
        "telesina", lambda st, n, legal: has_type("mostro")(st, n, legal) and str(n) in st["best"]
    )
    engine.apply(state, seat, {"type": "mostro"}, SeededRng(1))
    assert "punto" in engine.view(state, None)["hands"][str(seat)]["best"]
    viewer = next(s for s in state["b"]["order"] if s != seat)
    t = open_table("telesina")
    t.show(state, viewer)
    panel = " ".join(t.page.locator(f"[data-seat='{seat}'] .seat-info").all_text_contents())
    assert (
        "Punto migliore" in panel
        and "Punto " in panel.replace("Punto migliore", "")
        and "Il tuo punto" not in panel
    )


def test_telesina_vele_are_laid_out_on_their_grid(open_table, artifacts):
    engine = registry.get("telesina")

    def vele_on_table(state, seat, legal):
        view = engine.view(state, seat)
        return bool(view.get("vele")) and any(c for c in (view.get("vele_cards") or {}).values())

    state, seat = play_until("telesina", vele_on_table)
    t = open_table("telesina")
    msg = t.show(state, seat)
    grid = t.page.locator("[data-role=vele]")
    assert grid.locator(".vela").count() == len(msg["view"]["vele"]["positions"])
    up = {c for c in msg["view"]["vele_cards"].values() if c}
    assert up <= set(grid.locator("[data-card]").evaluate_all(CODES))
    t.page.screenshot(path=str(artifacts / "tavolo-telesina-vele.png"), full_page=True)


def test_mazzetti_bet_on_a_chosen_mazzetto(open_table):
    def bet(state, seat, legal):
        return sum(1 for a in legal if a["type"] == "punto") >= 2

    state, seat = play_until("mazzetti", bet)
    t = open_table("mazzetti")
    msg = t.show(state, seat)
    specs = [a for a in msg["legal"] if a["type"] == "punto"]
    form = t.page.locator(".form-group", has=t.page.locator("button[data-action=punto]"))
    form.locator("[data-field=mazzetto] button").nth(1).click()
    assert form.locator("[data-field=mazzetto] button[aria-pressed=true]").inner_text() == "Mazzetto 2"
    amount = t.page.locator("[data-role=amount] input[name=amount]")
    amount.fill(euro_text(specs[1]["amount"]["min"]))
    action_button(t.page, "punto").click()
    t.wait_sent(1)
    assert t.acts()[0]["action"] == {
        "type": "punto",
        "mazzetto": specs[1]["mazzetto"],
        "amount": specs[1]["amount"]["min"],
    }


def finished(game: str, players: int | None = None) -> dict[str, Any]:
    engine = registry.get(game)
    n = players or seat_count(game)
    rng = SeededRng(5)
    state = engine.new(
        engine.validate_config({}),
        [{"seat": i + 1, "chips": 20_000, "sitout": False, "prefs": {}} for i in range(n)],
        rng,
    )
    for _ in range(5000):
        if engine.is_over(state):
            return state
        seat = engine.to_act(state)[0]
        legal = [a for a in engine.legal_actions(state, seat) if a["type"] not in ("sitout", "abbandona")]
        engine.apply(state, seat, action_from_spec(legal[rng.randbelow(len(legal))], rng), rng)
    raise AssertionError("not over")


def test_poker_showdown_shows_pots_winners_and_the_cards(open_table, artifacts):
    state = finished("poker5")
    t = open_table("poker5")
    msg = t.show(state, 1)
    assert t.page.locator("#table").get_attribute("data-over") == "1"
    result = t.page.locator("[data-role=result]")
    for pot in msg["view"]["result"]["pots"]:
        winners = ", ".join(u.nickname for u in t.users if int(t.users.index(u) + 1) in pot["winners"])
        assert winners in result.inner_text()
    drawn = set(t.page.locator("#table [data-card]").evaluate_all(CODES))
    assert view_cards(msg["view"]) <= drawn
    t.page.screenshot(path=str(artifacts / "tavolo-poker5-fine.png"), full_page=True)


def test_scopa_match_over_shows_the_score_and_tempo_partita(open_table):
    state = finished("scopa")
    t = open_table("scopa")
    t.show(
        state, 1, clocks={"0": 125_000, "1": 61_000}, ready_deadline=timezone.now() + timedelta(seconds=30)
    )
    assert t.page.locator("#table").get_attribute("data-over") == "1"
    text = t.page.locator("[data-role=result]").inner_text()
    per_seat = registry.get("scopa").view(state, 1)["result"]["per_seat"]
    for number, line in per_seat.items():
        nickname = t.users[int(number) - 1].nickname
        assert f"{nickname}: {line['points']} punti" in text
    assert "Un'altra partita" in t.page.locator("[data-role=ready]").inner_text()
    seat1 = t.page.locator("[data-seat='1']").inner_text()
    line = state["seats"].index(1) % 2
    assert {0: "2:05", 1: "1:01"}[line] in seat1


def test_clock_of_the_seat_to_act_counts_down(open_table):
    state, seat = play_until("briscola", has_type("gioca"))
    t = open_table("briscola")
    t.show(state, seat, deadline=timezone.now() + timedelta(seconds=75))
    clock = t.page.locator(f"[data-seat='{seat}'] .clock")
    t.page.wait_for_function("el => /^1:1[0-5]$/.test(el.textContent)", arg=clock.element_handle())
    # one clock on the seat to act and, as it is the viewer's turn, the same one above his hand
    turn = t.page.locator("[data-role=turn]")
    assert t.page.locator(".clock").count() == 2 and turn.locator(".clock").count() == 1
    assert turn.inner_text().startswith("Tocca a te")
    t.page.wait_for_function(
        "() => { const c = [...document.querySelectorAll('.clock')].map(e => e.textContent);"
        " return /^1:[01]\\d$/.test(c[0]) && c[0] === c[1]; }"
    )


def test_history_panel_lists_my_hands(open_table):
    from lobby.models import Hand, HandPlayer

    t = open_table("poker5")
    t.show(None, 1)
    user = t.users[0]

    def hand_played() -> Hand:
        hand = Hand.objects.create(
            table=t.table,
            number=4,
            game="poker5",
            seats=[{"seat": 1, "chips": 10_000, "user_id": user.pk}],
            outcome={"chips": {"1": 12_550}},
            ended_at=timezone.now(),
        )
        HandPlayer.objects.create(hand=hand, user=user, seat=1)
        return hand

    hand = t.live.run(hand_played)
    panel = t.page.locator("[data-role=history]")
    panel.locator("summary").click()
    row = panel.locator(f"li[data-hand='{hand.pk}']")
    row.wait_for()
    assert "Mano 4" in row.inner_text() and "+€ 25,50" in row.inner_text()
    assert row.locator("a").get_attribute("href") == f"/lobby/le-mie-mani/{hand.pk}/"


@pytest.mark.parametrize(
    ("game", "players", "config"),
    [
        ("poker5", 6, {}),
        ("mazzetti", 10, {}),
        ("scopa", 4, {"format": "coppie"}),
        ("briscola", 4, {"format": "coppie"}),
    ],
)
def test_full_tables_keep_every_seat_apart(open_table, artifacts, game, players, config):
    state, seat = play_until(game, lambda state, seat, legal: len(legal) > 1, seats=players, config=config)
    for name, viewport in (("laptop", LAPTOP), ("phone", PHONE)):
        t = open_table(game, viewport=viewport, players=players)
        t.show(state, seat)
        boxes = t.page.locator("[data-role=seats] [data-seat]").evaluate_all(
            "els => els.map(e => (r => [r.left, r.top, r.right, r.bottom])(e.getBoundingClientRect()))"
        )
        assert len(boxes) == players
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                overlap = min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1
                assert not overlap, (name, a, b)
        # The centre's content stays inside the centre (no card runs under a seat).
        view = t.page.locator("[data-role=view]")
        assert view.evaluate("v => v.scrollWidth <= v.clientWidth + 1")
        centre = view.bounding_box()
        me = t.page.locator(f"[data-seat='{seat}']").bounding_box()
        if name == "laptop":  # the viewer sits below the centre (on a phone: in the strip above it)
            assert me["y"] >= centre["y"] + centre["height"] - 1
        assert no_horizontal_scroll(t.page)
        t.page.screenshot(path=str(artifacts / f"tavolo-{game}-{players}-posti-{name}.png"), full_page=True)
        t.page.context.close()


def test_reconnection_gives_up_with_the_rules_message(open_table):
    t = open_table("scopa")
    t.show(None, 1)
    t.page.evaluate(
        "() => Object.assign(document.getElementById('table').dataset, {retryMs: '20', maxRetries: '3'})"
    )
    # the waits before each attempt, as the page asks them of setTimeout
    t.page.evaluate(
        """() => {
            window.__waits = [];
            const later = window.setTimeout;
            window.setTimeout = (fn, ms, ...rest) => {
                if (fn.name === "connect") window.__waits.push(ms);
                return later(fn, ms, ...rest);
            };
        }"""
    )
    t.refuse = True
    t.ws.close()
    notice = t.page.locator("[data-role=notice]")
    t.page.wait_for_function(
        "() => document.querySelector('[data-role=notice]').textContent.includes('fallito')"
    )
    assert notice.inner_text() == "Tentativo di riconnessione fallito - controlla la tua connessione"
    assert t.connections == 1 + 3  # the first connection, then three attempts
    # steps of 20, 40, 60 ms, each wait drawn in [half, all) of its step: a dead server's sockets
    # do not all come back in the same instant
    waits = t.page.evaluate("() => window.__waits")
    assert len(waits) == 3
    for step, wait in zip((20, 40, 60), waits, strict=True):
        assert step / 2 <= wait < step
    assert t.page.locator("#table").get_attribute("data-connected") == "0"


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (4404, "Il tavolo è stato chiuso"),
        (4403, "Non puoi più assistere a questo tavolo"),
        (4401, "Sessione scaduta: accedi di nuovo per tornare al tavolo"),
    ],
)
def test_a_close_no_attempt_can_undo_is_explained_and_not_retried(open_table, code, words):
    t = open_table("scopa")
    t.show(None, 1)
    t.page.evaluate(
        "() => Object.assign(document.getElementById('table').dataset, {retryMs: '20', maxRetries: '3'})"
    )
    t.ws.close(code=code, reason="")
    t.page.wait_for_function(f"() => document.getElementById('table').dataset.closed === '{code}'")
    assert t.page.locator("[data-role=notice]").inner_text() == words
    # a retry would have come within 20 ms (and three of them within 60): none does
    t.page.wait_for_timeout(300)
    assert t.connections == 1
    assert t.page.locator("#table").get_attribute("data-connected") == "0"
    assert t.page.locator("[data-role=notice]").inner_text() == words


def test_a_heartbeat_ahead_of_the_page_makes_it_ask_sync(open_table):
    """Broadcasts lost in a channel-layer outage: the server's heartbeat carries a newer version."""
    t = open_table("scopa")
    shown = t.show(None, 1)
    t.push({"type": "table.version", "version": shown["version"]})  # up to date: nothing to ask
    t.push({"type": "table.version", "version": shown["version"] + 2})
    assert t.wait_sent(1) == [{"type": "sync", "version": shown["version"]}]
    t.version += 1
    t.show(None, 1)  # the server's answer
    assert t.page.locator("#table").get_attribute("data-version") == str(shown["version"] + 2)
    assert t.sent == [{"type": "sync", "version": shown["version"]}]


def test_a_socket_silent_for_three_heartbeats_is_opened_again(open_table):
    """A server gone without closing the socket (a machine crash): the page reconnects and resyncs."""
    t = open_table("scopa")
    shown = t.show(None, 1)
    t.page.evaluate("() => { document.getElementById('table').dataset.heartbeatMs = '100'; }")
    t.push({"type": "table.version", "version": shown["version"]})  # the server beats, then is silent
    t.page.wait_for_function(
        "() => document.querySelector('[data-role=notice]').textContent.includes('ristabilita')"
    )
    assert t.connections == 2
    assert t.wait_sent(1) == [{"type": "sync", "version": shown["version"]}]


def test_a_spectator_sees_no_hand_no_actions_and_no_covered_card(open_table):
    state, _ = play_until("poker5", has_type("cambio"))
    t = open_table("poker5")
    msg = t.show(state, None)
    assert msg["legal"] == []
    assert t.page.locator("[data-role=hand]").is_hidden()
    assert t.page.locator("[data-role=actions] button[data-action]").count() == 0
    assert t.page.locator("[data-role=seats] .me").count() == 0
    drawn = set(t.page.locator("#table [data-card]").evaluate_all(CODES))
    assert drawn == {"covered"}  # every hand is covered for a spectator
    assert t.page.locator("[data-role=seats] [data-card=covered]").count() == 5 * len(msg["view"]["hands"])


def test_the_last_moves_are_logged_from_the_events(open_table):
    state, seat = play_until("scopa", has_type("gioca"))
    t = open_table("scopa")
    t.show(state, seat)
    log = t.page.locator("[data-role=log]")
    assert log.is_hidden()
    other = 3 - seat
    events = [
        {"type": "gioca", "pos": 0, "card": "7d", "take": ["7c"], "scopa": True, "seat": other},
        {"type": "carte", "cards": ["Ac"], "seat": seat, "to": [seat]},  # private: not a move
    ]
    msg = t.payload(state, seat)
    msg["events"] = events
    t.push(msg)
    assert log.is_visible()
    lines = log.locator("li")
    assert lines.count() == 1
    text = " ".join(lines.first.inner_text().split())
    assert text.startswith(f"{t.users[other - 1].nickname}: GIOCA") and "Scopa!" in text
    assert lines.first.locator("[data-card]").evaluate_all(CODES) == ["7d", "7c"]


def test_mazzetti_sizes_a_mazzetto_in_cards_not_in_euro(open_table):
    """MAZZETTO's "amount" is the mazzetto's size (RULINGS B2): the box counts cards (never
    "Importo (€) 0,04" for a mazzetto of 4 cards)."""
    state, seat = play_until("mazzetti", has_type("mazzetto"))
    t = open_table("mazzetti")
    msg = t.show(state, seat)
    spec = next(a for a in msg["legal"] if a["type"] == "mazzetto")
    box = t.page.locator("[data-role=amount]")
    assert "Carte del mazzetto" in box.inner_text() and "€" not in box.inner_text()
    assert box.locator("input[name=amount]").input_value() == str(spec["amount"]["min"])
    size = spec["amount"]["min"] + 1
    box.locator("input[name=amount]").fill(str(size))
    t.page.click("[data-role=actions] button[data-action=mazzetto]")
    t.wait_sent(1)
    assert t.acts()[0]["action"] == {"type": "mazzetto", "amount": size}


def test_a_partitas_seats_show_the_table_credit_between_and_during_matches(open_table):
    state, seat = play_until("scopa", lambda state, seat, legal: True)
    t = open_table("scopa")
    between = t.payload(None, seat)  # between matches: the waiting block carries each seat's credit
    credits = {1: 4_500, 2: 5_500}
    for row in between["waiting"]["seats"]:
        row["credit"] = credits[row["number"]]
    t.push(between)
    chips = "els => els.map(e => e.textContent)"
    expected = [format_eur(credits[1]), format_eur(credits[2])]
    assert t.page.locator("[data-role=seats] [data-seat] .seat-chips").evaluate_all(chips) == expected
    t.show(state, seat)  # the match: its view carries points, not credit; the seats keep it
    assert t.page.locator("[data-role=seats] [data-seat] .seat-chips").evaluate_all(chips) == expected


def test_a_training_partitas_seats_and_result_are_in_gettoni(open_table):
    """Training money is gettoni, never €: at a gioco a partite the seat boxes and the viewer's
    result of the match speak the table's realm."""
    state, seat = play_until("scopa", lambda state, seat, legal: True)
    t = open_table("scopa", realm="play")
    between = t.payload(None, seat)
    for row in between["waiting"]["seats"]:
        row["credit"] = 4_500 if row["number"] == 1 else 5_500
    t.push(between)
    chips = "els => els.map(e => e.textContent)"
    assert t.page.locator("[data-role=seats] [data-seat] .seat-chips").evaluate_all(chips) == [
        "45 gettoni",
        "55 gettoni",
    ]
    t.show(state, seat)
    assert t.page.locator("[data-role=seats] [data-seat] .seat-chips").evaluate_all(chips) == [
        "45 gettoni",
        "55 gettoni",
    ]
    assert "€" not in t.page.locator("[data-role=seats]").inner_text()
    over = t.payload(finished("scopa"), 1, ready_deadline=timezone.now() + timedelta(seconds=30))
    for row in over["waiting"]["seats"]:
        row["result"] = -600 if row["number"] == 1 else 600
    t.push(over)
    assert t.page.locator("[data-role=match-money]").inner_text() == "Hai perso 6 gettoni"
    assert t.errors == []


def test_a_partitas_end_tells_the_player_his_money(open_table):
    state = finished("scopa")
    t = open_table("scopa")
    message = t.payload(state, 1, ready_deadline=timezone.now() + timedelta(seconds=30))
    results = {1: -6_00, 2: 5_70}  # what the match moved on each credit (the rake kept)
    for row in message["waiting"]["seats"]:
        row["result"] = results[row["number"]]
    t.push(message)
    assert t.page.locator("[data-role=match-money]").inner_text() == "Hai perso € 6,00"
    assert t.errors == []
