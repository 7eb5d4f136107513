"""Helpers of the Bestia tests: stacked decks, hands dealt from a chosen dealer, random sessions."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

from games.bestia.engine import GIOCO, OVER, Bestia
from games.cards import italian_deck
from games.engine import IllegalAction, action_from_spec, dumps, loads
from games.registry import get
from games.rng import SeededRng

ENGINE: Bestia = get("bestia")  # type: ignore[assignment]  # the registry returns the base class


def stacked(hands: list[list[str]], briscola: str, stock_top: list[str] | None = None) -> list[str]:
    """Return a 40-card deck that deals ``hands`` (in playing order), then the briscola, then the stock."""
    deck: list[str] = []
    for i in range(len(hands[0])):
        deck += [h[i] for h in hands]
    deck += [briscola, *(stock_top or [])]
    rest = [c for c in italian_deck() if c not in deck]
    assert len(deck) + len(rest) == 40, "a card is repeated"
    return deck + rest


def deal(
    hands: list[list[str]],
    briscola: str,
    *,
    chips: list[int] | None = None,
    dealer: int | None = None,
    stock_top: list[str] | None = None,
    config: dict[str, Any] | None = None,
    carry: dict[str, Any] | None = None,
    seats: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Deal a smazzata with seats 0..n-1 from a stacked deck, the dealer being the last seat by default.

    ``hands`` are given in playing order (from the dealer's right), so with the default dealer
    ``hands[0]`` is seat 0's.
    """
    n = len(hands) if seats is None else len(seats)
    if seats is None:
        seats = [{"seat": s, "chips": (chips or [10_000] * n)[s]} for s in range(n)]
    dealer = n - 1 if dealer is None else dealer
    c = {"dealer": dealer - 1, **(carry or {})}  # the previous dealer: the new one is at its right
    return ENGINE.new_with_deck(
        {"invito": 100, **(config or {})}, seats, SeededRng(0), c, stacked(hands, briscola, stock_top)
    )


def act(state: dict[str, Any], seat: int, kind: str, **params: Any) -> list[dict[str, Any]]:
    """Apply one action of ``seat``."""
    return ENGINE.apply(state, seat, {"type": kind, **params}, SeededRng(0))


def play_out(state: dict[str, Any], *cards: str) -> None:
    """Play these cards in turn (whoever is to act plays the next one)."""
    for card in cards:
        act(state, ENGINE.to_act(state)[0], "gioca", card=card)


def refused(state: dict[str, Any], seat: int, action: dict[str, Any]) -> IllegalAction:
    """Apply an action that must be refused; check the state is unchanged; return the error."""
    before = copy.deepcopy(state)
    try:
        ENGINE.apply(state, seat, action, SeededRng(0))
    except IllegalAction as err:
        assert state == before
        return err
    raise AssertionError(f"accepted {action}")


# ---------------------------------------------------------------------------------- invariants


def hidden_cards(state: dict[str, Any], seat: int | None) -> set[str]:
    """Return the cards this seat must not see now: others' hands, the stock, the discards."""
    deal = state["deal"]
    if deal is None:
        return set()
    hidden = set(deal["stock"]) | set(state["discards"])
    for key, hand in deal["hands"].items():
        if seat is None or key != str(seat):
            hidden |= set(hand)
    return hidden


def check_state(state: dict[str, Any], total: int) -> None:
    """Money conserved, every card accounted for once, views leak nothing, JSON round-trips."""
    assert ENGINE.money(state) == total
    assert all(v >= 0 for v in state["chips"].values()) and state["piatto"] >= 0 and state["rake"] >= 0
    cards = ENGINE.cards_in_play(state)
    assert not cards or Counter(cards) == Counter(italian_deck())
    assert loads(dumps(state)) == state
    for seat in [None, *state["order"]]:
        view = ENGINE.view(state, seat)
        text = dumps(view)
        assert loads(text) == view
        leaks = {c for c in hidden_cards(state, seat) if f'"{c}"' in text}
        assert not leaks, (seat, leaks)
        assert "deck_log" not in text and "stock" not in view and "discards" not in view


