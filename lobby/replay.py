"""Rebuild a hand step by step from its history (for staff, audits and tests)."""

from __future__ import annotations

import copy
from typing import Any

from games import registry
from games.rng import ReplayRng
from lobby.models import Hand

# What of a seat the engine receives when a hand is dealt (lobby.actions) and replayed (here).
ENGINE_SPEC_KEYS = ("seat", "chips", "sitout", "prefs", "new")


def replay_hand(hand: Hand) -> list[dict[str, Any]]:
    """Return the engine state at the start of the hand and after each step, replayed exactly.

    The deal is rebuilt from the recorded RNG draws, so the replay needs no stored state: any
    difference from what was played raises (``ReplayError`` or the engine's own error).
    """
    engine = registry.get(hand.game)
    specs = [{k: s[k] for k in ENGINE_SPEC_KEYS if k in s} for s in hand.seats]
    state = engine.new(hand.config, specs, ReplayRng(hand.start_draws), hand.carry_in)
    states = [copy.deepcopy(state)]
    for step in hand.steps.order_by("seq"):
        engine.apply(state, step.seat, step.action, ReplayRng(step.draws))
        states.append(copy.deepcopy(state))
    return states
