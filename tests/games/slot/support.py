"""Helpers of the slot tests: reel stops that show what a test needs, scripted draws."""

from __future__ import annotations

import copy
import itertools

import pytest

from games.rng import ReplayRng, SeededRng
from games.slot import engine, lines, table


def stop_with(strip: str, symbol: str, row: int = 0) -> int:
    """Return the first stop whose window shows ``symbol`` at ``row``."""
    return next(s for s in range(len(strip)) if lines.window([strip], [s])[0][row] == symbol)


def stop_without(strip: str, symbols: str) -> int:
    """Return the first stop whose window shows none of ``symbols``."""
    return next(s for s in range(len(strip)) if not set(lines.window([strip], [s])[0]) & set(symbols))


def quiet_stops(strips=None) -> list[int]:
    """Return stops that win nothing: no line win, no special symbol."""
    strips = strips or table.STRIPS
    rng = SeededRng(7)
    while True:
        stops = [rng.randbelow(len(s)) for s in strips]
        win = lines.window(strips, stops)
        if not lines.line_wins(win) and not set("".join(win)) & set(table.SPECIALS):
            return stops


def reel_draws(stops, strips=None) -> list[list[int]]:
    """Return the recorded draws of one spin of the reels at these stops."""
    strips = strips or table.STRIPS
    return [[len(strip), stop] for strip, stop in zip(strips, stops, strict=True)]


def scripted(*draw_lists) -> ReplayRng:
    """Return an RNG that gives exactly these draws, in order."""
    return ReplayRng(list(itertools.chain.from_iterable(draw_lists)))


def spin_at(state, stops, unit: int = 1, extra=()) -> list[dict]:
    """Spin at the given stops (then the extra draws) and check every draw was used."""
    rng = scripted(reel_draws(stops), *extra)
    events = engine.apply(state, {"type": "gira", "amount": unit}, rng)
    assert rng.exhausted
    return events


def refused(state, action, code: str, rng=None) -> None:
    """Assert the action is refused with ``code`` and nothing changed."""
    before = copy.deepcopy(state)
    with pytest.raises(engine.SlotError) as info:
        engine.apply(state, action, rng or ReplayRng([]))
    assert info.value.code == code
    assert state == before
    assert not engine.can_apply(state, action)


def stops_showing(symbol: str, reels, strips=None) -> list[int]:
    """Return stops with ``symbol`` on each of ``reels`` (row 0) and no special symbol elsewhere."""
    strips = strips or table.STRIPS
    out = []
    for i, strip in enumerate(strips):
        out.append(stop_with(strip, symbol) if i in reels else stop_without(strip, table.SPECIALS))
    return out
