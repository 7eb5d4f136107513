"""Cents arithmetic shared by prizes and points (RULINGS G1: integers, floors, remainders)."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.formats import FormatError


def split_evenly(total: int, ways: int) -> list[int]:
    """Split ``total`` into ``ways`` floor shares; the remainder goes one unit at a time from the first.

    The caller orders the recipients (RULINGS G1: "in the game's direction"; for tournament ex aequo
    the order is the chronological registration order, see ``prizes.award``).
    """
    if ways <= 0:
        raise FormatError("split_ways", "Una ripartizione richiede almeno un beneficiario")
    if total < 0:
        raise FormatError("split_negative", "Importo negativo")
    base, rest = divmod(total, ways)
    return [base + (1 if i < rest else 0) for i in range(ways)]


def split_by_weights(total: int, weights: Sequence[int]) -> list[int]:
    """Split ``total`` proportionally to integer ``weights``, each share floored, remainder to the first.

    RULINGS K1: percentages are taken relative to their own sum (so a column printed as 99,99 % or
    100,05 % still distributes exactly the pool); each prize floors to the cent and the remainder
    of the floors goes to the winner (index 0).
    """
    if not weights or any(w < 0 for w in weights) or sum(weights) == 0:
        raise FormatError("weights", "Pesi di ripartizione non validi")
    if total < 0:
        raise FormatError("split_negative", "Importo negativo")
    denominator = sum(weights)
    shares = [total * w // denominator for w in weights]
    shares[0] += total - sum(shares)
    return shares


def format_euro(cents: int, *, symbol: bool = True) -> str:
    """Format cents the Italian way: 123456 -> "€ 1.234,56" (or "1.234,56" without the symbol)."""
    sign = "-" if cents < 0 else ""
    euros, rest = divmod(abs(cents), 100)
    grouped = f"{euros:,}".replace(",", ".")
    text = f"{sign}{grouped},{rest:02d}"
    return f"€ {text}" if symbol else text


def entry_fee_label(pool_quota: int, rake: int) -> str:
    """Return the lobby cost label: pool quota 9000 + rake 1000 -> "€ 100,00 (90,00 + 10,00)"."""
    if pool_quota < 0 or rake < 0:
        raise FormatError("fee_negative", "Costo di partecipazione negativo")
    total = pool_quota + rake
    return (
        f"{format_euro(total)} ({format_euro(pool_quota, symbol=False)} + {format_euro(rake, symbol=False)})"
    )


def check_pool_quota(pool_quota: int, rake: int) -> None:
    """Refuse a cost whose pool quota is under 80 % of the entry ("mai inferiore all'80%")."""
    if pool_quota * 5 < (pool_quota + rake) * 4:
        raise FormatError("pool_quota", "La quota montepremi non può essere inferiore all'80% del costo")
