"""Final placings shared by every format: ordered groups of ex aequo entrants.

A ``Placings`` value is a list of groups, best first; the group at index i occupies the positions
from 1 + (entrants in earlier groups) on. A group of more than one entrant is an ex aequo: it shares
the prizes of all its positions equally (RULINGS K2) and nothing random ever separates it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from tournaments.formats import FormatError

Placings = list[list[str]]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class PlacingRow:
    """One line of a final ranking: positions ``first``..``last`` held ex aequo by ``entrants``."""

    first: int
    last: int
    entrants: tuple[str, ...]


def group_sorted(items: Sequence[T], key: Callable[[T], Hashable], name: Callable[[T], str]) -> Placings:
    """Group already-sorted items into ex aequo groups of equal ``key``."""
    groups: Placings = []
    previous: Hashable = object()
    for item in items:
        k = key(item)
        if groups and k == previous:
            groups[-1].append(name(item))
        else:
            groups.append([name(item)])
        previous = k
    return groups


def rows(placings: Placings) -> list[PlacingRow]:
    """Return the placings with their position ranges ("dal 3° al 4° classificato")."""
    out: list[PlacingRow] = []
    position = 1
    for group in placings:
        if not group:
            raise FormatError("empty_group", "Gruppo di classifica vuoto")
        out.append(PlacingRow(position, position + len(group) - 1, tuple(group)))
        position += len(group)
    return out


def position_of(placings: Placings) -> dict[str, int]:
    """Map each entrant to its (best) position: ex aequo share the first position of their group."""
    return {entrant: row.first for row in rows(placings) for entrant in row.entrants}


def check_placings(placings: Placings) -> None:
    """Refuse placings that list an entrant twice."""
    seen: set[str] = set()
    for group in placings:
        for entrant in group:
            if entrant in seen:
                raise FormatError("placings_duplicate", f"{entrant} compare due volte in classifica")
            seen.add(entrant)
