"""Prize pools and their distribution, exact to the cent (RULINGS G1, K1, K2, K4).

Every function here is deterministic: prizes are never decided at random ("la ripartizione delle
vincite non verrà in nessun caso stabilita casualmente"), and every distribution sums exactly to the
pool it distributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from tournaments.formats import FormatError
from tournaments.formats.money import split_by_weights, split_evenly
from tournaments.formats.standings import Placings, check_placings, rows

# RULINGS K1, from the rules' € 10 / 80 % table: percentages by number of prize winners.
KO_PERCENT_BY_WINNERS: dict[int, tuple[int, ...]] = {
    1: (100,),
    2: (65, 35),
    4: (48, 26, 13, 13),
    8: (35, 19, 11, 11, 6, 6, 6, 6),
    16: (25, 15, 8, 8, 5, 5, 5, 5, 3, 3, 3, 3, 3, 3, 3, 3),
}
# Prize winners of a KO sit&go by its size (the table's columns: 2 and 4 pay only the winner).
SITGO_KO_WINNERS: dict[int, int] = {2: 1, 4: 1, 8: 2, 16: 4, 32: 8, 64: 16, 128: 16}

# The rules' Danese/danEL table, in hundredths of a percent, by tabulated number of entrants.
# (The 100 column sums to 9999 and the 300 column to 10005: K1 takes each column relative to its sum.)
DANESE_TABLE: dict[int, tuple[int, ...]] = {
    10: (4929, 2958, 2113),
    25: (3262, 1957, 1398, 1088, 890, 753, 652),
    50: (2560, 1537, 1098, 854, 699, 591, 512, 452, 404, 366, 334, 308, 285),
    100: (
        2068, 1242, 887, 690, 564, 478, 414, 365, 327, 296, 270, 248, 230,
        214, 200, 188, 177, 168, 159, 151, 144, 138, 132, 127, 122,
    ),
    200: (
        1710, 1027, 734, 571, 467, 395, 342, 302, 270, 245, 223, 205, 190, 177, 166, 156, 147,
        139, 132, 125, 119, 114, 109, 105, 101, 97, 93, 90, 87, 84, 82, 79, 77, 74, 72, 70,
        69, 67, 65, 63, 62, 60, 59, 58, 56, 55, 54, 53, 52, 51,
    ),
    300: (
        1551, 931, 665, 518, 423, 358, 311, 274, 245, 222, 203, 186, 173, 161, 150, 141, 133,
        126, 119, 114, 108, 104, 99, 95, 91, 88, 85, 82, 79, 76, 74, 72, 70, 68, 66, 64, 62,
        61, 59, 58, 56, 55, 54, 52, 51, 50, 49, 48, 47, 46, 45, 44, 44, 43, 42, 41, 41, 40,
        39, 39, 38, 37, 37, 36, 36, 35, 35, 34, 34, 33, 33, 32, 32, 31, 31,
    ),
}  # fmt: skip


class PrizeScheme(StrEnum):
    """How a tournament's pool is split."""

    KO_SITGO = "ko_sitgo"
    KO_SCHEDULED = "ko_scheduled"
    DANESE = "danese"  # also danEL, danKO and danELKO (the rules' "tornei a girone non KO" table)
    WINNER_TAKES_ALL = "winner_takes_all"


def sitgo_ko_weights(entrants: int) -> tuple[int, ...]:
    """Percentages of a KO sit&go of ``entrants`` (a power of two from 2 to 128), best first."""
    if entrants not in SITGO_KO_WINNERS:
        raise FormatError("sitgo_size", "Nei sit&go gli iscritti sono una potenza di 2 da 2 a 128")
    return KO_PERCENT_BY_WINNERS[SITGO_KO_WINNERS[entrants]]


def scheduled_ko_winners(entrants: int) -> int:
    """Number of prize winners of a scheduled KO ("da 1 a 6 partecipanti 1 premiato", ...)."""
    if entrants < 1:
        raise FormatError("entrants", "Numero di partecipanti non valido")
    if entrants <= 6:
        return 1
    if entrants <= 12:
        return 2
    if entrants <= 24:
        return 4
    if entrants <= 48:
        return 8
    return 16


def scheduled_ko_weights(entrants: int) -> tuple[int, ...]:
    """Percentages of a scheduled KO: the sit&go percentages for its number of prize winners."""
    return KO_PERCENT_BY_WINNERS[scheduled_ko_winners(entrants)]


