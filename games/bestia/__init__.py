"""Bestia, 3 and 4 cards: see ``games.bestia.engine``; the money rules are in ``games.bestia.money``."""

from games.bestia.engine import Bestia, StockTooShort, from_right_of
from games.bestia.money import invito_and_bestia, rake_on_shares, split_by_tricks

__all__ = [
    "Bestia",
    "StockTooShort",
    "from_right_of",
    "invito_and_bestia",
    "rake_on_shares",
    "split_by_tricks",
]
