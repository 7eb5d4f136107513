"""Complete random Briscola and Tresette matches per second, 2 and 4 players.

``python -m bench.engines trick_games`` (``--quick`` for a smoke run). Each match is played to its
end by uniformly random legal moves through the registered engine (the match engine of
games.partite around the trick deal), with the default table options of each game: partite a
punti (Briscola to 61, Tresette to 21) and, on a second line, partite a smazzate (3).
"""

from __future__ import annotations

import time

from games.registry import get
from games.rng import SeededRng

CASES = (
    ("briscola", "testa_a_testa", 2),
    ("briscola", "coppie", 4),
    ("tresette", "testa_a_testa", 2),
    ("tresette", "coppie", 4),
)


def play(game: str, fmt: str, players: int, mode: str, matches: int) -> tuple[float, int]:
    """Play ``matches`` random matches; return the seconds taken and the moves made."""
    engine = get(game)
    config: dict[str, object] = {"format": fmt, "mode": mode}
    if mode == "smazzate":
        config["deals"] = 3
    seats = [{"seat": s, "prefs": {}} for s in range(players)]
    moves = 0
    started = time.perf_counter()
    for seed in range(matches):
        rng = SeededRng(seed)
        st = engine.new(config, seats, rng)
        while not engine.is_over(st):
            seat = engine.to_act(st)[0]
            engine.apply(st, seat, engine.sample_action(st, seat, rng), rng)
            moves += 1
    return time.perf_counter() - started, moves


def run(quick: bool) -> None:
    """Print matches per second for each game, number of players and kind of match."""
    matches = 20 if quick else 400
    for mode in ("punti", "smazzate"):
        for game, fmt, players in CASES:
            seconds, moves = play(game, fmt, players, mode, matches)
            print(
                f"   {game:9} {players} giocatori, a {mode:8}: {matches / seconds:8.0f} partite/s"
                f"  ({moves / seconds:9.0f} giocate/s, {matches} partite)",
                flush=True,
            )
