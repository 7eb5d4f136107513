"""Bots: simple legal-move players for every engine (demo tables, load tests), marked to everyone.

A bot is a user with ``is_bot``; when a bot seat must decide, a Celery task (a second later)
applies a random legal action through the same table action as a person would. Bots never
choose to sit out or abandon, so a demo table keeps playing.
"""

from __future__ import annotations

from typing import Any

from games.engine import Engine, State
from games.rng import Rng

AVOID = frozenset({"sitout", "abbandona"})
BOT_DELAY_SECONDS = 1.0


def bot_action(engine: Engine, state: State, seat: int, rng: Rng) -> dict[str, Any]:
    """Pick a random legal action, avoiding sitout and abandon when anything else is possible."""
    action = engine.sample_action(state, seat, rng)
    for _ in range(20):
        if action.get("type") not in AVOID:
            return action
        action = engine.sample_action(state, seat, rng)
    return action
