"""Chemin de fer property tests: thousands of random coups, every invariant after every action."""

from __future__ import annotations

import copy
import re
from collections import Counter

import pytest

from games import cards
from games.chemin.engine import OVER, ChemindeferEngine
from games.chemin.sim import choose, next_seats, pick
from games.engine import IllegalAction, dumps, loads, private_to
from games.rng import SeededRng

E = ChemindeferEngine()
FULL_SHOE = Counter(cards.shoe())
CARD = re.compile(r'"([2-9TJQKA][hdcs])"')
HIDDEN_KEYS = ("shoe", "discards", "deck_log", "coup_events")


def visible_cards(state, seat):
    """The cards this seat may see now."""
    seen = list(state["punta"][2:]) + list(state["banco_cards"][2:])
    if state["punta_shown"] or (seat is not None and seat == state["receiver"]):
        seen += state["punta"][:2]
    if state["banco_shown"]:
        seen += state["banco_cards"][:2]
    return Counter(seen)


def check_view(state):
    for seat in [None, *state["order"]]:
        view = E.view(state, seat)
        text = dumps(view)
        shown = Counter(CARD.findall(text))
        assert not shown - visible_cards(state, seat), (seat, shown, visible_cards(state, seat))
        assert not any(f'"{key}"' in text for key in HIDDEN_KEYS)


def check_events(state, events):
    for event in events:
        if private_to(event, None):
            # a public event shows only what everyone may see once the action is applied
            assert not Counter(CARD.findall(dumps(event))) - visible_cards(state, None), event


ILLEGAL = [
    {"type": "volo"},
    {"type": "punto", "amount": -5},
    {"type": "punto", "amount": 10**9},
    {"type": "accetto", "amount": 0},
    {"type": "offerta", "amount": 10**9},
    {"type": "batto", "x": 1},
    {"type": "forfait"},
    "passo",
]


def check_refusals(state, rng):
    """An illegal action, or any action from a seat that is not to act, changes nothing."""
    before = copy.deepcopy(state)
    acting = E.to_act(state)
    others = [s for s in state["order"] if s not in acting]
    tries = [(acting[0], ILLEGAL[rng.randbelow(len(ILLEGAL))])] if acting else []
    if others:
        tries.append((others[rng.randbelow(len(others))], {"type": "passo"}))
    for seat, action in tries:
        if isinstance(action, dict) and E.can_apply(state, seat, action):
            continue
        with pytest.raises(IllegalAction):
            E.apply(state, seat, action, rng)  # type: ignore[arg-type]  # junk actions on purpose
        assert state == before


def run_session(seed, coups, config, deep=True):
    rng = SeededRng(seed)
    n = 3 + seed % 5
    seats = [
        {
            "seat": i,
            "chips": 2000 + rng.randbelow(20_000),
            "sitout": False,
            "prefs": {
                "chemin_alla_regola": rng.randbelow(3) == 0,
                "chemin_battuta_automatica": rng.randbelow(2) == 0,
                "chemin_punta_5": ["sto", "tiro"][rng.randbelow(2)],
                "chemin_banco_3_dando_9": ["sto", "tiro"][rng.randbelow(2)],
                "chemin_banco_5_dando_4": ["sto", "tiro"][rng.randbelow(2)],
            },
        }
        for i in range(1, n + 1)
    ]
    carry = None
    total = sum(s["chips"] for s in seats)
    played = 0
    results: Counter[str] = Counter()
    for _ in range(coups):
        state = E.new(config, seats, rng, carry)
        assert E.money(state) == total
        while True:
            assert E.money(state) == total
            assert Counter(E.cards_in_play(state)) == FULL_SHOE
            if deep:
                assert loads(dumps(state)) == state
                check_view(state)
                check_refusals(state, rng)
            if E.is_over(state):
                break
            assert E.to_act(state)
            seat, action = choose(state, rng)  # a seat due, or now and then an optional button
            events = E.apply(state, seat, action, rng)
            if deep:
                check_events(state, events)
        assert state["phase"] == OVER and E.to_act(state) == []
        out = E.outcome(state)
        results[out["result"]] += 1
        played += 1
        total -= out["rake"] + sum(out["paid_out"].values())
        carry = E.carry(state)
        carry_json = loads(dumps(carry))
        assert carry_json == carry
        seats = next_seats(state, seats, rng)
        # now and then a player leaves (the banker too: his posta and garage are paid out)
        if len(seats) > 3 and rng.randbelow(25) == 0:
            gone = seats.pop(rng.randbelow(len(seats)))
            total -= gone["chips"]
        if len(seats) < 7 and rng.randbelow(30) == 0:
            newcomer = max(s["seat"] for s in seats) + 1
            seats.append({"seat": newcomer, "chips": 5000, "sitout": False, "prefs": {}})
            total += 5000
        if sum(1 for s in seats if s["chips"] > 0) < 2:
            break
    return played, results


@pytest.mark.parametrize("mode", ["cash", "tournament"])
def test_random_coups_keep_every_invariant(mode):
    config = {"mode": mode, "min_posta": 1000, "min_bet": 100, "rake_bp": 500 if mode == "cash" else 0}
    played = 0
    results: Counter[str] = Counter()
    for seed in range(30):
        n, r = run_session(seed, 40, config)
        played += n
        results += r
    assert played >= 1000
    assert {"punta", "banco", "egalite"} <= set(results)


@pytest.mark.parametrize("mode", ["cash", "tournament"])
def test_many_random_coups_money_and_cards(mode):
    config = {"mode": mode, "min_posta": 500, "min_bet": 100, "rake_bp": 300 if mode == "cash" else 0}
    played = 0
    for seed in range(100, 140):
        played += run_session(seed, 100, config, deep=False)[0]
    assert played >= 3000


def test_new_does_not_change_the_carry():
    rng = SeededRng(3)
    seats = [{"seat": i, "chips": 5000, "sitout": False, "prefs": {}} for i in (1, 2, 3)]
    state = E.new({}, seats, rng)
    while not E.is_over(state):
        seat = E.to_act(state)[0]
        E.apply(state, seat, pick(state, seat, rng), rng)
    carry = E.carry(state)
    frozen = copy.deepcopy(carry)
    E.new({}, seats, rng, carry)
    assert carry == frozen


def test_the_first_banker_of_a_cash_table_is_drawn_among_seats_that_can_hold_the_bank():
    """A sitout seat drawn first would only pass the bank on (and be counted a skipped turn):
    at a cash table the draw is among the others, each as likely; a tournament draws every seat."""
    seats = [
        {"seat": 1, "chips": 5000, "sitout": True, "prefs": {}},
        {"seat": 2, "chips": 5000, "sitout": False, "prefs": {}},
        {"seat": 3, "chips": 0, "sitout": False, "prefs": {}},
        {"seat": 4, "chips": 5000, "sitout": False, "prefs": {}},
    ]
    drawn = Counter()
    for seed in range(200):
        state = E.new({}, seats, SeededRng(seed))
        (event,) = [e for e in state["coup_events"] if e["type"] == "sorteggio_banco"]
        drawn[event["seat"]] += 1
        assert state["skipped"] == {}
    assert set(drawn) == {2, 4} and min(drawn.values()) > 70
    tournament = Counter()
    for seed in range(200):
        state = E.new({"mode": "tournament", "rake_bp": 0}, seats, SeededRng(seed))
        tournament.update(e["seat"] for e in state["coup_events"] if e["type"] == "sorteggio_banco")
    assert 1 in tournament
