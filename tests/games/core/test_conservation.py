"""The engine contract's conservation formula, over random play of every registered engine:

    sum(starting chips) + carried_in == sum(chips) + rake + carried_out + sum(paid_out)

hand after hand, each hand starting from the previous one's carry and credits; a seat sometimes
leaves between hands without being released (Chemin de fer then pays its held banco out:
``paid_out``), or is released through ``release_seat`` (the money it takes away leaves the table).
"""

from __future__ import annotations

from typing import Any

import pytest

from games import registry
from games.engine import ConfigError, money_out
from games.rng import SeededRng

ENGINES = registry.names()
HANDS = 40
MOVES = 5000


def play_hand(engine: Any, state: dict[str, Any], rng: SeededRng) -> None:
    for _ in range(MOVES):
        if engine.is_over(state):
            return
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, engine.sample_action(state, seat, rng), rng)
    seat = engine.to_act(state)[0]
    engine.apply(state, seat, {"type": "abbandona"}, rng)  # a rummy match that never closes
    assert engine.is_over(state)


@pytest.mark.parametrize("name", ENGINES)
@pytest.mark.parametrize("seed", range(3))
def test_conservation_over_random_hands(name: str, seed: int) -> None:
    engine = registry.get(name)
    rng = SeededRng(f"conservation-{name}-{seed}")
    n = min(engine.max_seats, 4 if engine.family == "partite" else 5)
    credits = {s: 5_000 + 700 * s for s in range(1, n + 1)}
    carry: dict[str, Any] | None = None
    for _ in range(HANDS if engine.family == "puntate" else 2):
        if engine.family == "partite":  # no chips inside a match engine
            seats = [{"seat": s, "prefs": {}} for s in sorted(credits)]
            start = 0
        else:
            seats = [{"seat": s, "chips": c, "prefs": {}} for s, c in sorted(credits.items())]
            start = sum(credits.values())
        try:
            state = engine.new(engine.validate_config({}), seats, rng, carry)
        except ConfigError:
            break  # too few seats with enough credit to deal
        play_hand(engine, state, rng)
        out = engine.outcome(state)
        assert start == money_out(out), (name, out)
        if engine.family == "partite":
            assert money_out(out) == 0 and "chips" not in out  # the lobby settles C1, not the engine
            assert out["cash"]["differenza_punti"] >= 0
            carry = engine.carry(state)
            continue
        credits = {int(s): c for s, c in out["chips"].items() if c > 0}
        for s in {int(k) for k in out.get("paid_out", {})}:
            credits[s] = credits.get(s, 0) + out["paid_out"][str(s)]  # back at the table later
        carry = engine.carry(state)
        if rng.randbelow(6) == 0 and len(credits) > engine.min_seats:
            leaving = sorted(credits)[rng.randbelow(len(credits))]
            if rng.randbelow(2):
                carry, taken = engine.release_seat(carry, leaving)  # what the table held for him
                assert taken >= 0
                credits.pop(leaving)
            else:
                credits.pop(leaving)  # not dealt in next hand: a held banco is paid out then
        if len(credits) < engine.min_seats:
            break


def test_chemin_banco_of_a_banker_gone_is_paid_out_and_counted() -> None:
    engine = registry.get("chemin")
    rng = SeededRng("conservation-chemin-paid-out")
    credits = dict.fromkeys(range(1, 5), 20000)
    carry: dict[str, Any] | None = None
    for _ in range(200):
        state = engine.new(
            engine.validate_config({}), [{"seat": s, "chips": c} for s, c in credits.items()], rng, carry
        )
        play_hand(engine, state, rng)
        out = engine.outcome(state)
        credits = {int(s): c for s, c in out["chips"].items()}
        carry = engine.carry(state)
        banco = (carry or {}).get("banco")
        if banco and banco["posta"] + banco["garage"] > 0:
            break
    assert carry is not None and carry["banco"], "no banco held after 200 coups"
    banker, held = carry["banco"]["seat"], carry["banco"]["posta"] + carry["banco"]["garage"]
    del credits[banker]  # he is not dealt in: the table pays his banco out
    seats = [{"seat": s, "chips": c} for s, c in credits.items()]
    state = engine.new(engine.validate_config({}), seats, rng, carry)
    play_hand(engine, state, rng)
    out = engine.outcome(state)
    assert out["paid_out"] == {str(banker): held} and out["carried_in"] == held
    assert sum(credits.values()) == money_out(out)