def danese_column(entrants: int) -> int:
    """The Danese table column used for ``entrants`` (RULINGS K1: largest tabulated count not above)."""
    if entrants < 1:
        raise FormatError("entrants", "Numero di partecipanti non valido")
    return max([c for c in DANESE_TABLE if c <= entrants], default=10)


def danese_weights(entrants: int) -> tuple[int, ...]:
    """Percentages (hundredths) of a Danese/danEL for ``entrants``, best first.

    Decision (not in the rules): with fewer entrants than the column's prize positions (only
    possible below 3 entrants, when the minimum was lowered) the column is cut to ``entrants``
    positions; K1's relative weighting keeps the sum exact.
    """
    return DANESE_TABLE[danese_column(entrants)][:entrants]


def scheme_weights(scheme: PrizeScheme, entrants: int) -> tuple[int, ...]:
    """Percentages for a standard scheme and number of entrants."""
    if scheme is PrizeScheme.KO_SITGO:
        return sitgo_ko_weights(entrants)
    if scheme is PrizeScheme.KO_SCHEDULED:
        return scheduled_ko_weights(entrants)
    if scheme is PrizeScheme.DANESE:
        return danese_weights(entrants)
    return (1,)


def prize_table(pool: int, weights: Sequence[int]) -> list[int]:
    """Prize of each paid position, in cents: floors, remainder to the winner (K1); sums to ``pool``."""
    return split_by_weights(pool, weights)


@dataclass(frozen=True, slots=True)
class Pool:
    """A tournament's prize pool: what the entries collected, the operator's top-up, the total."""

    collected: int
    top_up: int

    @property
    def total(self) -> int:
        """The pool to distribute."""
        return self.collected + self.top_up


def prize_pool(entrants: int, pool_quota: int, guaranteed: int = 0) -> Pool:
    """Pool = entrants × pool quota, topped up by the operator to the guaranteed amount if any."""
    if entrants < 0 or pool_quota < 0 or guaranteed < 0:
        raise FormatError("pool_negative", "Montepremi non valido")
    collected = entrants * pool_quota
    return Pool(collected, max(0, guaranteed - collected))


def award(
    pool: int, weights: Sequence[int], placings: Placings, registration_order: Sequence[str] = ()
) -> dict[str, int]:
    """Pay the placings: position prizes from ``weights``, ex aequo groups share their sum (K2).

    Every placed entrant appears in the result (0 when unpaid). Decision (G1 adapted to
    tournaments, where no dealer exists): the cents an equal split leaves over go one at a time to
    the group's members in chronological registration order (``registration_order``; members not
    in it follow, by name). This is never random (K2). If the placings cover fewer entrants than
    the paid positions, the prizes of the missing positions go to the last placed group, so the
    whole pool is always paid out.
    """
    check_placings(placings)
    table = prize_table(pool, weights)
    placed = sum(len(g) for g in placings)
    if placed == 0:
        raise FormatError("no_placings", "Classifica vuota")
    if placed < len(table):
        table = [*table[: placed - 1], sum(table[placed - 1 :])]
    reg = {entrant: i for i, entrant in enumerate(registration_order)}
    out: dict[str, int] = {}
    for row in rows(placings):
        total = sum(table[row.first - 1 : row.last])
        members = sorted(row.entrants, key=lambda e: (reg.get(e, len(reg)), e))
        for member, share in zip(members, split_evenly(total, len(members)), strict=True):
            out[member] = share
    return out


@dataclass(frozen=True, slots=True)
class SimulatedRow:
    """One line of the "simula iscritti" view: positions ``first``..``last`` each win ``amount``."""

    first: int
    last: int
    amount: int


def simulate(scheme: PrizeScheme, entrants: int, pool_quota: int, guaranteed: int = 0) -> list[SimulatedRow]:
    """The distribution shown for any number of entrants (lobby "montepremi" / "simula iscritti").

    Consecutive positions with the same prize are shown as one row ("3°- 4°"), as in the rules' table.
    """
    pool = prize_pool(entrants, pool_quota, guaranteed).total
    table = prize_table(pool, scheme_weights(scheme, entrants))
    out: list[SimulatedRow] = []
    for position, amount in enumerate(table, start=1):
        if out and out[-1].amount == amount and out[-1].last == position - 1:
            out[-1] = SimulatedRow(out[-1].first, position, amount)
        else:
            out.append(SimulatedRow(position, position, amount))
    return out


@dataclass(frozen=True, slots=True)
class SatelliteAward:
    """What a satellite pays one entrant: seats in the next phase and cash (cents)."""

    tickets: int
    cash: int


