"""Property tests: thousands of random complete matches of Scopa, Asso and Cirulla per format."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.capture import DECK, captures
from games.engine import IllegalAction, dumps, loads
from games.registry import get
from games.rng import SeededRng
from tests.games.capture.helpers import all_cards, seats_for

GAMES = ("scopa", "asso", "cirulla")
FORMATS = ("testa_a_testa", "coppie", "4in2")
SORTED_DECK = sorted(DECK)
DECK_SET = frozenset(DECK)


def config_for(game: str, fmt: str, seed: int) -> dict[str, Any]:
    """Vary the match type and the optional rules with the seed."""
    cfg: dict[str, Any] = {"format": fmt}
    if seed % 2:
        cfg.update(mode="smazzate", deals=1 + seed % 3, ko=seed % 4 == 1)
    else:
        cfg.update(mode="punti", target=11 if game != "cirulla" else 21)
    cfg["carte_viste"] = seed % 3 == 0
    if fmt == "coppie":
        cfg["carte_scoperte"] = seed % 5 == 0
        cfg["pairs"] = "casuali" if seed % 7 == 0 else "fisse"
    return cfg


def prefs_for(seed: int) -> list[dict[str, Any]]:
    return [{"accuso_automatico": (seed + i) % 3 != 0} for i in range(4)]


def hidden_cards(eng, st: dict[str, Any], seat: int | None) -> set[str]:
    """Cards this seat must not see: the stock and the hands it may not see (minus shown ones)."""
    deal = st["deal"]
    visible = eng.visible_positions(st, seat)
    shown = {c for s in deal.get("shown", []) for c in s}
    hidden = set(deal["stock"])
    for p, hand in enumerate(deal["hands"]):
        if p not in visible:
            hidden |= set(hand) - shown
    return hidden


def check_views(eng, st: dict[str, Any]) -> None:
    for seat in [*sorted(set(st["seats"])), None]:
        view = eng.view(st, seat)
        text = json.dumps(view)
        for card in hidden_cards(eng, st, seat) if not st["over"] else ():
            assert f'"{card}"' not in text, (seat, card)
        if view["deal"] is not None:
            vis = eng.visible_positions(st, seat)
            for p, hand in enumerate(view["deal"]["hands"]):
                assert (hand is not None) == (p in vis)
            if seat is None:
                assert vis == frozenset()
            elif not (st["config"]["carte_viste"] and st["config"]["format"] == "testa_a_testa"):
                # Opponents' hands are never visible (carte scoperte shows partners only).
                assert all(st["seats"][p] == seat or (p - st["seats"].index(seat)) % 2 == 0 for p in vis)


def check_events(eng, st: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Public events carry no covered card; private ones go only to the hand's seat."""
    hidden = hidden_cards(eng, st, None)
    starts = [i for i, ev in enumerate(events) if ev["type"] == "smazzata"]
    if starts:  # a new smazzata was dealt: the earlier events are about the old deck
        events = events[starts[-1] :]
    for ev in events:
        if "to" in ev:
            assert ev["type"] == "carte" and ev["to"] == [ev["seat"]]
        elif ev["type"] != "a_monte":  # the cards of a deck sent a monte belong to no hand now
            text = json.dumps(ev)
            assert not any(f'"{c}"' in text for c in hidden), ev


def illegal_actions(eng, st: dict[str, Any], seat: int, rng: SeededRng) -> list[tuple[int, dict[str, Any]]]:
    deal = st["deal"]
    pos = eng.rules.to_act(st)
    hand = deal["hands"][pos]
    out: list[tuple[int, dict[str, Any]]] = []
    outside = [c for c in DECK if c not in hand]
    out.append((seat, {"type": "gioca", "card": outside[rng.randbelow(len(outside))], "take": []}))
    others = [s for s in set(st["seats"]) if s != seat]
    if others:
        legal = eng.sample_action(st, seat, rng)
        out.append((others[0], legal))
    card = hand[rng.randbelow(len(hand))]
    opts = eng.rules.options(deal, pos, card)
    if opts:
        out.append((seat, {"type": "gioca", "card": card, "take": []}))  # must capture
    table = deal["table"]
    if table:
        subset = [c for c in table if rng.randbelow(2)]
        if sorted(subset) not in [sorted(o) for o in opts] and not (not subset and not opts):
            out.append((seat, {"type": "gioca", "card": card, "take": subset}))
    out.append((seat, {"type": "gioca", "card": card, "take": [], "extra": 1}))
    out.append((seat, {"type": "passo"}))
    return out