def check_events(state: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """A public event names no card still hidden from a spectator; a private one goes to its seat only."""
    hidden = hidden_cards(state, None)
    for event in events:
        if "to" in event:
            assert event["to"] == [event["seat"]]
            continue
        text = dumps(event)
        assert not [c for c in hidden if f'"{c}"' in text], event


def bad_actions(state: dict[str, Any], seat: int, rng: SeededRng) -> list[tuple[dict[str, Any], int]]:
    """Return a few actions the engine must refuse now (wrong seat, wrong phase, bad cards)."""
    others = [s for s in state["order"] if s != seat]
    hand = state["deal"]["hands"].get(str(seat), []) if state["deal"] else []
    foreign = [c for c in italian_deck() if c not in hand]
    out: list[tuple[dict[str, Any], int]] = [
        ({"type": "passo"}, others[rng.randbelow(len(others))]),
        ({"type": "nonsense"}, seat),
        ({"type": "gioca", "card": foreign[rng.randbelow(len(foreign))]}, seat),
        ({"type": "cambio", "cards": [foreign[0]]}, seat),
        ({"type": "cambio", "cards": []}, seat),
        ({"type": "servito", "extra": 1}, seat),
        ({"type": "buio"}, seat),
    ]
    if hand:
        out.append(({"type": "cambio", "cards": [hand[0], hand[0]]}, seat))
        out.append(({"type": "gioca", "card": hand[rng.randbelow(len(hand))]}, seat))
    return [(a, s) for a, s in out if not ENGINE.can_apply(state, s, a)]


def pick(state: dict[str, Any], seat: int, rng: SeededRng) -> dict[str, Any]:
    """A random legal action; a timeout (sitout) now and then; playing is favoured over passing."""
    if rng.randbelow(25) == 0:
        return ENGINE.timeout_action(state, seat)
    specs = ENGINE.legal_actions(state, seat)
    if state["phase"] != GIOCO and rng.randbelow(3):
        keen = [s for s in specs if s["type"] != "passo"]
        specs = keen or specs
    return action_from_spec(specs[rng.randbelow(len(specs))], rng)


def random_config(rng: SeededRng) -> dict[str, Any]:
    """A random table: variant, cash or tournament, invito, rake and cap."""
    cash = rng.randbelow(3) > 0
    cfg: dict[str, Any] = {
        "cards": 3 + rng.randbelow(2),
        "mode": "cash" if cash else "tournament",
        "invito": 1 + rng.randbelow(500),
    }
    if cash:
        cfg["rake_bp"] = rng.randbelow(1001)
        cfg["rake_cap"] = None if rng.randbelow(2) else rng.randbelow(300)
        cfg["min_credit"] = rng.randbelow(2 * cfg["invito"] + 1)
    return cfg


def random_session(seed: int, hands: int = 6, check: str = "full") -> list[dict[str, Any]]:
    """Play random smazzate with carry, checking invariants after every action; return the outcomes.

    ``check``: "full" (money, cards, views of every seat, events, JSON, refused actions) or "light"
    (money and cards after every action).
    """
    rng = SeededRng(seed)
    cfg = random_config(rng)
    n = 2 + rng.randbelow(ENGINE.max_seats - 1)
    seats = [
        {"seat": s * 2, "chips": 1 + rng.randbelow(8000), "sitout": rng.randbelow(8) == 0} for s in range(n)
    ]
    carry = None
    outcomes = []
    for _ in range(hands):
        state = ENGINE.new(cfg, seats, rng, carry)
        total = sum(s["chips"] for s in seats) + (carry or {}).get("piatto", 0)
        check_state(state, total)
        steps = 0
        while not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)[0]
            if check == "full":
                for action, who in bad_actions(state, seat, rng):
                    refused(state, who, action)
            action = pick(state, seat, rng)
            assert ENGINE.can_apply(state, seat, action)
            events = ENGINE.apply(state, seat, action, rng)
            if check == "full":
                check_state(state, total)
                check_events(state, events)
            else:
                assert ENGINE.money(state) == total
                assert Counter(ENGINE.cards_in_play(state)) == Counter(italian_deck())
            steps += 1
            assert steps < 200
        assert state["phase"] == OVER
        check_state(state, total)
        out = ENGINE.outcome(state)
        assert sum(out["chips"].values()) + out["rake"] + out["carried_out"] == total
        outcomes.append(out)
        carry = ENGINE.carry(state)
        carry = loads(dumps(carry))
        sitout = set(out["sitout"])
        seats = [
            {"seat": int(s), "chips": c, "sitout": int(s) in sitout and rng.randbelow(2) == 0}
            for s, c in out["chips"].items()
            if int(s) not in out["stand_up"]
        ]
        if rng.randbelow(6) == 0 and len(seats) < ENGINE.max_seats and all(s["seat"] != 99 for s in seats):
            # a newcomer sits down: he may not play for a carried piatto
            seats.append({"seat": 99, "chips": 5000, "new": True})
        if len(seats) < ENGINE.min_seats:
            break
    return outcomes
