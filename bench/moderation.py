"""Benchmarks of moderation: prints figures, asserts nothing.

Run with ``.venv/bin/python -m bench.moderation`` (``--quick`` for fewer lines; ``--signals`` adds
the collusion signals, see ``bench/moderation_signals.py``; it needs ``DATABASE_URL``). It screens a mix
of ordinary, censored, blocked, held and evasive lines through ``moderation.filters.screen`` with
the default Italian watched list (``moderation.defaults``), each with a few recent lines of its
author, as ``chat_screen`` passes them, and prints lines per second (best of 5 rounds) for the
whole mix and per kind. The database work of ``chat_screen`` around it is three queries a line
(the mute in force, the author's recent lines, the insert), checked in tests/moderation.
"""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime, timedelta

from moderation import filters
from moderation.defaults import rows

NOW = datetime(2026, 11, 25, 15, 0, tzinfo=UTC)
MIX = {
    "ordinary": [
        "ciao a tutti, buona partita",
        "bella mano, complimenti",
        "gg, alla prossima",
        "qualcuno gioca a scopa stasera?",
        "che sfortuna, ma va bene così",
        "Bravo. Io ci riprovo domani",
        "grazie ragazzi, mi sono divertito molto a questo tavolo",
    ],
    "censored": ["sei uno stronzo", "che cazzata di mossa", "sei proprio un cretino"],
    "blocked": ["porco dio", "vieni su www.altrosito.it", "chiamami al 333 123 4567"],
    "held": ["ho tre assi", "ti ammazzo", "facciamo a metà"],
    "evasions": ["sei uno s t r 0 n z 0", "str0nz0000", "p0rc0 d1o", "sei un cretinò"],
}


def best_rate(lines: list[str], watched: filters.WatchedList, repeat: int, rounds: int = 5) -> float:
    """Lines per second, the best of ``rounds`` rounds of ``repeat`` passes over the lines."""
    recent = [
        filters.Recent(NOW - timedelta(seconds=40 + i), filters.normalise(f"riga {i}")) for i in range(3)
    ]
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeat):
            for text in lines:
                filters.screen(text, watched=watched, recent=recent, now=NOW, in_hand=True)
        best = min(best, time.perf_counter() - start)
    return repeat * len(lines) / best


def main(argv: list[str]) -> None:
    repeat = 20 if "--quick" in argv else 200
    start = time.perf_counter()
    watched = filters.WatchedList(filters.Entry(i, *row) for i, row in enumerate(rows()))
    compile_ms = (time.perf_counter() - start) * 1000
    print(f"watched list: {len(watched.entries)} entries, compiled in {compile_ms:.1f} ms")
    everything = [line for lines in MIX.values() for line in lines]
    print(f"mix of {len(everything)} lines: {best_rate(everything, watched, repeat):,.0f} lines/s")
    for kind, lines in MIX.items():
        print(f"  {kind:<9} {best_rate(lines, watched, repeat):>10,.0f} lines/s")
    if "--signals" in argv:
        from bench import moderation_signals

        moderation_signals.main(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