def satellite_qualifiers(pool: int, next_cost: int) -> tuple[int, int]:
    """Return (qualifiers, remainder): qualifiers = floor(pool / cost of the next phase) (K4)."""
    if next_cost <= 0:
        raise FormatError("next_cost", "Costo della fase successiva non valido")
    return divmod(pool, next_cost)


def satellite_award(
    pool: int, next_cost: int, this_cost: int, placings: Placings, registration_order: Sequence[str] = ()
) -> dict[str, SatelliteAward]:
    """Pay a satellite (RULINGS K4): the best ``floor(pool / next_cost)`` win a seat; the remainder
    goes to the best non-qualifier, or is shared among the following best while each share stays at
    least ``this_cost``.

    Decisions: qualifiers never exceed the entrants (the value of seats nobody can take is paid as
    cash with the remainder). An ex aequo group wholly inside the seats all qualify; a group that
    straddles the last seat cannot share seats, so it shares their value plus any cash of its
    positions equally in cash (K2), each seat counted at ``next_cost``.
    """
    check_placings(placings)
    if this_cost < 0:
        raise FormatError("this_cost", "Costo del torneo non valido")
    placed = [e for g in placings for e in g]
    qualifiers, remainder = satellite_qualifiers(pool, next_cost)
    if qualifiers > len(placed):
        remainder += (qualifiers - len(placed)) * next_cost
        qualifiers = len(placed)
    non_qualifiers = len(placed) - qualifiers
    cash_table: list[int] = []
    if remainder and non_qualifiers:
        # "fino a che la singola vincita sarà almeno uguale al costo" (a free satellite: one share).
        ways = max(1, min(non_qualifiers, remainder // this_cost if this_cost else 1))
        cash_table = split_evenly(remainder, ways)
    # With everybody qualified the left-over cash goes to the winner (handled below).
    seat_value = [next_cost] * qualifiers + cash_table
    reg = {entrant: i for i, entrant in enumerate(registration_order)}
    out: dict[str, SatelliteAward] = {}
    for row in rows(placings):
        members = sorted(row.entrants, key=lambda e: (reg.get(e, len(reg)), e))
        if row.last <= qualifiers:
            for m in members:
                out[m] = SatelliteAward(1, 0)
            if remainder and not non_qualifiers and row.first == 1:
                for m, share in zip(members, split_evenly(remainder, len(members)), strict=True):
                    out[m] = SatelliteAward(1, share)
            continue
        total = sum(seat_value[row.first - 1 : row.last])
        for m, share in zip(members, split_evenly(total, len(members)), strict=True):
            out[m] = SatelliteAward(0, share)
    return out


class Format(StrEnum):
    """Tournament formats ("Tipo di torneo")."""

    KO = "ko"
    DANESE = "danese"
    DANEL = "danel"
    DANKO = "danko"
    DANELKO = "danelko"
    FREEZEOUT = "freezeout"
    SHOOTOUT = "shootout"
    SLOT = "slot"


def default_scheme(fmt: Format, *, sitgo: bool) -> PrizeScheme:
    """The standard prize scheme of a format.

    KO: the sit&go table, or the scheduled-KO winner counts. The girone formats (Danese, danEL and,
    by decision, danKO/danELKO): the Danese table. Decision for the level-based formats and the slot
    tournaments, for which the rules print no table: the Danese table by entrants too (its 10
    column, 49,29/29,58/21,13, is the usual three-paid split of a small sit&go).
    """
    if fmt is Format.KO:
        return PrizeScheme.KO_SITGO if sitgo else PrizeScheme.KO_SCHEDULED
    return PrizeScheme.DANESE


class Currency(StrEnum):
    """What a prize is paid in: money (withdrawable) or bonus (freerolls: only for other entries)."""

    MONEY = "money"
    BONUS = "bonus"


@dataclass(frozen=True, slots=True)
class Payout:
    """One prize: amount in cents and its currency."""

    amount: int
    currency: Currency


def freeroll_award(
    bonus_pool: int, weights: Sequence[int], placings: Placings, registration_order: Sequence[str] = ()
) -> dict[str, Payout]:
    """Pay a freeroll: the operator's bonus pool split like any pool (its weights are "definita e
    comunicata di volta in volta"), every prize in bonus, never withdrawable."""
    amounts = award(bonus_pool, weights, placings, registration_order)
    return {entrant: Payout(amount, Currency.BONUS) for entrant, amount in amounts.items()}
