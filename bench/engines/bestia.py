"""Random Bestia smazzate per second, 3 and 4 cards.

``python -m bench.engines bestia`` (``--quick`` for a smoke run). Each smazzata is played to its end
through the registered engine by uniformly random legal actions (declarations included, so some
smazzate are void, RULINGS I8), the same seats going on hand after hand with the engine's carry
(the dealer, the piatto of bestie); a seat left without credit is refilled. Figures for 2, 4 and
the most players (8), cash tables with rake.
"""

from __future__ import annotations

import time

from games.engine import action_from_spec
from games.registry import get
from games.rng import SeededRng


def play(cards: int, players: int, hands: int) -> tuple[float, int]:
    """Play ``hands`` random smazzate; return the seconds taken and the actions applied."""
    engine = get("bestia")
    config = {"cards": cards, "invito": 100, "rake_bp": 500}
    rng = SeededRng(players * 10 + cards)
    chips = dict.fromkeys(range(players), 100_000)
    carry = None
    actions = 0
    started = time.perf_counter()
    for _ in range(hands):
        seats = [{"seat": s, "chips": c if c > 0 else 100_000} for s, c in chips.items()]
        state = engine.new(config, seats, rng, carry)
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            specs = engine.legal_actions(state, seat)
            engine.apply(state, seat, action_from_spec(specs[rng.randbelow(len(specs))], rng), rng)
            actions += 1
        chips = {int(s): c for s, c in engine.outcome(state)["chips"].items()}
        carry = engine.carry(state)
    return time.perf_counter() - started, actions


def run(quick: bool) -> None:
    """Print random smazzate per second for 3 and 4 cards and 2, 4 and 8 players."""
    hands = 200 if quick else 5000
    for cards in (3, 4):
        for players in (2, 4, get("bestia").max_seats):
            seconds, actions = play(cards, players, hands)
            print(
                f"   bestia {cards} carte {players:2} giocatori: {hands / seconds:8.0f} smazzate/s"
                f" ({actions / seconds:7.0f} azioni/s)",
                flush=True,
            )
