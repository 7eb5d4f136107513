"""Complete random Burraco and Scala 40 matches per second, for each format and kind of match.

``python -m bench.engines rummy`` (``--quick`` for a smoke run). Each match is played to its end by
the engines' random legal moves (``sample_action``, which favours melding) through the registered
engine, with the table defaults: Burraco a punti to 2005 or a smazzate (3), in testa a testa, a
coppie and 4 in 2; Scala 40 a punti to 101 or a smazzate (3), with 2, 3 and 4 players.
Random Scala 40 players can reach a position nobody can close (one card each, only full melds
on the table); after ``MOVE_CAP`` moves the player to act abandons, and the figure says how many
matches ended that way.
"""

from __future__ import annotations

import time

from games.registry import get
from games.rng import SeededRng

MOVE_CAP = 4000
CASES = (
    ("burraco", "testa_a_testa", 2),
    ("burraco", "coppie", 4),
    ("burraco", "4in2", 2),
    ("scala40", "2 giocatori", 2),
    ("scala40", "3 giocatori", 3),
    ("scala40", "4 giocatori", 4),
)


def play(game: str, fmt: str, players: int, mode: str, matches: int) -> tuple[float, int, int, int]:
    """Play ``matches`` random matches; return seconds, moves, smazzate and matches abandoned."""
    engine = get(game)
    config: dict[str, object] = {"mode": mode}
    if game == "burraco":
        config["format"] = fmt
    if mode == "smazzate":
        config["deals"] = 3
    seats = [{"seat": s, "prefs": {}} for s in range(1, players + 1)]
    moves = deals = capped = 0
    started = time.perf_counter()
    for seed in range(matches):
        rng = SeededRng(f"bench-{game}-{fmt}-{mode}-{seed}")
        st = engine.new(config, seats, rng)
        n = 0
        while not engine.is_over(st):
            seat = engine.to_act(st)[0]
            if n >= MOVE_CAP:
                engine.apply(st, seat, {"type": "abbandona"}, rng)
                capped += 1
                break
            engine.apply(st, seat, engine.sample_action(st, seat, rng), rng)
            n += 1
        moves += n
        deals += int(engine.outcome(st)["deals"])
    return time.perf_counter() - started, moves, deals, capped


def run(quick: bool) -> None:
    """Print complete random matches per second for each game, format and kind of match."""
    for mode in ("punti", "smazzate"):
        for game, fmt, players in CASES:
            matches = (4 if quick else 40) if game == "scala40" else (10 if quick else 100)
            seconds, moves, deals, capped = play(game, fmt, players, mode, matches)
            print(
                f"   {game:8} {fmt:14} a {mode:8}: {matches / seconds:7.1f} partite/s"
                f"  ({moves / seconds:7.0f} giocate/s, {deals / matches:4.1f} smazzate/partita,"
                f" {matches} partite, {capped} abbandonate al limite)",
                flush=True,
            )
