"""Helpers shared by the Sette e mezzo and Mazzetti tests: stacked decks and random sessions."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.cards import italian_deck
from games.engine import Engine, IllegalAction, action_from_spec, dumps, loads
from games.rng import SeededRng
from games.settemezzo.banco import CANONICAL, total_money


def fisher_yates_script(target: list[str], base: list[str] | None = None) -> list[int]:
    """Return the ``randbelow`` answers that make ``games.rng.shuffled(base)`` produce ``target``."""
    out = list(base if base is not None else CANONICAL)
    assert sorted(out) == sorted(target)
    script = []
    for i in range(len(out) - 1, 0, -1):
        j = out.index(target[i], 0, i + 1)
        script.append(j)
        out[i], out[j] = out[j], out[i]
    assert out == target
    return script


def stacked(top: list[str]) -> list[str]:
    """Return a full 40-card deck starting with ``top``, the rest in canonical order."""
    return list(top) + [c for c in italian_deck() if c not in top]


class ScriptedRng:
    """An Rng answering from a script (then from a seeded generator): stacked decks for golden tests."""

    def __init__(self, *parts: list[int] | int, seed: int = 0) -> None:
        self.script: list[int] = []
        for part in parts:
            self.script += part if isinstance(part, list) else [part]
        self.fallback = SeededRng(seed)

    def randbelow(self, n: int) -> int:
        """Return the next scripted answer (checked against ``n``), or a seeded one."""
        if self.script:
            value = self.script.pop(0)
            assert 0 <= value < n, (value, n)
            return value
        return self.fallback.randbelow(n)


def deck_rng(*decks: list[str], start: int | None = None) -> ScriptedRng:
    """An Rng whose successive fresh shuffles give these decks (each stacked from its top cards).

    ``start`` is the answer to the first draw (the random seat the deal for the king starts from).
    """
    parts = [fisher_yates_script(d if len(d) == 40 else stacked(d)) for d in decks]
    return ScriptedRng(*([start] if start is not None else []), *parts)


def cards_in(state: dict[str, Any]) -> Counter[str]:
    """Count every card the state holds (deck, discards, hands, banker's hand, mazzetti)."""
    cards: list[str] = list(state["deck"]) + list(state["discards"])
    for h in state.get("hands", {}).values():
        cards += h["down"] + h["up"]
    bank = state.get("bank")
    if bank:
        cards += bank["down"] + bank["up"]
    for m in state.get("mazzetti", []):
        cards += m["cards"]
    return Counter(cards)


def hidden_cards(state: dict[str, Any], seat: int | None) -> set[str]:
    """Return the cards this seat must not see now (others' covered cards, the deck, unturned mazzetti)."""
    hidden = set(state["deck"]) | set(state["discards"])
    for key, h in state.get("hands", {}).items():
        if (seat is None or key != str(seat)) and not h["shown"]:
            hidden |= set(h["down"])
    bank = state.get("bank")
    if bank and not bank["shown"] and seat != state["banker"]:
        hidden |= set(bank["down"])
    for m in state.get("mazzetti", []):
        hidden |= set(m["cards"][:-1]) if m["shown"] else set(m["cards"])
    # a card shown earlier in this hand (a settled coup, a turned mazzetto) may legitimately appear
    shown = set()
    for r in state["results"]:
        shown |= set(r.get("punta_cards", [])) | set(r.get("banco_cards", []))
        shown |= {r.get("card"), r.get("banco_card")}
    if "bank_result" in state:
        shown |= set(state["bank_result"].get("cards", [])) | {state["bank_result"].get("card")}
    if state.get("designation"):
        shown |= {c for _, c in state["designation"]["dealt"]}
    return hidden - shown


BAD_ACTIONS = [
    {"type": "nonsense"},
    {"type": "accetto", "amount": -5},
    {"type": "accetto", "amount": 10**9},
    {"type": "sto", "amount": 0},
    {"type": "tiro", "amount": 10**9},
    {"type": "punto", "mazzetto": 99, "amount": 100},
    {"type": "mazzetto", "amount": 1},
    {"type": "sto", "extra": 1},
]


def random_session(
    engine: Engine, config: dict[str, Any], seed: int, hands: int = 4, check: str = "full"
) -> list[dict[str, Any]]:
    """Play random hands with carry, checking invariants after every action; return the outcomes.

    ``check``: "full" (money, cards, views of every seat, JSON, refused actions), "light" (money
    and cards after every action) or "none".
    """
    rng = SeededRng(seed)
    n = engine.min_seats + rng.randbelow(engine.max_seats - engine.min_seats + 1)
    seats = [
        {"seat": s * 2 + 1, "chips": 1 + rng.randbelow(4000), "sitout": rng.randbelow(8) == 0}
        for s in range(n)
    ]
    carry = None
    outcomes = []
    for _ in range(hands):
        state = engine.new(config, seats, rng, carry)
        total = total_money(state)
        steps = 0
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            if check == "light":
                assert total_money(state) == total and min(state["chips"].values()) >= 0
                assert sum(cards_in(state).values()) in (0, 40)
            if check == "full":
                check_state(engine, state, total)
                other = next(s for s in state["order"] if s != seat)
                bad = [({"type": "sto"}, other), (BAD_ACTIONS[rng.randbelow(len(BAD_ACTIONS))], seat)]
                for action, who in bad:
                    if engine.can_apply(state, who, action):
                        continue
                    before = dumps(state)
                    try:
                        engine.apply(state, who, action, rng)
                    except IllegalAction:
                        pass
                    else:
                        raise AssertionError(f"accepted {action}")
                    assert dumps(state) == before
            action = pick(engine, state, seat, rng)
            events = engine.apply(state, seat, action, rng)
            if check == "full":
                check_events(state, events)
            steps += 1
            assert steps < 400
        if check == "full":
            check_state(engine, state, total)
        elif check == "light":
            held = cards_in(state)
            assert total_money(state) == total and (not held or held == Counter(italian_deck()))
        out = engine.outcome(state)
        outcomes.append(out)
        carry = engine.carry(state)
        sitout = set(out["sitout"])
        seats = [
            {"seat": int(s), "chips": c, "sitout": int(s) in sitout and rng.randbelow(2) == 0}
            for s, c in out["chips"].items()
            if c > 0
        ]
        if len(seats) < engine.min_seats:
            break
    return outcomes


def pick(engine: Engine, state: dict[str, Any], seat: int, rng: SeededRng) -> dict[str, Any]:
    """Pick a random legal action, refusing or going sitout (or timing out) only now and then."""
    if rng.randbelow(20) == 0:
        return engine.timeout_action(state, seat)
    specs = engine.legal_actions(state, seat)
    keen = [s for s in specs if s["type"] not in ("sitout", "rifiuto")]
    if keen and rng.randbelow(8):
        specs = keen
    return action_from_spec(specs[rng.randbelow(len(specs))], rng)


def check_events(state: dict[str, Any], events: list[dict[str, Any]]) -> None:
    """Public events (no ``to``) name no card that is still hidden from a spectator."""
    hidden = hidden_cards(state, None)
    for event in events:
        if "to" not in event:
            text = dumps(event)
            assert not [c for c in hidden if f'"{c}"' in text], event


def check_state(engine: Engine, state: dict[str, Any], total: int) -> None:
    """Money conserved, every card accounted for, views leak nothing, JSON round-trips."""
    assert total_money(state) == total
    assert all(v >= 0 for v in state["chips"].values()) and state["piatto"] >= 0
    if state["deck"] or state.get("hands") or state.get("mazzetti"):
        assert cards_in(state) == Counter(italian_deck())
    assert all(len(m["cards"]) >= 4 for m in state.get("mazzetti", []))  # RULINGS B2
    assert loads(dumps(state)) == state
    for seat in [None, *state["order"]]:
        view = engine.view(state, seat)
        text = dumps(view)
        assert "deck" not in view and "deck_log" not in view and "discards" not in view
        leaks = {c for c in hidden_cards(state, seat) if f'"{c}"' in text}
        assert not leaks, (seat, leaks)
        assert loads(text) == view


def placed(cards_at: dict[int, str]) -> list[str]:
    """Return a full 40-card deck with the given cards at the given positions (0 = top)."""
    rest = [c for c in italian_deck() if c not in cards_at.values()]
    return [cards_at[i] if i in cards_at else rest.pop(0) for i in range(40)]


def play(engine: Engine, state: dict[str, Any], rng: Any, *moves: tuple[int, dict[str, Any]]) -> list[Any]:
    """Apply moves in order, checking that each seat is the one to act; return all the events."""
    events = []
    for seat, action in moves:
        assert engine.to_act(state) == [seat], (engine.to_act(state), seat, action)
        total = total_money(state)
        events += engine.apply(state, seat, action, rng)
        assert total_money(state) == total
        assert sum(cards_in(state).values()) in (0, 40)
    return events
