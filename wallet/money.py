"""Money is integer euro cents; this module formats and parses it the Italian way ("€ 1.234,50")."""

from __future__ import annotations

import re
from dataclasses import dataclass

# The legal maximum a player may transfer onto one cash table in one table session (rules 004,
# "I tavoli cash": "La somma massima che si può versare su un tavolo ... è pari a € 1.000,00").
LEGAL_TABLE_CAP = 100_000

_AMOUNT_RE = re.compile(r"^(?P<int>\d{1,3}(?:\.\d{3})+|\d+)(?:[,.](?P<dec>\d{1,2}))?$")


class AmountError(ValueError):
    """A text that is not an amount in euro."""


def format_eur(cents: int) -> str:
    """Format cents as Italian euro text: 123450 -> "€ 1.234,50", -500 -> "-€ 5,00"."""
    if isinstance(cents, bool) or not isinstance(cents, int):
        raise TypeError(f"cents must be int, not {type(cents).__name__}")
    sign = "-" if cents < 0 else ""
    euros, rest = divmod(abs(cents), 100)
    grouped = f"{euros:,}".replace(",", ".")
    return f"{sign}€ {grouped},{rest:02d}"


def parse_eur(text: str) -> int:
    """Parse "1.234,5", "1234,50", "12.50" or "€ 12" into cents; raise AmountError otherwise."""
    cleaned = text.strip().replace("€", "").replace(" ", "").replace("\u00a0", "")
    match = _AMOUNT_RE.match(cleaned)
    if not match:
        raise AmountError(f"not an amount: {text!r}")
    whole = int(match["int"].replace(".", ""))
    dec = match["dec"] or "0"
    return whole * 100 + int(dec.ljust(2, "0"))


def format_entry_cost(*, pool_quota: int, rake: int) -> str:
    """Format a tournament entry cost as the rules show it: "€ 10,00 (€ 8,00 + € 2,00)"."""
    return f"{format_eur(pool_quota + rake)} ({format_eur(pool_quota)} + {format_eur(rake)})"


@dataclass(frozen=True, order=True, slots=True)
class Money:
    """An amount of euro cents that prints itself in Italian."""

    cents: int

    def __post_init__(self) -> None:
        if isinstance(self.cents, bool) or not isinstance(self.cents, int):
            raise TypeError("Money holds integer cents")

    def __add__(self, other: Money) -> Money:
        return Money(self.cents + other.cents)

    def __sub__(self, other: Money) -> Money:
        return Money(self.cents - other.cents)

    def __neg__(self) -> Money:
        return Money(-self.cents)

    def __str__(self) -> str:
        return format_eur(self.cents)

    @classmethod
    def parse(cls, text: str) -> Money:
        """Parse Italian euro text (see parse_eur)."""
        return cls(parse_eur(text))
