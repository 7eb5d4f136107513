"""Issue 20, what players of card sites expect: gestures, Premove, movement, sounds, keyboard.

The table page against real engine states, its WebSocket played by the test (the ``open_table``
fixture of test_table_client.py, shared through conftest.py): double-click to play or discard
a card; drag it onto the felt, onto a table card (a capture), onto a meld, or within the hand,
with the mouse or with a finger on a phone (Chrome's touch input: taps and scrolling stay);
Sette e mezzo's Premove; the animations of dealing, playing, capturing and chips (none when the
system asks for reduced motion); the sounds of time running out and of a scopa; the keyboard
and the accessible names of every control; the automatic measures in the end-of-match summary.
Each test failed before the client had the feature (no handler, panel or animation to find).
"""

from __future__ import annotations

import copy
import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import registry
from games.rng import SeededRng
from tests.e2e.live import STATIC_FILES_WARNING
from tests.e2e.test_table_client import (
    CODES,
    PHONE,
    burraco_with_meld,
    concrete,
    has_type,
    play_until,
)

pytestmark = [pytest.mark.browser, pytest.mark.filterwarnings(STATIC_FILES_WARNING)]


def show_with(t, state: dict[str, Any] | None, seat: int | None, events: list[dict[str, Any]], **extra: Any):
    """Show a state with the events that led to it (as the server sends them after an action)."""
    msg = t.payload(state, seat, **extra)
    msg["events"] = [e for e in events if "to" not in e or seat in e["to"]]
    t.state, t.seat = copy.deepcopy(state), seat
    t.push(msg)
    return msg


def hand_codes(page) -> list[str]:
    return page.locator("[data-role=hand] [data-index] [data-card]").evaluate_all(CODES)


# --- double-click, drag ---------------------------------------------------------------------------


def test_double_click_discards_a_card(open_table):
    state, seat, _laid = burraco_with_meld()
    t = open_table("burraco")
    msg = t.show(state, seat)
    discards = {a["card"]: a for a in msg["legal"] if a["type"] == "scarta"}
    assert discards
    slot = next(
        t.page.locator(f"[data-role=hand] [data-index]:has([data-card='{c}'])").first for c in discards
    )
    code = slot.locator("[data-card]").get_attribute("data-card")
    slot.dblclick()
    t.wait_sent(1)
    assert t.acts() == [{"type": "act", "action": concrete(discards[code]), "version": msg["version"]}]


def capture_with_a_telling_card(state, seat, legal):
    """A card with several captures, one of whose table cards only one capture takes."""
    plays: dict[str, list[dict[str, Any]]] = {}
    for a in legal:
        if a["type"] == "gioca" and a.get("take"):
            plays.setdefault(a["card"], []).append(a)
    for options in plays.values():
        if len(options) < 2:
            continue
        for a in options:
            if any(sum(1 for b in options if c in b["take"]) == 1 for c in a["take"]):
                return True
    return False


def test_drag_a_card_onto_a_table_card_captures_it(open_table, artifacts):
    state, seat = play_until("scopa", capture_with_a_telling_card)
    t = open_table("scopa")
    msg = t.show(state, seat)
    options: dict[str, list[dict[str, Any]]] = {}
    for a in msg["legal"]:
        if a["type"] == "gioca" and a.get("take"):
            options.setdefault(a["card"], []).append(a)
    card, spec, target = next(
        (c, a, x)
        for c, opts in options.items()
        if len(opts) > 1
        for a in opts
        for x in a["take"]
        if sum(1 for b in opts if x in b["take"]) == 1
    )
    source = t.page.locator(f"[data-role=hand] [data-index]:has([data-card='{card}'])").first
    source.drag_to(t.page.locator(f"[data-role=view] [data-card='{target}']").first)
    t.wait_sent(1)
    # the capture that takes the card it was dropped on, without asking which
    assert t.acts() == [{"type": "act", "action": concrete(spec), "version": msg["version"]}]
    # dropped on the felt away from any card: the page asks which capture, as a click does
    t.show(state, seat)
    source.drag_to(t.page.locator(".felt [data-role=seats] [data-seat].me"))
    assert t.page.locator("[data-role=choices] button[data-action=gioca]").count() == len(options[card])
    assert len(t.acts()) == 1
    t.page.screenshot(path=str(artifacts / "tavolo-scopa-trascina-presa.png"), full_page=True)


