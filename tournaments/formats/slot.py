"""Slot tournament ranking ("Regole della slot tornei", "La classifica finale")."""

from __future__ import annotations

from collections.abc import Mapping

from tournaments.formats.standings import Placings, group_sorted


def tied_for_first(credits: Mapping[str, int]) -> list[str]:
    """Players who play the extra time: everyone with the top credit, when there are two or more."""
    if not credits:
        return []
    top = max(credits.values())
    tied = sorted(p for p, c in credits.items() if c == top)
    return tied if len(tied) > 1 else []


def slot_placings(credits: Mapping[str, int], extra_time: Mapping[str, int] | None = None) -> Placings:
    """Final ranking by credit left; the players tied for first are separated by ``extra_time``
    (their credit after the extra minute) and stay ex aequo if still equal.

    Decision: ties that do not involve the first place have no extra time in the rules, so they are
    ex aequo and share their prizes (RULINGS K2).
    """
    tied = set(tied_for_first(credits))
    if tied and extra_time is not None:
        head = sorted(tied, key=lambda p: (-extra_time[p], p))
        placings = group_sorted(head, key=lambda p: extra_time[p], name=lambda p: p)
    elif tied:
        placings = [sorted(tied)]
    else:
        placings = []
    rest = sorted((p for p in credits if p not in tied), key=lambda p: (-credits[p], p))
    return placings + group_sorted(rest, key=lambda p: credits[p], name=lambda p: p)
