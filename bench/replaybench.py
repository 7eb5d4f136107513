"""Benchmark of the hand replay: how long one window of frames takes to build, per game.

    DJANGO_SETTINGS_MODULE=config.settings.test python -m bench.replaybench [--steps N]

Plays one hand (or match) of each game with seeded random legal moves, in memory (no database:
an unsaved Hand and plain step records), then times ``replay_frames`` for a player's first window
and for staff's, and prints steps, milliseconds and the JSON size. Figures, not assertions.
"""

from __future__ import annotations

import argparse
import json
import time
from types import SimpleNamespace
from typing import Any

import django


def play(game: str, max_steps: int) -> tuple[Any, list[SimpleNamespace]]:
    from games import registry
    from games.rng import RecordingRng, SeededRng
    from lobby.models import Hand, Table

    engine = registry.get(game)
    n = engine.min_seats if engine.family == "partite" else max(engine.min_seats, min(3, engine.max_seats))
    specs = [{"seat": i + 1, "chips": 20_000, "sitout": False, "prefs": {}, "new": False} for i in range(n)]
    config = engine.validate_config({})
    start = RecordingRng(SeededRng(1))
    state = engine.new(config, specs, start, None)
    rng = SeededRng(2)
    steps = []
    while not engine.is_over(state) and len(steps) < max_steps:
        seat = engine.to_act(state)[0]
        action = engine.sample_action(state, seat, rng)
        if action["type"] == "abbandona":
            continue
        draws = RecordingRng(rng)
        events = engine.apply(state, seat, action, draws)
        record = SimpleNamespace(seat=seat, action=action, events=events, automatic=False, draws=draws.draws)
        steps.append(record)
    seats = [{**s, "user_id": s["seat"], "nickname": f"Giocatore {s['seat']}"} for s in specs]
    hand = Hand(
        pk=1,
        table=Table(name=f"Tavolo {game}"),
        number=1,
        game=game,
        config=config,
        seats=seats,
        start_draws=start.draws,
        carry_in=None,
    )
    return hand, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2_000, help="stop a match after this many steps")
    args = parser.parse_args()
    django.setup()
    from games import registry
    from lobby.replay import replay_frames

    print(f"{'game':<11}{'steps':>7}{'player ms':>11}{'staff ms':>10}{'player KB':>11}{'staff KB':>10}")
    for game in registry.names():
        hand, steps = play(game, args.steps)
        timings = []
        for staff in (False, True):
            t0 = time.perf_counter()
            payload = replay_frames(hand, steps, seat=None if staff else 1, staff=staff, count="100")
            timings.append(((time.perf_counter() - t0) * 1000, len(json.dumps(payload)) / 1024))
        (p_ms, p_kb), (s_ms, s_kb) = timings
        print(f"{game:<11}{len(steps):>7}{p_ms:>11.0f}{s_ms:>10.0f}{p_kb:>11.0f}{s_kb:>10.0f}")


if __name__ == "__main__":
    main()
