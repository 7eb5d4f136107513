"""Telesina benchmark: best-hand evaluations per second with Ascensore, and complete random hands.

* Best hand (RULINGS T4) of one player with Ascensore: five own cards and the nine vele (four
  combinations of three through the centre), on the 40-card deck of six players. Printed twice:
  with the vele masks built once per hand (``ViewOfVele``, what the engine does after each girata)
  and with them rebuilt for every evaluation.
* Complete random 6-player hands with Ascensore, invito to settlement: uniformly random legal
  actions (``Engine.sample_action``, as the poker benchmark), and a worst case where nobody folds
  (every hand reaches the fifth girata and the showdown, six players ranked after each round).
  Also printed: the largest JSON state met.
"""

from __future__ import annotations

import time

from games.cards import poker_deck
from games.engine import dumps
from games.rng import SeededRng, shuffled
from games.telesina import LAYOUTS, Telesina, ViewOfVele
from games.telesina.hand import tables

PLAYERS = 6


def _deals(count: int, seed: int = 1) -> list[tuple[list[str], dict[str, str]]]:
    rng = SeededRng(seed)
    letters = LAYOUTS["ascensore"].letters
    out = []
    for _ in range(count):
        deck = shuffled(poker_deck(PLAYERS), rng)
        out.append((deck[:5], dict(zip(letters, deck[5:14], strict=True))))
    return out


def _best_hand_rates(count: int) -> tuple[float, float]:
    layout = LAYOUTS["ascensore"]
    deals = _deals(count)
    views = [ViewOfVele(layout, vele, layout.letters, "5") for _, vele in deals]
    started = time.perf_counter()
    for (own, _), view in zip(deals, views, strict=True):
        view.value(own)
    per_hand = count / (time.perf_counter() - started)
    started = time.perf_counter()
    for own, vele in deals:
        ViewOfVele(layout, vele, layout.letters, "5").value(own)
    rebuilt = count / (time.perf_counter() - started)
    return per_hand, rebuilt


def _hands(count: int, *, no_fold: bool, seed: int = 1) -> tuple[float, int, int, int]:
    """Play ``count`` 6-player Ascensore hands; return (seconds, actions, showdowns, largest state)."""
    engine = Telesina()
    rng = SeededRng(seed)
    cfg = {
        "limit": "NL",
        "invito": 20,
        "rake_percent": 500,
        "rake_cap": 300,
        "vele": "ascensore",
        "distribuzione": "mai",
    }
    prefs = {"invito_automatico": True, "mostra_nascondi": "chiedi"}
    chips = dict.fromkeys(range(PLAYERS), 2000)
    carry = None
    actions = showdowns = largest = 0
    started = time.perf_counter()
    for i in range(count):
        if min(chips.values()) < 200:
            chips = dict.fromkeys(range(PLAYERS), 2000)
        seats = [{"seat": s, "chips": c, "sitout": False, "prefs": prefs} for s, c in chips.items()]
        state = engine.new(cfg, seats, rng, carry)
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            if no_fold:
                specs = {sp["type"]: sp for sp in engine.legal_actions(state, seat)}
                sp = specs.get("busso") or specs.get("vedo") or specs.get("mostro") or specs["nascondo"]
                action = {"type": sp["type"], **({"amount": sp["amount"]["min"]} if "amount" in sp else {})}
            else:
                action = engine.sample_action(state, seat, rng)
            engine.apply(state, seat, action, rng)
            actions += 1
            if i % 50 == 0:
                largest = max(largest, len(dumps(state).encode()))
        showdowns += bool(state["values"])
        chips = {int(k): v for k, v in engine.outcome(state)["chips"].items()}
        carry = engine.carry(state)
    return time.perf_counter() - started, actions, showdowns, largest


def run(quick: bool = False) -> None:
    """Print the figures."""
    tables("5")  # the evaluator's 40-card tables, built once per process, outside the timings
    n_eval = 5_000 if quick else 100_000
    per_hand, rebuilt = _best_hand_rates(n_eval)
    print(f"best hand, Ascensore (5 own cards + 9 vele), {n_eval} players:")
    print(f"   {per_hand:,.0f} evaluations/s (vele masks built once per girata, as the engine does)")
    print(f"   {rebuilt:,.0f} evaluations/s (vele masks rebuilt every time)")
    print(f"   six players ranked in {6e3 / per_hand:.2f} ms")
    n_hands = 200 if quick else 3_000
    for no_fold, label in ((False, "random legal actions"), (True, "nobody folds: every girata, showdown")):
        secs, actions, showdowns, largest = _hands(n_hands, no_fold=no_fold)
        print(f"complete random 6-player hands with Ascensore ({label}):")
        rates = f"{n_hands / secs:,.0f} hands/s, {actions / secs:,.0f} actions/s"
        print(f"   {rates}, {showdowns} of {n_hands} to showdown")
        print(f"   largest JSON state: {largest:,} bytes")


if __name__ == "__main__":
    run()
