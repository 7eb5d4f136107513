"""Mazzetti: see ``games.mazzetti.engine`` (the banking parts are shared with Sette e mezzo)."""

from games.mazzetti.engine import Mazzetti, card_value, equal_sizes

__all__ = ["Mazzetti", "card_value", "equal_sizes"]
