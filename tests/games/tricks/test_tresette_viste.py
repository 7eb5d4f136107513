"""Tresette a carte viste: what the view infers about the other hands (rules 004, "Partite a
carte viste"; games.tresette.deal.TresetteDeal.known_holdings).

Golden tests for the inference from the spizzichino draws and plays and from the declarations;
property tests over random deals that (1) everything inferred is true, and (2) nothing leaks:
swapping two never-revealed cards between places the viewer cannot see (other hands' hidden
cards, the stock) never changes the view, so the view depends only on what was revealed by
draws, plays and declarations (and on the viewer's own hand).
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest

from games.cards import italian_deck, suit
from games.rng import Rng, SeededRng, shuffled
from games.tresette.deal import DEAL
from games.tricks import key

from .test_tresette_rules import FOUR  # the hands of the declaration examples

State = dict[str, Any]


def spizzichino_late() -> State:
    """Eight tricks played, four cards in the stock; seat 1 failed to follow ♦, ♥ and ♠ (with
    5c, 6c, 7c), so his hidden cards (the undrawn ones) are clubs only: with 4c Jc Qc Kc in seat
    0's hand, the three unknown clubs Ac 2c 3c are certainly his."""
    d = DEAL.new(order=[0, 1], dealer=1, lines=[[0], [1]], deck=italian_deck(), opts={"carte_viste": True})
    tricks = [
        ["Kd", "5c"],
        ["Kh", "6c"],
        ["Ks", "7c"],
        ["Qd", "Jd"],
        ["Qh", "Jh"],
        ["Qs", "Js"],
        ["7d", "6d"],
        ["7h", "6h"],
    ]
    d["history"] = [{"leader": 0, "plays": [[0, a], [1, b]], "winner": 0} for a, b in tricks]
    drawn1 = ["5d", "4d", "5h", "4h", "7s", "6s", "5s"]
    d["hands"] = {
        "0": ["4c", "Jc", "Qc", "Kc", "Ad", "2d", "3d", "Ah", "2h", "3h"],
        "1": ["Ac", "2c", "3c", *drawn1],
    }
    d["drawn"] = {"0": ["Kd", "Kh", "Ks"], "1": [*drawn1, "Jd", "Jh", "Js"]}
    played = {c for t in tricks for c in t}
    used = played | set(d["hands"]["0"]) | set(d["hands"]["1"])
    d["stock"] = [c for c in italian_deck() if c not in used]
    d["taken"] = {"0": sorted(played), "1": []}
    d["leader"] = d["turn"] = 0
    assert len(d["stock"]) == 4 and not any(suit(c) == "c" for c in d["stock"])
    return d


def test_spizzichino_opponent_hand_from_draws_and_plays() -> None:
    d = spizzichino_late()
    v = DEAL.view(d, frozenset({0}), True)
    assert v["shown"] == {"1": ["5d", "4d", "5h", "4h", "7s", "6s", "5s"]}  # drawn, not yet played
    assert v["inferred"] == {"1": ["Ac", "2c", "3c"]}
    assert v["suit_counts"]["1"] == {"h": 2, "d": 2, "c": 3, "s": 3}
    # A spectator does not know seat 0's hand: seat 1 certainly has three clubs, but not which.
    spectator = DEAL.view(d, frozenset(), True)
    assert "inferred" not in spectator
    assert spectator["suit_counts"]["1"]["c"] == 3
    # Without carte viste only the shown draws.
    plain = DEAL.view(d, frozenset({0}), False)
    assert "inferred" not in plain and "suit_counts" not in plain and plain["shown"] == v["shown"]


def four_deal() -> State:
    order = [1, 2, 3, 0]
    deck = [FOUR[p][i] for i in range(10) for p in order]
    return DEAL.new(
        order=[0, 1, 2, 3],
        dealer=0,
        lines=[[0, 2], [1, 3]],
        deck=deck,
        opts={"carte_viste": True, "dichiarazioni": True},
    )


