"""Python's cyclic garbage collector held off for a burst of allocations that all stay alive.

Opening or closing a turn's tables builds some hundred thousand containers (engine states, rows,
views) that live until the turn is written and sent. Each time the allocations pass the
collector's thresholds it walks them, and a full collection walks every object of the process as
well: two or three of those cost a turn of 512 tables about a third of its CPU, for no garbage.
The collector is switched off for the burst and back on after it (what it would have found is
found by its next run); nested or concurrent bursts leave it as the outermost found it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """Hold the cyclic garbage collector off in the block (a decorator too)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
