"""Telesina (registered as "telesina"), standalone and as the giro pazzo variant of Poker 5 carte."""

from games.poker_common import use_time_bank
from games.telesina.engine import DISTRIBUZIONI, Telesina
from games.telesina.hand import ViewOfVele, best_hand, partial_key, showing_key
from games.telesina.vele import LAYOUTS, LIBERA, Layout

__all__ = [
    "DISTRIBUZIONI",
    "LAYOUTS",
    "LIBERA",
    "Layout",
    "Telesina",
    "ViewOfVele",
    "best_hand",
    "partial_key",
    "showing_key",
    "use_time_bank",
]
