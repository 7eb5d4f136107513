"""Property tests: thousands of random legal Poker 5 carte hands for 2–6 players on every limit.

After every action: chips conserved, no card twice, every view free of other players' covered
cards and of the stock, JSON round-trip exact; illegal actions refused with the state unchanged;
the same seed and actions replay to the same result.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st_

from games.cards import poker_deck
from games.engine import IllegalAction, dumps, loads, private_to
from games.poker5 import Poker5
from games.rng import Rng, SeededRng
from tests.games.drawn import rngs

E = Poker5()
CARD = re.compile(r"\b[2-9TJQKA][hdcs]\b")
LIMITS = ("NL", "PL", "FL")


def cards_in(obj) -> set[str]:
    return set(CARD.findall(dumps(obj) if not isinstance(obj, str) else obj))


def in_play(state) -> int:
    b = state["b"]
    rake = sum(p["rake"] for p in state.get("pots", []))
    return sum(b["stack"].values()) + sum(b["total"].values()) + b["dead"] + rake


def check_invariants(state, start_total: int) -> None:
    assert in_play(state) == start_total
    for v in state["b"]["stack"].values():
        assert v >= 0
    if state["hands"]:
        held = [c for h in state["hands"].values() for c in h] + state["stock"] + state["discards"]
        assert len(held) == len(set(held)), "a card twice"
        assert sorted(held) == sorted(poker_deck(len(state["players"])))
    for seat in [None, *state["seats"]]:
        view = E.view(state, seat)
        allowed = {c for cs in state["shown"].values() for c in cs}
        if seat is not None and str(seat) in state["hands"]:
            allowed |= set(state["hands"][str(seat)])
        leaked = cards_in(view) - allowed
        assert not leaked, (seat, leaked)


def garbage_actions(state, rng):
    seats = state["seats"]
    acting = E.to_act(state)
    idle = [s for s in seats if s not in acting]
    some = acting[0]
    yield (idle[0] if idle else max(seats) + 1), {"type": "busso"}
    yield some, {"type": "nonexistent"}
    yield some, {"type": "punto", "amount": -5}
    yield some, {"type": "punto", "amount": 10**9}
    yield some, {"type": "rilancio", "amount": "100"}
    yield some, {"type": "vedo", "amount": 1.0}
    yield some, {"type": "cambio", "cards": ["Zz"]}
    yield some, {"type": "cambio", "cards": "Ah"}
    yield some, {"cards": []}
    yield some, ["punto", 10]
    yield some, {"type": "invito", "amount": None, "extra": 1}
    yield str(some), {"type": "busso"}
    yield some, {"type": "busso", "timeout": "yes"}
    for spec in E.legal_actions(state, some):
        if "amount" in spec:
            yield some, {"type": spec["type"], "amount": spec["amount"]["max"] + 1}
            yield some, {"type": spec["type"], "amount": spec["amount"]["min"] - 1}


def play_table(
    seed: int | Rng, n: int, limit: str, cash: bool, hands: int, *, garbage_every: int = 0, record=None
):
    """A table of ``hands`` hands; ``seed`` a seed, or an Rng (Hypothesis draws every choice)."""
    rng = SeededRng(seed) if isinstance(seed, int) else seed
    cfg = {
        "limit": limit,
        "invito": 10 + rng.randbelow(3) * 10,
        "mode": "cash" if cash else "tournament",
        "rake_percent": rng.randbelow(11) * 100,
        "rake_cap": [None, 50, 500][rng.randbelow(3)],
        "giro_pazzo": rng.randbelow(2) == 0,
        "time_bank": 30,
    }
    cfg["min_credit"] = 1 + rng.randbelow(cfg["invito"])
    chips = {s: [0, 5, 40, 300, 1000, 5000][rng.randbelow(6)] for s in range(n)}
    carry = None
    step = 0
    for _ in range(hands):
        if sum(1 for c in chips.values() if c > 0) < 2:
            chips = dict.fromkeys(chips, 1000)
        seats = [
            {
                "seat": s,
                "chips": c,
                "sitout": rng.randbelow(12) == 0,
                "prefs": {
                    "invito_automatico": rng.randbelow(3) > 0,
                    "mostra_nascondi": ("chiedi", "mostra", "nascondi")[rng.randbelow(3)],
                },
            }
            for s, c in chips.items()
        ]
        state = E.new(cfg, seats, rng, carry)
        total = sum(chips.values()) + state["carried_in"]
        check_invariants(state, total)
        while not E.is_over(state):
            acting = E.to_act(state)
            assert acting
            if garbage_every and step % garbage_every == 0:
                before = dumps(state)
                for seat, action in garbage_actions(state, rng):
                    with pytest.raises(IllegalAction):
                        E.apply(state, seat, action, rng)
                    assert dumps(state) == before
            seat = acting[rng.randbelow(len(acting))]
            if rng.randbelow(15) == 0:
                action = {**E.timeout_action(state, seat), "timeout": True}
            else:
                action = E.sample_action(state, seat, rng)
            if record is not None:
                record.append((seat, action))
            events = E.apply(state, seat, action, rng)
            for ev in events:
                if not private_to(ev, None) or "to" in ev:
                    continue
                shown = {c for cs in state["shown"].values() for c in cs}
                assert cards_in(ev) <= shown, ev
            step += 1
            check_invariants(state, total)
            assert loads(dumps(state)) == state
        out = E.outcome(state)
        assert sum(out["chips"].values()) + out["rake"] + out["carried_out"] == total
        assert out["carried_in"] == state["carried_in"]
        chips = {int(k): v for k, v in out["chips"].items()}
        carry = E.carry(state)
        assert loads(dumps(carry)) == carry
    return dumps(state)


@pytest.mark.parametrize("limit", LIMITS)
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_tables(n, limit):
    # 5 × 3 × 12 tables × 6 hands ≈ 1,000 hands here, plus the garbage-action checks.
    for seed in range(12):
        play_table(seed * 31 + n, n, limit, cash=seed % 3 != 0, hands=6, garbage_every=7)


@pytest.mark.slow
@pytest.mark.parametrize("limit", LIMITS)
def test_many_random_hands_conserve(limit):
    for seed in range(60):
        play_table(10_000 + seed, 2 + seed % 5, limit, cash=seed % 2 == 0, hands=20)


@given(rng=rngs(), n=st_.integers(2, 6), limit=st_.sampled_from(LIMITS), cash=st_.booleans())
def test_hypothesis_hands(rng, n, limit, cash):
    play_table(rng, n, limit, cash, hands=2, garbage_every=11)


def _random_hand(deal_seed: int, action_seed: int, n: int, limit: str):
    deal_rng, act_rng = SeededRng(deal_seed), SeededRng(action_seed)
    seats = [{"seat": s, "chips": 500 + 250 * s, "sitout": False, "prefs": {}} for s in range(n)]
    cfg = {"limit": limit, "invito": 20}
    state = E.new(cfg, seats, deal_rng)
    actions = []
    while not E.is_over(state):
        seat = E.to_act(state)[0]
        action = E.sample_action(state, seat, act_rng)
        actions.append((seat, action))
        E.apply(state, seat, action, deal_rng)
    return cfg, seats, actions, dumps(state)


def test_same_seed_same_actions_same_result():
    for seed in range(40):
        n, limit = 2 + seed % 5, LIMITS[seed % 3]
        cfg, seats, actions, final = _random_hand(seed, 1000 + seed, n, limit)
        rng = SeededRng(seed)
        state = E.new(cfg, seats, rng)
        for seat, action in actions:
            E.apply(state, seat, action, rng)
        assert dumps(state) == final
        assert E.outcome(state) == E.outcome(loads(final))
