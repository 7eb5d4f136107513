"""Pure parts of the load benchmark: layout of N clients, percentiles, the bots' choice, /proc."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import action_from_spec
from games.rng import Rng
from lobby.bots import AVOID

POKER_SEATS = 3  # Poker 5 carte tables of 3 players
SCOPA_SEATS = 2  # Scopa tables of 2


@dataclass(frozen=True)
class Layout:
    """How N clients are spread: half at poker (N/6 tables of 3), half at scopa (N/4 tables of 2).

    N clients in all, not N per game. Rounding down may leave one client out (N=500 seats 499).
    """

    requested: int
    poker_tables: int
    scopa_tables: int

    @classmethod
    def for_clients(cls, n: int) -> Layout:
        if n < POKER_SEATS + SCOPA_SEATS:
            raise ValueError(f"at least {POKER_SEATS + SCOPA_SEATS} clients")
        poker = n // (2 * POKER_SEATS)
        scopa = (n - poker * POKER_SEATS) // SCOPA_SEATS
        return cls(requested=n, poker_tables=poker, scopa_tables=scopa)

    @property
    def poker_players(self) -> int:
        return self.poker_tables * POKER_SEATS

    @property
    def scopa_players(self) -> int:
        return self.scopa_tables * SCOPA_SEATS

    @property
    def clients(self) -> int:
        return self.poker_players + self.scopa_players

    def describe(self) -> str:
        return (
            f"{self.clients} clients: {self.poker_players} at {self.poker_tables} Poker 5 carte tables "
            f"of {POKER_SEATS}, {self.scopa_players} at {self.scopa_tables} Scopa tables of {SCOPA_SEATS}"
        )


def percentile(samples: Sequence[float], q: float) -> float:
    """The nearest-rank percentile ``q`` (0-100] of the samples (sorted or not); NaN when empty."""
    if not samples:
        return math.nan
    if not 0 < q <= 100:
        raise ValueError("q must be in (0, 100]")
    ordered = sorted(samples)
    rank = math.ceil(q / 100 * len(ordered))
    return float(ordered[max(rank, 1) - 1])


def latency_figures(
    samples: Sequence[float], errors: dict[str, int], results: Sequence[dict[str, Any]]
) -> dict[str, Any]:
    """A run's latency figures (ms) with its refusals and the clients left waiting, for a report."""
    p99 = percentile(samples, 99)
    ending = [s for r in results for s in r.get("ending", [])]
    return {
        "p50": percentile(samples, 50),
        "p95": percentile(samples, 95),
        "p99": p99,
        "max": max(samples) if samples else math.nan,
        "errors": dict(errors),
        "stuck": sum(r["stuck"] for r in results),
        # the acts whose answer is the hand's end (its last step journaled; the settlement follows)
        "ending": {
            "n": len(ending),
            "p50": percentile(ending, 50),
            "p99": percentile(ending, 99),
            "above_p99": sum(1 for s in ending if s > p99),
            "all_above_p99": sum(1 for s in samples if s > p99),
        },
    }


def pair_ratios(pairs: Sequence[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, list[float]]:
    """Product / floor of each pair of runs (``--pairs``): server CPU per act (and its part in the
    Daphne processes' event loops: the rest is their database threads and Celery), throughput and p99,
    pair by pair, in run order; a pair where either side did not run is left out."""
    out: dict[str, list[float]] = {"cpu": [], "loop": [], "throughput": [], "p99": []}
    for product, floor in pairs:
        if any(k in side for side in (product, floor) for k in ("skipped", "failed")):
            continue
        out["cpu"].append(product["server_ms"] / floor["server_ms"])
        if "loop_ms" in product and "loop_ms" in floor:
            out["loop"].append(product["loop_ms"] / floor["loop_ms"])
        out["throughput"].append(product["acts_per_s"] / floor["acts_per_s"])
        out["p99"].append(product["p99"] / floor["p99"])
    return out


def choose_action(payload: dict[str, Any], rng: Rng) -> dict[str, Any] | None:
    """A random legal action for the seat of a ``table.state`` payload, or None when it need not act.

    The seat acts only when it is among ``to_act``; it never sits out or abandons (a Scopa player
    may abandon at any time, even on the other's turn: those specs are left out). Amounts are drawn
    as the platform's own bots draw them (``games.engine.action_from_spec``).
    """
    seat = payload.get("seat")
    if seat is None or seat not in payload.get("to_act", []):
        return None
    playable = [spec for spec in payload.get("legal", []) if spec.get("type") not in AVOID]
    if not playable:
        return None
    return action_from_spec(playable[rng.randbelow(len(playable))], rng)


def wants_ready(payload: dict[str, Any], nickname: str) -> bool:
    """Whether a seated player of a gioco a partite should press "Sono pronto" on this payload.

    Before the first match (no state) and on the end-of-match panel (``over``), while his seat is
    not yet marked ready.
    """
    if payload.get("type") != "table.state":
        return False
    if payload.get("view") is not None and not payload.get("over"):
        return False
    mine = next((s for s in payload.get("seats", []) if s.get("nickname") == nickname), None)
    return mine is not None and not mine.get("ready")


def parse_proc_status(text: str) -> dict[str, int]:
    """VmRSS and VmHWM (peak resident set) in kB from the text of /proc/<pid>/status."""
    out: dict[str, int] = {}
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key] = int(rest.split()[0])
    return out
