"""Random Sette e mezzo banchi and Mazzetti mazzate per second.

``python -m bench.engines settemezzo_mazzetti`` (``--quick`` for a smoke run). Each engine hand (a
banco of Sette e mezzo, a mazzata of Mazzetti) is played to its end through the registered
engine by uniformly random legal actions, except that the banker never refuses nor goes sitout
(so every hand is really played), for 2, 4 and the most players; the figure counts hands only,
the same seats going on hand after hand with the engine's carry (a busted seat is refilled).
"""

from __future__ import annotations

import time
from typing import Any

from games.engine import action_from_spec
from games.registry import get
from games.rng import SeededRng

CASES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("settemezzo", "piatto cash", {"variant": "piatto", "mode": "cash", "min_bet": 100, "rake_bp": 500}),
    ("settemezzo", "piatto torneo", {"variant": "piatto", "mode": "tournament", "min_bet": 100}),
    ("settemezzo", "classica cash", {"variant": "classica", "mode": "cash", "min_bet": 100, "rake_bp": 500}),
    ("mazzetti", "cash", {"mode": "cash", "min_bet": 100, "min_bank": 200, "rake_bp": 500}),
    ("mazzetti", "torneo", {"mode": "tournament", "min_bet": 100, "min_bank": 200}),
)


def play(game: str, config: dict[str, Any], players: int, hands: int) -> tuple[float, int]:
    """Play ``hands`` random hands; return the seconds taken and the actions applied."""
    engine = get(game)
    rng = SeededRng(players)
    chips = dict.fromkeys(range(players), 100_000)
    carry = None
    actions = 0
    started = time.perf_counter()
    for _ in range(hands):
        seats = [{"seat": s, "chips": c if c > 0 else 100_000} for s, c in chips.items()]
        state = engine.new(config, seats, rng, carry)
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            specs = [s for s in engine.legal_actions(state, seat) if s["type"] not in ("sitout", "rifiuto")]
            engine.apply(state, seat, action_from_spec(specs[rng.randbelow(len(specs))], rng), rng)
            actions += 1
        chips = {int(s): c for s, c in engine.outcome(state)["chips"].items()}
        carry = engine.carry(state)
    return time.perf_counter() - started, actions


def run(quick: bool) -> None:
    """Print random hands per second for each game, variant and number of players."""
    hands = 100 if quick else 5000
    for game, variant, config in CASES:
        top = get(game).max_seats
        for players in (2, 4, top):
            seconds, actions = play(game, config, players, hands)
            unit = "banchi" if game == "settemezzo" else "mazzate"
            print(
                f"   {game:10} {variant:14} {players:2} giocatori: {hands / seconds:8.0f} {unit}/s"
                f" ({actions / seconds:7.0f} azioni/s)",
                flush=True,
            )
