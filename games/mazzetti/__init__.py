"""Mazzetti, registered as "mazzetti": a banking gioco a puntate of the 40-card deck.

One engine hand is one mazzata, the mattaro against every punta once (``games.mazzetti.engine``);
the banking parts (table order, the banker's rotation and the offer of the banco, the coverage,
the rake) are shared with Sette e mezzo in ``games.settemezzo.banco``.
"""

from games.mazzetti.engine import Mazzetti, card_value, equal_sizes

__all__ = ["Mazzetti", "card_value", "equal_sizes"]