def test_declared_honours_and_counts_are_known_until_played() -> None:
    d = four_deal()
    DEAL.apply(d, 1, {"type": "gioca", "card": "5d"})  # "Ho il 3 e il 2 quarti"
    assert d["declarations"][0]["text"] == "Ho il 3 e il 2 quarti"
    v = DEAL.view(d, frozenset({0}), True)
    assert v["shown"] == {"1": ["3d", "2d"]}
    assert v["suit_counts"]["1"] == {"d": 3}  # four diamonds declared, one led
    for seat, card in ((2, "4d"), (3, "2c"), (0, "Ad")):  # seat 3 has no diamond
        DEAL.apply(d, seat, {"type": "gioca", "card": card})
    v = DEAL.view(d, frozenset({0}), True)
    assert v["suit_counts"]["1"]["d"] == 3 and v["suit_counts"]["3"]["d"] == 0
    # Seat 0 took with the ace; the diamonds 0 cannot see: seat 2's six, seat 1's 3d 2d (shown)
    # and one more of seat 1 (6d); the count says seat 1 has one hidden diamond, seat 3 none.
    assert "inferred" not in v or "1" not in v["inferred"]
    # Seat 2 (who holds 7d Jd Qd Kd) knows the only hidden diamond left is seat 1's 6d.
    v2 = DEAL.view(d, frozenset({2}), True)
    assert v2["inferred"]["1"] == ["6d"]
    spectator = DEAL.view(d, frozenset(), True)
    assert spectator["shown"] == {"1": ["3d", "2d"]} and "inferred" not in spectator


def random_deal(rng: Rng, n: int) -> State:
    opts = {"carte_viste": True, "dichiarazioni": rng.randbelow(4) > 0, "accuso": rng.randbelow(2) == 1}
    lines = [[0], [1]] if n == 2 else [[0, 2], [1, 3]]
    prefs = {key(s): {"dichiarazione_automatica": rng.randbelow(4) > 0} for s in range(n)}
    return DEAL.new(
        order=list(range(n)),
        dealer=rng.randbelow(n),
        lines=lines,
        deck=shuffled(italian_deck(), rng),
        opts=opts,
        prefs=prefs,
    )


def hidden_places(d: State, visible: frozenset[int]) -> list[tuple[str, int]]:
    """Places of cards the viewer cannot see and that were never revealed: (holder, index)."""
    shown = DEAL.shown_cards(d, True)
    out = [("stock", i) for i in range(len(d["stock"]))]
    for s in d["order"]:
        if s not in visible:
            out += [(key(s), i) for i, c in enumerate(d["hands"][key(s)]) if c not in shown.get(key(s), [])]
    return out


def card_at(d: State, place: tuple[str, int]) -> str:
    holder, i = place
    return str(d["stock"][i] if holder == "stock" else d["hands"][holder][i])


def swapped(d: State, a: tuple[str, int], b: tuple[str, int]) -> State:
    t = copy.deepcopy(d)
    ca, cb = card_at(d, a), card_at(d, b)
    for (holder, i), c in ((a, cb), (b, ca)):
        (t["stock"] if holder == "stock" else t["hands"][holder])[i] = c
    return t


def check_view(d: State, visible: frozenset[int], rng: Rng) -> int:
    """Soundness and no-leak checks of one view; returns how many cards were inferred."""
    v = DEAL.view(d, visible, True)
    for k, cards in v.get("inferred", {}).items():
        assert int(k) not in visible and set(cards) <= set(d["hands"][k])
    for k, counts in v.get("suit_counts", {}).items():
        for x, n in counts.items():
            assert n == sum(1 for c in d["hands"][k] if suit(c) == x)
    places = hidden_places(d, visible)
    # Any two unrevealed cards in different places: the true suit counts change too, so the
    # declared/derived counts must come from public facts, not from the hands.
    pairs = [(a, b) for a, b in itertools.combinations(places, 2) if a[0] != b[0]]
    for _ in range(min(3, len(pairs))):
        a, b = pairs[rng.randbelow(len(pairs))]
        assert DEAL.view(swapped(d, a, b), visible, True) == v, (a, b)
    return sum(len(c) for c in v.get("inferred", {}).values())


@pytest.mark.parametrize("n", (2, 4))
def test_views_infer_only_true_cards_and_leak_nothing(n: int) -> None:
    inferred = 0
    for seed in range(20):
        rng = SeededRng(seed)
        d = random_deal(rng, n)
        while not d["over"]:
            viewers = [frozenset(), *(frozenset({s}) for s in range(n))]
            if n == 4:
                viewers.append(frozenset({0, 2}))  # carte scoperte
            for visible in viewers:
                inferred += check_view(d, visible, rng)
            seat = d["turn"]
            specs = [s for s in DEAL.legal_actions(d, seat) if s["type"] == "gioca"]
            card = specs[rng.randbelow(len(specs))]["card"]
            DEAL.apply(d, seat, {"type": "gioca", "card": card})
    assert inferred > 0