def test_drag_a_card_onto_the_felt_plays_it(open_table):
    state, seat = play_until("briscola", has_type("gioca"))
    t = open_table("briscola")
    msg = t.show(state, seat)
    spec = next(a for a in msg["legal"] if a["type"] == "gioca")
    source = t.page.locator(f"[data-role=hand] [data-index]:has([data-card='{spec['card']}'])").first
    source.drag_to(t.page.locator(".felt [data-role=view]"))
    t.wait_sent(1)
    assert t.acts()[0]["action"] == concrete(spec)


def test_drag_a_card_onto_a_meld_attaches_it_and_onto_the_felt_discards_it(open_table):
    state, seat, _laid = burraco_with_meld()
    t = open_table("burraco")
    msg = t.show(state, seat)
    attacca = next(a for a in msg["legal"] if a["type"] == "attacca")
    card = next(c for c in hand_codes(t.page) if c in attacca["cards"]["subset_of"])
    source = t.page.locator(f"[data-role=hand] [data-index]:has([data-card='{card}'])").first
    source.drag_to(t.page.locator(f"[data-role=melds] [data-meld='{attacca['meld']}']"))
    t.wait_sent(1)
    assert t.acts()[0]["action"] == {"type": "attacca", "meld": attacca["meld"], "cards": [card]}
    t.show(state, seat)
    discard = next(a for a in msg["legal"] if a["type"] == "scarta")
    t.page.locator(f"[data-role=hand] [data-index]:has([data-card='{discard['card']}'])").first.drag_to(
        t.page.locator(".felt [data-role=view] .centre")
    )
    t.wait_sent(2)
    assert t.acts()[1]["action"] == concrete(discard)


def test_drag_within_the_hand_and_alt_arrows_reorder_it(open_table):
    state, seat = play_until("burraco", has_type("pesca", "pesca_tallone", "prendi_scarti", "cala"))
    t = open_table("burraco")
    t.show(state, seat)
    before = hand_codes(t.page)
    assert len(before) >= 5
    slots = t.page.locator("[data-role=hand] [data-index]")
    slots.nth(0).drag_to(slots.nth(3))
    moved = [*before[1:4], before[0], *before[4:]]
    assert hand_codes(t.page) == moved
    # the player's order stays when the server sends the table again
    t.show(state, seat)
    assert hand_codes(t.page) == moved
    # the keyboard way: Alt+→ moves the focused card one place right, and keeps the focus on it
    slots.nth(0).focus()
    t.page.keyboard.press("Alt+ArrowRight")
    assert hand_codes(t.page) == [moved[1], moved[0], *moved[2:]]
    assert t.page.evaluate("document.activeElement.dataset.index") == "1"
    assert t.acts() == []  # reordering sends nothing


