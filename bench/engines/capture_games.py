"""Complete random matches per second of Scopa, Asso piglia tutto and Cirulla, 2 and 4 players.

Each match is a default partita a punti (Scopa and Asso to 11, Cirulla to 51) played with
uniformly random legal moves through the public engine contract (legal_actions, apply).
"""

from __future__ import annotations

import time

from games.registry import get
from games.rng import SeededRng

SEATS = {
    "testa_a_testa": [{"seat": 1}, {"seat": 2}],
    "coppie": [{"seat": 1}, {"seat": 2}, {"seat": 3}, {"seat": 4}],
}


def play_matches(game: str, fmt: str, matches: int) -> tuple[float, int, int]:
    """Play ``matches`` random matches; return the seconds taken, the smazzate and the moves."""
    eng = get(game)
    deals = moves = 0
    started = time.perf_counter()
    for seed in range(matches):
        rng = SeededRng(seed)
        st = eng.new({"format": fmt}, SEATS[fmt], rng)
        while not eng.is_over(st):
            (seat,) = eng.to_act(st)
            eng.apply(st, seat, eng.sample_action(st, seat, rng), rng)
            moves += 1
        deals += st["deal_no"]
    return time.perf_counter() - started, deals, moves


def run(quick: bool) -> None:
    """Print complete random matches per second for each game and format."""
    matches = 30 if quick else 400
    for game in ("scopa", "asso", "cirulla"):
        for fmt, players in (("testa_a_testa", 2), ("coppie", 4)):
            secs, deals, moves = play_matches(game, fmt, matches)
            print(
                f"{game:8s} {players} giocatori: {matches / secs:8.1f} partite/s "
                f"({deals / matches:.1f} smazzate, {moves / secs:,.0f} giocate/s)",
                flush=True,
            )
