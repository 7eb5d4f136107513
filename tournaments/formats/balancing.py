"""Freezeout table balancing: break tables and move players so sizes differ by at most one.

"Mano a mano che i giocatori vengono eliminati, i tavoli vengono rotti, e i partecipanti rimasti
vengono spostati ad altri tavoli, in modo che questi ospitino un numero pressappoco uguale di
giocatori." Moves happen only between hands: a table still playing a hand gives nobody away until it
finishes (its moves are returned as ``pending``), though it may receive a player, who waits for the
next hand there.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from tournaments.formats import FormatError


@dataclass(frozen=True, slots=True)
class Move:
    """Move ``player`` from table ``source`` to table ``target``."""

    player: str
    source: int
    target: int


@dataclass(frozen=True, slots=True)
class Plan:
    """A balancing plan: moves to make now, moves waiting for a table's hand to end, tables broken."""

    moves: tuple[Move, ...]
    pending: tuple[Move, ...]
    broken: tuple[int, ...]
    sizes: dict[int, int]  # the sizes once every move (pending included) is made


def tables_needed(players: int, max_seats: int) -> int:
    """The fewest tables that seat ``players``."""
    return -(-players // max_seats)


def balance(
    tables: Mapping[int, Sequence[str]], max_seats: int, between_hands: Collection[int] | None = None
) -> Plan:
    """Plan the fewest moves that leave ``tables_needed`` tables whose sizes differ by at most one.

    ``tables`` maps table numbers to their players in the order they should be moved (decision: the
    caller lists first the player who would be big blind / first to post next, as live tournament
    directors move that player, so nobody skips or repeats a forced bet).

    Decision: a table is broken as soon as the players left fit in one table fewer (live practice:
    the field is kept on the fewest tables, which is what the "tavolo finale" converges to), so the
    target is always ``tables_needed`` tables; "fewest moves" is under that target.

    Minimality: the moves are every player of a broken table plus, at each kept table, the players
    above its target size. Keeping the largest tables and giving the larger targets (q + 1) to the
    largest kept tables minimises that number (an exchange argument: both choices only raise
    Σ min(size, target)). Ties: the table with the highest number is broken first, and among equal
    tables the lower number gets the larger target; movers fill the short tables in table order.
    """
    if max_seats < 2:
        raise FormatError("max_seats", "Un tavolo ha almeno due posti")
    players = sum(len(p) for p in tables.values())
    if players == 0:
        return Plan((), (), tuple(sorted(tables)), {})
    needed = tables_needed(players, max_seats)
    by_size = sorted(tables, key=lambda t: (-len(tables[t]), t))
    kept, broken = by_size[:needed], by_size[needed:]
    base, extra = divmod(players, needed)
    target = {t: base + (1 if i < extra else 0) for i, t in enumerate(kept)}
    movers: list[tuple[str, int]] = []
    for t in sorted(broken):
        movers.extend((p, t) for p in tables[t])
    for t in sorted(kept):
        over = len(tables[t]) - target[t]
        movers.extend((p, t) for p in tables[t][: max(0, over)])
    slots = [t for t in sorted(kept) for _ in range(max(0, target[t] - len(tables[t])))]
    if len(slots) != len(movers):  # pragma: no cover - arithmetic invariant
        raise AssertionError("balancing arithmetic")
    idle = None if between_hands is None else set(between_hands)
    now: list[Move] = []
    pending: list[Move] = []
    for (player, source), dest in zip(movers, slots, strict=True):
        move = Move(player, source, dest)
        (now if idle is None or source in idle else pending).append(move)
    return Plan(tuple(now), tuple(pending), tuple(sorted(broken)), dict(target))


def apply_moves(tables: Mapping[int, Sequence[str]], moves: Sequence[Move]) -> dict[int, list[str]]:
    """Return the tables after the moves (moved players appended to their new table; empty tables dropped)."""
    out = {t: list(p) for t, p in tables.items()}
    for move in moves:
        out[move.source].remove(move.player)
        out[move.target].append(move.player)
    return {t: p for t, p in out.items() if p}
