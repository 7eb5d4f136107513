"""Seeded complete matches replayed to a fixed result, and hand-history replays (RULINGS G4)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from games.engine import dumps
from games.registry import get
from games.rng import RecordingRng, ReplayRng, SeededRng

from .rummy_helpers import play_random, seats

# Regression pins (recomputed when an engine changes on purpose), not results from the rules:
# (game, config, players, moves, winner, points, smazzate, sha256 of the final state's JSON)
# Scala 40's pins have a jolly taken back never go back onto its own meld, and its stored config
# carries the pairs options (format, pairs, partners, carte_scoperte; they do not change the play).
PINNED: list[tuple[str, dict[str, Any], int, int, int, list[int], int, str]] = [
    ("burraco", {"format": "testa_a_testa"}, 2, 564, 0, [2715, 845], 3, "0f11de73a4a23770"),
    (
        "burraco",
        {"format": "coppie", "mode": "smazzate", "deals": 2},
        4,
        252,
        1,
        [405, 1545],
        2,
        "340e16b17fc14086",
    ),
    ("burraco", {"format": "4in2", "target": 1005}, 2, 256, 0, [1280, 375], 2, "e02dd80aa8e7a581"),
    ("scala40", {"mode": "punti", "target": 101}, 2, 1302, 0, [66, 174], 10, "4facd1cb95a8314c"),
    ("scala40", {"mode": "punti", "target": 151}, 3, 1531, 0, [51, 168, 229], 12, "4a957bd2e5fc3a81"),
    ("scala40", {"mode": "smazzate", "deals": 3}, 4, 345, 3, [29, 24, 23, 0], 2, "8c09d0e3643d3856"),
]


@pytest.mark.parametrize(("game", "cfg", "n", "moves", "winner", "points", "deals", "digest"), PINNED)
def test_seeded_match_replays_to_a_fixed_result(
    game: str,
    cfg: dict[str, Any],
    n: int,
    moves: int,
    winner: int,
    points: list[int],
    deals: int,
    digest: str,
) -> None:
    engine = get(game)
    rng = SeededRng(f"replay-{game}-{n}")
    st = engine.new(cfg, seats(n), rng)
    assert play_random(engine, st, rng) == moves
    res = engine.outcome(st)
    assert (res["winner"], res["points"], res["deals"]) == (winner, points, deals)
    assert hashlib.sha256(dumps(st).encode()).hexdigest()[:16] == digest


@pytest.mark.parametrize(("game", "n"), [("burraco", 4), ("scala40", 3)])
def test_hand_history_replays_exactly(game: str, n: int) -> None:
    """The recorded deal draws and the players' actions rebuild the match exactly."""
    engine = get(game)
    cfg: dict[str, Any] = {"format": "coppie"} if game == "burraco" else {}
    deal_rng = RecordingRng(SeededRng(f"history-{game}"))
    bots = SeededRng(f"bots-{game}")
    st = engine.new(cfg, seats(n), deal_rng)
    actions: list[tuple[int, dict[str, Any]]] = []
    while not engine.is_over(st) and len(actions) < 3000:
        seat = engine.to_act(st)[0]
        action = engine.sample_action(st, seat, bots)
        actions.append((seat, action))
        engine.apply(st, seat, action, deal_rng)
    replay_rng = ReplayRng(deal_rng.draws)
    twin = engine.new(cfg, seats(n), replay_rng)
    for seat, action in actions:
        engine.apply(twin, seat, action, replay_rng)
    assert replay_rng.exhausted
    assert dumps(twin) == dumps(st)