def play_checked(game: str, fmt: str, seed: int, heavy: bool) -> dict[str, Any]:
    eng = get(game)
    rng = SeededRng(f"{game}-{fmt}-{seed}")
    seats = [dict(s, prefs=p) for s, p in zip(seats_for(fmt), prefs_for(seed), strict=False)]
    st = eng.new(config_for(game, fmt, seed), seats, rng)
    steps = 0
    while not eng.is_over(st):
        cards = all_cards(st)
        assert len(cards) == 40 and DECK_SET.issuperset(cards) and len(set(cards)) == 40
        (seat,) = eng.to_act(st)
        if heavy:
            check_views(eng, st)
            before = dumps(st)
            for s, bad in illegal_actions(eng, st, seat, rng):
                with pytest.raises(IllegalAction):
                    eng.apply(st, s, bad, rng)
                assert dumps(st) == before
            assert loads(dumps(st)) == st
        action = eng.sample_action(st, seat, rng)
        assert eng.can_apply(st, seat, action)
        events = eng.apply(st, seat, action, rng)
        if heavy and not st["over"]:
            check_events(eng, st, events)
        steps += 1
        assert steps < 2000
    assert sorted(all_cards(st)) == SORTED_DECK
    if heavy:
        check_views(eng, st)
        assert loads(dumps(st)) == st
    out = eng.outcome(st)
    # Totals are the sum of the smazzate; MP are the difference (a cappotto: its VP's minimum, 1,
    # RULINGS K6); VP as the table (20/10/0).
    assert out["points"] == [sum(h["points"][i] for h in st["history"]) for i in (0, 1)]
    if out["reason"] == "cappotto":
        assert out["mp"][out["winner"]] == 1 and sum(out["mp"]) == 0
    else:
        assert out["mp"] == [out["points"][0] - out["points"][1], out["points"][1] - out["points"][0]]
    if out["winner"] is None:
        assert out["vp"] == [10, 10] and not st["config"]["ko"]
    else:
        assert out["vp"][out["winner"]] == 20 and out["vp"][1 - out["winner"]] == 0
    assert len(st["deck_log"]) >= st["deal_no"]
    return out


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("game", GAMES)
def test_random_matches_heavy_checks(game: str, fmt: str) -> None:
    """Every action: views leak nothing, illegal actions change nothing, JSON round-trips."""
    for seed in range(6):
        play_checked(game, fmt, seed, heavy=True)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("game", GAMES)
def test_thousand_random_matches(game: str, fmt: str) -> None:
    """A thousand complete matches per game and format: cards accounted for, reports consistent."""
    reasons: dict[str, int] = {}
    for seed in range(1000):
        out = play_checked(game, fmt, seed, heavy=False)
        reasons[out["reason"]] = reasons.get(out["reason"], 0) + 1
    assert reasons.get("punti", 0) > 0 and reasons.get("smazzate", 0) > 0


def test_capture_options_are_exactly_the_allowed_sets() -> None:
    """Brute force: every option sums right, and every subset that sums right is an option."""
    from itertools import combinations

    from games.asso import AssoDeal
    from games.capture import VALUE
    from games.cirulla import CirullaDeal
    from games.scopa import ScopaDeal

    rng = SeededRng(99)
    for _ in range(400):
        deck = list(DECK)
        k = 1 + rng.randbelow(7)
        picks = [deck.pop(rng.randbelow(len(deck))) for _ in range(k + 1)]
        card, table = picks[0], picks[1:]
        for rules in (ScopaDeal.capture_rules, AssoDeal.capture_rules, CirullaDeal.capture_rules):
            got = {tuple(o) for o in captures(card, table, rules)}
            v = VALUE[card]
            subsets = [
                sorted(c, key=DECK.index) for r in range(1, len(table) + 1) for c in combinations(table, r)
            ]
            equal = [s for s in subsets if len(s) == 1 and VALUE[s[0]] == v]
            if rules.ace_takes_all and v == 1:
                aces = [s for s in subsets if len(s) == 1 and VALUE[s[0]] == 1]
                want = aces or [sorted(table, key=DECK.index)]
            elif rules.equal_obligation and equal:
                want = equal
            else:
                want = [s for s in subsets if sum(VALUE[c] for c in s) == v]
                if rules.fifteen:
                    want += [s for s in subsets if sum(VALUE[c] for c in s) + v == 15]
            assert got == {tuple(s) for s in want}, (card, table, rules)


def test_carte_viste_last_hand_face_up_and_seen_cards() -> None:
    """Carte viste, testa a testa: the seen cards are shown; the last hand is played face up."""
    eng = get("scopa")
    rng = SeededRng(21)
    st = eng.new({"carte_viste": True}, seats_for("testa_a_testa"), rng)
    plain = eng.new({}, seats_for("testa_a_testa"), SeededRng(21))
    assert "piles" in eng.view(st, 1)["deal"] and "piles" not in eng.view(plain, 1)["deal"]
    while st["deal"]["stock"] or st["deal_no"] > 1:
        (seat,) = eng.to_act(st)
        eng.apply(st, seat, eng.sample_action(st, seat, rng), rng)
    assert st["deal_no"] == 1 and not st["deal"]["stock"]
    hands = eng.view(st, 1)["deal"]["hands"]
    assert hands == st["deal"]["hands"]  # both hands visible in the last hand
    assert eng.view(st, None)["deal"]["hands"] == [None, None]  # never to spectators
