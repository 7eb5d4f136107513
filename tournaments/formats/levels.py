"""Level-based tournaments ("I tornei a livelli") of giochi a puntate: level structures,
hand-for-hand, elimination placings and shootout progression. Table balancing is in ``balancing``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournaments.formats import FormatError
from tournaments.formats.draw import RandomList
from tournaments.formats.standings import Placings, group_sorted


class Speed(StrEnum):
    """The lobby's duration label of a level-based tournament."""

    LENTO = "lento"
    NORMALE = "normale"
    TURBO = "turbo"
    SUPERTURBO = "superturbo"


# Decision: the rules name the four speeds but print no structure. These are the level lengths of
# Italian online sit&go and MTT lobbies (deep/normal/turbo/hyper): 15, 10, 5 and 3 minutes.
LEVEL_SECONDS: dict[Speed, int] = {
    Speed.LENTO: 15 * 60,
    Speed.NORMALE: 10 * 60,
    Speed.TURBO: 5 * 60,
    Speed.SUPERTURBO: 3 * 60,
}
# The minimum bet (invito / buio / puntata minima) of each level as a multiple of the first level's.
# The series repeats ×10 every 7 levels from level 7 on (10, 15, 20, 30, 40, 60, 80, 100, 150, ...).
INVITO_MULTIPLIERS = (1, 2, 3, 4, 6, 8, 10, 15, 20, 30, 40, 60, 80)
_CYCLE = 7


@dataclass(frozen=True, slots=True)
class Level:
    """One level: its 1-based number, minimum bet, and [start, end) in seconds from the start."""

    number: int
    invito: int
    start_s: int
    end_s: int


def invito_multiplier(level: int) -> int:
    """The multiplier of 1-based ``level``."""
    if level < 1:
        raise FormatError("level", "Livello non valido")
    index = level - 1
    if index < len(INVITO_MULTIPLIERS):
        return INVITO_MULTIPLIERS[index]
    return 10 * invito_multiplier(level - _CYCLE)


def level_schedule(speed: Speed, first_invito: int, levels: int) -> list[Level]:
    """The first ``levels`` levels, as shown in the tournament lobby ("l'elenco dei livelli")."""
    if first_invito <= 0:
        raise FormatError("first_invito", "Invito iniziale non valido")
    length = LEVEL_SECONDS[speed]
    return [
        Level(n, first_invito * invito_multiplier(n), (n - 1) * length, n * length)
        for n in range(1, levels + 1)
    ]


def level_at(speed: Speed, first_invito: int, elapsed_s: int) -> Level:
    """The level in force ``elapsed_s`` seconds after the start (a new level applies from the next hand)."""
    if elapsed_s < 0:
        raise FormatError("elapsed", "Tempo trascorso negativo")
    number = elapsed_s // LEVEL_SECONDS[speed] + 1
    return level_schedule(speed, first_invito, number)[-1]


HAND_FOR_HAND_MARGIN = 1


def hand_for_hand(remaining: int, paid: int, tables: int, margin: int = HAND_FOR_HAND_MARGIN) -> bool:
    """Whether the tournament plays "mano per mano" now.

    On when the players left are "di poco superiore" to the paid places, off as soon as they are
    not more than the paid places. Decision: "di poco" is ``margin`` players (default 1: the bubble,
    as live tournament directors do); with a single table hands are synchronous anyway.
    """
    return tables > 1 and paid < remaining <= paid + margin


def elimination_placings(remaining_before: int, busted: Sequence[tuple[str, int]]) -> list[list[str]]:
    """Positions of players eliminated together, best first (they take the last places still free).

    ``busted`` pairs each player with the chips that decide the order: the chips at the start of
    the hand for players eliminated in the same hand (also across tables in hand-for-hand), or, in
    Sette e mezzo, the chips before being eliminated for two players eliminated by the same banker
    in the same giro ("si classifica prima colui il quale ... aveva il numero maggiore di chips").
    More chips ranks higher; equal chips are ex aequo and share (RULINGS K2).
    """
    if len(busted) > remaining_before:
        raise FormatError("busted", "Eliminati più giocatori di quelli rimasti")
    order = sorted(busted, key=lambda b: (-b[1], b[0]))
    return group_sorted(order, key=lambda b: b[1], name=lambda b: b[0])


def freezeout_placings(winner: str, eliminations: Sequence[list[list[str]]]) -> Placings:
    """Final placings from the winner and the elimination groups in chronological order."""
    placings: Placings = [[winner]]
    for groups in reversed(eliminations):
        placings.extend(groups)
    return placings


def seat_tables(players: Sequence[str], max_seats: int) -> list[list[str]]:
    """Seat players (already in random-list order) at the fewest tables, sizes within one.

    Dealt round-robin: the 1st at table 1, the 2nd at table 2, ... so sizes differ by at most one.
    """
    if max_seats < 2:
        raise FormatError("max_seats", "Un tavolo ha almeno due posti")
    count = -(-len(players) // max_seats)
    tables: list[list[str]] = [[] for _ in range(count)]
    for i, player in enumerate(players):
        tables[i % count].append(player)
    return tables


def shootout_first_stage(random_list: RandomList, max_seats: int) -> list[list[str]]:
    """Tables of the first shootout stage; players stay there until one is left at each."""
    return seat_tables(random_list.order, max_seats)


def shootout_next_stage(
    table_winners: Sequence[str], random_list: RandomList, max_seats: int
) -> list[list[str]]:
    """Seat the table winners: one final table if they fit, else another shootout stage."""
    if len(table_winners) < 2:
        raise FormatError("shootout_winners", "Servono almeno due vincitori di tavolo")
    return seat_tables(random_list.ordered(table_winners), max_seats)
