"""A digest of many seeded random poker-family hands: every choice offered, taken and seen.

``trace_digest`` plays random complete hands of Poker 5 carte or Telesina at a few tables (players,
limits, cash or tournament, preferences, giro pazzo) and hashes, step by step, what the engine
contract exposes: the seats to act, each one's legal actions, the action taken (sometimes a
timeout, sometimes a refused action with its error code), the events, every seat's and a
spectator's view, and each hand's outcome and carry. The state itself is not hashed: its format
may change (a speed-up) as long as this digest does not. The golden digests are in
tests/games/poker5/test_poker5_traces.py and tests/games/telesina/test_telesina_traces.py.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from games.engine import Engine, IllegalAction, dumps
from games.poker5 import GIRO_PAZZO_VARIANTS
from games.rng import SeededRng
from games.telesina import Telesina
from games.telesina import giro_pazzo as gp


def _prefs(rng: SeededRng, seat: int) -> dict[str, Any]:
    show = ("chiedi", "mostra", "nascondi")[rng.randbelow(3)]
    return {"invito_automatico": rng.randbelow(4) > 0, "mostra_nascondi": show}


def _play_table(engine: Engine, cfg: dict[str, Any], players: int, hands: int, seed: int, h: Any) -> None:
    """Play ``hands`` hands at one table, feeding the trace into the hash ``h``."""
    rng = SeededRng(seed)
    choose = SeededRng(f"{seed}-choices")
    seats = list(range(1, players + 1))
    prefs = {s: _prefs(choose, s) for s in seats}
    chips = {s: 200 + choose.randbelow(3000) for s in seats}
    # a giro pazzo table starts inside a giro pazzo, so its dealers' variant panel is played too
    start: dict[str, Any] | None = {"giro_pazzo": players} if cfg.get("giro_pazzo") else None
    carry = start
    telesina = Telesina()

    def feed(*parts: Any) -> None:
        for part in parts:
            h.update(json.dumps(part, sort_keys=True, separators=(",", ":")).encode())

    for _ in range(hands):
        if min(chips.values()) < 50:
            chips = {s: 200 + choose.randbelow(3000) for s in seats}
            carry = start
        specs = [
            {"seat": s, "chips": chips[s], "sitout": choose.randbelow(25) == 0, "prefs": prefs[s]}
            for s in seats
        ]
        handoff = (carry or {}).get("handoff")
        game = telesina if handoff and handoff.get("variant") == "telesina" else engine
        state = game.new(cfg if game is engine else {**cfg}, specs, rng, carry)
        feed("new", game.name, [game.view(state, s) for s in [*seats, None]])
        steps = 0
        while not game.is_over(state):
            steps += 1
            assert steps < 500, "a hand that does not end"
            acting = game.to_act(state)
            seat = acting[choose.randbelow(len(acting))]
            legal = {s: game.legal_actions(state, s) for s in acting}
            feed("to_act", acting, legal)
            roll = choose.randbelow(20)
            if roll == 0:
                # a refused action: wrong amount, wrong seat or garbage; nothing may change
                before = dumps(state)
                wrong = [
                    {"type": "punto", "amount": -1},
                    {"type": "nonsense"},
                    {"type": "cambio", "cards": ["Xx"]},
                ][choose.randbelow(3)]
                other = next((s for s in seats if s not in acting), seat)
                try:
                    game.apply(state, other if roll == 0 and choose.randbelow(2) else seat, wrong, rng)
                    feed("accepted", wrong)
                except IllegalAction as err:
                    feed("refused", err.code)
                assert dumps(state) == before
                continue
            if roll == 1:
                action = {**game.timeout_action(state, seat), "timeout": True}
            else:
                action = game.sample_action(state, seat, choose)
            events = game.apply(state, seat, action, rng)
            feed("apply", seat, action, events)
            if roll < 6:
                feed("views", [game.view(state, s) for s in [*seats, None]])
        out = game.outcome(state)
        carry = game.carry(state)
        feed("end", out, carry, [game.view(state, s) for s in [*seats, None]])
        chips = {s: out["chips"].get(str(s), chips[s]) for s in seats}


def trace_digest(engine: Engine, tables: list[tuple[dict[str, Any], int]], hands: int, seed: int) -> str:
    """Return the sha256 of ``hands`` random hands at each table (config, players) from ``seed``.

    Telesina is registered in the poker giro pazzo for the run (and removed after), so a poker
    table with giro pazzo also plays the Telesina deals its dealers choose.
    """
    h = hashlib.sha256()
    registered = "telesina" in GIRO_PAZZO_VARIANTS
    if not registered:
        gp.register()
    try:
        for i, (cfg, players) in enumerate(tables):
            _play_table(engine, cfg, players, hands, seed + i, h)
    finally:
        if not registered:
            GIRO_PAZZO_VARIANTS.pop("telesina", None)
    return h.hexdigest()


POKER_TABLES: list[tuple[dict[str, Any], int]] = [
    ({"limit": "NL", "invito": 20, "rake_percent": 500, "rake_cap": 300, "giro_pazzo": True}, 6),
    ({"limit": "PL", "invito": 10, "giro_pazzo": True}, 4),
    ({"limit": "FL", "invito": 50, "rake_percent": 1000}, 3),
    ({"limit": "NL", "invito": 10, "mode": "tournament", "giro_pazzo": True}, 5),
    ({"limit": "PL", "invito": 25, "mode": "tournament"}, 2),
]

TELESINA_TABLES: list[tuple[dict[str, Any], int]] = [
    ({"limit": "NL", "invito": 20, "rake_percent": 500, "rake_cap": 300}, 6),
    ({"limit": "PL", "invito": 10, "vele": "ascensore", "distribuzione": "mai"}, 5),
    ({"limit": "FL", "invito": 50, "vele": "croce"}, 3),
    ({"limit": "NL", "invito": 10, "mode": "tournament"}, 4),
    ({"limit": "PL", "invito": 25, "mode": "tournament", "distribuzione": "mai"}, 2),
]
