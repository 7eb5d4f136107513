"""Registration arithmetic at the close of entries ("Numero minimo e numero massimo di partecipanti",
"Esclusioni per tavoli incompleti", "Tornei sit & go")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.formats import FormatError

DEFAULT_MIN_PLAYERS = 4
SITGO_SIZES = (2, 4, 8, 16, 32, 64, 128)
REGISTRATION_CLOSES_BEFORE_START_S = 120  # "la chiusura delle iscrizioni avviene 2 minuti prima"
# Training tournaments that require it: "il tasto «Conferma iscrizione» che appare 4 minuti prima
# dell'inizio del torneo e scompare 2 minuti prima dell'inizio del torneo, alla chiusura delle iscrizioni".
CONFIRMATION_OPENS_BEFORE_START_S = 240


@dataclass(frozen=True, slots=True)
class Entry:
    """One registration: an individual (one player) or a fixed pair (two players), in arrival order."""

    entry_id: str
    players: int = 1


@dataclass(frozen=True, slots=True)
class Closing:
    """The outcome of closing registrations: who plays, who is refunded, and whether it is cancelled."""

    admitted: tuple[str, ...]
    excluded: tuple[str, ...]  # refunded: the last registrants cut to complete tables
    refused: tuple[str, ...]  # over the maximum: the system never accepts them (refunded if taken)
    cancelled: bool  # under the minimum: every admitted entry is refunded too

    @property
    def refunded(self) -> tuple[str, ...]:
        """Every entry whose entry fee goes back to its conto."""
        if self.cancelled:
            return self.admitted + self.excluded + self.refused
        return self.excluded + self.refused


def players_multiple(*, turn_based: bool, pairs: bool) -> int:
    """Players must be a multiple of 2 in individual and 4 in pairs turn-based tournaments; else 1."""
    if not turn_based:
        return 1
    return 4 if pairs else 2


def close_registration(
    entries: Sequence[Entry],
    *,
    turn_based: bool,
    pairs: bool = False,
    min_players: int = DEFAULT_MIN_PLAYERS,
    max_players: int | None = None,
) -> Closing:
    """Close the entries of a scheduled tournament, ``entries`` in chronological order.

    Entries beyond ``max_players`` are refused; then the last registrants are excluded until the
    players are a multiple of 2 (individual) or 4 (pairs) in turn-based tournaments; then, with
    fewer than ``min_players`` players, the tournament is cancelled and everyone refunded.

    Decisions: counts are in players ("numero minimo ... pari a 4 giocatori"); a fixed pair counts
    2 and is excluded whole; the minimum is checked after the exclusions, since the tournament
    cannot start with fewer than the minimum at its tables. When dropping the very last entry would
    overshoot (a fixed pair when one player is in excess, possible only with mixed entries) the
    exclusion continues backwards until the count is a multiple.
    """
    if min_players < 2:
        raise FormatError("min_players", "Il numero minimo di partecipanti è almeno 2")
    seen: set[str] = set()
    for entry in entries:
        if entry.players not in (1, 2) or (entry.players == 2 and not pairs):
            raise FormatError("entry_players", "Iscrizione non valida")
        if entry.entry_id in seen:
            raise FormatError("entry_duplicate", "Iscrizione ripetuta")
        seen.add(entry.entry_id)
    accepted: list[Entry] = []
    refused: list[str] = []
    count = 0
    for entry in entries:
        if max_players is not None and count + entry.players > max_players:
            refused.append(entry.entry_id)
        else:
            accepted.append(entry)
            count += entry.players
    multiple = players_multiple(turn_based=turn_based, pairs=pairs)
    excluded: list[str] = []
    while count % multiple:
        last = accepted.pop()
        excluded.insert(0, last.entry_id)
        count -= last.players
    admitted = tuple(e.entry_id for e in accepted)
    return Closing(admitted, tuple(excluded), tuple(refused), cancelled=count < min_players)


def can_register(registered_players: int, entry_players: int, max_players: int | None) -> bool:
    """Whether one more entry fits: "il sistema non accetta iscrizioni oltre il numero massimo"."""
    return max_players is None or registered_players + entry_players <= max_players


def check_sitgo_size(size: int) -> None:
    """Refuse a sit&go size that is not a power of two from 2 ("heads-up") to 128."""
    if size not in SITGO_SIZES:
        raise FormatError("sitgo_size", "Nei sit&go gli iscritti sono una potenza di 2 da 2 a 128")


def sitgo_starts(registered_players: int, size: int) -> bool:
    """A sit&go starts as soon as its fixed number of players is reached."""
    check_sitgo_size(size)
    return registered_players >= size