def finger(page, start: tuple[float, float], path: list[tuple[float, float]], *, hold_ms: int = 0) -> None:
    """A finger on a touch screen (Chrome's own touch input: pointer, touch and scroll as on a phone):
    down at ``start``, held ``hold_ms``, moved through ``path``, lifted."""
    cdp = page.context.new_cdp_session(page)
    x, y = start
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    if hold_ms:
        page.wait_for_timeout(hold_ms)  # the hold is the gesture itself (a person holding the card)
    for x, y in path:
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def centre(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def steps(a: tuple[float, float], b: tuple[float, float], n: int = 8) -> list[tuple[float, float]]:
    return [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(1, n + 1)]


def test_a_finger_taps_scrolls_and_drags_cards_on_a_phone(open_table):
    state, seat, _laid = burraco_with_meld()
    t = open_table("burraco", viewport=PHONE, touch=True)
    msg = t.show(state, seat)
    page = t.page
    slots = page.locator("[data-role=hand] [data-index]")
    page.evaluate(
        "window.scrollTo(0, document.querySelector('[data-role=hand]').getBoundingClientRect().top"
        " + scrollY - innerHeight / 2)"
    )
    before = hand_codes(page)
    # a tap picks a card, as a click does, and a second tap leaves it (two taps on one card in a row
    # are a double tap: a double-click, which discards it)
    first, third = (page.locator(f"[data-role=hand] [data-index='{i}']") for i in (0, 2))
    finger(page, centre(first), [])
    page.wait_for_selector("[data-role=hand] [data-index='0'][aria-pressed=true]")
    finger(page, centre(third), [])
    page.wait_for_selector("[data-role=hand] [data-index='2'][aria-pressed=true]")
    finger(page, centre(first), [])
    page.wait_for_selector("[data-role=hand] [data-index='0'][aria-pressed=false]")
    # held, then moved: the card goes where the finger lifts (in the hand it changes place), and
    # the page does not scroll under it
    y0 = page.evaluate("scrollY")
    a, b = centre(slots.nth(0)), centre(slots.nth(3))
    finger(page, a, [*steps(a, (a[0], a[1] - 60), 3), *steps((a[0], a[1] - 60), b, 5)], hold_ms=400)
    moved = [*before[1:4], before[0], *before[4:]]
    assert hand_codes(page) == moved
    assert page.evaluate("scrollY") == y0
    assert t.acts() == []
    # onto the felt: the card is discarded, as a drag with the mouse does
    discard = next(a for a in msg["legal"] if a["type"] == "scarta" and a["card"] in moved)
    source = page.locator(f"[data-role=hand] [data-index]:has([data-card='{discard['card']}'])").first
    a, b = centre(source), centre(page.locator(".felt [data-role=view] .centre"))
    finger(page, a, steps(a, b), hold_ms=400)
    t.wait_sent(1)
    assert t.acts() == [{"type": "act", "action": concrete(discard), "version": msg["version"]}]
    assert page.locator(".touch-ghost").count() == 0
    # a quick swipe that starts on a card scrolls the page and moves no card
    y0 = page.evaluate("scrollY")
    a = centre(first)
    finger(page, a, steps(a, (a[0], a[1] - 300), 6))
    page.wait_for_function("y => scrollY > y + 50", arg=y0)
    assert hand_codes(page) == moved
    assert len(t.acts()) == 1


# --- Premove (Sette e mezzo) -----------------------------------------------------------------------


def premove_position() -> tuple[dict[str, Any], int]:
    """A Sette e mezzo state and a waiting punta that may set a Premove with its bet."""
    engine = registry.get("settemezzo")

    def want(state, seat, legal):
        return any(
            any(a["type"] == "premove" and a.get("amount") for a in engine.legal_actions(state, s))
            for s in (1, 2, 3)
            if s != seat
        )

    state, actor = play_until("settemezzo", want)
    waiting = next(
        s
        for s in (1, 2, 3)
        if s != actor
        and any(a.get("amount") for a in engine.legal_actions(state, s) if a["type"] == "premove")
    )
    return state, waiting


def test_premove_is_set_before_the_turn_and_cancelled(open_table, artifacts):
    engine = registry.get("settemezzo")
    state, seat = premove_position()
    t = open_table("settemezzo")
    msg = t.show(state, seat)
    panel = t.page.locator("[data-role=premove]")
    assert panel.is_visible()
    assert "decision" not in panel.inner_text().lower()  # no raw field name
    sto = next(a for a in msg["legal"] if a["type"] == "premove" and a["decision"] == "sto")
    t.page.locator("[data-role=actions] input[name=amount]").fill("2")
    t.page.locator("[data-role=actions] input[name=amount]").press("Tab")
    panel.locator("button[data-decision=sto]").click()
    t.wait_sent(1)
    assert t.acts()[0]["action"] == {"type": "premove", "decision": "sto", "amount": 200}
    assert sto["amount"]["min"] <= 200 <= sto["amount"]["max"]
    # the server keeps it: the page says so, and offers to cancel it
    engine.apply(state, seat, {"type": "premove", "decision": "sto", "amount": 200}, SeededRng(1))
    msg = t.show(state, seat)
    assert "STO € 2,00" in t.page.locator("[data-role=premove-set]").inner_text()
    assert panel.locator("button[data-decision=sto]").get_attribute("aria-pressed") == "true"
    t.page.screenshot(path=str(artifacts / "tavolo-settemezzo-premove.png"), full_page=True)
    panel.locator("button[data-decision='']").click()
    t.wait_sent(2)
    assert t.acts()[1]["action"] == {"type": "premove", "decision": None}
    # at his turn there is no Premove panel, only the decision
    actor = engine.to_act(state)[0]
    t.show(state, actor)
    assert t.page.locator("[data-role=premove]").count() == 0


# --- movement ------------------------------------------------------------------------------------


def capture_by_seat(state, seat, legal):
    return any(a["type"] == "gioca" and len(a.get("take") or []) >= 2 for a in legal)


def test_dealing_playing_capturing_and_chips_move(open_table):
    engine = registry.get("scopa")
    state, seat = play_until("scopa", capture_by_seat)
    t = open_table("scopa")
    # from the waiting felt to a dealt hand: the hand's cards are dealt, the table's laid
    t.show(None, seat)
    t.show(state, seat)
    hand = len(t.page.locator("[data-role=hand] [data-card]").evaluate_all(CODES))
    table = t.page.locator("[data-role=view] [data-card]:not([data-card=covered])").evaluate_all(
        "els => els.filter(e => !e.closest('.zone-move')).length"
    )
    motion = t.page.get_attribute("#table", "data-motion")
    assert f"deal:{hand}" in motion and f"play:{table}" in motion
    # a capture: the taken cards fly from the table to the seat that took them
    spec = next(
        a for a in engine.legal_actions(state, seat) if a["type"] == "gioca" and len(a.get("take") or []) >= 2
    )
    after = copy.deepcopy(state)
    events = engine.apply(after, seat, concrete(spec), SeededRng(3))
    show_with(t, after, seat, events)
    assert f"capture:{len(spec['take'])}" in t.page.get_attribute("#table", "data-motion")
    assert t.page.evaluate("document.getAnimations().length") > 0
    # chips: a poker bet goes from its seat to the bet on the felt
    pstate, bettor = play_until("poker5", lambda s, n, legal: any(a.get("amount") for a in legal))
    p = open_table("poker5")
    viewer = next(n for n in (1, 2, 3) if n != bettor)
    p.show(pstate, viewer)
    bet = next(a for a in registry.get("poker5").legal_actions(pstate, bettor) if a.get("amount"))
    after = copy.deepcopy(pstate)
    action = {**concrete(bet), "amount": bet["amount"]["min"]}
    events = registry.get("poker5").apply(after, bettor, action, SeededRng(4))
    show_with(p, after, viewer, events)
    assert "chips:1" in (p.page.get_attribute("#table", "data-motion") or "")


def test_no_movement_when_the_system_asks_for_reduced_motion(open_table):
    state, seat = play_until("scopa", capture_by_seat)
    t = open_table("scopa")
    t.page.emulate_media(reduced_motion="reduce")
    t.show(None, seat)
    t.show(state, seat)
    assert t.page.get_attribute("#table", "data-motion") is None
    assert t.page.evaluate("document.getAnimations().length") == 0


# --- sounds: time running out, a scopa ----------------------------------------------------------------


def test_time_running_out_and_a_scopa_sound(open_table):
    state, seat = play_until("scopa", has_type("gioca"))
    t = open_table("scopa")
    t.show(state, seat, deadline=timezone.now() + timedelta(seconds=6))
    t.page.wait_for_function("() => document.getElementById('table').dataset.lastSound === 'late'")
    engine = registry.get("scopa")
    other = next(n for n in (1, 2) if n != seat)
    scopa = [{"type": "gioca", "seat": other, "card": "7d", "take": ["7c"], "scopa": True}]
    show_with(t, state, seat, scopa)
    assert t.page.get_attribute("#table", "data-last-sound") == "scopa"
    # muted: the page says the sound was skipped
    t.page.locator("[data-role=sound]").click()
    show_with(t, state, seat, scopa)
    assert t.page.get_attribute("#table", "data-last-sound") == "scopa:muted"
    assert engine  # the state is the engine's


# --- keyboard and screen readers ---------------------------------------------------------------------

CONTROLS = "#table button, #table input, #table select, #table [role=button], #table [tabindex]"
UNNAMED = f"""() => [...document.querySelectorAll('{CONTROLS}')]
  .filter((el) => !el.closest('[hidden]'))
  .filter((el) => {{
    const name = (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.textContent
      || el.title || el.placeholder || '').trim();
    const label = el.id && document.querySelector(`label[for="${{el.id}}"]`);
    return !name && !label && !el.closest('label');
  }}).map((el) => el.outerHTML.slice(0, 80))"""


@pytest.mark.parametrize("game", ["scopa", "burraco", "poker5", "settemezzo"])
def test_every_control_has_a_name_and_the_keyboard_plays(open_table, game):
    state, seat = play_until(game, lambda s, n, legal: len(legal) > 1)
    t = open_table(game)
    msg = t.show(state, seat)
    assert t.page.evaluate(UNNAMED) == []
    # the hand's playable cards are reached with Tab and played with Enter (or picked with Space)
    first = t.page.locator("[data-role=hand] button.carta-btn").first
    if first.count():
        card = first.element_handle()
        card.focus()
        assert t.page.evaluate("document.activeElement.classList.contains('carta-btn')")
        sent_before = len(t.sent)
        t.page.keyboard.press("Enter")
        # the card is picked, or played (a message sent), or its choices open
        t.page.wait_for_function(
            "([card, n]) => card.getAttribute('aria-pressed') === 'true' || (window.__sent || 0) > n"
            " || !!document.querySelector('#table [data-role=choices] button')",
            arg=[card, sent_before],
        )
        picked = card.get_attribute("aria-pressed") == "true"
        sent = bool(t.acts()) or t.page.locator("[data-role=choices] button").count() > 0
        assert picked or sent, "Enter on a card does nothing"
    # every action button is reachable by Tab (none is taken out of the tab order)
    assert t.page.locator("[data-role=actions] button[tabindex='-1']").count() == 0
    assert msg["legal"]


# --- the summary's automatic measures ---------------------------------------------------------------------


def test_the_match_summary_lists_the_automatic_measures(open_table, artifacts):
    engine = registry.get("scopa")
    state, seat = play_until("scopa", has_type("gioca"))
    t = open_table("scopa")
    t.show(state, seat)
    line = state["seats"].index(seat) % 2
    events = engine.forfeit(state, line, "tempo_scaduto")
    show_with(t, state, seat, events)
    measures = t.page.locator("[data-role=summary] [data-role=measures]")
    assert measures.is_visible()
    text = measures.inner_text()
    assert "Tempo scaduto" in text and "perde la partita" in text, text
    t.page.screenshot(path=str(artifacts / "tavolo-scopa-misure.png"), full_page=True)


def test_the_hand_summary_stays_while_the_server_holds_the_next_deal(open_table):
    """The pause between hands is the server's (lobby.actions.hands.SHOWDOWN_PAUSE_SECONDS): the summary
    says when the next hand comes; once it is dealt, the client keeps no summary of its own."""
    from tests.e2e.test_table_client import finished

    over = finished("poker5")
    t = open_table("poker5")
    t.push(t.payload(over, 1, start_at=timezone.now() + timedelta(seconds=8)))
    summary = t.page.locator("[data-role=view] [data-role=summary]")
    assert summary.is_visible()
    countdown = summary.locator("[data-role=next-hand]")
    assert countdown.is_visible()
    assert re.fullmatch(r"Prossima mano tra 0:0[5-8]", countdown.inner_text().strip())
    # the next hand, dealt by the server: the felt shows it, and no summary of the last one
    state, _seat = play_until("poker5", has_type("invito"))
    msg = t.payload(state, 1)
    msg["hand"] = 2
    t.push(msg)
    t.page.wait_for_function("() => !document.querySelector('[data-role=view] [data-role=summary]')")
    assert t.page.locator("[data-role=summary-past]").count() == 0
